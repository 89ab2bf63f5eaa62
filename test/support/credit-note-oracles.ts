// Oracles for the credit-note properties: what Shopify charged per rate for what an invoice covers, what a refund
// body refunds, and the DGI arithmetic a note must keep.
import { expect } from 'vitest';
import type { DocumentDraft } from '../../mappers/invoice/document-numbering.ts';
import { REFERENCE_FIELDS, type GatewayDocument } from '../../mappers/gateway/gateway-document.ts';
import { type CreditedInvoice } from '../../mappers/credit-note/refund-to-credit-note.ts';
import { centsOf } from './document-invariants.ts';
import { noteRejection } from './refund-fixtures.ts';
import { type OrderSpec } from './shopify-order-builder.ts';

type Json = Record<string, unknown>;

/** One generated order and the refunds asked of it. */
export interface Case {
  spec: OrderSpec;
  settings: { includeGiftCards: boolean; includeTips: boolean };
  /** Per refund: a fraction (0–1) of what is left of each line, shipping, an amount-only share, the tip. */
  steps: { lineShares: number[]; shipping: 'none' | 'full' | 'part'; amountShare: number; tip: boolean; pending: boolean }[];
  /** The last refund returns everything left (goods, shipping, tip, or the money left when amounts were refunded). */
  finishAll: boolean;
  /** Move a tax cent between two lines of the same rate, as Shopify's allocation of an order-level tax does. */
  moveTaxCent: boolean;
}

/** Moves one cent of tax from a line to another of the same single rate; totals stay. False when no pair exists. */
export function moveTaxCent(order: Json): boolean {
  type TaxLine = { rate: number; price: string; price_set: { shop_money: { amount: string }; presentment_money: { amount: string } } };
  const lines = (order['line_items'] as { tax_lines: TaxLine[] }[]).filter((l) => l.tax_lines.length === 1);
  for (const from of lines)
    for (const to of lines) {
      const [a, b] = [from.tax_lines[0]!, to.tax_lines[0]!];
      if (from === to || a.rate !== b.rate || centsOf(a.price) === 0) continue;
      const set = (t: TaxLine, c: number) => {
        const text = (c / 100).toFixed(2);
        t.price = text;
        t.price_set.shop_money.amount = text;
        t.price_set.presentment_money.amount = text;
      };
      set(a, centsOf(a.price) - 1);
      set(b, centsOf(b.price) + 1);
      return true;
    }
  return false;
}

export const RATE_CODE: Record<string, string> = { '': '00', '0.07': '01', '0.06,0.025': '01', '0.1': '02', '0.15': '03' };

/** Whether Shopify's charge per ITBMS rate (tax included) for what the invoice covers is the invoice's, rate by rate. */
export function sameRateTotals(order: Json, c: Case, invoice: GatewayDocument): boolean {
  type Charged = {
    price: string;
    quantity?: number;
    gift_card?: boolean;
    tax_lines: { rate: number; price: string }[];
    discount_allocations: { amount: string }[];
  };
  const shopify = new Map<string, number>();
  const add = (l: Charged) => {
    if (l.gift_card && !c.settings.includeGiftCards) return;
    const tax = l.tax_lines.reduce((a, t) => a + centsOf(t.price), 0);
    const gross =
      centsOf(l.price) * (l.quantity ?? 1) -
      l.discount_allocations.reduce((a, d) => a + centsOf(d.amount), 0) +
      (c.spec.taxesIncluded ? 0 : tax);
    if (gross === 0) return;
    const code = RATE_CODE[l.tax_lines.map((t) => String(t.rate)).join(',')]!;
    shopify.set(code, (shopify.get(code) ?? 0) + gross);
  };
  (order['line_items'] as Charged[]).forEach(add);
  (order['shipping_lines'] as Charged[]).forEach(add);
  if (c.settings.includeTips) shopify.set('00', (shopify.get('00') ?? 0) + centsOf(order['total_tip_received'] as string));
  const invoiced = new Map<string, number>();
  for (const i of invoice.listItems) invoiced.set(i.rateITBMS, (invoiced.get(i.rateITBMS) ?? 0) + centsOf(i.totalValue));
  return [...new Set([...shopify.keys(), ...invoiced.keys()])].every((code) => (shopify.get(code) ?? 0) === (invoiced.get(code) ?? 0));
}

export function refundedMoney(body: Json): number {
  return (body['transactions'] as { status: string; amount: string }[])
    .filter((t) => t.status === 'success')
    .reduce((a, t) => a + centsOf(t.amount), 0);
}

/** The DGI arithmetic and the sandbox's rules for type 04, and the invoice's client, codes and reference. */
export function checkDocument(draft: DocumentDraft, invoice: CreditedInvoice, creditedCents: number): void {
  expect(noteRejection(draft, invoice, creditedCents)).toBeUndefined();
  const { [REFERENCE_FIELDS.list]: reference, ...data } = draft.dataTransaction;
  expect([data.typeDocument, data.natureOperation]).toEqual(['04', '11']);
  expect(data.client).toEqual(invoice.document.dataTransaction.client);
  expect(reference).toEqual([
    {
      [REFERENCE_FIELDS.date]: invoice.document.dataTransaction.dateBroadcast,
      [REFERENCE_FIELDS.cufe]: invoice.cufe,
      [REFERENCE_FIELDS.paperNumber]: '',
      [REFERENCE_FIELDS.fiscalPrinterNumber]: '',
    },
  ]);
}

export function perRate(docs: { listItems: GatewayDocument['listItems'] }[]): Map<string, { net: number; tax: number }> {
  const out = new Map<string, { net: number; tax: number }>();
  for (const d of docs)
    for (const i of d.listItems) {
      const sum = out.get(i.rateITBMS) ?? { net: 0, tax: 0 };
      out.set(i.rateITBMS, { net: sum.net + centsOf(i.priceItem), tax: sum.tax + centsOf(i.valueITBMS) });
    }
  return new Map([...out].filter(([, sum]) => sum.net !== 0 || sum.tax !== 0).sort());
}
