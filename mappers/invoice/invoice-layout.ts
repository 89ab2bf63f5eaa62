// Which items of an authorized invoice belong to which Shopify line of its order. The invoice was mapped from this
// very order by invoice-lines.ts, so its items follow the order: each line item still on the order gives one or two
// items (split units) with the line's code, gift cards only when the shop invoiced them, then one item per charged
// shipping line, then the tip when invoiced. Reading the document as sent (not re-mapping the order) keeps a credit
// note true to what the DGI received even if the shop's settings changed since. Pure.
import type { GatewayItem } from '../gateway/gateway-document.ts';
import { ITBMS_RATES, itemCode, shippingCharge } from './invoice-lines.ts';
import { type MappingProblem, problems } from '../mapping-problems.ts';
import { type Cents, type Fraction, addFractions, cents, fractionEquals, parseCents } from '../fiscal/money.ts';
import type { ShopifyOrder, ShopifyTaxLine } from '../shopify/shopify-order.ts';

/** One invoice item in cents. */
export interface InvoicePiece {
  item: GatewayItem;
  units: number;
  priceUnit: Cents;
  net: Cents;
  tax: Cents;
}

/**
 * What a credit note credits against: the items of one code at one rate (almost always one Shopify line; two lines
 * of the same variant share one group and one cap).
 */
export interface InvoiceGroup {
  key: string;
  kind: 'line' | 'shipping' | 'tip';
  code: string;
  rateCode: string;
  rate: Fraction;
  description: string;
  gtin?: string;
  /** The list price shown as `priceUnit` (the lowest of the pieces, the others only differ when a unit is worth more). */
  listUnit: Cents;
  pieces: InvoicePiece[];
  units: number;
  net: Cents;
  tax: Cents;
  /** Shopify's rate is not the ITBMS rate: the line was invoiced at a mapped rate (settings `taxRateCodes`). */
  mappedRate: boolean;
}

export interface InvoiceLayout {
  groups: InvoiceGroup[];
  /** Order line GID → its group; undefined for a line the invoice left out (a gift card). */
  lines: Map<string, InvoiceGroup | undefined>;
  shipping: { title: string; price: Cents; group: InvoiceGroup }[];
  /** The tip's group when the invoice includes the tip. */
  tip?: InvoiceGroup;
  taxesIncluded: boolean;
  total: Cents;
}

export type InvoiceLayoutResult = { ok: true; layout: InvoiceLayout } | { ok: false; problems: MappingProblem[] };

export function readInvoiceLayout(order: ShopifyOrder, items: readonly GatewayItem[]): InvoiceLayoutResult {
  const pieces: InvoicePiece[] = [];
  for (const [i, item] of items.entries()) {
    const piece = readPiece(item);
    if (piece === undefined) return unreadable(`item ${i + 1} has an amount the app did not write`);
    pieces.push(piece);
  }
  const groups = new Map<string, InvoiceGroup>();
  const layout: InvoiceLayout = { groups: [], lines: new Map(), shipping: [], taxesIncluded: order.taxesIncluded, total: cents(0) };
  let next = 0;

  for (const [index, line] of order.lineItems.entries()) {
    if (line.currentQuantity === 0) continue;
    const code = itemCode(line, index);
    const taken = takeUnits(pieces, next, code, line.currentQuantity);
    if (taken === 0) {
      if (!line.giftCard) return unreadable(`no invoice item for line ${index + 1} (${line.name})`);
      if (line.gid !== undefined) layout.lines.set(line.gid, undefined);
      continue;
    }
    const group = join(groups, 'line', pieces.slice(next, next + taken), line.taxLines);
    if (line.gid !== undefined) layout.lines.set(line.gid, group);
    next += taken;
  }

  for (const shipping of order.shippingLines) {
    if (shipping.isRemoved) continue;
    const charge = shippingCharge(shipping);
    if (charge.base === 0 && charge.tax === 0) continue;
    const piece = pieces[next];
    if (piece === undefined || piece.units !== 1) return unreadable(`no invoice item for shipping "${shipping.title}"`);
    const group = join(groups, 'shipping', [piece], shipping.taxLines);
    layout.shipping.push({ title: shipping.title, price: shipping.price, group });
    next++;
  }

  if (order.totalTip > 0 && next < pieces.length) {
    layout.tip = join(groups, 'tip', [pieces[next]!], []);
    next++;
  }
  if (next !== pieces.length) return unreadable(`${pieces.length - next} invoice items do not belong to any line of the order`);

  layout.groups = [...groups.values()];
  layout.total = cents(pieces.reduce((a, p) => a + p.net + p.tax, 0));
  return { ok: true, layout };
}

/**
 * The invoice's groups from its items alone, when the order is not at hand (a full credit note). Every group counts
 * units.
 */
export function invoiceOnlyLayout(items: readonly GatewayItem[]): InvoiceLayoutResult {
  const groups = new Map<string, InvoiceGroup>();
  let total = 0;
  for (const [i, item] of items.entries()) {
    const piece = readPiece(item);
    if (piece === undefined) return unreadable(`item ${i + 1} has an amount the app did not write`);
    join(groups, 'line', [piece], undefined);
    total += piece.net + piece.tax;
  }
  return { ok: true, layout: { groups: [...groups.values()], lines: new Map(), shipping: [], taxesIncluded: false, total: cents(total) } };
}

function unreadable(detail: string): InvoiceLayoutResult {
  return { ok: false, problems: [problems.invoiceNotReadable(detail)] };
}

/** How many pieces from `start` make up `units` units of `code` (one, or two when the line was split); 0 if none do. */
function takeUnits(pieces: InvoicePiece[], start: number, code: string, units: number): number {
  let sum = 0;
  for (let n = 1; n <= 2; n++) {
    const piece = pieces[start + n - 1];
    if (piece === undefined || piece.item.code !== code) return 0;
    sum += piece.units;
    if (sum === units) return n;
  }
  return 0;
}

/** Add pieces to their group; `taxLines` are Shopify's for the line (undefined: the invoice's rate is Shopify's). */
function join(
  groups: Map<string, InvoiceGroup>,
  kind: InvoiceGroup['kind'],
  pieces: InvoicePiece[],
  taxLines: ShopifyTaxLine[] | undefined,
): InvoiceGroup {
  const first = pieces[0]!.item;
  const key = `${kind}\u0000${first.code}\u0000${first.rateITBMS}`;
  const rate = ITBMS_RATES.find((r) => r.code === first.rateITBMS)!.rate;
  const shopifyRate = taxLines?.reduce<Fraction>((sum, t) => addFractions(sum, t.rate), { num: 0, den: 1 }) ?? rate;
  let group = groups.get(key);
  if (group === undefined) {
    group = {
      key,
      kind,
      code: first.code,
      rateCode: first.rateITBMS,
      rate,
      description: first.description,
      ...(first.codeGTIN === undefined ? {} : { gtin: first.codeGTIN }),
      listUnit: pieces[0]!.priceUnit,
      pieces: [],
      units: 0,
      net: cents(0),
      tax: cents(0),
      mappedRate: !fractionEquals(shopifyRate, rate),
    };
    groups.set(key, group);
  }
  for (const p of pieces) {
    group.pieces.push(p);
    group.units += p.units;
    group.net = cents(group.net + p.net);
    group.tax = cents(group.tax + p.tax);
    if (p.priceUnit > 0 && (group.listUnit === 0 || p.priceUnit < group.listUnit)) group.listUnit = p.priceUnit;
  }
  return group;
}

function readPiece(item: GatewayItem): InvoicePiece | undefined {
  const amount = parseCents(item.amount);
  const priceUnit = parseCents(item.priceUnit);
  const net = parseCents(item.priceItem);
  const tax = parseCents(item.valueITBMS);
  if (amount === undefined || priceUnit === undefined || net === undefined || tax === undefined) return undefined;
  if (amount <= 0 || amount % 100 !== 0 || !ITBMS_RATES.some((r) => r.code === item.rateITBMS)) return undefined;
  return { item, units: amount / 100, priceUnit, net, tax };
}
