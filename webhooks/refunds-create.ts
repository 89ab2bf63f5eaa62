// refunds/create: the credit-note document, with the refund as it arrived. Whether and when a note is issued (after
// its invoice, never beyond it) is the runner's business.
import type { RequestHandler } from 'express';
import { refundIdentity } from '../mappers/shopify/refund-identity.ts';
import { type DocumentReading, type DocumentWebhookDeps, documentWebhook } from './document-webhook.ts';

export function refundsCreateWebhook(deps: DocumentWebhookDeps): RequestHandler {
  return documentWebhook(deps, 'refunds/create', creditNoteOf);
}

function creditNoteOf(value: unknown, text: string): DocumentReading {
  const read = refundIdentity(value, text);
  if (!read.ok) return { ok: false, error: `not a refund: ${read.path} ${read.problem}` };
  const { refundGid, orderGid, refundedCents, currency, test } = read.identity;
  // A refund's body has no order name: the note takes its invoice's.
  const source = { kind: 'credit_note', sourceKey: refundGid, orderGid, orderName: undefined, totalCents: refundedCents, test } as const;
  return { ok: true, source: { ...source, currency: currency ?? 'USD' }, about: { refund: refundGid } };
}
