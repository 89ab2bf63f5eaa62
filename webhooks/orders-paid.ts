// orders/paid: the invoice document, with the order as it arrived. Mapping and issuing are the runner's business.
import type { RequestHandler } from 'express';
import { orderIdentity } from '../mappers/order-identity.ts';
import { DGI_DOCUMENT_TYPE } from '../src/documents/document-state.ts';
import { type DocumentReading, type DocumentWebhookDeps, documentWebhook } from './document-webhook.ts';

export function ordersPaidWebhook(deps: DocumentWebhookDeps): RequestHandler {
  return documentWebhook(deps, 'orders/paid', invoiceOf);
}

function invoiceOf(shop: string, value: unknown, text: string): DocumentReading {
  const identity = orderIdentity(value);
  if (!identity.ok) return { ok: false, error: `not an order: ${identity.path} ${identity.problem}` };
  const order = identity.identity;
  return {
    ok: true,
    about: { order: order.name },
    document: {
      shop,
      kind: 'invoice',
      sourceKey: order.orderGid,
      documentType: DGI_DOCUMENT_TYPE.invoice,
      orderGid: order.orderGid,
      orderName: order.name,
      totalCents: order.totalCents,
      currency: order.currency,
      test: order.test,
      rawSnapshot: text,
    },
  };
}
