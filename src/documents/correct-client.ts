// The merchant corrects an invoice's client (docs/design.md §10), from the admin page or the CLI: the correction, already
// validated whole (mappers/invoice/client-correction.ts), is saved and the invoice goes back to the queue; or the correction
// is dropped. Says why when the invoice cannot take it.
import type { ClientCorrection } from '../../mappers/invoice/client-correction.ts';
import type { Db } from '../db/database.ts';
import type { DocumentStatus } from '../db/document-state.ts';
import type { Message } from '../messages/message.ts';
import { correctionVerdict, isCorrectable } from './document-actions.ts';
import { type DocumentRow, findDocument, removeClientCorrection, saveClientCorrection } from './store/index.ts';

export type CorrectionOutcome =
  | { kind: 'done'; doc: DocumentRow }
  | { kind: 'not_found' }
  /** `reason` in English (the CLI's); `message` in the reader's language (document-actions.ts). */
  | { kind: 'refused'; status: DocumentStatus; reason: string; message: Message | null };

export { isCorrectable };

/** Why the document cannot take a correction now (English, for the API and the CLI). */
export function correctionRefusal(row: Pick<DocumentRow, 'kind' | 'step' | 'cufe' | 'status'>): string {
  if (row.kind !== 'invoice') return "a credit note's client is its invoice's: it cannot be corrected";
  if (row.cufe !== null || row.step !== 'send') return `the invoice is authorized (${row.status}): its client can no longer change`;
  return `the invoice is ${row.status}: only an invoice that needs attention or failed can be corrected`;
}

/**
 * Save `correction` and requeue the invoice, or with null drop the stored correction. With a shop, only that shop's
 * invoice is found (the admin API); without one (the operators' CLI), any.
 */
export async function correctClient(
  db: Db,
  target: { id: string; shop?: string },
  correction: ClientCorrection | null,
): Promise<CorrectionOutcome> {
  const found = await findDocument(db, target.id, target.shop);
  if (!found) return { kind: 'not_found' };
  const doc = correction
    ? await saveClientCorrection(db, found.shop, found.id, correction)
    : await removeClientCorrection(db, found.shop, found.id);
  if (doc) return { kind: 'done', doc };
  // Refused by the update's own conditions: explain with the document as it is now.
  const now = (await findDocument(db, found.id, found.shop)) ?? found;
  const verdict = correctionVerdict(now);
  return { kind: 'refused', status: now.status, reason: correctionRefusal(now), message: verdict.reason };
}
