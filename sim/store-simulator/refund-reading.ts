// What a refund is computed from, read straight out of Shopify's REST JSON: the order's lines, shipping lines, tip,
// total and currency (docs/reference/shopify.md §1), and what its earlier refunds already took — units, subtotals and
// taxes per line, shipping per shipping line, money per transaction (docs/reference/shopify-refunds.md §1.4–§1.7).
// Only the documented fields, shop money (`*_set.shop_money.amount`) before the plain amount. The simulator's own
// reading, not the app's parsers: it is what those parsers are checked against.
import { centsOf, centsOfValue } from './cents.ts';
import { refundedCents } from './rest-money.ts';
import { isRecord, numericId, records, str } from './rest-values.ts';

type Json = Record<string, unknown>;

/** A request Shopify would refuse (more units than are left, unknown line, no shipping left…). */
export class RefundRequestError extends Error {}

export interface OrderLine {
  raw: Json;
  id: string;
  quantity: number;
  /** price × quantity less the line's discount allocations, cents. */
  net: number;
  /** The line's tax lines summed, cents. */
  tax: number;
}

export interface OrderShippingLine {
  raw: Json;
  id: string;
  removed: boolean;
  /** price less its discount allocations, cents. */
  net: number;
  tax: number;
}

export interface RefundedOrder {
  json: Json;
  /** Shop currency: every amount here is in it. */
  currency: string;
  /** `taxes_included`: a line's money back is its subtotal alone. */
  included: boolean;
  /** `total_price`: at most this much is ever refunded. */
  paid: number;
  tip: number;
  lines: OrderLine[];
  shipping: OrderShippingLine[];
}

/** What earlier refunds of the order took. */
export interface Taken {
  lines: { lineItemId: string; quantity: number; subtotal: number; tax: number; tip: boolean }[];
  shipping: { shippingLineId: string; subtotal: number }[];
  /** Money given back by successful refund transactions, cents. */
  refunded: number;
}

export function readOrder(order: Json): RefundedOrder {
  const where = (field: string) => new RefundRequestError(`the order cannot be read: ${field}`);
  const currency = (str(order['currency']) ?? shopCurrency(order['total_price_set']))?.toUpperCase();
  if (currency === undefined) throw where('currency');
  if (!Array.isArray(order['line_items'])) throw where('line_items');
  const lines = records(order['line_items']).map((raw, i): OrderLine => {
    const at = `line_items[${i}]`;
    const quantity = raw['quantity'];
    if (typeof quantity !== 'number' || !Number.isSafeInteger(quantity) || quantity < 0) throw where(`${at}.quantity`);
    const price = money(raw['price_set'], raw['price'], () => where(`${at}.price`));
    return {
      raw,
      id: numericId(raw['id']) ?? '',
      quantity,
      net: price * quantity - allocated(raw, () => where(`${at}.discount_allocations`)),
      tax: taxed(raw, () => where(`${at}.tax_lines`)),
    };
  });
  const shipping = records(order['shipping_lines']).map((raw, i): OrderShippingLine => {
    const at = `shipping_lines[${i}]`;
    const price = money(raw['price_set'], raw['price'], () => where(`${at}.price`));
    return {
      raw,
      id: numericId(raw['id']) ?? '',
      removed: raw['is_removed'] === true,
      net: price - allocated(raw, () => where(`${at}.discount_allocations`)),
      tax: taxed(raw, () => where(`${at}.tax_lines`)),
    };
  });
  const tip =
    order['total_tip_received'] === undefined || order['total_tip_received'] === null ? 0 : centsOfValue(order['total_tip_received']);
  if (tip === undefined) throw where('total_tip_received');
  const paid = centsOfValue(order['total_price']);
  if (paid === undefined) throw new RefundRequestError('the order has no total_price');
  return { json: order, currency, included: order['taxes_included'] === true, paid, tip, lines, shipping };
}

/** Units, money and shipping the earlier refunds took, each refund read as its `refunds/create` body. */
export function readTaken(previous: readonly Json[]): Taken {
  const taken: Taken = { lines: [], shipping: [], refunded: 0 };
  previous.forEach((refund, i) => {
    const unreadable = () => new RefundRequestError(`earlier refund ${i + 1} cannot be read`);
    for (const l of records(refund['refund_line_items'])) {
      const snapshot = isRecord(l['line_item']) ? l['line_item'] : {};
      const lineItemId = numericId(l['line_item_id']) ?? numericId(snapshot['id']);
      const quantity = l['quantity'];
      if (lineItemId === undefined || typeof quantity !== 'number' || !Number.isSafeInteger(quantity)) throw unreadable();
      taken.lines.push({
        lineItemId,
        quantity,
        subtotal: money(l['subtotal_set'], l['subtotal'], unreadable),
        tax: money(l['total_tax_set'], l['total_tax'], unreadable),
        tip: (str(snapshot['tip_payment_gateway']) ?? '').trim() !== '',
      });
    }
    for (const s of records(refund['refund_shipping_lines'])) {
      const snapshot = isRecord(s['shipping_line']) ? s['shipping_line'] : {};
      const shippingLineId = numericId(s['shipping_line_id']) ?? numericId(snapshot['id']);
      if (shippingLineId === undefined) throw unreadable();
      taken.shipping.push({ shippingLineId, subtotal: money(s['subtotal_amount_set'], undefined, unreadable) });
    }
    for (const t of records(refund['transactions'])) if (centsOf(str(t['amount']) ?? '') === undefined) throw unreadable();
    taken.refunded += refundedCents(refund);
  });
  return taken;
}

/** Shop money of a REST money set, else the plain amount; `fail()` when neither reads as cents. */
function money(set: unknown, plain: unknown, fail: () => Error): number {
  const shop = isRecord(set) && isRecord(set['shop_money']) ? set['shop_money']['amount'] : undefined;
  const value = shop !== undefined ? centsOfValue(shop) : centsOfValue(plain);
  if (value === undefined) throw fail();
  return value;
}

function allocated(raw: Json, fail: () => Error): number {
  return records(raw['discount_allocations']).reduce((sum, d) => sum + money(d['amount_set'], d['amount'], fail), 0);
}

function taxed(raw: Json, fail: () => Error): number {
  return records(raw['tax_lines']).reduce((sum, t) => sum + money(t['price_set'], t['price'], fail), 0);
}

function shopCurrency(set: unknown): string | undefined {
  return isRecord(set) && isRecord(set['shop_money']) ? str(set['shop_money']['currency_code']) : undefined;
}
