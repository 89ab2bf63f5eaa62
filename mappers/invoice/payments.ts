// How the invoice was paid (`listFormPayment`): Shopify payment gateways → DGI payment forms
// (docs/reference/panama-fe.md §3.10). One gateway carries the whole invoice; with several, the amounts
// come from the order's transactions, which the pipeline reads through the Admin API.
import { z } from 'zod';
import type { GatewayPayment } from '../gateway/gateway-document.ts';
import { type MappingSettings, ownEntry } from './mapping-settings.ts';
import { type MappingProblem, problems } from '../mapping-problems.ts';
import { type Cents, cents, formatCents, parseCents } from '../fiscal/money.ts';
import { issuePath } from '../shopify/shopify-fields.ts';
import type { ShopifyOrder } from '../shopify/shopify-order.ts';

export interface OrderTransaction {
  gateway: string;
  /** GraphQL OrderTransactionKind: SALE, CAPTURE, AUTHORIZATION, REFUND, VOID, CHANGE, … */
  kind: string;
  /** GraphQL OrderTransactionStatus: SUCCESS, PENDING, FAILURE, ERROR, … */
  status: string;
  /** Shop money. */
  amount: Cents;
}

const GIFT_CARD_FORM = '07';

const transactionNodeSchema = z.object({
  gateway: z.string().nullish(),
  kind: z.string(),
  status: z.string(),
  amountSet: z.object({ shopMoney: z.object({ amount: z.string(), currencyCode: z.string().nullish() }) }),
});

/** Read `order.transactions` nodes of the Admin GraphQL API. Never throws. */
export function parseOrderTransactions(
  nodes: unknown,
): { ok: true; transactions: OrderTransaction[] } | { ok: false; problems: MappingProblem[] } {
  const parsed = z.array(transactionNodeSchema).safeParse(nodes);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => problems.orderUnreadable(issuePath(['transactions', ...i.path]), i.message)),
    };
  }
  const transactions: OrderTransaction[] = [];
  const found: MappingProblem[] = [];
  parsed.data.forEach((node, index) => {
    const amount = parseCents(node.amountSet.shopMoney.amount);
    if (amount === undefined) {
      found.push(
        problems.orderUnreadable(
          `transactions[${index}].amountSet.shopMoney.amount`,
          `"${node.amountSet.shopMoney.amount}" is not an amount`,
        ),
      );
      return;
    }
    transactions.push({ gateway: node.gateway ?? '', kind: node.kind.toUpperCase(), status: node.status.toUpperCase(), amount });
  });
  return found.length > 0 ? { ok: false, problems: found } : { ok: true, transactions };
}

/** Distinct gateway names of the order, lower case, in order of appearance. */
export function orderGateways(order: ShopifyOrder): string[] {
  return [...new Set(order.paymentGatewayNames.map((g) => g.trim().toLowerCase()))];
}

/** True when the order was paid through several gateways: the amounts then come from its transactions. */
export function needsTransactions(order: ShopifyOrder): boolean {
  return orderGateways(order).length > 1;
}

/** The DGI payment form of a gateway: the shop's table (defaults merged in), else the shop's default. */
export function paymentFormOf(gateway: string, settings: MappingSettings): string {
  return ownEntry(settings.paymentForms, gateway.trim().toLowerCase()) ?? settings.defaultPaymentForm;
}

/**
 * Money actually received per gateway: successful sales and captures, less refunds and change given.
 * Authorizations are not money received (their capture is).
 */
export function receivedByGateway(transactions: OrderTransaction[]): Map<string, number> {
  const received = new Map<string, number>();
  for (const t of transactions) {
    if (t.status !== 'SUCCESS') continue;
    const sign = t.kind === 'SALE' || t.kind === 'CAPTURE' ? 1 : t.kind === 'REFUND' || t.kind === 'CHANGE' ? -1 : 0;
    if (sign === 0) continue;
    const gateway = t.gateway.trim().toLowerCase();
    received.set(gateway, (received.get(gateway) ?? 0) + sign * t.amount);
  }
  return received;
}

export type PaymentsResult = { ok: true; payments: GatewayPayment[] } | { ok: false; problems: MappingProblem[] };

/**
 * The invoice's payments, adding up to `invoiceTotal`. `leftOut` is what the customer paid for lines
 * the invoice leaves out (gift cards, tips): it is taken off non-gift-card payments first (a gift card
 * cannot buy a gift card), largest first. Payments with the same form are merged.
 */
export function buildPayments(
  order: ShopifyOrder,
  settings: MappingSettings,
  transactions: OrderTransaction[] | undefined,
  invoiceTotal: Cents,
  leftOut: Cents,
): PaymentsResult {
  const gateways = orderGateways(order);
  if (gateways.length <= 1) {
    const form = gateways[0] === undefined ? settings.defaultPaymentForm : paymentFormOf(gateways[0], settings);
    return { ok: true, payments: [{ formPaymentInvoice: form, valueFeePaid: formatCents(invoiceTotal) }] };
  }
  if (transactions === undefined) return { ok: false, problems: [problems.transactionsMissing(gateways)] };

  const received = receivedByGateway(transactions);
  const paid = [...received.values()].reduce((a, b) => a + b, 0);
  if (paid !== order.totalPrice) return { ok: false, problems: [problems.paymentsMismatch(paid, order.totalPrice)] };

  // Gateways in the order Shopify lists them, then any other gateway the transactions name.
  const names = [...new Set([...gateways, ...received.keys()])];
  const parts = names
    .map((gateway) => ({ form: paymentFormOf(gateway, settings), amount: received.get(gateway) ?? 0 }))
    .filter((p) => p.amount > 0);
  takeOff(parts, leftOut);

  const byForm = new Map<string, number>();
  for (const p of parts) if (p.amount > 0) byForm.set(p.form, (byForm.get(p.form) ?? 0) + p.amount);
  const payments = [...byForm].map(([form, amount]) => ({ formPaymentInvoice: form, valueFeePaid: formatCents(amount) }));
  const sum = [...byForm.values()].reduce((a, b) => a + b, 0);
  if (sum !== invoiceTotal) return { ok: false, problems: [problems.paymentsMismatch(sum + leftOut, order.totalPrice)] };
  if (payments.length === 0) {
    return {
      ok: true,
      payments: [{ formPaymentInvoice: parts[0]?.form ?? settings.defaultPaymentForm, valueFeePaid: formatCents(cents(0)) }],
    };
  }
  return { ok: true, payments };
}

/** Reduce the parts by `amount`: non-gift-card parts first, each group largest first (credit notes do the same). */
export function takeOff(parts: { form: string; amount: number }[], amount: number): void {
  let left = amount;
  const order = [...parts].sort((a, b) => Number(a.form === GIFT_CARD_FORM) - Number(b.form === GIFT_CARD_FORM) || b.amount - a.amount);
  for (const part of order) {
    if (left <= 0) break;
    const take = Math.min(part.amount, left);
    part.amount -= take;
    left -= take;
  }
}
