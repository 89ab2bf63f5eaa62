// Why an order (or a refund) could not become a document, as data: a stable snake_case code, its parameters and,
// when it is one place, the Shopify field path. The merchant's words, in Spanish and English, are in the message
// catalogue (src/messages/es.json and en.json), keyed by the code.
import { formatCents } from './fiscal/money.ts';

export interface MappingProblem {
  /** Stable identifier, snake_case; the catalogue's key. */
  code: string;
  /** What the text needs: amounts already formatted, lists joined. */
  params: Record<string, string | number>;
  /** Where in the order (Shopify field path) the problem is, when it is one place. */
  path?: string;
}

function problem(code: string, params: Record<string, string | number>, path?: string): MappingProblem {
  return path === undefined ? { code, params } : { code, params, path };
}

export const problems = {
  orderUnreadable: (path: string, detail: string) => problem('order_unreadable', { where: path, detail }, path || undefined),
  unsupportedCurrency: (currency: string) => problem('unsupported_currency', { currency }, 'currency'),
  unsupportedTaxRate: (rate: string, what: string, path: string) => problem('unsupported_tax_rate', { rate, what }, path),
  rucUnreadable: (text: string, path: string) => problem('ruc_unreadable', { text }, path),
  rucCheckDigitMissing: (ruc: string, path: string) => problem('ruc_check_digit_missing', { ruc }, path),
  rucCheckDigitInvalid: (ruc: string, dv: string, path: string) => problem('ruc_check_digit_invalid', { ruc, dv }, path),
  taxpayerNameMissing: (ruc: string) => problem('taxpayer_name_missing', { ruc }),
  taxpayerAddressMissing: (ruc: string) => problem('taxpayer_address_missing', { ruc }),
  foreignDestination: (country: string) => problem('foreign_destination', { country }, 'shipping_address.country_code'),
  dutiesNotSupported: (amount: number) => problem('duties_not_supported', { amount: formatCents(amount) }, 'current_total_duties_set'),
  additionalFeesNotSupported: (amount: number) =>
    problem('additional_fees_not_supported', { amount: formatCents(amount) }, 'current_total_additional_fees_set'),
  cashRoundingNotSupported: (amount: number) =>
    problem('cash_rounding_not_supported', { amount: formatCents(amount) }, 'total_cash_rounding_payment_adjustment_set'),
  nothingToInvoice: () => problem('nothing_to_invoice', {}),
  tooManyItems: (count: number) => problem('too_many_items', { count }, 'line_items'),
  amountTooLarge: (path: string) => problem('amount_too_large', {}, path),
  taxNotDistributable: (charged: number, path?: string) => problem('tax_not_distributable', { charged: formatCents(charged) }, path),
  totalMismatch: (invoice: number, paid: number) =>
    problem('total_mismatch', { invoice: formatCents(invoice), paid: formatCents(paid) }, 'current_total_price_set'),
  transactionsMissing: (gateways: string[]) => problem('transactions_missing', { gateways: gateways.join(', ') }, 'payment_gateway_names'),
  paymentsMismatch: (paid: number, total: number) =>
    problem('payments_mismatch', { paid: formatCents(paid), total: formatCents(total) }, 'transactions'),

  // Credit notes (refunds/create → type 04)
  refundUnreadable: (path: string, detail: string) => problem('refund_unreadable', { where: path, detail }, path || undefined),
  refundCurrencyUnsupported: (currency: string, path: string) => problem('refund_currency_unsupported', { currency }, path),
  invoiceNotReadable: (detail: string) => problem('invoice_not_readable', { detail }),
  refundLineNotInvoiced: (what: string, path: string) => problem('refund_line_not_invoiced', { what }, path),
  refundMoneyMismatch: (refunded: number, computed: number) =>
    problem('refund_money_mismatch', { refunded: formatCents(refunded), computed: formatCents(computed) }, 'transactions'),
  refundLessThanItems: (refunded: number, items: number) =>
    problem('refund_less_than_items', { refunded: formatCents(refunded), items: formatCents(items) }, 'order_adjustments'),
  refundShippingTaxUnknown: (path: string) => problem('refund_shipping_tax_unknown', {}, path),
  /** `scope`: units of a line (`line` its description), the base or ITBMS at a rate (`rate` like "7 %"), or the total. */
  creditExceedsInvoice: (scope: CreditScope, credited: number, invoiced: number) => {
    const amount = (c: number) => (scope.kind === 'units' ? c : formatCents(c));
    const params: Record<string, string | number> = { scope: scope.kind, credited: amount(credited), invoiced: amount(invoiced) };
    if (scope.kind === 'units') params.line = scope.line;
    if (scope.kind === 'base' || scope.kind === 'itbms') params.rate = RATE_PERCENT[scope.rateCode] ?? scope.rateCode;
    return problem('credit_exceeds_invoice', params);
  },
  creditTaxNotDistributable: (refundedTax: number) => problem('credit_tax_not_distributable', { tax: formatCents(refundedTax) }),
};

/** What a credit note would credit beyond its invoice: units of a line, the base or ITBMS at a rate, or the total. */
export type CreditScope = { kind: 'units'; line: string } | { kind: 'base' | 'itbms'; rateCode: string } | { kind: 'total' };

const RATE_PERCENT: Record<string, string> = { '00': '0 %', '01': '7 %', '02': '10 %', '03': '15 %' };
