// parseShopifyRefund: a refunds/create body read once into typed values (docs/reference/shopify-refunds.md §1): GIDs, the
// order id only when its digits are exact, cents from the *_set strings, refunded shipping's tax from the shipping
// line when it is refunded whole, adjustments and transactions. Never throws.
import { describe, expect, it } from 'vitest';
import { parseShopifyRefund } from '../../../mappers/shopify/shopify-refund.ts';
import { readRefundFixture } from '../../support/refund-fixtures.ts';

type Json = Record<string, unknown>;

function parsed(json: unknown) {
  const result = parseShopifyRefund(json);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.refund;
}

/** Problems as [path, detail]. */
function problemsOf(json: unknown): [string | undefined, string][] {
  const result = parseShopifyRefund(json);
  if (result.ok) throw new Error('expected problems');
  for (const p of result.problems) expect(p.code).toBe('refund_unreadable');
  return result.problems.map((p) => [p.path, String(p.params.detail)]);
}

describe('parseShopifyRefund', () => {
  it('reads the partial-line fixture to the cent', () => {
    expect(parsed(readRefundFixture('partial-line', 'refund'))).toEqual({
      refundGid: 'gid://shopify/Refund/9400000011021',
      orderGid: 'gid://shopify/Order/5900000001102',
      createdAt: '2026-11-10T10:00:00-05:00',
      processedAt: '2026-11-10T10:00:00-05:00',
      note: 'Devolución de 2 camisas (talla incorrecta)',
      lines: [
        {
          lineItemGid: 'gid://shopify/LineItem/14900000011021',
          quantity: 2,
          subtotal: 4425,
          tax: 310,
          restockType: 'return',
          name: 'Camisa Polo - L / Blanca',
          tip: false,
        },
      ],
      shippingLines: [],
      adjustments: [],
      transactions: [{ kind: 'refund', status: 'success', gateway: 'bogus', amount: 4735, currency: 'USD' }],
      duties: 0,
    });
  });

  it("takes refunded shipping's tax from the shipping line when the whole line is refunded (the REST body has none)", () => {
    expect(parsed(readRefundFixture('second-partial', 'refund')).shippingLines).toEqual([
      { shippingLineId: '4900000011021', title: 'Envío estándar', price: 450, subtotal: 450, tax: 32 },
    ]);
  });

  it('leaves the tax of part of the shipping unknown, unless the body gives tax_amount_set (as GraphQL does)', () => {
    const body = readRefundFixture('shipping-only', 'refund');
    const line = (body['refund_shipping_lines'] as Json[])[0]!;
    line['subtotal_amount_set'] = { shop_money: { amount: '2.00', currency_code: 'USD' } };
    expect(parsed(body).shippingLines).toEqual([{ shippingLineId: '4900000011031', title: 'Envío express', price: 600, subtotal: 200 }]);
    line['tax_amount_set'] = { shop_money: { amount: '0.14', currency_code: 'USD' } };
    expect(parsed(body).shippingLines[0]!.tax).toBe(14);
  });

  it('reads an amount-only refund: a negative adjustment, no lines', () => {
    const refund = parsed(readRefundFixture('amount-only', 'refund'));
    expect(refund.adjustments).toEqual([{ amount: -1000, tax: 0, reason: 'Refund discrepancy' }]);
    expect(refund.lines).toEqual([]);
    expect(refund.transactions).toEqual([{ kind: 'refund', status: 'success', gateway: 'manual', amount: 1000, currency: 'USD' }]);
  });

  it('keeps the deprecated kind of older adjustments, in lower case', () => {
    const body = readRefundFixture('shipping-only', 'refund');
    body['order_adjustments'] = [{ kind: 'SHIPPING_REFUND', amount: '-6.00', tax_amount: '-0.42', reason: 'Shipping refund' }];
    expect(parsed(body).adjustments).toEqual([{ amount: -600, tax: -42, kind: 'shipping_refund', reason: 'Shipping refund' }]);
  });

  it('reads money from the *_set strings; the JSON numbers only when a set is missing', () => {
    const body = readRefundFixture('partial-line', 'refund');
    const line = (body['refund_line_items'] as Json[])[0]!;
    line['total_tax'] = 3.0999999;
    expect(parsed(body).lines[0]!.tax).toBe(310);
    delete line['subtotal_set'];
    expect(parsed(body).lines[0]!.subtotal).toBe(4425);
    line['subtotal'] = 0.1 + 0.2;
    expect(problemsOf(body)).toEqual([['refund_line_items[0].subtotal_set', 'subtotal_set is missing']]);
  });

  it('builds the order GID from exact digits only: numbers beyond 2^53 are refused, digit strings and bigints kept', () => {
    const body = readRefundFixture('partial-line', 'refund');
    // What JSON.parse makes of Shopify's sample id.
    const rounded = (JSON.parse('{"id": 890088186047892319}') as { id: number }).id;
    expect(problemsOf({ ...body, order_id: rounded })).toEqual([
      ['order_id', '890088186047892400 is not an exact id (numbers beyond 2^53 lose digits in JSON.parse)'],
    ]);
    expect(parsed({ ...body, order_id: '890088186047892319' }).orderGid).toBe('gid://shopify/Order/890088186047892319');
    expect(parsed({ ...body, order_id: 890088186047892319n }).orderGid).toBe('gid://shopify/Order/890088186047892319');
    expect(problemsOf({ ...body, order_id: undefined })).toEqual([['order_id', 'must be the numeric id']]);
  });

  it('keys the refund on admin_graphql_api_id, or on an exact id', () => {
    const body = readRefundFixture('partial-line', 'refund');
    delete body['admin_graphql_api_id'];
    expect(parsed(body).refundGid).toBe('gid://shopify/Refund/9400000011021');
    expect(problemsOf({ ...body, id: (JSON.parse('{"id": 890088186047892319}') as { id: number }).id })).toEqual([
      ['admin_graphql_api_id', 'the refund has no usable id'],
    ]);
  });

  it('marks a refunded tip by its snapshot (tip_payment_gateway) and reads refunded duties', () => {
    const body = readRefundFixture('partial-line', 'refund');
    const line = (body['refund_line_items'] as Json[])[0]!;
    line['line_item'] = { id: 1, admin_graphql_api_id: 'gid://shopify/LineItem/1', name: 'Tip', tip_payment_gateway: 'shopify_payments' };
    body['total_duties_set'] = { shop_money: { amount: '1.25', currency_code: 'USD' } };
    const refund = parsed(body);
    expect(refund.lines[0]).toMatchObject({ lineItemGid: 'gid://shopify/LineItem/1', name: 'Tip', tip: true });
    expect(refund.duties).toBe(125);
  });

  it('answers anything that is not a refund with problems naming the place, never an exception', () => {
    expect(problemsOf(null)).toEqual([[undefined, 'Invalid input: expected object, received null']]);
    expect(problemsOf([])).toEqual([[undefined, 'Invalid input: expected object, received array']]);
    const body = readRefundFixture('partial-line', 'refund');
    (body['transactions'] as Json[])[0]!['amount'] = '47.355';
    (body['refund_line_items'] as Json[])[0]!['quantity'] = -1;
    expect(problemsOf(body)).toEqual([
      ['refund_line_items[0].quantity', 'cannot be negative'],
      ['transactions[0].amount', '"47.355" is not an amount with at most 2 decimals'],
    ]);
  });
});
