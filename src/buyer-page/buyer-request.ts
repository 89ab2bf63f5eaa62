// The buyer's request for the invoice in their company's name (docs/buyer-page.md): planned by the invoice's state
// (request-rules.ts), then carried out with the merchant's own use cases — the correction (correct-client.ts) or the
// re-issue (reinvoice.ts) — in one transaction with the request's row, whose primary key lets one request per
// invoice through: a second (or concurrent) one acts on nothing and reads the first's outcome.
import type { ClientCorrection } from '../../mappers/invoice/client-correction.ts';
import type { BuyerRequestOutcome } from '../db/buyer-request-state.ts';
import type { Db } from '../db/database.ts';
import type { Language } from '../db/languages.ts';
import { correctClient } from '../documents/correct-client.ts';
import { reinvoice } from '../documents/reinvoice.ts';
import {
  type BuyerRequestRow,
  type DocumentRow,
  buyerRelatives,
  buyerRequestOf,
  claimBuyerRequest,
  setBuyerRequestDocuments,
} from '../documents/store/index.ts';
import type { BuyerRequestSettings } from '../shops/shop-settings.ts';
import { type Refusal, type RequestPlan, planRequest } from './request-rules.ts';

export type RequestResult =
  | { kind: 'accepted'; request: BuyerRequestRow; repeat: boolean }
  | { kind: 'refused'; reason: Refusal }
  /** A re-issue needs a taxpayer: a final consumer again would change nothing. */
  | { kind: 'needs_taxpayer' };

export interface BuyerRequestDeps {
  db: Db;
  /** The shop's buyer-request settings (defaults when the shop has none). */
  settingsOf: (shop: string) => Promise<BuyerRequestSettings>;
  clock?: () => Date;
}

/** The plan for a request on `doc` now, from the database's facts. */
export async function currentPlan(deps: BuyerRequestDeps, doc: DocumentRow): Promise<RequestPlan> {
  const relatives = await buyerRelatives(deps.db, doc);
  return planRequest({
    doc,
    hasCreditNotes: relatives.some((r) => r.invoiceId === doc.id),
    replaced: relatives.some((r) => r.replacesId === doc.id),
    settings: await deps.settingsOf(doc.shop),
    now: (deps.clock ?? (() => new Date()))(),
  });
}

/** Thrown inside the transaction to undo the request's row when the use case refuses after all (a race). */
class Undone extends Error {}

export async function submitBuyerRequest(
  deps: BuyerRequestDeps,
  doc: DocumentRow,
  client: ClientCorrection,
  language: Language,
): Promise<RequestResult> {
  const plan = await currentPlan(deps, doc);
  // Read after the plan: a request that committed while the plan was read has changed the invoice (a note, a
  // replacement) and would make the plan refuse; its row commits with those documents, so it is seen here.
  const first = await buyerRequestOf(deps.db, doc.id);
  if (first) return { kind: 'accepted', request: first, repeat: true };
  if (plan.kind === 'refuse') return { kind: 'refused', reason: plan.reason };
  if (plan.kind === 'reissue' && client.type !== 'taxpayer') return { kind: 'needs_taxpayer' };
  const outcome: BuyerRequestOutcome = plan.kind === 'correct' ? 'corrected' : 'reissued';
  try {
    return await deps.db.transaction(async (tx) => {
      const claimed = await claimBuyerRequest(tx, { invoiceId: doc.id, shop: doc.shop, outcome, language });
      if (!claimed) {
        // Another request for this invoice committed first: its outcome is the answer.
        const earlier = await buyerRequestOf(tx, doc.id);
        if (!earlier) throw new Undone();
        return { kind: 'accepted', request: earlier, repeat: true } as const;
      }
      const target = { id: doc.id, shop: doc.shop };
      if (plan.kind === 'correct') {
        const done = await correctClient(tx, target, client);
        if (done.kind !== 'done') throw new Undone();
        return { kind: 'accepted', request: claimed, repeat: false } as const;
      }
      const done = await reinvoice(tx, target, client);
      if (done.kind !== 'done') throw new Undone();
      const ids = { creditNoteId: done.noteId, replacementId: done.replacementId };
      await setBuyerRequestDocuments(tx, doc.id, ids);
      return { kind: 'accepted', request: { ...claimed, ...ids }, repeat: false } as const;
    });
  } catch (error) {
    if (!(error instanceof Undone)) throw error;
    // The invoice changed between the plan and the act (a refund, the merchant's own correction): say why now.
    const again = await buyerRequestOf(deps.db, doc.id);
    if (again) return { kind: 'accepted', request: again, repeat: true };
    const now = await currentPlan(deps, doc);
    return { kind: 'refused', reason: now.kind === 'refuse' ? now.reason : 'in_progress' };
  }
}
