// A Shopify refund of an invoiced order → the credit note's draft (type 04), or why there is none yet (docs/design.md §9,
// docs/reference/shopify-refunds.md §6). The note holds the refunded goods (their units, their share of discounts, their
// tax), refunded shipping, and amount-only money allocated over what is left of the invoice; its total is what was
// refunded for what the invoice covered, to the cent; every line keeps the DGI arithmetic; with the notes before
// it, it never credits more than the invoice. Pure: the invoice, the notes already issued and the settings are inputs.
import { type Amounts, type CreditedDocument, capProblems, creditState } from './credit-balance.ts';
import { allowanceLines } from './credit-allocation.ts';
import { type CreditLine, preferredTax, renderCreditLines } from './credit-lines.ts';
import { type CreditedInvoice, creditNoteDraft } from './credit-note-draft.ts';
import { refundPayments } from './credit-note-payments.ts';
import type { DocumentDraft } from '../invoice/document-numbering.ts';
import { type InvoiceGroup, type InvoiceLayout, readInvoiceLayout } from '../invoice/invoice-layout.ts';
import type { MappingSettings } from '../invoice/mapping-settings.ts';
import { type MappingProblem, problems } from '../mapping-problems.ts';
import { type Cents, cents, divRoundHalfUp } from '../fiscal/money.ts';
import { fieldWidthProblems } from '../invoice/field-widths.ts';
import type { ShopifyOrder } from '../shopify/shopify-order.ts';
import type { ShopifyRefund, ShopifyRefundShippingLine } from '../shopify/shopify-refund.ts';

export type { CreditedDocument } from './credit-balance.ts';
export type { CreditedInvoice } from './credit-note-draft.ts';

export interface RefundToCreditNoteInput {
  refund: ShopifyRefund;
  /** The invoice's order, as parsed for the invoice. */
  order: ShopifyOrder;
  invoice: CreditedInvoice;
  /** The notes already issued or in flight against this invoice, in order. */
  credited: readonly CreditedDocument[];
  settings: MappingSettings;
}

/** Why a refund needs no note: no money moved, only what the invoice left out was refunded, or nothing is left. */
export type NothingReason = 'no_money_refunded' | 'nothing_invoiced_refunded' | 'everything_credited';

export type CreditNoteResult =
  | { kind: 'draft'; draft: DocumentDraft; totalCents: Cents }
  | { kind: 'nothing'; reason: NothingReason }
  /** A refund transaction is still pending: hold the note and ask again later. */
  | { kind: 'wait'; reason: 'refund_pending' }
  | { kind: 'problems'; problems: MappingProblem[] };

const CURRENCIES = new Set(['USD', 'PAB']);
const MAX_ITEMS = 1000;

export function refundToCreditNote(input: RefundToCreditNoteInput): CreditNoteResult {
  const { refund, order, invoice, credited, settings } = input;
  const currency = currencyProblems(order, refund);
  if (currency.length > 0) return { kind: 'problems', problems: currency };
  const moneyMoves = refund.transactions.filter((t) => t.kind === 'refund');
  if (moneyMoves.some((t) => t.status === 'pending')) return { kind: 'wait', reason: 'refund_pending' };
  // Failed and erred transactions returned nothing.
  const returned = moneyMoves.filter((t) => t.status === 'success');
  const refunded = returned.reduce((a, t) => a + t.amount, 0);
  if (refunded === 0) return { kind: 'nothing', reason: 'no_money_refunded' };

  const state = creditState(readInvoiceLayout(order, invoice.document.listItems), credited);
  if (!state.ok) return { kind: 'problems', problems: state.problems };
  const { layout, balance, left: before } = state;

  const money = reconcile(refund, layout, refunded);
  if (!money.ok) return { kind: 'problems', problems: money.problems };
  const parts = refundedParts(refund, layout, before, balance.allowances, money);
  if (!parts.ok) return { kind: 'problems', problems: parts.problems };

  let lines = parts.lines;
  const extra = money.extra + parts.moved;
  if (extra > 0) {
    const open = layout.groups.map((group) => ({ group, left: parts.left.get(group) ?? before.get(group)! }));
    const allowance = allowanceLines(extra, open);
    if (allowance === undefined) {
      const total = balance.total + refunded - parts.leftOut;
      return { kind: 'problems', problems: [problems.creditExceedsInvoice({ kind: 'total' }, total, layout.total)] };
    }
    lines = [...lines, ...allowance];
  }
  // Only what the invoice left out (or free items) was paid back: nothing to credit.
  if (lines.length === 0 || refunded === parts.leftOut) return { kind: 'nothing', reason: 'nothing_invoiced_refunded' };

  const note = renderCreditLines(lines, completedRates(layout, before, lines));
  if (note === undefined) return { kind: 'problems', problems: [problems.creditTaxNotDistributable(parts.refundedTax)] };
  if (note.items.length > MAX_ITEMS) return { kind: 'problems', problems: [problems.tooManyItems(note.items.length)] };
  const tooWide = fieldWidthProblems(note.amounts, 'refund_line_items');
  if (tooWide.length > 0) return { kind: 'problems', problems: tooWide };
  const caps = capProblems(layout, balance, note.credited);
  if (caps.length > 0) return { kind: 'problems', problems: caps };

  // What was refunded for what the invoice covered; the payments carry exactly that.
  const total = refunded - parts.leftOut;
  const noteTotal = note.amounts.reduce((a, i) => a + i.totalValue, 0);
  const payments = noteTotal === total ? refundPayments(returned, settings, total, parts.leftOut) : undefined;
  if (payments === undefined) return { kind: 'problems', problems: [problems.refundMoneyMismatch(refunded, noteTotal + parts.leftOut)] };
  return { kind: 'draft', ...creditNoteDraft(invoice, settings, note, payments) };
}

/** The rates whose remaining money this note takes entirely, with the ITBMS left at each: the note's tax there. */
function completedRates(layout: InvoiceLayout, before: Map<InvoiceGroup, Amounts>, lines: CreditLine[]): Map<string, number> {
  const targets = new Map<string, number>();
  for (const rateCode of new Set(lines.map((l) => l.group.rateCode))) {
    const left = layout.groups.filter((g) => g.rateCode === rateCode).map((g) => before.get(g)!);
    const gross = lines.filter((l) => l.group.rateCode === rateCode).reduce((a, l) => a + l.line.gross, 0);
    if (gross === left.reduce((a, l) => a + l.net + l.tax, 0))
      targets.set(
        rateCode,
        left.reduce((a, l) => a + l.tax, 0),
      );
  }
  return targets;
}

function currencyProblems(order: ShopifyOrder, refund: ShopifyRefund): MappingProblem[] {
  if (!CURRENCIES.has(order.currency)) return [problems.unsupportedCurrency(order.currency)];
  const foreign = refund.transactions.findIndex((t) => t.currency !== undefined && !CURRENCIES.has(t.currency));
  if (foreign < 0) return [];
  return [problems.refundCurrencyUnsupported(refund.transactions[foreign]!.currency!, `transactions[${foreign}].currency`)];
}

// ---------------------------------------------------------------------------------------------
// The money identity (docs/reference/shopify-refunds.md §1.6): refunded = lines + shipping (+ their tax unless included) + duties − adjustments.

interface Reconciled {
  ok: true;
  /** Whether the refund's subtotals include their tax (the shop's setting, unless the money says otherwise). */
  taxesIncluded: boolean;
  /** Money beyond the refunded lines (an amount-only refund): allocated over the invoice. */
  extra: number;
  /** The tax of the one refunded shipping line whose tax the body does not give, worked out from the money. */
  shippingTax?: { line: ShopifyRefundShippingLine; tax: number };
}

function reconcile(refund: ShopifyRefund, layout: InvoiceLayout, refunded: number): Reconciled | { ok: false; problems: MappingProblem[] } {
  // Since 2024-10 refunded shipping is not an adjustment; older bodies repeat it as one of kind shipping_refund.
  const adjustments = refund.adjustments.filter((a) => !(refund.shippingLines.length > 0 && a.kind === 'shipping_refund'));
  const discrepancy = adjustments.reduce((a, x) => a + x.amount + x.tax, 0);
  const subtotals = [...refund.lines, ...refund.shippingLines].reduce((a, l) => a + l.subtotal, 0);
  const taxes = [...refund.lines, ...refund.shippingLines].reduce((a, l) => a + (l.tax ?? 0), 0);
  const computed = (included: boolean) => subtotals + (included ? 0 : taxes) + refund.duties - discrepancy;

  const unknown = refund.shippingLines.filter((s) => s.tax === undefined);
  const index = refund.shippingLines.findIndex((s) => s.tax === undefined);
  if (unknown.length > 1) return { ok: false, problems: [problems.refundShippingTaxUnknown(`refund_shipping_lines[${index}]`)] };
  let included = layout.taxesIncluded;
  let shippingTax: Reconciled['shippingTax'];
  if (unknown.length === 1) {
    const line = unknown[0]!;
    // Tax added on top: the money says how much it was. Tax included: it is the part of the subtotal at the rate.
    const rate = findShipping(layout, line)?.group.rate;
    const tax = included ? rate && divRoundHalfUp(line.subtotal * rate.num, rate.den + rate.num) : refunded - computed(false);
    if (tax === undefined || tax < 0)
      return { ok: false, problems: [problems.refundShippingTaxUnknown(`refund_shipping_lines[${index}]`)] };
    shippingTax = { line, tax };
  } else if (computed(included) !== refunded && taxes !== 0 && computed(!included) === refunded) {
    // Whether a tax-inclusive shop's subtotals include tax is unverified (§1.4): the money decides.
    included = !included;
  }
  const explained = computed(included) + (included ? 0 : (shippingTax?.tax ?? 0));
  if (explained !== refunded) return { ok: false, problems: [problems.refundMoneyMismatch(refunded, explained)] };
  if (discrepancy > 0) return { ok: false, problems: [problems.refundLessThanItems(refunded, refunded + discrepancy)] };
  return { ok: true, taxesIncluded: included, extra: -discrepancy, ...(shippingTax === undefined ? {} : { shippingTax }) };
}

function findShipping(layout: InvoiceLayout, line: ShopifyRefundShippingLine) {
  const same = layout.shipping.find((s) => s.title === line.title && s.price === line.price);
  return same ?? (layout.shipping.length === 1 ? layout.shipping[0] : undefined);
}

// ---------------------------------------------------------------------------------------------
// The refunded lines and shipping → note lines against the invoice's groups

interface Parts {
  ok: true;
  lines: CreditLine[];
  /** Money refunded for what the invoice left out: gift cards and tips it did not invoice, duties. */
  leftOut: number;
  /** What is left of each group after these lines (by their preferred taxes), for an amount-only share. */
  left: Map<InvoiceGroup, Amounts>;
  /** Money for goods beyond what is left of their line, which earlier amount-only shares took: re-allocated. */
  moved: number;
  refundedTax: number;
}

function refundedParts(
  refund: ShopifyRefund,
  layout: InvoiceLayout,
  before: Map<InvoiceGroup, Amounts>,
  allowances: Map<InvoiceGroup, number>,
  money: Reconciled,
): Parts | { ok: false; problems: MappingProblem[] } {
  const found: MappingProblem[] = [];
  const parts: Parts = { ok: true, lines: [], leftOut: refund.duties, left: new Map(), moved: 0, refundedTax: 0 };
  const included = money.taxesIncluded;

  const credit = (group: InvoiceGroup | undefined, units: number, subtotal: number, tax: number) => {
    const gross = included ? subtotal : subtotal + tax;
    if (group === undefined) {
      parts.leftOut += gross;
      return;
    }
    const left = parts.left.get(group) ?? before.get(group)!;
    // Goodwill spread over the invoice earlier, then this line returned at full value: the goodwill belonged to the
    // lines kept. The line is credited up to what is left of it; the rest is allocated over what is left elsewhere.
    const moved = Math.min(allowances.get(group) ?? 0, Math.max(0, gross - Math.max(0, left.net + left.tax)));
    const credited = gross - moved;
    const creditedTax = moved === 0 ? tax : divRoundHalfUp(tax * credited, gross);
    parts.moved += moved;
    parts.refundedTax += tax;
    if (credited === 0 && group.kind !== 'line') return;
    const line = creditLine(group, units, credited, creditedTax, left);
    const lineTax = line.preferred;
    parts.left.set(group, {
      units: left.units - (group.kind === 'line' ? units : 0),
      net: left.net - (credited - lineTax),
      tax: left.tax - lineTax,
    });
    parts.lines.push(line);
  };

  refund.lines.forEach((l, i) => {
    if (l.quantity === 0) {
      if (l.subtotal !== 0 || l.tax !== 0)
        found.push(problems.refundUnreadable(`refund_line_items[${i}].quantity`, 'money refunded for no units'));
      return;
    }
    if (layout.lines.has(l.lineItemGid)) return credit(layout.lines.get(l.lineItemGid), l.quantity, l.subtotal, l.tax);
    // A tip is not a line of the order's body; the invoice either has it as its tip line or left it out.
    if (l.tip) return credit(layout.tip, 1, l.subtotal, l.tax);
    found.push(problems.refundLineNotInvoiced(l.name, `refund_line_items[${i}]`));
  });
  refund.shippingLines.forEach((s, i) => {
    const tax = s.tax ?? money.shippingTax?.tax ?? 0;
    if (s.subtotal === 0 && tax === 0) return;
    const shipping = findShipping(layout, s);
    if (shipping === undefined) found.push(problems.refundLineNotInvoiced(s.title, `refund_shipping_lines[${i}]`));
    else credit(shipping.group, 1, s.subtotal, tax);
  });
  return found.length > 0 ? { ok: false, problems: found } : parts;
}

/**
 * A refunded line against its invoice group. What went back for it (its gross) is kept; its tax follows the invoice
 * line (preferredTax), which is the tax Shopify refunded give or take the cent of rounding, unless the invoice itself
 * differs from Shopify on that line (a cent it moved for the DGI's tolerance, or a Shopify rate mapped to an ITBMS
 * rate, whose tax Shopify does not know).
 */
function creditLine(group: InvoiceGroup, units: number, gross: number, tax: number, left: Amounts): CreditLine {
  return {
    group,
    description: group.description,
    money: false,
    // Shipping and tips are money, not units: part of one is shown at its own amount, not as a discount.
    line: {
      quantity: group.kind === 'line' ? units : 1,
      listUnit: group.kind === 'line' || gross >= left.net + left.tax ? group.listUnit : cents(0),
      rate: group.rate,
      gross,
    },
    preferred: preferredTax(left, gross, group.rate),
    left,
    ...(group.mappedRate ? {} : { shopifyTax: tax }),
  };
}
