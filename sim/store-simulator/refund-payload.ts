// The `refunds/create` body Shopify would send for a refund of a REST order, computed the way Shopify computes it
// (docs/reference/shopify-refunds.md §1.4–§1.7): a refunded line's subtotal and tax are its discounted total and its tax
// prorated by quantity and rounded to the cent, the last refund of a line taking what is left; refunded shipping is a
// `refund_shipping_lines` entry with the shipping line's snapshot and no tax field; money beyond the lines is a
// negative `refund_discrepancy` adjustment with tax 0; a pending refund adds a positive adjustment of its whole
// amount; the money goes back in one `refund` transaction. Pure: the order, its earlier refunds and the request are
// inputs. Tips are refunded as a line whose snapshot carries `tip_payment_gateway` (inferred: not seen documented).
import { divRoundHalfUp, formatCents, parseCents } from '../../mappers/fiscal/money.ts';
import { type ShopifyLineItem, type ShopifyShippingLine, parseShopifyOrder } from '../../mappers/shopify/shopify-order.ts';
import { type ShopifyRefund, parseShopifyRefund } from '../../mappers/shopify/shopify-refund.ts';

type Json = Record<string, unknown>;

export type RestockType = 'no_restock' | 'cancel' | 'return';

export interface RefundRequest {
  /** Order lines by their REST id, with the units to refund. */
  lines?: { lineItemId: number | string; quantity: number; restockType?: RestockType; locationId?: number }[];
  /** Every shipping line's remaining amount, or an amount (cents) of the first shipping line that still has it. */
  shipping?: 'full' | { amount: number };
  /** Money with no line (a goodwill refund, cents), and the adjustment's reason. */
  amountOnly?: { amount: number; reason?: string };
  /** Refund the order's tip. */
  tip?: boolean;
  /** Return no money for the lines (restock only): a positive discrepancy and no transaction. */
  noMoney?: boolean;
  /** Default: the order's first payment gateway. */
  gateway?: string;
  /** Default 'success'. */
  status?: 'success' | 'pending';
  /** Refund id; default derived from the order id and the number of earlier refunds. */
  id?: number;
  /** Default: the order's `processed_at`. */
  createdAt?: string;
  note?: string;
  userId?: number;
}

/** A request Shopify would refuse (more units than are left, unknown line, no shipping left…). */
export class RefundRequestError extends Error {}

interface Parsed {
  json: Json;
  currency: string;
  included: boolean;
}

export function buildRefundPayload(order: Json, previous: readonly Json[], request: RefundRequest): Json {
  const parsed = parseShopifyOrder(order);
  if (!parsed.ok) throw new RefundRequestError(`the order cannot be read: ${parsed.problems.map((p) => p.path).join(', ')}`);
  const o: Parsed = { json: order, currency: parsed.order.currency, included: parsed.order.taxesIncluded };
  const earlier = previous.map((r, i) => {
    const read = parseShopifyRefund(r);
    if (!read.ok) throw new RefundRequestError(`earlier refund ${i + 1} cannot be read`);
    return read.refund;
  });
  const refundId = request.id ?? 9_400_000_000_000 + (Number(order['id']) % 100_000_000) * 10 + previous.length + 1;
  const createdAt = request.createdAt ?? String(order['processed_at'] ?? order['created_at']);
  const money = (c: number) => bag(c, o.currency);

  const lines = (request.lines ?? []).map((l, k) => refundLine(o, parsed.order.lineItems, earlier, l, refundId * 100 + k + 1));
  if (request.tip)
    lines.push(tipLine(o, parsed.order.totalTip, earlier, request.gateway ?? firstGateway(order), refundId * 100 + lines.length + 1));
  const shipping =
    request.shipping === undefined ? [] : shippingLines(o, parsed.order.shippingLines, earlier, request.shipping, refundId * 100 + 50);
  let total = [...lines, ...shipping].reduce((a, l) => a + l.money, 0);

  const adjustments: Json[] = [];
  const adjustment = (amount: number, reason: string) =>
    adjustments.push({
      id: refundId * 100 + 80 + adjustments.length,
      order_id: order['id'],
      refund_id: refundId,
      amount: formatCents(amount),
      tax_amount: '0.00',
      reason,
      amount_set: money(amount),
      tax_amount_set: money(0),
    });
  if (request.noMoney) {
    adjustment(total, 'Refund discrepancy');
    total = 0;
  }
  if (request.amountOnly !== undefined) {
    adjustment(-request.amountOnly.amount, request.amountOnly.reason ?? 'Refund discrepancy');
    total += request.amountOnly.amount;
  }
  // Shopify refunds at most what was paid and not yet refunded.
  const paid = centsOfText(order['total_price']);
  const refunded = earlier.flatMap((r) => r.transactions).filter((t) => t.kind === 'refund' && t.status === 'success');
  const refundable = paid - refunded.reduce((a, t) => a + t.amount, 0);
  if (total > refundable) throw new RefundRequestError(`${formatCents(total)} asked, ${formatCents(refundable)} left to refund`);
  const status = request.status ?? 'success';
  if (status === 'pending' && total > 0) adjustment(total, 'Pending refund discrepancy');

  const transactions = total > 0 ? [transaction(o, refundId, request, total, previous.length)] : [];
  return {
    id: refundId,
    order_id: order['id'],
    created_at: createdAt,
    note: request.note ?? null,
    user_id: request.userId ?? null,
    processed_at: createdAt,
    duties: [],
    total_duties_set: money(0),
    return: null,
    refund_shipping_lines: shipping.map((s) => s.json),
    restock: lines.some((l) => l.json['restock_type'] !== 'no_restock'),
    admin_graphql_api_id: `gid://shopify/Refund/${refundId}`,
    order_adjustments: adjustments,
    refund_line_items: lines.map((l) => l.json),
    transactions,
  };
}

interface Built {
  json: Json;
  /** Money this part returns (tax added unless the shop includes it). */
  money: number;
}

function refundLine(
  o: Parsed,
  items: ShopifyLineItem[],
  earlier: ShopifyRefund[],
  req: NonNullable<RefundRequest['lines']>[number],
  id: number,
): Built {
  const rawLines = o.json['line_items'] as Json[];
  const index = rawLines.findIndex((l) => String(l['id']) === String(req.lineItemId));
  const item = items[index];
  if (item === undefined || item.gid === undefined) throw new RefundRequestError(`the order has no line ${req.lineItemId}`);
  if (!Number.isSafeInteger(req.quantity) || req.quantity < 1)
    throw new RefundRequestError(`line ${req.lineItemId}: refund at least one unit`);
  const before = earlier.flatMap((r) => r.lines).filter((l) => l.lineItemGid === item.gid);
  const units = before.reduce((a, l) => a + l.quantity, 0);
  if (units + req.quantity > item.quantity) {
    throw new RefundRequestError(`line ${req.lineItemId}: ${req.quantity} units asked, ${item.quantity - units} left to refund`);
  }
  const net = item.price * item.quantity - item.discountAllocations.reduce((a, d) => a + d.amount, 0);
  const tax = item.taxLines.reduce((a, t) => a + t.amount, 0);
  const last = units + req.quantity === item.quantity;
  const subtotal = last ? net - before.reduce((a, l) => a + l.subtotal, 0) : divRoundHalfUp(net * req.quantity, item.quantity);
  const totalTax = last ? tax - before.reduce((a, l) => a + l.tax, 0) : divRoundHalfUp(tax * req.quantity, item.quantity);
  const restockType = req.restockType ?? 'no_restock';
  const raw = rawLines[index]!;
  const snapshot = { ...raw };
  if (restockType === 'cancel') snapshot['fulfillable_quantity'] = Math.max(0, Number(raw['fulfillable_quantity'] ?? 0) - req.quantity);
  return {
    json: {
      id,
      quantity: req.quantity,
      line_item_id: raw['id'],
      location_id: restockType === 'no_restock' ? null : (req.locationId ?? null),
      restock_type: restockType,
      subtotal: Number(formatCents(subtotal)),
      total_tax: Number(formatCents(totalTax)),
      subtotal_set: bag(subtotal, o.currency),
      total_tax_set: bag(totalTax, o.currency),
      line_item: snapshot,
    },
    money: subtotal + (o.included ? 0 : totalTax),
  };
}

function tipLine(o: Parsed, tip: number, earlier: ShopifyRefund[], gateway: string, id: number): Built {
  if (tip <= 0) throw new RefundRequestError('the order has no tip');
  if (earlier.some((r) => r.lines.some((l) => l.tip))) throw new RefundRequestError('the tip was already refunded');
  const lineId = Number(o.json['id']) * 10 + 9;
  const snapshot = {
    id: lineId,
    admin_graphql_api_id: `gid://shopify/LineItem/${lineId}`,
    name: 'Tip',
    title: 'Tip',
    quantity: 1,
    price: formatCents(tip),
    price_set: bag(tip, o.currency),
    gift_card: false,
    taxable: false,
    tax_lines: [],
    discount_allocations: [],
    tip_payment_gateway: gateway,
    tip_payment_method: gateway,
  };
  return {
    json: {
      id,
      quantity: 1,
      line_item_id: lineId,
      location_id: null,
      restock_type: 'no_restock',
      subtotal: Number(formatCents(tip)),
      total_tax: 0,
      subtotal_set: bag(tip, o.currency),
      total_tax_set: bag(0, o.currency),
      line_item: snapshot,
    },
    money: tip,
  };
}

/** Refunded shipping: what is left of each line replayed from the earlier refunds, then this request. */
function shippingLines(
  o: Parsed,
  shipping: ShopifyShippingLine[],
  earlier: ShopifyRefund[],
  request: 'full' | { amount: number },
  firstId: number,
): Built[] {
  const raw = (o.json['shipping_lines'] as Json[] | undefined) ?? [];
  const open = shipping.flatMap((line, i) => {
    if (line.isRemoved) return [];
    const net = line.price - line.discountAllocations.reduce((a, d) => a + d.amount, 0);
    const tax = line.taxLines.reduce((a, t) => a + t.amount, 0);
    // A partial amount carries its share of the tax that is left, so the line's refunds never exceed its tax.
    const taxOf = (s: number, left: { net: number; tax: number }) => (s === left.net ? left.tax : divRoundHalfUp(left.tax * s, left.net));
    const left = { net, tax };
    for (const s of earlier.flatMap((r) => r.shippingLines).filter((x) => x.shippingLineId === String(raw[i]!['id']))) {
      const t = taxOf(s.subtotal, left);
      left.net -= s.subtotal;
      left.tax -= t;
    }
    return left.net > 0 ? [{ i, left, taxOf }] : [];
  });
  const chosen =
    request === 'full'
      ? open.map((x) => ({ ...x, subtotal: x.left.net }))
      : open
          .filter((x) => x.left.net >= request.amount && request.amount > 0)
          .slice(0, 1)
          .map((x) => ({ ...x, subtotal: request.amount }));
  if (chosen.length === 0) throw new RefundRequestError('no shipping is left to refund for that amount');
  return chosen.map(({ i, left, taxOf, subtotal }) => {
    const { current_discounted_price_set: _current, is_removed: _removed, ...snapshot } = raw[i]!;
    return {
      json: { id: firstId + i, shipping_line_id: raw[i]!['id'], subtotal_amount_set: bag(subtotal, o.currency), shipping_line: snapshot },
      money: subtotal + (o.included ? 0 : taxOf(subtotal, left)),
    };
  });
}

function transaction(o: Parsed, refundId: number, request: RefundRequest, total: number, earlierCount: number): Json {
  const gateway = request.gateway ?? firstGateway(o.json);
  const amount = formatCents(total);
  const status = request.status ?? 'success';
  const createdAt = request.createdAt ?? String(o.json['processed_at'] ?? o.json['created_at']);
  const currency = String(o.json['presentment_currency'] ?? o.currency);
  return {
    id: refundId * 100 + 99,
    order_id: o.json['id'],
    kind: 'refund',
    gateway,
    status,
    message: status === 'pending' ? 'Refund pending' : `Refunded ${amount} from ${gateway} gateway`,
    created_at: createdAt,
    test: o.json['test'] === true,
    authorization: null,
    location_id: null,
    user_id: request.userId ?? null,
    parent_id: null,
    processed_at: createdAt,
    device_id: null,
    error_code: null,
    source_name: '1830279',
    receipt: {},
    amount,
    currency,
    payment_id: `${String(o.json['name'])}.${earlierCount + 2}`,
    total_unsettled_set: {
      presentment_money: { amount: '0.0', currency },
      shop_money: { amount: '0.0', currency: o.currency },
    },
    manual_payment_gateway: gateway === 'manual',
    amount_rounding: null,
    admin_graphql_api_id: `gid://shopify/OrderTransaction/${refundId * 100 + 99}`,
  };
}

function centsOfText(value: unknown): number {
  const c = typeof value === 'string' ? parseCents(value) : undefined;
  if (c === undefined) throw new RefundRequestError('the order has no total_price');
  return c;
}

function firstGateway(order: Json): string {
  const names = order['payment_gateway_names'];
  return Array.isArray(names) && typeof names[0] === 'string' ? names[0] : 'manual';
}

function bag(c: number, currency: string) {
  return {
    shop_money: { amount: formatCents(c), currency_code: currency },
    presentment_money: { amount: formatCents(c), currency_code: currency },
  };
}
