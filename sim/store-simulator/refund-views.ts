// The GraphQL Refund (docs/reference/shopify-refunds.md §3, `RefundForCreditNote`) read from a stored REST refund:
// its lines, refunded shipping (with the tax the REST body leaves out), order adjustments, duties and
// transactions, each a connection as in Shopify.

import { connection } from './connections.ts';
import { type MoneyBag, moneyBag, moneyBagOf, orderCurrency, refundedCents, shopMoneyOf } from './rest-money.ts';
import { gidOf, graphqlDateTime, isRecord, legacyId, records, restGid, str } from './rest-values.ts';
import type { OrderRecord } from './shop-state.ts';
import { refundTransactionView } from './transaction-views.ts';
import type { RestRefund } from './types.ts';

type View = Record<string, unknown>;
type Page = { first?: number | null; after?: string | null };

const RESTOCK_TYPES = new Set(['CANCEL', 'LEGACY_RESTOCK', 'NO_RESTOCK', 'RETURN']);
const DISCREPANCY_REASONS = new Set([
  'CUSTOMER',
  'DAMAGE',
  'FULL_RETURN_BALANCING_ADJUSTMENT',
  'PENDING_REFUND_DISCREPANCY',
  'REFUND_DISCREPANCY',
  'RESTOCK',
]);

export function refundView(refund: RestRefund, order: OrderRecord, orderView: () => View): View {
  const currency = orderCurrency(order.rest);
  const bag = (set: unknown, amount?: unknown): MoneyBag => moneyBagOf(set, amount, currency) ?? moneyBag(0, currency);
  const gid = restGid('Refund', refund) ?? '';
  const shipping = records(refund['refund_shipping_lines']);
  // Since 2024-10 refunded shipping is not an order adjustment; older bodies may still carry one.
  const adjustments = records(refund['order_adjustments']).filter((a) => !(shipping.length > 0 && a['kind'] === 'shipping_refund'));
  return {
    __typename: 'Refund',
    id: gid,
    legacyResourceId: legacyId(gid, 'Refund'),
    createdAt: graphqlDateTime(refund['created_at']),
    processedAt: graphqlDateTime(refund['processed_at']),
    note: str(refund['note']) ?? null,
    return: returnView(refund['return']),
    totalRefundedSet: moneyBag(refundedCents(refund), currency),
    order: orderView,
    refundLineItems: (page: Page) => connection(records(refund['refund_line_items']), page, keyOf, (line) => refundLineView(line, bag)),
    refundShippingLines: (page: Page) => connection(shipping, page, keyOf, (line) => refundShippingView(line, bag, currency)),
    orderAdjustments: (page: Page) => connection(adjustments, page, keyOf, (a) => adjustmentView(a, bag)),
    duties: records(refund['duties']).map((d) => ({
      amountSet: bag(d['amount_set'], d['amount']),
      originalDuty: gidOf('Duty', d['duty_id']) ? { __typename: 'Duty', id: gidOf('Duty', d['duty_id']) } : null,
    })),
    transactions: (page: Page) => connection(records(refund['transactions']), page, keyOf, (t) => refundTransactionView(t, order)),
  };
}

function keyOf(item: Record<string, unknown>): string {
  return str(item['admin_graphql_api_id']) ?? str(item['id']) ?? '';
}

function returnView(value: unknown): View | null {
  const gid = isRecord(value) ? restGid('Return', value) : undefined;
  if (!gid || !isRecord(value)) return null;
  return { __typename: 'Return', id: gid, name: str(value['name']) ?? '', status: str(value['status'])?.toUpperCase() ?? 'CLOSED' };
}

function refundLineView(line: Record<string, unknown>, bag: (set: unknown, amount?: unknown) => MoneyBag): View {
  const item = isRecord(line['line_item']) ? line['line_item'] : {};
  const restock = str(line['restock_type'])?.toUpperCase() ?? 'NO_RESTOCK';
  return {
    id: restGid('RefundLineItem', line),
    quantity: Number(line['quantity']),
    restockType: RESTOCK_TYPES.has(restock) ? restock : 'NO_RESTOCK',
    restocked: restock !== 'NO_RESTOCK',
    priceSet: bag(item['price_set'], item['price']),
    subtotalSet: bag(line['subtotal_set'], line['subtotal']),
    totalTaxSet: bag(line['total_tax_set'], line['total_tax']),
    lineItem: {
      __typename: 'LineItem',
      id: restGid('LineItem', item) ?? gidOf('LineItem', line['line_item_id']),
      name: str(item['name']) ?? str(item['title']) ?? '',
      title: str(item['title']) ?? '',
      sku: str(item['sku']) ?? null,
      quantity: Number(item['quantity'] ?? line['quantity']),
      originalUnitPriceSet: bag(item['price_set'], item['price']),
      taxLines: () => taxLineViews(item['tax_lines'], bag),
      discountAllocations: records(item['discount_allocations']).map((d) => ({ allocatedAmountSet: bag(d['amount_set'], d['amount']) })),
    },
  };
}

function taxLineViews(value: unknown, bag: (set: unknown, amount?: unknown) => MoneyBag): View[] {
  return records(value).map((t) => {
    const rate = typeof t['rate'] === 'number' ? t['rate'] : null;
    return {
      rate,
      // Percentages as Shopify prints them (7.0), without the float noise of 0.07 × 100.
      ratePercentage: rate === null ? null : Number((rate * 100).toFixed(6)),
      title: str(t['title']) ?? '',
      priceSet: bag(t['price_set'], t['price']),
    };
  });
}

function refundShippingView(line: Record<string, unknown>, bag: (set: unknown, amount?: unknown) => MoneyBag, currency: string): View {
  const shippingLine = isRecord(line['shipping_line']) ? line['shipping_line'] : {};
  return {
    id: restGid('RefundShippingLine', line),
    shippingLine: {
      id: gidOf('ShippingLine', shippingLine['id'] ?? line['shipping_line_id']) ?? null,
      title: str(shippingLine['title']) ?? '',
      code: str(shippingLine['code']) ?? null,
      originalPriceSet: bag(shippingLine['price_set'], shippingLine['price']),
      discountedPriceSet: bag(shippingLine['discounted_price_set'], shippingLine['discounted_price'] ?? shippingLine['price']),
      taxLines: taxLineViews(shippingLine['tax_lines'], bag),
    },
    subtotalAmountSet: bag(line['subtotal_amount_set']),
    taxAmountSet: moneyBag(refundedShippingTax(line, shippingLine), currency),
  };
}

/**
 * The REST body has no tax for refunded shipping; GraphQL has. A full refund of the line takes all its tax, a
 * partial one its share, rounded half up to the cent.
 */
export function refundedShippingTax(line: Record<string, unknown>, shippingLine: Record<string, unknown>): number {
  const tax = records(shippingLine['tax_lines']).reduce((sum, t) => sum + (shopMoneyOf(t['price_set'], t['price'])?.cents ?? 0), 0);
  const refunded = shopMoneyOf(line['subtotal_amount_set'])?.cents ?? 0;
  const charged =
    shopMoneyOf(shippingLine['discounted_price_set'], shippingLine['discounted_price'])?.cents ??
    shopMoneyOf(shippingLine['price_set'], shippingLine['price'])?.cents ??
    0;
  if (charged <= 0 || refunded >= charged) return tax;
  return Math.floor((2 * tax * refunded + charged) / (2 * charged));
}

function adjustmentView(a: Record<string, unknown>, bag: (set: unknown, amount?: unknown) => MoneyBag): View {
  const reason = str(a['reason'])
    ?.trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  return {
    __typename: 'OrderAdjustment',
    id: restGid('OrderAdjustment', a),
    reason: reason !== undefined && DISCREPANCY_REASONS.has(reason) ? reason : 'REFUND_DISCREPANCY',
    // The REST sign is kept: negative when more money went back than the refunded lines explain.
    amountSet: bag(a['amount_set'], a['amount']),
    taxAmountSet: bag(a['tax_amount_set'], a['tax_amount']),
  };
}
