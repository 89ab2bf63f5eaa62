// Resend (the page's Reenviar, the CLI's `invoices resend`): queue a document's e-mail again, when it can go.
import type { Db } from '../db/database.ts';
import { type DocumentEmailRow, type DocumentRow, queueResend } from '../documents/store/index.ts';
import { emailFor } from './email-recipient.ts';

export type ResendRefusal = 'not_authorized' | 'no_address' | 'not_configured';

export type ResendOutcome = { ok: true; email: DocumentEmailRow; queued: boolean } | { ok: false; code: ResendRefusal; error: string };

const REFUSALS: Record<ResendRefusal, string> = {
  not_authorized: 'only an authorized document (with its PDF) can be e-mailed',
  no_address: 'the document has no e-mail address for the buyer',
  not_configured: 'e-mail is not configured on this server (SMTP_URL and MAIL_FROM)',
};

export function refusal(code: ResendRefusal): { ok: false; code: ResendRefusal; error: string } {
  return { ok: false, code, error: REFUSALS[code] };
}

/** Queue the document's e-mail again; an e-mail still waiting to go is reused. */
export async function resendDocument(db: Db, doc: DocumentRow, mailConfigured: boolean): Promise<ResendOutcome> {
  if (!mailConfigured) return refusal('not_configured');
  if (doc.status !== 'completed') return refusal('not_authorized');
  const email = await emailFor(db, doc);
  if (!email) return refusal('no_address');
  return { ok: true, ...(await queueResend(db, email)) };
}
