// A credit note's draft: its invoice (it waits until the invoice is authorized), the notes already issued against
// it, and the refund, mapped by the pure mappers (DESIGN §9).
import { message } from '../messages/message.ts';
import type { DraftOutcome } from './invoice-draft.ts';
import type { IssuingDeps, IssuingShop } from './issuing-ports.ts';
import type { DocumentRow } from './store/document-rows.ts';

export async function creditNoteDraft(doc: DocumentRow, _shop: IssuingShop, _deps: IssuingDeps): Promise<DraftOutcome> {
  return {
    kind: 'stop',
    doc,
    transition: {
      kind: 'attention',
      error: {
        kind: 'mapping',
        code: 'credit_notes_pending',
        message: message('legacy', { text: `credit note ${doc.sourceKey}: not mapped yet` }),
      },
    },
  };
}
