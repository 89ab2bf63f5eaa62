// The document the intake stores for a paid order or a refund, read from its body as Shopify sends it (the webhook
// shape). The webhooks (webhooks/orders-paid.ts, refunds-create.ts) and the reconciliation sweep (reconcile-sweep.ts)
// build it here, so an order swept in is stored exactly as its orders/paid would have stored it.
import { orderIdentity } from '../../mappers/shopify/order-identity.ts';
import { refundIdentity } from '../../mappers/shopify/refund-identity.ts';
import { DGI_DOCUMENT_TYPE } from '../db/document-state.ts';
import type { NewDocument } from './store/index.ts';

/** What a body says its document is about (the shop and the stored text come with it). */
export type DocumentSource = Omit<NewDocument, 'shop' | 'documentType' | 'rawSnapshot'>;
/** A body read: its document, and what names it in the log; or why it is not what its topic says. */
export type DocumentReading = { ok: true; source: DocumentSource; about: Record<string, string> } | { ok: false; error: string };

/** orders/paid: the invoice of the order. */
export function invoiceOf(order: unknown): DocumentReading {
  const read = orderIdentity(order);
  if (!read.ok) return { ok: false, error: `not an order: ${read.path} ${read.problem}` };
  const { orderGid, name, totalCents, currency, test } = read.identity;
  const source = { kind: 'invoice', sourceKey: orderGid, orderGid, orderName: name, totalCents, currency, test } as const;
  return { ok: true, source, about: { order: name } };
}

/** refunds/create: the refund's credit note. `text` is the body's text (its big integers read exactly). */
export function creditNoteOf(refund: unknown, text: string): DocumentReading {
  const read = refundIdentity(refund, text);
  if (!read.ok) return { ok: false, error: `not a refund: ${read.path} ${read.problem}` };
  const { refundGid, orderGid, refundedCents, currency, test } = read.identity;
  // A refund's body has no order name: the note takes its invoice's.
  const source = { kind: 'credit_note', sourceKey: refundGid, orderGid, orderName: undefined, totalCents: refundedCents, test } as const;
  return { ok: true, source: { ...source, currency: currency ?? 'USD' }, about: { refund: refundGid } };
}

/** The row the intake stores: the source, its shop and DGI document type, and the body as it came (the snapshot). */
export function intakeDocument(shop: string, source: DocumentSource, rawSnapshot: NewDocument['rawSnapshot']): NewDocument {
  return { ...source, shop, documentType: DGI_DOCUMENT_TYPE[source.kind], rawSnapshot };
}
