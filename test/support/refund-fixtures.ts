// The refund fixtures under test/fixtures/refunds/ (order + refunds/create body pairs), the one way the refund tests
// issue an invoice from an order (the real invoice mapper, numbered and dated, with a well-formed CUFE: when the
// invoice mapper changes its name or shape, only `issueInvoice` changes), and what the sandbox says of a note.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildCufe } from '../../mappers/fiscal/cufe.ts';
import type { CreditedInvoice } from '../../mappers/credit-note/credit-note-draft.ts';
import { type MappingSettings, defaultMappingSettings } from '../../mappers/invoice/mapping-settings.ts';
import { type DocumentDraft, numberDocument } from '../../mappers/invoice/document-numbering.ts';
import { type GatewayItem, REFERENCE_FIELDS } from '../../mappers/gateway/gateway-document.ts';
import { cents } from '../../mappers/fiscal/money.ts';
import { orderToDraft } from '../../mappers/invoice/order-to-document.ts';
import { type ShopifyOrder, parseShopifyOrder } from '../../mappers/shopify/shopify-order.ts';
import { type ShopifyRefund, parseShopifyRefund } from '../../mappers/shopify/shopify-refund.ts';
import { validateSendDocument } from '../../sim/sandbox/document-rules.ts';
import { checkNoteAgainstInvoice } from '../../sim/sandbox/rules/credit-note-rules.ts';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../../sim/sandbox/sandbox-access.ts';
import { brokenInvariants } from './document-invariants.ts';

export const REFUND_FIXTURES_DIR = path.join(import.meta.dirname, '..', 'fixtures', 'refunds');

export type RefundFixture = 'full-refund' | 'partial-line' | 'second-partial' | 'shipping-only' | 'amount-only';

/** The parsed JSON of `<name>.order.json` or `<name>.refund.json`. */
export function readRefundFixture(name: RefundFixture, which: 'order' | 'refund'): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(REFUND_FIXTURES_DIR, `${name}.${which}.json`), 'utf8')) as Record<string, unknown>;
}

export function parseOrder(json: unknown): ShopifyOrder {
  const parsed = parseShopifyOrder(json);
  if (!parsed.ok) throw new Error(`order did not parse: ${JSON.stringify(parsed.problems)}`);
  return parsed.order;
}

export function parseRefund(json: unknown): ShopifyRefund {
  const parsed = parseShopifyRefund(json);
  if (!parsed.ok) throw new Error(`refund did not parse: ${JSON.stringify(parsed.problems)}`);
  return parsed.refund;
}

export const fixtureOrder = (name: RefundFixture) => parseOrder(readRefundFixture(name, 'order'));
export const fixtureRefund = (name: RefundFixture) => parseRefund(readRefundFixture(name, 'refund'));

/** When the test invoices were submitted: 2026-11-03 10:30 in Panama. */
export const INVOICE_NOW = new Date('2026-11-03T15:30:00Z');

/** The authorized invoice of an order: mapped by the invoice mapper, numbered `fiscalNumber`, with its CUFE. */
export function issueInvoice(order: ShopifyOrder, settings: MappingSettings = defaultMappingSettings, fiscalNumber = 1): CreditedInvoice {
  const mapped = orderToDraft({ order, settings });
  if (!mapped.ok) throw new Error(`order not invoiced: ${JSON.stringify(mapped.problems)}`);
  const document = numberDocument(mapped.draft, { branchCode: '0000', billingPoint: '001', fiscalNumber }, INVOICE_NOW);
  const cufe = buildCufe({
    typeDocument: '01',
    taxpayerType: '2',
    ruc: '155596713-2-2015',
    dv: '59',
    branch: '0000',
    date: '20261103',
    fiscalNumber: String(fiscalNumber).padStart(10, '0'),
    billingPoint: '001',
    emissionType: '01',
    environment: '2',
    securityCode: '123456789',
  });
  return { document, cufe };
}

const NOTE_NOW = new Date('2026-11-25T15:00:00Z');

/**
 * What the sandbox gateway says of a note (its first problem, or undefined): the note numbered and sent as type 04,
 * with every rule of a SendDocument and its reference checked against the invoice, given the notes already credited.
 * Also the DGI arithmetic by an independent check (document-invariants.ts).
 */
export function noteRejection(draft: DocumentDraft, invoice: CreditedInvoice, creditedCents: number): string | undefined {
  const doc = numberDocument(draft, { branchCode: '0000', billingPoint: '002', fiscalNumber: 7 }, NOTE_NOW);
  const broken = brokenInvariants(doc);
  if (broken.length > 0) return broken.join('; ');
  const request = { ...DEFAULT_SANDBOX_CREDENTIALS, identifierControlShipping: '1', environment: '2', document: doc };
  const shape = validateSendDocument(request, NOTE_NOW);
  if (shape !== undefined) return shape.message;
  const reference = doc.dataTransaction[REFERENCE_FIELDS.list]![0]!;
  const authorized = {
    typeDocument: '01',
    environment: '2',
    totalInvoice: invoice.document.totalsSubTotals.totalInvoice,
    document: invoice.document,
  };
  return checkNoteAgainstInvoice(
    { environment: '2', reference, totalInvoice: doc.totalsSubTotals.totalInvoice },
    authorized,
    cents(creditedCents),
  )?.message;
}

/** A note's item as one line of literals: what the tests expect. */
export type Item = [
  description: string,
  code: string,
  amount: string,
  unit: string,
  discount: string,
  net: string,
  rate: string,
  itbms: string,
  total: string,
];

export function gatewayItem([
  description,
  code,
  amount,
  priceUnit,
  priceUnitDiscount,
  priceItem,
  rateITBMS,
  valueITBMS,
  totalValue,
]: Item): GatewayItem {
  return { description, code, amount, priceUnit, priceUnitDiscount, priceItem, rateITBMS, valueITBMS, totalValue };
}

export function itemOf(i: GatewayItem): Item {
  return [i.description, i.code, i.amount, i.priceUnit, i.priceUnitDiscount, i.priceItem, i.rateITBMS, i.valueITBMS, i.totalValue];
}
