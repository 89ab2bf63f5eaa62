// refunds/create: the credit-note document, with the refund as it arrived. Whether and when a note is issued (after
// its invoice, never beyond it) is the runner's business.
import type { RequestHandler } from 'express';
import { refundIdentity } from '../mappers/refund-identity.ts';
import { DGI_DOCUMENT_TYPE } from '../src/documents/document-state.ts';
import { type DocumentReading, type DocumentWebhookDeps, documentWebhook } from './document-webhook.ts';

export function refundsCreateWebhook(deps: DocumentWebhookDeps): RequestHandler {
  return documentWebhook(deps, 'refunds/create', creditNoteOf);
}

function creditNoteOf(shop: string, value: unknown, text: string): DocumentReading {
  const identity = refundIdentity(value, text);
  if (!identity.ok) return { ok: false, error: `not a refund: ${identity.path} ${identity.problem}` };
  const refund = identity.identity;
  return {
    ok: true,
    about: { refund: refund.refundGid },
    document: {
      shop,
      kind: 'credit_note',
      sourceKey: refund.refundGid,
      documentType: DGI_DOCUMENT_TYPE.credit_note,
      orderGid: refund.orderGid,
      // A refund's body has no order name: it is taken from the order's invoice.
      orderName: undefined,
      totalCents: refund.refundedCents,
      currency: refund.currency ?? 'USD',
      test: refund.test,
      rawSnapshot: text,
    },
  };
}
