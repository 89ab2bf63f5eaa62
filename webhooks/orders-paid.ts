// orders/paid: the invoice document, with the order as it arrived. Mapping and issuing are the runner's business.
import type { RequestHandler } from 'express';
import { orderIdentity } from '../mappers/shopify/order-identity.ts';
import { type DocumentReading, type DocumentWebhookDeps, documentWebhook } from './document-webhook.ts';

export function ordersPaidWebhook(deps: DocumentWebhookDeps): RequestHandler {
  return documentWebhook(deps, 'orders/paid', invoiceOf);
}

function invoiceOf(value: unknown): DocumentReading {
  const read = orderIdentity(value);
  if (!read.ok) return { ok: false, error: `not an order: ${read.path} ${read.problem}` };
  const { orderGid, name, totalCents, currency, test } = read.identity;
  const source = { kind: 'invoice', sourceKey: orderGid, orderGid, orderName: name, totalCents, currency, test } as const;
  return { ok: true, source, about: { order: name } };
}
