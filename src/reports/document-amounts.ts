// What one stored document adds to the month, read from the document the gateway received (`documents.document`,
// a GatewayDocument): never recomputed from the order. Amounts in integer cents, as the document states them.
import { parseCents } from '../../mappers/fiscal/money.ts';
import { REFERENCE_FIELDS } from '../../mappers/gateway/gateway-document.ts';

/** The ITBMS rates the DGI knows (reference/panama-fe.md §3.9), by the items' `rateITBMS` code. */
export const ITBMS_RATE_CODES = { '00': 0, '01': 7, '02': 10, '03': 15 } as const;
export type RateCode = keyof typeof ITBMS_RATE_CODES;
export type ItbmsRate = (typeof ITBMS_RATE_CODES)[RateCode];
export const ITBMS_RATES: readonly ItbmsRate[] = [0, 7, 10, 15];

export function rateOfCode(code: string): ItbmsRate | undefined {
  return Object.hasOwn(ITBMS_RATE_CODES, code) ? ITBMS_RATE_CODES[code as RateCode] : undefined;
}

/** Base and ITBMS at one rate, in cents. */
export interface RateAmounts {
  baseCents: number;
  itbmsCents: number;
}

export type AmountsByRate = Record<ItbmsRate, RateAmounts>;

export function zeroByRate(): AmountsByRate {
  return { 0: zero(), 7: zero(), 10: zero(), 15: zero() };
}

function zero(): RateAmounts {
  return { baseCents: 0, itbmsCents: 0 };
}

/** One document's figures, positive as the document states them (a credit note's amounts are positive too). */
export interface DocumentAmounts {
  byRate: AmountsByRate;
  totalCents: number;
  client: { type: string; ruc: string; dv: string; name: string };
  /** A credit note's invoice CUFE (the first referenced document), '' otherwise. */
  referencedCufe: string;
}

/** A stored document the app cannot read as a gateway document: the report names it instead of guessing. */
export class UnreadableDocumentError extends Error {}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function amount(value: unknown, what: string): number {
  const cents = typeof value === 'string' ? parseCents(value) : undefined;
  if (cents === undefined) throw new UnreadableDocumentError(`${what} is not an amount`);
  return cents;
}

/** Read one stored document's figures: items by their rate code, `totalsSubTotals.totalInvoice`, client, reference. */
export function documentAmounts(stored: unknown): DocumentAmounts {
  if (!stored || typeof stored !== 'object') throw new UnreadableDocumentError('the stored document is missing');
  const doc = stored as {
    dataTransaction?: { client?: Record<string, unknown>; [key: string]: unknown };
    listItems?: unknown;
    totalsSubTotals?: { totalInvoice?: unknown };
  };
  const byRate = zeroByRate();
  const items = Array.isArray(doc.listItems) ? (doc.listItems as Record<string, unknown>[]) : [];
  for (const [i, item] of items.entries()) {
    const rate = rateOfCode(text(item['rateITBMS']));
    if (rate === undefined) throw new UnreadableDocumentError(`item ${i + 1} has an unknown ITBMS rate code`);
    byRate[rate].baseCents += amount(item['priceItem'], `item ${i + 1} priceItem`);
    byRate[rate].itbmsCents += amount(item['valueITBMS'], `item ${i + 1} valueITBMS`);
  }
  const client = doc.dataTransaction?.client ?? {};
  const references = doc.dataTransaction?.[REFERENCE_FIELDS.list];
  const first = Array.isArray(references) ? (references[0] as Record<string, unknown> | undefined) : undefined;
  return {
    byRate,
    totalCents: amount(doc.totalsSubTotals?.totalInvoice, 'totalInvoice'),
    client: {
      type: text(client['typeClientEB']),
      ruc: text(client['numberRUC']),
      dv: text(client['digitCheckRUC']),
      name: text(client['businessName']),
    },
    referencedCufe: first ? text(first[REFERENCE_FIELDS.cufe]) : '',
  };
}
