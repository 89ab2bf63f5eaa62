// A paid Shopify order → the gateway's invoice document, or the problems that stop it (DESIGN §6).
// Pure: the fiscal number, billing point, the order's transactions and the clock are inputs.
import type { GatewayDocument, GatewayTotals } from './gateway-document.ts';
import { buildClient } from './invoice-client.ts';
import { buildInvoiceLines } from './invoice-lines.ts';
import type { ItemAmounts } from './line-arithmetic.ts';
import type { MappingSettings } from './mapping-settings.ts';
import { type MappingProblem, problems } from './mapping-problems.ts';
import { type Cents, formatCents, sumCents } from './money.ts';
import { type OrderTransaction, buildPayments } from './payments.ts';
import type { ShopifyOrder } from './shopify-order.ts';

export type { MappingProblem } from './mapping-problems.ts';
export { ORDER_TRANSACTIONS_QUERY, needsTransactions, parseOrderTransactions, type OrderTransaction } from './payments.ts';

export interface Numbering {
  /** `codeBranchIssuer`: 4 letters or digits, "0000" the head office. */
  branchCode: string;
  /** `pointBillingFiscal`: 3 digits, not 000. */
  billingPoint: string;
  /** `numberDocumentFiscal` as a number, 1 … 9 999 999 999. */
  fiscalNumber: number;
}

export interface OrderToDocumentInput {
  order: ShopifyOrder;
  settings: MappingSettings;
  /** The order's transactions; needed when it was paid through several gateways. */
  transactions?: OrderTransaction[];
  numbering: Numbering;
  /** Submission time: becomes `dateBroadcast`. */
  now: Date;
}

export type OrderToDocumentResult = { ok: true; document: GatewayDocument } | { ok: false; problems: MappingProblem[] };

/** Invoices are in US dollars; the balboa is at par and some shops use its code. */
const INVOICE_CURRENCIES = new Set(['USD', 'PAB']);

export function orderToDocument(input: OrderToDocumentInput): OrderToDocumentResult {
  const { order, settings, transactions, numbering, now } = input;
  checkNumbering(numbering);

  const found = orderLevelProblems(order, settings);
  const lines = buildInvoiceLines(order, settings);
  const client = buildClient(order, settings);
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
  const totalsSubTotals: GatewayTotals = {
    totalPriceNet: formatCents(totals.priceItem),
    totalITBMS: formatCents(totals.valueITBMS),
    totalISC: '0.00',
    // Rule 7: the tax total (ITBMS + ISC), not the taxable base.
    totalAmountTaxed: formatCents(totals.valueITBMS),
    totalInvoice: formatCents(totals.totalValue),
    totalValueReceived: formatCents(totals.totalValue),
    timePayment: '1',
    nroItems: String(lines.items.length),
    totalAllItems: formatCents(totals.totalValue),
    listFormPayment: payments.payments,
  };
  return {
    ok: true,
    document: {
      codeBranchIssuer: numbering.branchCode,
      dataTransaction: {
        typeEmission: d.typeEmission,
        typeDocument: d.typeDocument,
        numberDocumentFiscal: String(numbering.fiscalNumber).padStart(10, '0'),
        pointBillingFiscal: numbering.billingPoint,
        dateBroadcast: panamaDateTime(now),
        natureOperation: d.natureOperation,
        typeOperation: d.typeOperation,
        destinationOperation: d.destinationOperation,
        formatCAFE: d.formatCAFE,
        deliveryCAFE: d.deliveryCAFE,
        shippingContainer: d.shippingContainer,
        processGeneration: d.processGeneration,
        typeSale: d.typeSale,
        client: client.client,
      },
      listItems: lines.items,
      totalsSubTotals,
    },
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

/** Rules 5, 6, 8: totals are exact sums of the items. */
export function sumItems(amounts: ItemAmounts[]): ItemTotals {
  return {
    priceItem: sumCents(amounts.map((a) => a.priceItem)),
    valueITBMS: sumCents(amounts.map((a) => a.valueITBMS)),
    totalValue: sumCents(amounts.map((a) => a.totalValue)),
  };
}

/** The numbering comes from the pipeline; a bad value there is a bug, not a merchant problem. */
function checkNumbering(n: Numbering): void {
  if (!/^[0-9A-Za-z]{4}$/.test(n.branchCode)) throw new RangeError(`branch code must be 4 letters or digits: ${n.branchCode}`);
  if (!/^(?!000)\d{3}$/.test(n.billingPoint)) throw new RangeError(`billing point must be 3 digits, not 000: ${n.billingPoint}`);
  if (!Number.isSafeInteger(n.fiscalNumber) || n.fiscalNumber < 1 || n.fiscalNumber > 9_999_999_999) {
    throw new RangeError(`fiscal number must be 1 to 9999999999: ${n.fiscalNumber}`);
  }
}

const PANAMA_OFFSET_MS = -5 * 60 * 60 * 1000;

/** `YYYY-MM-DDThh:mm:ss-05:00`: Panama has no daylight saving time; the DGI rejects fractions and `Z`. */
export function panamaDateTime(now: Date): string {
  const local = new Date(now.getTime() + PANAMA_OFFSET_MS);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return (
    `${p(local.getUTCFullYear(), 4)}-${p(local.getUTCMonth() + 1)}-${p(local.getUTCDate())}` +
    `T${p(local.getUTCHours())}:${p(local.getUTCMinutes())}:${p(local.getUTCSeconds())}-05:00`
  );
}
