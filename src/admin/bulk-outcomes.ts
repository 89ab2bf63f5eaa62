// Retry and resend on many documents at once (the admin API's bulk routes and the CLI): each document goes through the
// decision of the single action (document-actions.ts) and the same statements, so what one refuses the other refuses,
// and a repeat changes nothing more than a repeated single action does (a waiting e-mail is reused, resend.ts).
import { resendDocument } from '../buyer-email/resend.ts';
import type { Db } from '../db/database.ts';
import { type Message, message } from '../messages/message.ts';
import { resendVerdict, retryVerdict } from '../documents/document-actions.ts';
import { type BulkRow, findDocument, retryShopDocument } from '../documents/store/index.ts';

export type BulkOutcome = { done: true; queued: boolean } | { done: false; reason: Message };

const RESEND_REASONS = {
  not_authorized: 'action_resend_not_authorized',
  not_configured: 'action_resend_no_mail',
  no_address: 'action_resend_no_address',
} as const;

/** Retry one selected document: back in the queue (failed, needs attention) or due now (waiting), or why not. */
export async function retryOne(db: Db, row: BulkRow): Promise<BulkOutcome> {
  const verdict = retryVerdict(row);
  if (!verdict.allowed) return { done: false, reason: verdict.reason };
  const changed = await retryShopDocument(db, row.shop, row.id);
  return { done: true, queued: changed > 0 };
}

/** Queue one selected document's e-mail again (a waiting one is reused: `queued` false), or why not. */
export async function resendOne(db: Db, row: BulkRow, mailConfigured: boolean): Promise<BulkOutcome> {
  const verdict = resendVerdict(row, mailConfigured);
  if (!verdict.allowed) return { done: false, reason: verdict.reason };
  // The whole row (its document names the recipient), read one at a time.
  const doc = await findDocument(db, row.id, row.shop);
  if (!doc) return { done: false, reason: message('bulk_not_found') };
  const outcome = await resendDocument(db, doc, mailConfigured);
  if (!outcome.ok) return { done: false, reason: message(RESEND_REASONS[outcome.code]) };
  return { done: true, queued: outcome.queued };
}
