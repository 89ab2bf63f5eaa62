// What a buyer's request for an invoice in their company's name can do, by the invoice's state (docs/buyer-page.md).
// Pure: it decides; src/buyer-page/buyer-request.ts acts on the decision.
import { RETRYABLE_STATUSES } from '../db/document-state.ts';
import type { DocumentRow } from '../documents/store/index.ts';
import type { BuyerRequestSettings } from '../shops/shop-settings.ts';

/** Why a request cannot be taken; each has its text in the catalogue (`buyerPage.refusal_<code>`). */
export const REFUSALS = [
  'not_invoice',
  'replaced',
  'disabled',
  'window_passed',
  'not_issued',
  'in_progress',
  'credit_notes',
  'already_taxpayer',
] as const;
export type Refusal = (typeof REFUSALS)[number];

/**
 * correct: not yet authorized and stopped for a person — the buyer's client becomes the invoice's correction and it is
 * retried. reissue: authorized to a final consumer — a credit note for all of it and a new invoice to the company.
 */
export type RequestPlan = { kind: 'correct' } | { kind: 'reissue' } | { kind: 'refuse'; reason: Refusal };

export interface RequestFacts {
  doc: Pick<DocumentRow, 'kind' | 'status' | 'cufe' | 'authorizedAt' | 'createdAt' | 'document'>;
  /** Credit notes against the invoice (refunds, or a re-issue's). */
  hasCreditNotes: boolean;
  /** Another invoice replaced this one. */
  replaced: boolean;
  settings: BuyerRequestSettings;
  now: Date;
}

const DAY_MS = 86_400_000;

/** The request's window closes `days` after the invoice was authorized (or, not yet authorized, after it arrived). */
export function windowEnds(doc: Pick<DocumentRow, 'authorizedAt' | 'createdAt'>, days: number): Date {
  return new Date((doc.authorizedAt ?? doc.createdAt).getTime() + days * DAY_MS);
}

export function planRequest(f: RequestFacts): RequestPlan {
  const refuse = (reason: Refusal): RequestPlan => ({ kind: 'refuse', reason });
  if (f.doc.kind !== 'invoice') return refuse('not_invoice');
  if (f.replaced) return refuse('replaced');
  if (!f.settings.enabled) return refuse('disabled');
  if (f.now.getTime() > windowEnds(f.doc, f.settings.days).getTime()) return refuse('window_passed');
  if (f.doc.cufe === null) {
    if (f.doc.status === 'skipped' || f.doc.status === 'completed') return refuse('not_issued');
    return (RETRYABLE_STATUSES as readonly string[]).includes(f.doc.status) ? { kind: 'correct' } : refuse('in_progress');
  }
  if (f.hasCreditNotes) return refuse('credit_notes');
  if (clientType(f.doc) === 'taxpayer') return refuse('already_taxpayer');
  return { kind: 'reissue' };
}

/** Whom the document was issued to, as sent to the gateway; undefined before it was mapped. */
export function clientType(doc: Pick<DocumentRow, 'document'>): 'taxpayer' | 'final_consumer' | undefined {
  const type = (doc.document as { dataTransaction?: { client?: { typeClientEB?: unknown } } } | null)?.dataTransaction?.client
    ?.typeClientEB;
  if (type === undefined) return undefined;
  return type === '02' ? 'final_consumer' : 'taxpayer';
}
