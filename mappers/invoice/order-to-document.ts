// A paid Shopify order → the gateway's invoice document, or the problems that stop it (docs/design.md §6).
// Pure: the fiscal number, billing point, the order's transactions and the clock are inputs.
import type { DocumentDraft } from './document-numbering.ts';
import type { GatewayPayment, GatewayTotals } from '../gateway/gateway-document.ts';
import { type BuyerFacts, type TaxIdSource, buildClient } from './invoice-client.ts';
import { buildInvoiceLines } from './invoice-lines.ts';
import type { ItemAmounts } from '../fiscal/line-arithmetic.ts';
import { type MappingSettings, deliveryCafeCode } from './mapping-settings.ts';
import { type MappingProblem, problems } from '../mapping-problems.ts';
import { type Cents, formatCents, sumCents } from '../fiscal/money.ts';
import { type OrderTransaction, buildPayments } from './payments.ts';
import type { ShopifyOrder } from '../shopify/shopify-order.ts';

export type { MappingProblem } from '../mapping-problems.ts';
export { needsTransactions, parseOrderTransactions, type OrderTransaction } from './payments.ts';

export interface OrderToDraftInput {
  order: ShopifyOrder;
  settings: MappingSettings;
  /** The order's transactions; needed when it was paid through several gateways. */
  transactions?: OrderTransaction[];
  /** What the pipeline learnt about the buyer beyond the order (correction, B2B tax id, customer metafield). */
  buyer?: BuyerFacts;
}

export type OrderToDraftResult =
  { ok: true; draft: DocumentDraft; taxIdSource: TaxIdSource | undefined } | { ok: false; problems: MappingProblem[] };

/** Invoices are in US dollars; the balboa is at par and some shops use its code. */
const INVOICE_CURRENCIES = new Set(['USD', 'PAB']);

/** The invoice's draft: everything but its number, billing point, branch and submission time (numberDocument). */
export function orderToDraft(input: OrderToDraftInput): OrderToDraftResult {
  const { order, settings, transactions, buyer } = input;

  const found = orderLevelProblems(order, settings);
  const lines = buildInvoiceLines(order, settings);
  const client = buildClient(order, settings, buyer);
  if (!lines.ok) found.push(...lines.problems);
  if (!client.ok) found.push(...client.problems);
  if (found.length > 0 || !lines.ok || !client.ok) return { ok: false, problems: found };

  const totals = sumItems(lines.amounts);
  // Invariant 3: the invoice total is what the customer paid for what is invoiced.
  const paidForInvoiced = order.totalPrice - lines.leftOut;
  if (totals.totalValue !== paidForInvoiced) {
    return { ok: false, problems: [problems.totalMismatch(totals.totalValue, paidForInvoiced)] };
  }

  const payments = buildPayments(order, settings, transactions, totals.totalValue, lines.leftOut);
  if (!payments.ok) return { ok: false, problems: payments.problems };

  const d = settings.transactionDefaults;
  const totalsSubTotals = documentTotals(lines.amounts, payments.payments);
  return {
    ok: true,
    draft: {
      dataTransaction: {
        typeEmission: d.typeEmission,
        typeDocument: d.typeDocument,
        natureOperation: d.natureOperation,
        typeOperation: d.typeOperation,
        destinationOperation: d.destinationOperation,
        formatCAFE: d.formatCAFE,
        deliveryCAFE: deliveryCafeCode(settings),
        shippingContainer: d.shippingContainer,
        processGeneration: d.processGeneration,
        typeSale: d.typeSale,
        client: client.client,
      },
      listItems: lines.items,
      totalsSubTotals,
    },
    taxIdSource: client.taxIdSource,
  };
}

/** What stops the whole order regardless of its lines: currency, charges an invoice cannot show, exports. */
function orderLevelProblems(order: ShopifyOrder, settings: MappingSettings): MappingProblem[] {
  const found: MappingProblem[] = [];
  if (!INVOICE_CURRENCIES.has(order.currency)) found.push(problems.unsupportedCurrency(order.currency));
  if (order.totalDuties !== 0) found.push(problems.dutiesNotSupported(order.totalDuties));
  if (order.totalAdditionalFees !== 0) found.push(problems.additionalFeesNotSupported(order.totalAdditionalFees));
  if (order.cashRoundingAdjustment !== 0) found.push(problems.cashRoundingNotSupported(order.cashRoundingAdjustment));
  const country = order.shippingAddress?.countryCode;
  if (settings.transactionDefaults.destinationOperation === '1' && country !== undefined && country !== 'PA') {
    found.push(problems.foreignDestination(country));
  }
  return found;
}

interface ItemTotals {
  priceItem: Cents;
  valueITBMS: Cents;
  totalValue: Cents;
}

/** A document's totals (invoices and credit notes alike): exact sums of its items, paid in full by `payments`. */
export function documentTotals(amounts: ItemAmounts[], payments: GatewayPayment[]): GatewayTotals {
  const totals = sumItems(amounts);
  return {
    totalPriceNet: formatCents(totals.priceItem),
    totalITBMS: formatCents(totals.valueITBMS),
    totalISC: '0.00',
    // Rule 7: the tax total (ITBMS + ISC), not the taxable base.
    totalAmountTaxed: formatCents(totals.valueITBMS),
    totalInvoice: formatCents(totals.totalValue),
    totalValueReceived: formatCents(totals.totalValue),
    timePayment: '1',
    nroItems: String(amounts.length),
    totalAllItems: formatCents(totals.totalValue),
    listFormPayment: payments,
  };
}

/** Rules 5, 6, 8: totals are exact sums of the items. */
export function sumItems(amounts: ItemAmounts[]): ItemTotals {
  return {
    priceItem: sumCents(amounts.map((a) => a.priceItem)),
    valueITBMS: sumCents(amounts.map((a) => a.valueITBMS)),
    totalValue: sumCents(amounts.map((a) => a.totalValue)),
  };
}
