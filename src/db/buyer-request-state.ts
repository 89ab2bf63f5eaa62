// What a buyer's request for an invoice to their company did (docs/buyer-page.md), declared once: the table's CHECK,
// the store and the page take the list from here (a change to it is a migration).

/**
 * corrected: the invoice was not authorized yet; the buyer's client became its correction and it went back to the
 * queue. reissued: the invoice was authorized to a final consumer; a credit note for all of it and a new invoice to
 * the buyer's company were stored.
 */
export const BUYER_REQUEST_OUTCOMES = ['corrected', 'reissued'] as const;
export type BuyerRequestOutcome = (typeof BUYER_REQUEST_OUTCOMES)[number];
