// What the admin shows of a document's buyer page (docs/buyer-page.md): its link, to send the buyer, and the buyer's
// request for an invoice with RUC — when, in which language, what it did (the note and new invoice of a re-issue).
import type { Db } from '../db/database.ts';
import { buyerUrl } from '../documents/buyer-link.ts';
import { type BuyerRequestRow, type DocumentRow, buyerRequestOf, buyerRequestsOf } from '../documents/store/index.ts';

export interface BuyerRequestView {
  requestedAt: string;
  outcome: BuyerRequestRow['outcome'];
  language: BuyerRequestRow['language'];
  creditNoteId: string | null;
  replacementId: string | null;
}

export interface BuyerView {
  /** The document's page for its buyer. */
  url: string;
  /** The buyer's request (invoices only), once made. */
  request: BuyerRequestView | null;
}

export async function buyerViewOf(db: Db, appUrl: string, row: Pick<DocumentRow, 'id' | 'kind' | 'buyerToken'>): Promise<BuyerView> {
  const request = row.kind === 'invoice' ? await buyerRequestOf(db, row.id) : undefined;
  return { url: buyerUrl(appUrl, row.buyerToken), request: request ? requestView(request) : null };
}

/** The ids of those invoices whose buyer asked (the list marks them). */
export async function requestedIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  return new Set((await buyerRequestsOf(db, ids)).map((r) => r.invoiceId));
}

function requestView(r: BuyerRequestRow): BuyerRequestView {
  return {
    requestedAt: r.createdAt.toISOString(),
    outcome: r.outcome,
    language: r.language,
    creditNoteId: r.creditNoteId,
    replacementId: r.replacementId,
  };
}
