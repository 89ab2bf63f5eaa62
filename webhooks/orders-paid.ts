// orders/paid: the invoice document, with the order as it arrived. Mapping and issuing are the runner's business.
import type { RequestHandler } from 'express';
import { invoiceOf } from '../src/documents/intake-document.ts';
import { type DocumentWebhookDeps, documentWebhook } from './document-webhook.ts';

export function ordersPaidWebhook(deps: DocumentWebhookDeps): RequestHandler {
  return documentWebhook(deps, 'orders/paid', invoiceOf);
}
