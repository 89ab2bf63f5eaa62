// Pieces of the gateway documents the mapper tests expect, written out as literals (never taken from the mappers):
// what every document of a shop with default settings carries, and its totals block.
import type { ClientBlock, GatewayDocument, GatewayItem, GatewayTotals } from '../../mappers/gateway/gateway-document.ts';

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
export const BELLA_VISTA = { codeLocation: '8-8-7', province: 'PANAMA', district: 'PANAMA', correction: 'BELLA VISTA' };

export function consumer(businessName: string, email1: string, extra: Partial<ClientBlock> = {}): ClientBlock {
  return { typeClientEB: '02', businessName, ...BELLA_VISTA, telephone1: '6000-0000', email1, country: 'PA', ...extra };
}

export function item(
  description: string,
  code: string,
  amount: string,
  priceUnit: string,
  priceUnitDiscount: string,
  priceItem: string,
  rateITBMS: string,
  valueITBMS: string,
  totalValue: string,
): GatewayItem {
  return { description, code, amount, priceUnit, priceUnitDiscount, priceItem, rateITBMS, valueITBMS, totalValue };
}

export function document(client: ClientBlock, listItems: GatewayItem[], t: Totals, fiscalNumber = '0000000001'): GatewayDocument {
  return {
    codeBranchIssuer: '0000',
    dataTransaction: {
      typeEmission: '01',
      typeDocument: '01',
      numberDocumentFiscal: fiscalNumber,
      pointBillingFiscal: '001',
      dateBroadcast: '2026-11-20T10:30:00-05:00',
      natureOperation: '01',
      ...DEFAULT_CODES,
      client,
    },
    listItems,
    totalsSubTotals: totalsOf(listItems, t),
  };
}
