// The accountant's monthly e-mail (docs/reports.md): on each tick, the previous month's e-mail (Panamá time, by the
// runner's clock, which tests set) is queued for every shop that should get it, once per shop and month across
// processes and restarts (report-email-store.ts); then due e-mails are claimed with a lease and sent through the
// process's one SMTP transport, the sales book as CSV and XLSX attached. A failure is retried with backoff like the
// buyers' e-mails, then the e-mail is failed (visible on the page, which can send it again).
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MailSettings } from '../config/env.ts';
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { render } from '../messages/catalogue.ts';
import { type Message, message } from '../messages/message.ts';
import type { Mailer } from '../buyer-email/smtp-mailer.ts';
import { PollLoop } from '../poll-loop.ts';
import { accountantEmail } from './accountant-email.ts';
import { readMonthFigures } from './month-report.ts';
import { claimDueReportEmails, finishReportEmail, queueMonthlyEmails, type ReportEmailRow } from './report-email-store.ts';
import { type ReportEnvironment, isReportEnvironment, parseReportMonth, previousPanamaMonth } from './report-month.ts';
import { salesBookCsv } from './sales-book-csv.ts';
import { writeMonthXlsx } from './sales-book-xlsx.ts';

export interface AccountantEmailRunnerDeps {
  db: Db;
  mailer: Mailer;
  /** The shop's name in Shopify (the From name); the domain when it cannot be read. */
  shopName: (shop: string) => Promise<string>;
  logger: Logger;
  options: Omit<MailSettings, 'smtpUrl'> & { leaseMs: number; pollMs: number };
  /** Which month has ended: the system's clock unless a test sets one. */
  now?: () => Date;
  random?: () => number;
}

/** Bytes of a stream written by `write`. */
async function collect(write: (out: Writable) => Promise<void>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  await write(out);
  return Buffer.concat(chunks);
}

export class AccountantEmailRunner extends PollLoop {
  private readonly d: AccountantEmailRunnerDeps;

  constructor(deps: AccountantEmailRunnerDeps) {
    super(deps.options.pollMs, (error) => deps.logger.error({ err: error }, 'accountant e-mail: tick failed'));
    this.d = deps;
  }

  protected async tick(): Promise<void> {
    const now = (this.d.now ?? (() => new Date()))();
    const queued = await queueMonthlyEmails(this.d.db, previousPanamaMonth(now));
    if (queued > 0) this.d.logger.info({ queued, month: previousPanamaMonth(now).month }, "accountant e-mail: the month's e-mails queued");
    while (!this.stopped) {
      const rows = await claimDueReportEmails(this.d.db, { owner: this.owner, limit: 2, leaseMs: this.d.options.leaseMs });
      if (rows.length === 0) return;
      for (const row of rows) {
        await this.deliver(row, now).catch((error: unknown) =>
          this.d.logger.error({ err: error, emailId: row.id, shop: row.shop }, 'accountant e-mail: unexpected error'),
        );
      }
    }
  }

  private async deliver(row: ReportEmailRow, now: Date): Promise<void> {
    const parsed = parseReportMonth(row.month, now);
    const environment: ReportEnvironment = isReportEnvironment(row.environment) ? row.environment : 'produccion';
    if (!parsed.ok) return this.attemptFailed(row, message('email_smtp_failed', { detail: parsed.error }), true);
    const q = { shop: row.shop, month: parsed.month, environment };
    const figures = await readMonthFigures(this.d.db, q);
    const csv = await collect((out) => pipeline(salesBookCsv(this.d.db, q), out));
    const xlsx = await collect((out) => writeMonthXlsx(this.d.db, q, figures, out));
    const email = accountantEmail({
      figures,
      csv,
      xlsx,
      shopName: await this.d.shopName(row.shop).catch(() => row.shop),
      language: row.language,
      to: row.recipient,
      from: this.d.options.from,
      emailId: row.id,
    });
    const sent = await this.d.mailer.send(email);
    if (!sent.ok) {
      return this.attemptFailed(
        row,
        message(sent.permanent ? 'email_refused' : 'email_smtp_failed', { detail: sent.detail }),
        sent.permanent,
      );
    }
    await finishReportEmail(this.d.db, row.id, this.owner, {
      status: 'sent',
      sentAt: new Date(),
      messageId: email.messageId,
      attempts: row.attempts + 1,
      lastError: null,
    });
    this.d.logger.info({ emailId: row.id, shop: row.shop, month: row.month, reason: row.reason }, 'accountant e-mail sent');
  }

  private async attemptFailed(row: ReportEmailRow, reason: Message, permanent: boolean): Promise<void> {
    const { maxAttempts, retryBaseMs, retryMaxMs } = this.d.options;
    const attempts = row.attempts + 1;
    const failed = permanent || attempts >= maxAttempts;
    const step = Math.min(retryMaxMs, retryBaseMs * 2 ** (attempts - 1));
    const delay = failed ? 0 : Math.round(step * (0.5 + (this.d.random ?? Math.random)() / 2));
    const lastError = failed && !permanent ? message('email_gave_up', {}, reason) : reason;
    await finishReportEmail(this.d.db, row.id, this.owner, {
      status: failed ? 'failed' : 'pending',
      attempts,
      nextAttemptAt: new Date(Date.now() + delay),
      lastError,
    });
    this.d.logger.warn({ emailId: row.id, shop: row.shop, attempts, failed }, `accountant e-mail not sent: ${render(lastError, 'en')}`);
  }
}
