// The buyer e-mails of a document in the admin API: what was sent (or why not) and Resend. Behind the session
// token like every /api route; the shop comes only from the token.
import type { Shopify } from '@shopify/shopify-api';
import { Router } from 'express';
import type { Db } from '../db/database.ts';
import { resendDocument } from '../buyer-email/resend.ts';
import { type DocumentEmailRow, emailsOfDocument, findDocument } from '../documents/store/index.ts';
import type { Logger } from '../logger.ts';
import { localize } from '../messages/catalogue.ts';
import { asMessage } from '../messages/message.ts';
import { isUuid } from './list-params.ts';
import { requireSessionToken, shopOf } from './session-token.ts';

export interface EmailApiDeps {
  db: Db;
  shopify: Shopify;
  /** Whether this server has SMTP, and a nudge for its e-mail runner (absent: no SMTP). */
  emails?: { configured: boolean; wake(): void } | undefined;
  logger: Logger;
}

/** An e-mail as the page shows it: what the row says, its times as ISO text and its error in both languages. */
export function emailView(e: DocumentEmailRow) {
  const { id, recipient, language, reason, status, attempts, messageId } = e;
  const lastError = asMessage(e.lastError);
  return {
    ...{ id, recipient, language, reason, status, attempts },
    nextAttemptAt: status === 'pending' ? e.nextAttemptAt.toISOString() : null,
    sentAt: e.sentAt?.toISOString() ?? null,
    messageId,
    lastError: lastError ? localize(lastError) : null,
    createdAt: e.createdAt.toISOString(),
  };
}

export function emailApiRouter(deps: EmailApiDeps): Router {
  const router = Router();
  const auth = requireSessionToken({ shopify: deps.shopify });

  router.get('/invoices/:id/emails', auth, async (req, res) => {
    const id = String(req.params.id);
    const shop = shopOf(res);
    if (!isUuid(id) || !(await findDocument(deps.db, id, shop))) {
      res.status(404).json({ error: 'invoice not found' });
      return;
    }
    const emails = await emailsOfDocument(deps.db, id, shop);
    res.json({ configured: deps.emails?.configured ?? false, emails: emails.map(emailView) });
  });

  router.post('/invoices/:id/resend', auth, async (req, res) => {
    const id = String(req.params.id);
    const shop = shopOf(res);
    const doc = isUuid(id) ? await findDocument(deps.db, id, shop) : undefined;
    if (!doc) {
      res.status(404).json({ error: 'invoice not found' });
      return;
    }
    const outcome = await resendDocument(deps.db, doc, deps.emails?.configured ?? false);
    if (!outcome.ok) {
      res.status(409).json({ error: outcome.error, code: outcome.code });
      return;
    }
    deps.logger.info({ shop, documentId: id, emailId: outcome.email.id, queued: outcome.queued }, 'admin: e-mail resend');
    deps.emails?.wake();
    res.status(202).json({ email: emailView(outcome.email), queued: outcome.queued });
  });

  return router;
}
