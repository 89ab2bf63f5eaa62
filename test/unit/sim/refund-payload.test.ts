// The store simulator's refunds/create bodies (sim/store-simulator/refund-payload.ts) computed from an order the
// way Shopify computes them (docs/reference/shopify-refunds.md §1.4–§1.7): the five fixtures' bodies reproduced from their
// orders (structure and every money field), proration with the last refund taking the remainder, and the refusals.
import { describe, expect, it } from 'vitest';
import { type RefundRequest, RefundRequestError, buildRefundPayload } from '../../../sim/store-simulator/refund-payload.ts';
import { type RefundFixture, readRefundFixture } from '../../support/refund-fixtures.ts';

type Json = Record<string, unknown>;
type Money = { shop_money: { amount: string } };

const SHIRT = 14900000011021;
const BEER = 14900000011022;

/** Each fixture's refund, as a request on its order (after the refunds before it). */
const FIXTURES: Record<RefundFixture, { before: RefundFixture[]; request: RefundRequest }> = {
  'full-refund': {
    before: [],
    request: {
      lines: [
        { lineItemId: 14900000011011, quantity: 2, restockType: 'cancel', locationId: 77000000001 },
        { lineItemId: 14900000011012, quantity: 1, restockType: 'cancel', locationId: 77000000001 },
      ],
      shipping: 'full',
    },
  },
  'partial-line': { before: [], request: { lines: [{ lineItemId: SHIRT, quantity: 2, restockType: 'return', locationId: 77000000001 }] } },
  'second-partial': {
    before: ['partial-line'],
    request: {
      lines: [
        { lineItemId: SHIRT, quantity: 1, restockType: 'return', locationId: 77000000001 },
        { lineItemId: BEER, quantity: 1 },
      ],
      shipping: 'full',
    },
  },
  'shipping-only': { before: [], request: { shipping: 'full' } },
  'amount-only': { before: [], request: { amountOnly: { amount: 1000 } } },
};

const keys = (o: unknown) => Object.keys(o as Json);
const each = (body: Json, field: string) => body[field] as Json[];

/** The body's structure (keys at every level) and its money, the parts of a body a credit note reads. */
function shapeAndMoney(body: Json) {
  return {
    keys: keys(body),
    order_id: body['order_id'],
    restock: body['restock'],
    duties: body['duties'],
    total_duties_set: body['total_duties_set'],
    refund_line_items: each(body, 'refund_line_items').map((l) => {
      const snapshot = l['line_item'] as Json;
      return {
        keys: keys(l),
        ...pick(l, ['quantity', 'line_item_id', 'location_id', 'restock_type', 'subtotal', 'total_tax', 'subtotal_set', 'total_tax_set']),
        line_item: {
          ...pick(snapshot, ['id', 'admin_graphql_api_id', 'name', 'quantity', 'price_set']),
          discounts: (snapshot['discount_allocations'] as { amount_set: Money }[]).map((d) => d.amount_set),
          taxes: (snapshot['tax_lines'] as { rate: number; price_set: Money }[]).map((t) => [t.rate, t.price_set]),
        },
      };
    }),
    refund_shipping_lines: each(body, 'refund_shipping_lines').map((s) => {
      const snapshot = s['shipping_line'] as Json;
      return {
        keys: keys(s),
        snapshotKeys: keys(snapshot).sort(),
        ...pick(s, ['shipping_line_id', 'subtotal_amount_set']),
        taxes: (snapshot['tax_lines'] as { price_set: Money }[]).map((t) => t.price_set),
      };
    }),
    order_adjustments: each(body, 'order_adjustments').map((a) => ({
      keys: keys(a),
      ...pick(a, ['order_id', 'refund_id', 'amount', 'tax_amount', 'reason', 'amount_set', 'tax_amount_set']),
    })),
    transactions: each(body, 'transactions').map((t) => ({
      keys: keys(t),
      ...pick(t, ['order_id', 'kind', 'gateway', 'status', 'amount', 'currency', 'payment_id', 'test', 'manual_payment_gateway']),
    })),
  };
}

function pick(o: Json, fields: string[]): Json {
  return Object.fromEntries(fields.map((f) => [f, o[f]]));
}

function build(name: RefundFixture, request: RefundRequest): Json {
  const previous = FIXTURES[name].before.map((b) => readRefundFixture(b, 'refund'));
  return buildRefundPayload(readRefundFixture(name, 'order'), previous, request);
}

const amount = (m: unknown) => (m as Money).shop_money.amount;

describe('refund bodies computed like Shopify', () => {
  for (const name of Object.keys(FIXTURES) as RefundFixture[]) {
    it(`reproduces the ${name} fixture's body from its order`, () => {
      const fixture = readRefundFixture(name, 'refund');
      const built = build(name, { ...FIXTURES[name].request, id: fixture['id'] as number, createdAt: fixture['created_at'] as string });
      expect(shapeAndMoney(built)).toEqual(shapeAndMoney(fixture));
      expect(pick(built, ['id', 'admin_graphql_api_id', 'created_at', 'processed_at'])).toEqual(
        pick(fixture, ['id', 'admin_graphql_api_id', 'created_at', 'processed_at']),
      );
    });
  }

  it('prorates each refund of a line and gives the last one the remainder: 66.38 and 4.65 as 22.13, 22.13, 22.12 and 1.55 × 3', () => {
    const order = readRefundFixture('partial-line', 'order');
    const bodies: Json[] = [];
    for (let i = 0; i < 3; i++) bodies.push(buildRefundPayload(order, bodies, { lines: [{ lineItemId: SHIRT, quantity: 1 }] }));
    const lines = bodies.map((b) => each(b, 'refund_line_items')[0]!);
    expect(lines.map((l) => [amount(l['subtotal_set']), amount(l['total_tax_set']), l['subtotal'], l['total_tax']])).toEqual([
      ['22.13', '1.55', 22.13, 1.55],
      ['22.13', '1.55', 22.13, 1.55],
      ['22.12', '1.55', 22.12, 1.55],
    ]);
    expect(bodies.map((b) => each(b, 'transactions')[0]!['amount'])).toEqual(['23.68', '23.68', '23.67']);
    expect(bodies.map((b) => b['id'])).toEqual([9400000011021, 9400000011022, 9400000011023]);
  });

  it('refunds part of the shipping with its share of the tax in the money but not in the body, the rest with what is left', () => {
    const order = readRefundFixture('shipping-only', 'order');
    const part = buildRefundPayload(order, [], { shipping: { amount: 200 } });
    expect(keys(each(part, 'refund_shipping_lines')[0])).toEqual(['id', 'shipping_line_id', 'subtotal_amount_set', 'shipping_line']);
    // 0.42 × 2.00 / 6.00 = 0.14.
    expect(each(part, 'transactions')[0]!['amount']).toBe('2.14');
    const rest = buildRefundPayload(order, [part], { shipping: 'full' });
    expect(amount(each(rest, 'refund_shipping_lines')[0]!['subtotal_amount_set'])).toBe('4.00');
    expect(each(rest, 'transactions')[0]!['amount']).toBe('4.28');
  });

  it('adds a positive discrepancy of the whole amount for a pending refund, and one of the lines for a restock without money', () => {
    const order = readRefundFixture('partial-line', 'order');
    const pending = buildRefundPayload(order, [], { lines: [{ lineItemId: SHIRT, quantity: 2 }], status: 'pending' });
    expect(each(pending, 'order_adjustments').map((a) => [a['amount'], a['tax_amount'], a['reason']])).toEqual([
      ['47.35', '0.00', 'Pending refund discrepancy'],
    ]);
    expect(each(pending, 'transactions').map((t) => [t['status'], t['amount']])).toEqual([['pending', '47.35']]);
    const restock = buildRefundPayload(order, [], { lines: [{ lineItemId: SHIRT, quantity: 1, restockType: 'return' }], noMoney: true });
    expect(each(restock, 'order_adjustments').map((a) => [a['amount'], a['reason']])).toEqual([['23.68', 'Refund discrepancy']]);
    expect(restock['transactions']).toEqual([]);
    expect(restock['restock']).toBe(true);
  });

  it('refunds a tip as a line whose snapshot carries tip_payment_gateway', () => {
    const order = { ...readRefundFixture('partial-line', 'order'), total_tip_received: '2.50', total_price: '90.03' };
    const tip = each(buildRefundPayload(order, [], { tip: true }), 'refund_line_items')[0]!;
    expect(pick(tip, ['quantity', 'line_item_id', 'restock_type', 'subtotal', 'total_tax'])).toEqual({
      quantity: 1,
      line_item_id: 59000000011029,
      restock_type: 'no_restock',
      subtotal: 2.5,
      total_tax: 0,
    });
    expect(pick(tip['line_item'] as Json, ['name', 'tip_payment_gateway', 'gift_card'])).toEqual({
      name: 'Tip',
      tip_payment_gateway: 'bogus',
      gift_card: false,
    });
  });

  it('refuses what Shopify refuses, with the reason', () => {
    const order = readRefundFixture('partial-line', 'order');
    const first = buildRefundPayload(order, [], { lines: [{ lineItemId: SHIRT, quantity: 2 }] });
    const refusal = (previous: Json[], request: RefundRequest) => {
      try {
        buildRefundPayload(order, previous, request);
      } catch (e) {
        expect(e).toBeInstanceOf(RefundRequestError);
        return (e as Error).message;
      }
      return 'built';
    };
    expect(refusal([first], { lines: [{ lineItemId: SHIRT, quantity: 2 }] })).toBe(`line ${SHIRT}: 2 units asked, 1 left to refund`);
    expect(refusal([], { lines: [{ lineItemId: 1, quantity: 1 }] })).toBe('the order has no line 1');
    expect(refusal([], { lines: [{ lineItemId: SHIRT, quantity: 0 }] })).toBe(`line ${SHIRT}: refund at least one unit`);
    expect(refusal([], { shipping: { amount: 451 } })).toBe('no shipping is left to refund for that amount');
    expect(refusal([first], { amountOnly: { amount: 4019 } })).toBe('40.19 asked, 40.18 left to refund');
    expect(refusal([], { tip: true })).toBe('the order has no tip');
  });

  it('names what it cannot read in the order or an earlier refund, and builds nothing', () => {
    const order = readRefundFixture('partial-line', 'order');
    const lines = order['line_items'] as Json[];
    const badPrice = { ...order, line_items: [lines[0], { ...lines[1], price: 'free', price_set: { shop_money: { amount: '1.234' } } }] };
    const line = { lineItemId: SHIRT, quantity: 1 };
    expect(() => buildRefundPayload(badPrice, [], { lines: [line] })).toThrow(
      new RefundRequestError('the order cannot be read: line_items[1].price'),
    );
    const earlier = readRefundFixture('partial-line', 'refund');
    const [first] = earlier['refund_line_items'] as Json[];
    const noQuantity = { ...earlier, refund_line_items: [{ ...first, quantity: '2' }] };
    expect(() => buildRefundPayload(order, [noQuantity], { lines: [line] })).toThrow(
      new RefundRequestError('earlier refund 1 cannot be read'),
    );
  });
});
