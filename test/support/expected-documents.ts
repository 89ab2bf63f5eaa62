// Pieces of the gateway documents the mapper tests expect, written out as literals (never taken from the mappers):
// what every document of a shop with default settings carries, and its totals block.
import type { GatewayItem, GatewayTotals } from '../../mappers/gateway/gateway-document.ts';

/** The transaction codes the default settings give every document, invoice or credit note (deliveryCAFE for app_email). */
export const DEFAULT_CODES = {
  typeOperation: '1',
  destinationOperation: '1',
  formatCAFE: '3',
  deliveryCAFE: '3',
  shippingContainer: '1',
  processGeneration: '1',
  typeSale: '1',
} as const;

export interface Totals {
  net: string;
  itbms: string;
  total: string;
  payments: [form: string, amount: string][];
}

/** The totals block of a document of `listItems` with no ISC, paid at once. */
export function totalsOf(listItems: readonly GatewayItem[], t: Totals): GatewayTotals {
  return {
    totalPriceNet: t.net,
    totalITBMS: t.itbms,
    totalISC: '0.00',
    totalAmountTaxed: t.itbms,
    totalInvoice: t.total,
    totalValueReceived: t.total,
    timePayment: '1',
    nroItems: String(listItems.length),
    totalAllItems: t.total,
    listFormPayment: t.payments.map(([formPaymentInvoice, valueFeePaid]) => ({ formPaymentInvoice, valueFeePaid })),
  };
}
