// The app's Shopify Flow triggers (docs/flow.md): each event's trigger extension (extensions/flow-*), and the payload
// flowTriggerReceive takes for it, made from the document. Pure. The keys are the extensions' field keys (Shopify's
// CLI allows letters and spaces only, so no accents); an order reference is given as `order_id`, the order's number.
import type { FlowEvent } from '../db/flow-state.ts';
import type { Language } from '../db/languages.ts';
import type { FlowDocument } from '../documents/store/index.ts';
import { formatFiscalNumber } from '../documents/store/index.ts';
import { pdfUrl } from '../documents/pdf-link.ts';
import { render } from '../messages/catalogue.ts';
import { asMessage } from '../messages/message.ts';

/** Each event's extension handle (`handle` in its shopify.extension.toml). */
export const FLOW_TRIGGER_HANDLES: Record<FlowEvent, string> = {
  invoice_authorized: 'flow-invoice-authorized',
  invoice_needs_attention: 'flow-invoice-needs-attention',
  credit_note_authorized: 'flow-credit-note-authorized',
};

/** Shopify refuses a trigger payload over 50 KB. */
export const FLOW_PAYLOAD_MAX_BYTES = 50 * 1024;
/** A reason is one line of text; a gateway's message can be long, the rest stays on the document. */
const REASON_MAX_CHARS = 1000;

export type FlowPayload = Record<string, string | number>;

export type FlowTrigger = { ok: true; handle: string; payload: FlowPayload } | { ok: false; problem: string };

export interface FlowTriggerInput {
  event: FlowEvent;
  doc: FlowDocument;
  /** The PDF's link token (authorized documents). */
  pdfToken: string | null;
  /** The reason stored with a needs-attention event (a catalogue message). */
  reason: unknown;
  /** The shop's language for texts (settings `flowTriggers.language`). */
  language: Language;
  /** The app's public origin, for the PDF link. */
  appUrl: string;
}

export function flowTrigger(i: FlowTriggerInput): FlowTrigger {
  const orderId = legacyOrderId(i.doc.orderGid);
  if (orderId === undefined) return { ok: false, problem: `the order ${i.doc.orderGid} has no numeric id` };
  const handle = FLOW_TRIGGER_HANDLES[i.event];
  if (i.event === 'invoice_needs_attention') {
    const reason = asMessage(i.reason);
    if (!reason) return { ok: false, problem: 'the event has no reason' };
    return sized(handle, { order_id: orderId, Motivo: oneLine(render(reason, i.language)) });
  }
  const pdf = pdfUrl(i.appUrl, i.pdfToken);
  if (i.doc.fiscalNumber === null || !i.doc.cufe || !pdf) return { ok: false, problem: 'the document has no number, CUFE or PDF' };
  const authorized = { 'Numero fiscal': formatFiscalNumber(i.doc), CUFE: i.doc.cufe };
  if (i.event === 'invoice_authorized')
    return sized(handle, { order_id: orderId, ...authorized, PDF: pdf, Total: decimalAmount(i.doc.totalCents) });
  return sized(handle, { order_id: orderId, Reembolso: refundId(i.doc.sourceKey), ...authorized, Monto: decimalAmount(i.doc.totalCents) });
}

/** `gid://shopify/Order/123` → 123, the id Flow's order reference takes. */
export function legacyOrderId(orderGid: string): number | undefined {
  const id = /^gid:\/\/shopify\/Order\/(\d+)$/.exec(orderGid)?.[1];
  const n = id === undefined ? undefined : Number(id);
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Cents as the number a `number_decimal` field takes. Only here, at the JSON's edge, is an amount a JS number: an
 * integer of cents over 100 is the double nearest the decimal, which JSON writes as that exact decimal (1234 → 12.34).
 */
export function decimalAmount(cents: number): number {
  return cents / 100;
}

/** A note's refund, as the order's credit_notes metafield names it (its GID); none for a re-issue's note. */
function refundId(sourceKey: string): string {
  return sourceKey.startsWith('gid://shopify/Refund/') ? sourceKey : '';
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > REASON_MAX_CHARS ? `${line.slice(0, REASON_MAX_CHARS - 1)}…` : line;
}

function sized(handle: string, payload: FlowPayload): FlowTrigger {
  const bytes = Buffer.byteLength(JSON.stringify(payload));
  return bytes > FLOW_PAYLOAD_MAX_BYTES
    ? { ok: false, problem: `the payload is ${bytes} bytes, over Flow's 50 KB` }
    : { ok: true, handle, payload };
}
