// A credit note's payment forms (`listFormPayment`): how the money went back, with the invoices' table and settings
// (payments.ts). From a refund, its successful refund transactions per gateway; for a full credit note, the invoice's
// own forms less what earlier notes returned. Money that went back for what the invoice left out (gift cards, tips,
// duties), or that earlier notes returned, is taken off non-gift-card forms first, as on invoices. Pure.
import type { GatewayPayment } from '../gateway/gateway-document.ts';
import type { MappingSettings } from '../invoice/mapping-settings.ts';
import { formatCents, parseCents } from '../fiscal/money.ts';
import { paymentFormOf, takeOff } from '../invoice/payments.ts';
import type { ShopifyRefundTransaction } from '../shopify/shopify-refund.ts';

/** The note's payments, adding up to `total`; undefined when the money does not add up. */
export function refundPayments(
  refunds: readonly ShopifyRefundTransaction[],
  settings: MappingSettings,
  total: number,
  leftOut: number,
): GatewayPayment[] | undefined {
  const byGateway = new Map<string, number>();
  for (const t of refunds) {
    const gateway = t.gateway.trim().toLowerCase();
    byGateway.set(gateway, (byGateway.get(gateway) ?? 0) + t.amount);
  }
  const parts = [...byGateway].map(([gateway, amount]) => ({ form: paymentFormOf(gateway, settings), amount }));
  return remainingForms(parts, leftOut, total);
}

/** The invoice's forms less what the notes so far returned (`credited`), adding up to `total`. */
export function invoiceRemainingPayments(
  invoicePayments: readonly GatewayPayment[],
  credited: number,
  total: number,
): GatewayPayment[] | undefined {
  const parts: { form: string; amount: number }[] = [];
  for (const p of invoicePayments) {
    const amount = parseCents(p.valueFeePaid);
    if (amount === undefined) return undefined;
    parts.push({ form: p.formPaymentInvoice, amount });
  }
  return remainingForms(parts, credited, total);
}

function remainingForms(parts: { form: string; amount: number }[], takenOff: number, total: number): GatewayPayment[] | undefined {
  takeOff(parts, takenOff);
  const byForm = new Map<string, number>();
  for (const p of parts) if (p.amount > 0) byForm.set(p.form, (byForm.get(p.form) ?? 0) + p.amount);
  const sum = [...byForm.values()].reduce((a, b) => a + b, 0);
  if (sum !== total || byForm.size === 0) return undefined;
  return [...byForm].map(([form, amount]) => ({ formPaymentInvoice: form, valueFeePaid: formatCents(amount) }));
}
