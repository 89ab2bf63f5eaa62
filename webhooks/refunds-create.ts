// refunds/create: the credit-note document, with the refund as it arrived. Whether and when a note is issued (after
// its invoice, never beyond it) is the runner's business.
import type { RequestHandler } from 'express';
import { creditNoteOf } from '../src/documents/intake-document.ts';
import { type DocumentWebhookDeps, documentWebhook } from './document-webhook.ts';

export function refundsCreateWebhook(deps: DocumentWebhookDeps): RequestHandler {
  return documentWebhook(deps, 'refunds/create', creditNoteOf);
}
