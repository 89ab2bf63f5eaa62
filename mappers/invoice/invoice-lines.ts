// Shopify line items, shipping lines and tips → the invoice's items (`listItems`), in cents.
// What each Shopify line means for the invoice is decided here; the arithmetic is in line-arithmetic.ts.
import type { GatewayItem } from '../gateway/gateway-document.ts';
import { type ArithmeticLine, type ItemAmounts, lineItems, planTaxes } from '../fiscal/line-arithmetic.ts';
import { fieldWidthProblems } from './field-widths.ts';
import { type MappingSettings, ownEntry } from './mapping-settings.ts';
import { type MappingProblem, problems } from '../mapping-problems.ts';
import {
  type Cents,
  type Fraction,
  addFractions,
  cents,
  divRoundHalfUp,
  formatCents,
  formatFraction,
  fractionEquals,
  sumCents,
} from '../fiscal/money.ts';
import type {
  ShopifyDiscountAllocation,
  ShopifyLineItem,
  ShopifyOrder,
  ShopifyShippingLine,
  ShopifyTaxLine,
} from '../shopify/shopify-order.ts';

/** ITBMS rate codes and their rates (docs/reference/panama-fe.md §3.9). */
export const ITBMS_RATES: readonly { code: string; rate: Fraction }[] = [
  { code: '00', rate: { num: 0, den: 1 } },
  { code: '01', rate: { num: 7, den: 100 } },
  { code: '02', rate: { num: 1, den: 10 } },
  { code: '03', rate: { num: 3, den: 20 } },
];

const MAX_ITEMS = 1000;
const ZERO: Fraction = { num: 0, den: 1 };

/** One Shopify line, described for the invoice, with its arithmetic. */
interface SourceLine extends ArithmeticLine {
  description: string;
  code: string;
  rateCode: string;
  gtin?: string;
}

export interface InvoiceLines {
  items: GatewayItem[];
  /** The same items in cents, for the totals. */
  amounts: ItemAmounts[];
  /** What the customer paid for the lines left out (gift cards, tips), tax included. */
  leftOut: Cents;
}

export type InvoiceLinesResult = ({ ok: true } & InvoiceLines) | { ok: false; problems: MappingProblem[] };

/** Shopify's charge for a line after discounts, before tax is added (tax included when the shop includes it). */
interface LineCharge {
  base: number;
  tax: number;
  rate: Fraction;
}

export function buildInvoiceLines(order: ShopifyOrder, settings: MappingSettings): InvoiceLinesResult {
  const found: MappingProblem[] = [];
  const lines: SourceLine[] = [];
  let leftOut = 0;
  let leftOutTax = 0;

  order.lineItems.forEach((item, index) => {
    if (item.currentQuantity === 0) return;
    const path = `line_items[${index}]`;
    const charge = lineItemCharge(item);
    if (charge.base < 0) {
      found.push(problems.orderUnreadable(path, 'the discounts exceed the price'));
      return;
    }
    if (item.giftCard && !settings.includeGiftCards) {
      leftOut += order.taxesIncluded ? charge.base : charge.base + charge.tax;
      leftOutTax += charge.tax;
      return;
    }
    const line = sourceLine(order, settings, charge, {
      quantity: item.currentQuantity,
      price: item.price,
      description: itemDescription(item),
      code: itemCode(item, index),
      gtin: validGtin(item.barcode),
      path,
      what: item.name,
    });
    if (line.ok) lines.push(line.line);
    else found.push(line.problem);
  });

  order.shippingLines.forEach((shipping, index) => {
    if (shipping.isRemoved) return;
    const charge = shippingCharge(shipping);
    if (charge.base === 0 && charge.tax === 0) return;
    const path = `shipping_lines[${index}]`;
    if (charge.base < 0) {
      found.push(problems.orderUnreadable(path, 'the discounts exceed the price'));
      return;
    }
    const line = sourceLine(order, settings, charge, {
      quantity: 1,
      price: shipping.price,
      description: shippingDescription(shipping, settings.shippingDescription),
      code: settings.shippingCode,
      gtin: undefined,
      path,
      what: shipping.title || settings.shippingDescription,
    });
    if (line.ok) lines.push(line.line);
    else found.push(line.problem);
  });

  if (order.totalTip > 0) {
    if (settings.includeTips) {
      lines.push({
        description: settings.tipDescription,
        code: settings.tipCode,
        rateCode: '00',
        rate: ZERO,
        quantity: 1,
        listUnit: order.totalTip,
        pricing: { kind: 'net', net: order.totalTip },
        chargedTax: cents(0),
        pooled: true,
      });
    } else {
      leftOut += order.totalTip;
    }
  }

  if (found.length > 0) return { ok: false, problems: found };
  if (lines.length === 0) return { ok: false, problems: [problems.nothingToInvoice()] };

  // Lines recomputed at a mapped DGI rate keep their own tax; the others carry what Shopify charged.
  const recomputedCharged = sumCents(lines.filter((l) => !l.pooled).map((l) => l.chargedTax));
  const pooledTarget = order.totalTax - leftOutTax - recomputedCharged;
  const taxes = planTaxes(lines, pooledTarget);
  if (taxes === undefined) return { ok: false, problems: [problems.taxNotDistributable(order.totalTax - leftOutTax)] };

  const items: GatewayItem[] = [];
  const amounts: ItemAmounts[] = [];
  lines.forEach((line, i) => {
    for (const a of lineItems(line, taxes[i]!)) {
      amounts.push(a);
      items.push(toGatewayItem(line, a));
    }
  });
  if (items.length > MAX_ITEMS) return { ok: false, problems: [problems.tooManyItems(items.length)] };
  const tooWide = fieldWidthProblems(amounts, 'line_items');
  if (tooWide.length > 0) return { ok: false, problems: tooWide };
  return { ok: true, items, amounts, leftOut: cents(leftOut) };
}

interface LineFacts {
  quantity: number;
  /** Shopify's unit price (tax-inclusive when the shop includes tax). */
  price: number;
  description: string;
  code: string;
  gtin: string | undefined;
  path: string;
  what: string;
}

/** The arithmetic line for a Shopify charge, or the problem with its tax rate. */
function sourceLine(
  order: ShopifyOrder,
  settings: MappingSettings,
  charge: LineCharge,
  facts: LineFacts,
): { ok: true; line: SourceLine } | { ok: false; problem: MappingProblem } {
  const standard = ITBMS_RATES.find((r) => fractionEquals(r.rate, charge.rate));
  const common = {
    description: facts.description,
    code: facts.code,
    quantity: facts.quantity,
    chargedTax: cents(charge.tax),
    ...(facts.gtin === undefined ? {} : { gtin: facts.gtin }),
  };
  if (standard !== undefined) {
    const line: SourceLine = {
      ...common,
      rateCode: standard.code,
      rate: standard.rate,
      listUnit: order.taxesIncluded ? netUnitPrice(facts.price, charge.rate) : cents(facts.price),
      pricing: order.taxesIncluded ? { kind: 'gross', gross: cents(charge.base) } : { kind: 'net', net: cents(charge.base) },
      pooled: true,
    };
    return { ok: true, line };
  }
  const rateText = formatFraction(charge.rate);
  const mappedCode = rateText === undefined ? undefined : ownEntry(settings.taxRateCodes, rateText);
  const mapped = ITBMS_RATES.find((r) => r.code === mappedCode);
  if (mapped === undefined) {
    const percent = formatFraction({ num: charge.rate.num * 100, den: charge.rate.den }) ?? rateText ?? '?';
    return { ok: false, problem: problems.unsupportedTaxRate(percent, facts.what, `${facts.path}.tax_lines`) };
  }
  // A mapped rate: what the buyer paid for the line becomes the tax-inclusive price at the DGI rate.
  const gross = order.taxesIncluded ? charge.base : charge.base + charge.tax;
  const unitGross: Fraction = order.taxesIncluded
    ? { num: facts.price, den: 1 }
    : { num: facts.price * (charge.rate.den + charge.rate.num), den: charge.rate.den };
  const line: SourceLine = {
    ...common,
    rateCode: mapped.code,
    rate: mapped.rate,
    listUnit: cents(divRoundHalfUp(unitGross.num * mapped.rate.den, unitGross.den * (mapped.rate.den + mapped.rate.num))),
    pricing: { kind: 'gross', gross: cents(gross) },
    pooled: false,
  };
  return { ok: true, line };
}

/** Tax-inclusive unit price → net unit price, rounded to the cent (used only as the shown list price). */
function netUnitPrice(price: number, rate: Fraction): Cents {
  return cents(divRoundHalfUp(price * rate.den, rate.den + rate.num));
}

function allocated(allocations: ShopifyDiscountAllocation[]): number {
  return allocations.reduce((sum, a) => sum + a.amount, 0);
}

function taxOf(taxLines: ShopifyTaxLine[]): { tax: number; rate: Fraction } {
  let tax = 0;
  let rate = ZERO;
  for (const t of taxLines) {
    tax += t.amount;
    rate = addFractions(rate, t.rate);
  }
  return { tax, rate };
}

/**
 * A line item's charge for the units still on the order. Discounts and tax are Shopify's for the
 * ordered quantity; when units were removed they are prorated (the order totals check catches a
 * difference from what Shopify computed).
 */
export function lineItemCharge(item: ShopifyLineItem): LineCharge {
  const { tax, rate } = taxOf(item.taxLines);
  let discount = allocated(item.discountAllocations);
  let lineTax = tax;
  const units = item.currentQuantity;
  if (units < item.quantity) {
    discount = divRoundHalfUp(discount * units, item.quantity);
    lineTax = divRoundHalfUp(tax * units, item.quantity);
  }
  return { base: item.price * units - discount, tax: lineTax, rate };
}

export function shippingCharge(shipping: ShopifyShippingLine): LineCharge {
  const { tax, rate } = taxOf(shipping.taxLines);
  return { base: shipping.price - allocated(shipping.discountAllocations), tax, rate };
}

/** An item as the gateway receives it (credit notes write their items the same way). */
export function toGatewayItem(line: Pick<SourceLine, 'description' | 'code' | 'rateCode' | 'gtin'>, a: ItemAmounts): GatewayItem {
  const amount = formatCents(a.amount * 100);
  const item: GatewayItem = {
    description: line.description,
    code: line.code,
    amount,
    priceUnit: formatCents(a.priceUnit),
    priceUnitDiscount: formatCents(a.priceUnitDiscount),
    priceItem: formatCents(a.priceItem),
    rateITBMS: line.rateCode,
    valueITBMS: formatCents(a.valueITBMS),
    totalValue: formatCents(a.totalValue),
  };
  if (line.gtin !== undefined) {
    item.codeGTIN = line.gtin;
    item.cantGTINCom = amount;
    item.codeGTINInv = line.gtin;
    item.cantGTINComInv = amount;
  }
  return item;
}

// ---------------------------------------------------------------------------------------------
// Descriptions and codes

const MAX_DESCRIPTION = 500;
const MAX_CODE = 20;

function clip(text: string, max: number): string {
  // UTF-16 length ≥ code points: a short string needs no counting.
  if (text.length <= max) return text;
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

/** At least `min` characters (code points), counting only when the UTF-16 length is ambiguous. */
function hasChars(text: string, min: number): boolean {
  return text.length >= 2 * min || [...text].length >= min;
}

/** Runs of whitespace as one space, trimmed; the regex only when there is something to squeeze. */
function squeeze(text: string): string {
  return /\s\s|[\t\n\r]/.test(text) ? text.replace(/\s+/g, ' ').trim() : text.trim();
}

/** `name` is "Product - Variant"; a description must have 2 to 500 characters. */
export function itemDescription(item: ShopifyLineItem): string {
  const text = squeeze(item.name || item.title);
  if (hasChars(text, 2)) return clip(text, MAX_DESCRIPTION);
  return text === '' ? 'Artículo' : `Artículo ${text}`;
}

/** The SKU; else a code that stays the same for the same variant (or product) across orders. */
export function itemCode(item: ShopifyLineItem, index: number): string {
  if (item.sku !== undefined) return clip(item.sku, MAX_CODE);
  if (item.variantId !== undefined) return clip(`V${item.variantId}`, MAX_CODE);
  if (item.productId !== undefined) return clip(`P${item.productId}`, MAX_CODE);
  const lineId = item.gid?.split('/').pop();
  return lineId ? clip(`L${lineId}`, MAX_CODE) : `ITEM-${index + 1}`;
}

function shippingDescription(shipping: ShopifyShippingLine, label: string): string {
  const title = squeeze(shipping.title);
  if (title === '') return label;
  const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  if (plain(title).startsWith(plain(label))) return clip(title, MAX_DESCRIPTION);
  return clip(`${label} - ${title}`, MAX_DESCRIPTION);
}

/** A barcode that is a GTIN-8/12/13/14 with a correct GS1 check digit; anything else is not sent. */
export function validGtin(barcode: string | undefined): string | undefined {
  if (barcode === undefined) return undefined;
  const digits = barcode.trim();
  if (!/^(\d{8}|\d{12,14})$/.test(digits)) return undefined;
  let sum = 0;
  for (let i = digits.length - 2, weight = 3; i >= 0; i--, weight = 4 - weight) sum += Number(digits[i]) * weight;
  const check = (10 - (sum % 10)) % 10;
  return check === Number(digits[digits.length - 1]) ? digits : undefined;
}
