// GraphQL OrderTransaction objects: the order's own payments (as registered with setOrder) and the money
// movements of a stored REST refund.

import { centsOf } from './cents.ts';
import { currentTotal, moneyBag, orderCurrency } from './rest-money.ts';
import { graphqlDateTime, restGid, str } from './rest-values.ts';
import type { OrderRecord, TransactionRecord } from './shop-state.ts';

type View = Record<string, unknown>;

export function transactionView(t: TransactionRecord, order: OrderRecord): View {
  return {
    __typename: 'OrderTransaction',
    id: t.id,
    kind: t.kind,
    status: t.status,
    gateway: t.gateway,
    formattedGateway: formattedGateway(t.gateway),
    manualPaymentGateway: t.gateway === 'manual',
    test: order.rest['test'] === true,
    processedAt: graphqlDateTime(order.rest['processed_at']),
    amountSet: moneyBag(centsOf(t.amount) ?? 0, t.currencyCode ?? currentTotal(order.rest)?.currency ?? orderCurrency(order.rest)),
    parentTransaction: null,
  };
}

/**
 * A REST refund transaction. Its parent is the order transaction with the `parent_id`, else the order's first
 * successful sale or capture through the same gateway (the simulator's own payments have ids of their own).
 */
export function refundTransactionView(t: Record<string, unknown>, order: OrderRecord): View {
  const gateway = str(t['gateway']) ?? '';
  const parentGid = restGid('OrderTransaction', { id: t['parent_id'] });
  const parent =
    order.transactions.find((p) => p.id === parentGid) ??
    order.transactions.find((p) => p.gateway === gateway && p.status === 'SUCCESS' && (p.kind === 'SALE' || p.kind === 'CAPTURE'));
  return {
    __typename: 'OrderTransaction',
    id: restGid('OrderTransaction', t) ?? null,
    kind: str(t['kind'])?.toUpperCase() ?? 'REFUND',
    status: str(t['status'])?.toUpperCase() ?? 'SUCCESS',
    gateway,
    formattedGateway: formattedGateway(gateway),
    manualPaymentGateway: t['manual_payment_gateway'] === true,
    test: t['test'] === true,
    processedAt: graphqlDateTime(t['processed_at'] ?? t['created_at']),
    amountSet: moneyBag(centsOf(str(t['amount']) ?? '') ?? 0, str(t['currency']) ?? orderCurrency(order.rest)),
    parentTransaction: parent ? transactionView(parent, order) : null,
  };
}

/** Shopify's display name of a gateway: "shopify_payments" → "Shopify Payments". */
export function formattedGateway(gateway: string): string {
  return gateway
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}
