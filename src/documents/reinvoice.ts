// Replacing an authorized invoice issued to the wrong buyer, in one action (docs/design.md §9, §10): a credit note for all of
// it and a new invoice to the corrected client, both stored at once and issued by the pipeline. Says why when the
// invoice cannot be replaced.
import type { ClientCorrection } from '../../mappers/invoice/client-correction.ts';
import type { Db } from '../db/database.ts';
import { type DocumentRow, findDocument, insertReplacement } from './store/index.ts';

export type ReinvoiceOutcome =
  | { kind: 'done'; invoice: DocumentRow; noteId: string; replacementId: string }
  | { kind: 'not_found' }
  | { kind: 'refused'; reason: string };

/** Why a document cannot be replaced now (English, for the API and the CLI); undefined when it can be tried. */
export function replacementRefusal(row: Pick<DocumentRow, 'kind' | 'cufe' | 'status'>): string | undefined {
  if (row.kind !== 'invoice') return 'only an invoice is re-issued to another buyer, not a credit note';
  if (row.cufe === null) return `the invoice is not authorized (${row.status}): correct its client instead`;
  return undefined;
}

export async function reinvoice(db: Db, target: { id: string; shop?: string }, correction: ClientCorrection): Promise<ReinvoiceOutcome> {
  const found = await findDocument(db, target.id, target.shop);
  if (!found) return { kind: 'not_found' };
  const refusal = replacementRefusal(found);
  if (refusal) return { kind: 'refused', reason: refusal };
  const stored = await insertReplacement(db, found, correction);
  if (!stored) {
    return {
      kind: 'refused',
      reason: 'the invoice was replaced already, or has a credit note (refunds): a full replacement would invoice refunded goods again',
    };
  }
  return { kind: 'done', invoice: found, noteId: stored.noteId, replacementId: stored.invoiceId };
}
