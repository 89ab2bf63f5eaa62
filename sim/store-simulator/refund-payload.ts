// The `refunds/create` body Shopify would send for a refund of a REST order, computed the way Shopify computes it
// (docs/reference/shopify-refunds.md §1.4–§1.7): a refunded line's subtotal and tax are its discounted total and its tax
// prorated by quantity and rounded to the cent, the last refund of a line taking what is left; refunded shipping is a
// `refund_shipping_lines` entry with the shipping line's snapshot and no tax field; money beyond the lines is a
// negative `refund_discrepancy` adjustment with tax 0; a pending refund adds a positive adjustment of its whole
// amount; the money goes back in one `refund` transaction. Pure: the order, its earlier refunds and the request are
// inputs, read from their REST JSON by refund-reading.ts. Tips are refunded as a line whose snapshot carries
// `tip_payment_gateway` (inferred: not seen documented).
import { decimalText, prorate } from './cents.ts';
import type { RefundRequest } from './types.ts';
import { type OrderLine, type RefundedOrder, RefundRequestError, type Taken, readOrder, readTaken } from './refund-reading.ts';

export { RefundRequestError };

type Json = Record<string, unknown>;

export type { RefundRequest, RestockType } from './types.ts';

export function buildRefundPayload(order: Json, previous: readonly Json[], request: RefundRequest): Json {
  const o = readOrder(order);
  const taken = readTaken(previous);
  const refundId = request.id ?? 9_400_000_000_000 + (Number(order['id']) % 100_000_000) * 10 + previous.length + 1;
  const createdAt = request.createdAt ?? String(order['processed_at'] ?? order['created_at']);
  const money = (c: number) => bag(c, o.currency);

  const lines = (request.lines ?? []).map((l, k) => refundLine(o, taken, l, refundId * 100 + k + 1));
  if (request.tip) lines.push(tipLine(o, taken, request.gateway ?? firstGateway(order), refundId * 100 + lines.length + 1));
  const shipping = request.shipping === undefined ? [] : shippingLines(o, taken, request.shipping, refundId * 100 + 50);
  let total = [...lines, ...shipping].reduce((a, l) => a + l.money, 0);

  const adjustments: Json[] = [];
  const adjustment = (amount: number, reason: string) =>
    adjustments.push({
      id: refundId * 100 + 80 + adjustments.length,
      order_id: order['id'],
      refund_id: refundId,
      amount: decimalText(amount),
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
  const refundable = o.paid - taken.refunded;
  if (total > refundable) throw new RefundRequestError(`${decimalText(total)} asked, ${decimalText(refundable)} left to refund`);
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

function refundLine(o: RefundedOrder, taken: Taken, req: NonNullable<RefundRequest['lines']>[number], id: number): Built {
  const item: OrderLine | undefined = o.lines.find((l) => l.id !== '' && l.id === String(req.lineItemId));
  if (item === undefined) throw new RefundRequestError(`the order has no line ${req.lineItemId}`);
  if (!Number.isSafeInteger(req.quantity) || req.quantity < 1)
    throw new RefundRequestError(`line ${req.lineItemId}: refund at least one unit`);
  const before = taken.lines.filter((l) => l.lineItemId === item.id);
  const units = before.reduce((a, l) => a + l.quantity, 0);
  if (units + req.quantity > item.quantity) {
    throw new RefundRequestError(`line ${req.lineItemId}: ${req.quantity} units asked, ${item.quantity - units} left to refund`);
  }
  const last = units + req.quantity === item.quantity;
  const subtotal = last ? item.net - before.reduce((a, l) => a + l.subtotal, 0) : prorate(item.net, req.quantity, item.quantity);
  const totalTax = last ? item.tax - before.reduce((a, l) => a + l.tax, 0) : prorate(item.tax, req.quantity, item.quantity);
  const restockType = req.restockType ?? 'no_restock';
  const snapshot = { ...item.raw };
  if (restockType === 'cancel')
    snapshot['fulfillable_quantity'] = Math.max(0, Number(item.raw['fulfillable_quantity'] ?? 0) - req.quantity);
  return {
    json: {
      id,
      quantity: req.quantity,
      line_item_id: item.raw['id'],
      location_id: restockType === 'no_restock' ? null : (req.locationId ?? null),
      restock_type: restockType,
      subtotal: Number(decimalText(subtotal)),
      total_tax: Number(decimalText(totalTax)),
      subtotal_set: bag(subtotal, o.currency),
      total_tax_set: bag(totalTax, o.currency),
      line_item: snapshot,
    },
    money: subtotal + (o.included ? 0 : totalTax),
  };
}

function tipLine(o: RefundedOrder, taken: Taken, gateway: string, id: number): Built {
  const tip = o.tip;
  if (tip <= 0) throw new RefundRequestError('the order has no tip');
  if (taken.lines.some((l) => l.tip)) throw new RefundRequestError('the tip was already refunded');
  const lineId = Number(o.json['id']) * 10 + 9;
  const snapshot = {
    id: lineId,
    admin_graphql_api_id: `gid://shopify/LineItem/${lineId}`,
    name: 'Tip',
    title: 'Tip',
    quantity: 1,
    price: decimalText(tip),
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
      subtotal: Number(decimalText(tip)),
      total_tax: 0,
      subtotal_set: bag(tip, o.currency),
      total_tax_set: bag(0, o.currency),
      line_item: snapshot,
    },
    money: tip,
  };
}

/** Refunded shipping: what is left of each line replayed from the earlier refunds, then this request. */
function shippingLines(o: RefundedOrder, taken: Taken, request: 'full' | { amount: number }, firstId: number): Built[] {
  const open = o.shipping.flatMap((line, i) => {
    if (line.removed) return [];
    // A partial amount carries its share of the tax that is left, so the line's refunds never exceed its tax.
    const taxOf = (s: number, left: { net: number; tax: number }) => (s === left.net ? left.tax : prorate(left.tax, s, left.net));
    const left = { net: line.net, tax: line.tax };
    for (const s of taken.shipping.filter((x) => x.shippingLineId === line.id)) {
      const t = taxOf(s.subtotal, left);
      left.net -= s.subtotal;
      left.tax -= t;
    }
    return left.net > 0 ? [{ i, line, left, taxOf }] : [];
  });
  const chosen =
    request === 'full'
      ? open.map((x) => ({ ...x, subtotal: x.left.net }))
      : open
          .filter((x) => x.left.net >= request.amount && request.amount > 0)
          .slice(0, 1)
          .map((x) => ({ ...x, subtotal: request.amount }));
  if (chosen.length === 0) throw new RefundRequestError('no shipping is left to refund for that amount');
  return chosen.map(({ i, line, left, taxOf, subtotal }) => {
    const { current_discounted_price_set: _current, is_removed: _removed, ...snapshot } = line.raw;
    return {
      json: { id: firstId + i, shipping_line_id: line.raw['id'], subtotal_amount_set: bag(subtotal, o.currency), shipping_line: snapshot },
      money: subtotal + (o.included ? 0 : taxOf(subtotal, left)),
    };
  });
}

function transaction(o: RefundedOrder, refundId: number, request: RefundRequest, total: number, earlierCount: number): Json {
  const gateway = request.gateway ?? firstGateway(o.json);
  const amount = decimalText(total);
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

function firstGateway(order: Json): string {
  const names = order['payment_gateway_names'];
  return Array.isArray(names) && typeof names[0] === 'string' ? names[0] : 'manual';
}

function bag(c: number, currency: string) {
  return {
    shop_money: { amount: decimalText(c), currency_code: currency },
    presentment_money: { amount: decimalText(c), currency_code: currency },
  };
}
