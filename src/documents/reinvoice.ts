// Replacing an authorized invoice issued to the wrong buyer, in one action (docs/design.md §9, §10): a credit note for all of
// it and a new invoice to the corrected client, both stored at once and issued by the pipeline. Refused, with the reason
// document-actions.ts gives (the same the page and the CLI show), when the invoice cannot be replaced.
import type { ClientCorrection } from '../../mappers/invoice/client-correction.ts';
import type { Db } from '../db/database.ts';
import { render } from '../messages/catalogue.ts';
import { type Message, message } from '../messages/message.ts';
import { type ActionVerdict, actionsOf, documentActions } from './document-actions.ts';
import { type DocumentRow, findDocument, insertReplacement, relatedDocuments } from './store/index.ts';

export type ReinvoiceOutcome =
  | { kind: 'done'; invoice: DocumentRow; noteId: string; replacementId: string }
  | { kind: 'not_found' }
  /** `reason` in English (the CLI's language); `message` to render in the reader's. */
  | { kind: 'refused'; reason: string; message: Message };

/** Why a document cannot be replaced, judged on the row alone (English); undefined when it can be tried. */
export function replacementRefusal(
  row: Pick<DocumentRow, 'id' | 'kind' | 'cufe' | 'status' | 'step' | 'lastErrorKind'>,
): string | undefined {
  const verdict = documentActions({ row, replacedBy: null, creditNotes: [] }).reissue;
  return verdict.allowed ? undefined : render(verdict.reason, 'en');
}

/** The re-issue verdict of a row with its relatives read now. */
export async function reissueVerdict(db: Db, row: DocumentRow): Promise<ActionVerdict> {
  return actionsOf(row, await relatedDocuments(db, row)).reissue;
}

const refused = (m: Message): ReinvoiceOutcome => ({ kind: 'refused', reason: render(m, 'en'), message: m });

export async function reinvoice(db: Db, target: { id: string; shop?: string }, correction: ClientCorrection): Promise<ReinvoiceOutcome> {
  const found = await findDocument(db, target.id, target.shop);
  if (!found) return { kind: 'not_found' };
  const verdict = await reissueVerdict(db, found);
  if (!verdict.allowed) return refused(verdict.reason);
  const stored = await insertReplacement(db, found, correction);
  if (!stored) {
    // Another request got there first (or a note arrived meanwhile): say why, as things are now.
    const now = await reissueVerdict(db, (await findDocument(db, found.id, found.shop)) ?? found);
    return refused(now.allowed ? message('action_reissue_replaced', { number: '' }) : now.reason);
  }
  return { kind: 'done', invoice: found, noteId: stored.noteId, replacementId: stored.invoiceId };
}
