// The e-mail runner: claims due buyer e-mails with a lease, renders each, sends it through the one SMTP transport
// and records the time and Message-ID; a failure is retried with backoff up to the attempt limit, then the e-mail
// is failed (visible; Resend queues it again). It never touches the document itself.
//
// Once per row: a row is sent only under its lease and marked sent right after. A process that dies between the
// SMTP server's acceptance and that mark sends the e-mail again when the lease runs out, with the same Message-ID
// (made from the row's id), which mail clients that drop duplicates by Message-ID show once.
import type { MailSettings } from '../config/env.ts';
import type { Db } from '../db/database.ts';
import { type DocumentEmailRow, claimDueEmails, emailContent, markEmailAttemptFailed, markEmailSent } from '../documents/store/index.ts';
import type { Logger } from '../logger.ts';
import { render } from '../messages/catalogue.ts';
import { type Message, message } from '../messages/message.ts';
import type { ShopNames } from '../shopify/shop-name.ts';
import { buyerUrl } from '../documents/buyer-link.ts';
import { buyerEmail } from './buyer-email.ts';
import type { Mailer } from './smtp-mailer.ts';
import { PollLoop } from '../poll-loop.ts';

export interface EmailRunnerDeps {
  db: Db;
  mailer: Mailer;
  shopNames: ShopNames;
  logger: Logger;
  options: Omit<MailSettings, 'smtpUrl'> & { leaseMs: number; pollMs: number };
  /** Public origin of the app: each e-mail names the document's buyer page. */
  appUrl?: string;
  random?: () => number;
}

/** E-mails claimed at once (the transport keeps a few connections open). */
const BATCH = 4;

export class EmailRunner extends PollLoop {
  private readonly d: EmailRunnerDeps;

  constructor(deps: EmailRunnerDeps) {
    super(deps.options.pollMs, (error) => deps.logger.error({ err: error }, 'e-mail runner: claim failed'));
    this.d = deps;
  }

  protected async tick(): Promise<void> {
    while (!this.stopped) {
      const rows = await claimDueEmails(this.d.db, { owner: this.owner, limit: BATCH, leaseMs: this.d.options.leaseMs });
      if (rows.length === 0) return;
      await Promise.all(
        rows.map((row) =>
          this.deliver(row).catch((error: unknown) =>
            // The lease runs out and the e-mail is tried again.
            this.d.logger.error({ err: error, emailId: row.id, documentId: row.documentId }, 'e-mail runner: unexpected error'),
          ),
        ),
      );
    }
  }

  private async deliver(row: DocumentEmailRow): Promise<void> {
    const content = await emailContent(this.d.db, row.documentId);
    if (!content?.pdf) return this.attemptFailed(row, message('email_no_pdf'), true);
    const sender = await this.d.shopNames(row.shop);
    if (!sender.ok) return this.attemptFailed(row, message('email_shop_name', { detail: sender.message }), false);
    const email = buyerEmail({
      doc: content.doc,
      pdf: content.pdf,
      invoiceNumber: content.invoiceNumber,
      shopName: sender.data.name,
      replyTo: sender.data.replyTo,
      language: row.language,
      to: row.recipient,
      from: this.d.options.from,
      emailId: row.id,
      ...(this.d.appUrl === undefined ? {} : { pageUrl: buyerUrl(this.d.appUrl, content.doc.buyerToken) }),
    });
    const sent = await this.d.mailer.send(email);
    if (!sent.ok) {
      const reason = message(sent.permanent ? 'email_refused' : 'email_smtp_failed', { detail: sent.detail });
      return this.attemptFailed(row, reason, sent.permanent);
    }
    await markEmailSent(this.d.db, row.id, this.owner, { messageId: email.messageId, attempts: row.attempts + 1 });
    this.d.logger.info(
      { emailId: row.id, documentId: row.documentId, shop: row.shop, reason: row.reason, messageId: email.messageId },
      'buyer e-mail sent',
    );
  }

  private async attemptFailed(row: DocumentEmailRow, reason: Message, permanent: boolean): Promise<void> {
    const { maxAttempts, retryBaseMs, retryMaxMs } = this.d.options;
    const attempts = row.attempts + 1;
    const failed = permanent || attempts >= maxAttempts;
    // Exponential backoff with jitter between half and all of the step.
    const step = Math.min(retryMaxMs, retryBaseMs * 2 ** (attempts - 1));
    const delay = failed ? 0 : Math.round(step * (0.5 + (this.d.random ?? Math.random)() / 2));
    const lastError = failed && !permanent ? message('email_gave_up', {}, reason) : reason;
    await markEmailAttemptFailed(this.d.db, row.id, this.owner, {
      attempts,
      failed,
      nextAttemptAt: new Date(Date.now() + delay),
      lastError,
    });
    this.d.logger.warn(
      { emailId: row.id, documentId: row.documentId, shop: row.shop, attempts, failed },
      `buyer e-mail not sent: ${render(lastError, 'en')}`,
    );
  }
}
