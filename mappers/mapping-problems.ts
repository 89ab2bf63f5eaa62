// Why an order could not become an invoice, in the merchant's words (English and Spanish).
// Every problem has a stable snake_case code that the app and its tests rely on; the texts may change.
import { formatCents } from './money.ts';

export interface MappingProblem {
  /** Stable identifier, snake_case. */
  code: string;
  /** English, merchant words: what is wrong and what to do. */
  message: string;
  /** The same in Spanish. */
  messageEs: string;
  /** Where in the order (Shopify field path) the problem is, when it is one place. */
  path?: string;
}

function problem(code: string, message: string, messageEs: string, path?: string): MappingProblem {
  return path === undefined ? { code, message, messageEs } : { code, message, messageEs, path };
}

const money = (c: number) => `${formatCents(c)}`;

/** What a credit note would credit beyond its invoice: units of a line, the base or ITBMS at a rate, or the total. */
export type CreditScope = { kind: 'units'; line: string } | { kind: 'base' | 'itbms'; rateCode: string } | { kind: 'total' };

const RATE_PERCENT: Record<string, string> = { '00': '0 %', '01': '7 %', '02': '10 %', '03': '15 %' };

function scopeWords(scope: CreditScope): [en: string, es: string] {
  switch (scope.kind) {
    case 'units':
      return [`units of "${scope.line}"`, `unidades de "${scope.line}"`];
    case 'base':
      return [`of the base taxed at ${RATE_PERCENT[scope.rateCode]}`, `de la base gravada al ${RATE_PERCENT[scope.rateCode]}`];
    case 'itbms':
      return [`of ITBMS at ${RATE_PERCENT[scope.rateCode]}`, `de ITBMS al ${RATE_PERCENT[scope.rateCode]}`];
    case 'total':
      return ['in total', 'en total'];
  }
}

export const problems = {
  orderUnreadable: (path: string, detail: string) =>
    problem(
      'order_unreadable',
      `Shopify's order data could not be read (${path || 'order'}: ${detail}). No invoice was made; please contact the app's support with the order number.`,
      `Los datos del pedido enviados por Shopify no se pudieron leer (${path || 'pedido'}: ${detail}). No se emitió factura; contacte al soporte de la app con el número de pedido.`,
      path || undefined,
    ),

  unsupportedCurrency: (currency: string) =>
    problem(
      'unsupported_currency',
      `The shop's currency is ${currency}. Panamanian invoices are issued in US dollars (or balboas): set the store currency to USD in Shopify to invoice its orders.`,
      `La moneda de la tienda es ${currency}. Las facturas panameñas se emiten en dólares (o balboas): configure la moneda de la tienda en USD en Shopify para facturar sus pedidos.`,
      'currency',
    ),

  unsupportedTaxRate: (rate: string, what: string, path: string) =>
    problem(
      'unsupported_tax_rate',
      `"${what}" is charged a tax rate of ${rate} %, which is not an ITBMS rate (0, 7, 10 or 15 %). Correct the tax settings in Shopify, or tell the app which ITBMS rate to use for ${rate} % in its settings (tax rate codes).`,
      `A "${what}" se le cobró una tasa de impuesto de ${rate} %, que no es una tasa de ITBMS (0, 7, 10 o 15 %). Corrija la configuración de impuestos en Shopify, o indique en la configuración de la app qué tasa de ITBMS usar para ${rate} %.`,
      path,
    ),

  rucUnreadable: (text: string, path: string) =>
    problem(
      'ruc_unreadable',
      `The customer entered "${text}" as RUC, which is not a RUC or cédula number (e.g. 155596713-2-2015 or 8-442-445). Ask the customer for the correct RUC, correct the order's attribute, then retry.`,
      `El cliente indicó "${text}" como RUC, que no es un número de RUC ni de cédula (p. ej. 155596713-2-2015 u 8-442-445). Pida al cliente el RUC correcto, corrija el atributo del pedido y reintente.`,
      path,
    ),

  rucCheckDigitMissing: (ruc: string, path: string) =>
    problem(
      'ruc_check_digit_missing',
      `The customer gave the RUC ${ruc} without its check digit (DV). A taxpayer invoice needs both: ask the customer for the DV, add it to the order, then retry.`,
      `El cliente indicó el RUC ${ruc} sin su dígito verificador (DV). Una factura a contribuyente necesita ambos: pida el DV al cliente, agréguelo al pedido y reintente.`,
      path,
    ),

  rucCheckDigitInvalid: (ruc: string, dv: string, path: string) =>
    problem(
      'ruc_check_digit_invalid',
      `The check digit (DV) ${dv} does not belong to the RUC ${ruc}; one of them was mistyped. Confirm the RUC and DV with the customer, correct the order, then retry.`,
      `El dígito verificador (DV) ${dv} no corresponde al RUC ${ruc}; uno de los dos está mal escrito. Confirme el RUC y el DV con el cliente, corrija el pedido y reintente.`,
      path,
    ),

  taxpayerNameMissing: (ruc: string) =>
    problem(
      'taxpayer_name_missing',
      `The order asks for an invoice to RUC ${ruc} but gives no business name. Add the customer's business name (razón social) to the order, then retry.`,
      `El pedido solicita factura al RUC ${ruc} pero no indica la razón social. Agregue la razón social del cliente al pedido y reintente.`,
    ),

  taxpayerAddressMissing: (ruc: string) =>
    problem(
      'taxpayer_address_missing',
      `The order asks for an invoice to RUC ${ruc} but has no address (a taxpayer invoice needs one of 5 to 100 characters). Add a billing address or the address attribute to the order, then retry.`,
      `El pedido solicita factura al RUC ${ruc} pero no tiene dirección (una factura a contribuyente necesita una de 5 a 100 caracteres). Agregue una dirección de facturación o el atributo de dirección al pedido y reintente.`,
    ),

  foreignDestination: (country: string) =>
    problem(
      'foreign_destination',
      `The order ships to ${country}, outside Panama. That is an export, which the app does not invoice; issue this invoice by hand.`,
      `El pedido se envía a ${country}, fuera de Panamá. Es una exportación, que la app no factura; emita esta factura manualmente.`,
      'shipping_address.country_code',
    ),

  dutiesNotSupported: (amount: number) =>
    problem(
      'duties_not_supported',
      `The order includes ${money(amount)} of import duties, which the invoice cannot show. Issue this invoice by hand.`,
      `El pedido incluye ${money(amount)} de aranceles de importación, que la factura no puede mostrar. Emita esta factura manualmente.`,
      'current_total_duties_set',
    ),

  additionalFeesNotSupported: (amount: number) =>
    problem(
      'additional_fees_not_supported',
      `The order includes ${money(amount)} of additional fees, which the invoice cannot show. Issue this invoice by hand.`,
      `El pedido incluye ${money(amount)} de cargos adicionales, que la factura no puede mostrar. Emita esta factura manualmente.`,
      'current_total_additional_fees_set',
    ),

  cashRoundingNotSupported: (amount: number) =>
    problem(
      'cash_rounding_not_supported',
      `The order's total was rounded by ${money(amount)} for a cash payment, which the invoice cannot show. Issue this invoice by hand.`,
      `El total del pedido se redondeó en ${money(amount)} por pago en efectivo, lo que la factura no puede mostrar. Emita esta factura manualmente.`,
      'total_cash_rounding_payment_adjustment_set',
    ),

  nothingToInvoice: () =>
    problem(
      'nothing_to_invoice',
      'Nothing in this order is invoiced: it only contains gift cards or tips, which the shop settings leave out of invoices. No invoice is needed.',
      'Nada de este pedido se factura: solo contiene tarjetas de regalo o propinas, que la configuración de la tienda deja fuera de las facturas. No se necesita factura.',
    ),

  tooManyItems: (count: number) =>
    problem(
      'too_many_items',
      `The invoice would have ${count} lines; an electronic invoice can have at most 1000. Split the order into smaller orders, or issue the invoice by hand.`,
      `La factura tendría ${count} líneas; una factura electrónica admite como máximo 1000. Divida el pedido en pedidos más pequeños o emita la factura manualmente.`,
      'line_items',
    ),

  amountTooLarge: (path: string) =>
    problem(
      'amount_too_large',
      'An amount in this order is too large to be invoiced. Issue this invoice by hand.',
      'Un monto de este pedido es demasiado grande para facturarlo. Emita esta factura manualmente.',
      path,
    ),

  taxNotDistributable: (charged: number, path?: string) =>
    problem(
      'tax_not_distributable',
      `Shopify charged ${money(charged)} of tax, which cannot be spread over the invoice lines within the DGI's rounding tolerance of 0.01 per line. Check the order's taxes in Shopify, then retry or issue the invoice by hand.`,
      `Shopify cobró ${money(charged)} de impuesto, que no se puede repartir entre las líneas de la factura dentro de la tolerancia de redondeo de la DGI (0.01 por línea). Revise los impuestos del pedido en Shopify; luego reintente o emita la factura manualmente.`,
      path,
    ),

  totalMismatch: (invoice: number, paid: number) =>
    problem(
      'total_mismatch',
      `The invoice would total ${money(invoice)} but the customer paid ${money(paid)} for the invoiced items. The order may have been edited in an unusual way; check it in Shopify, then retry or issue the invoice by hand.`,
      `La factura sumaría ${money(invoice)} pero el cliente pagó ${money(paid)} por lo facturado. Es posible que el pedido se haya editado de forma inusual; revíselo en Shopify; luego reintente o emita la factura manualmente.`,
      'current_total_price_set',
    ),

  transactionsMissing: (gateways: string[]) =>
    problem(
      'transactions_missing',
      `The order was paid with several methods (${gateways.join(', ')}) and the amount of each could not be read from Shopify. Retry later.`,
      `El pedido se pagó con varios métodos (${gateways.join(', ')}) y no se pudo leer de Shopify el monto de cada uno. Reintente más tarde.`,
      'payment_gateway_names',
    ),

  paymentsMismatch: (paid: number, total: number) =>
    problem(
      'payments_mismatch',
      `Shopify's payment records add up to ${money(paid)} but the order total is ${money(total)}. Check the order's payments in Shopify, then retry.`,
      `Los pagos registrados en Shopify suman ${money(paid)} pero el total del pedido es ${money(total)}. Revise los pagos del pedido en Shopify y reintente.`,
      'transactions',
    ),

  // Credit notes (refunds/create → type 04)

  refundUnreadable: (path: string, detail: string) =>
    problem(
      'refund_unreadable',
      `Shopify's refund data could not be read (${path || 'refund'}: ${detail}). No credit note was made; please contact the app's support with the order number.`,
      `Los datos del reembolso enviados por Shopify no se pudieron leer (${path || 'reembolso'}: ${detail}). No se emitió nota de crédito; contacte al soporte de la app con el número de pedido.`,
      path || undefined,
    ),

  refundCurrencyUnsupported: (currency: string, path: string) =>
    problem(
      'refund_currency_unsupported',
      `Money was refunded in ${currency}. Credit notes are issued in US dollars (or balboas), so this one cannot be made automatically; issue it by hand.`,
      `El dinero se reembolsó en ${currency}. Las notas de crédito se emiten en dólares (o balboas), así que esta no se puede emitir automáticamente; emítala manualmente.`,
      path,
    ),

  invoiceNotReadable: (detail: string) =>
    problem(
      'invoice_not_readable',
      `The invoice this refund belongs to cannot be matched with its order (${detail}), so the app cannot tell which invoice lines were refunded. Issue the credit note by hand.`,
      `La factura de este reembolso no se puede relacionar con su pedido (${detail}), así que la app no puede saber qué líneas de la factura se reembolsaron. Emita la nota de crédito manualmente.`,
    ),

  refundLineNotInvoiced: (what: string, path: string) =>
    problem(
      'refund_line_not_invoiced',
      `The refund includes "${what}", which is not on the order's invoice (the order may have been edited after it was invoiced). Issue the credit note by hand.`,
      `El reembolso incluye "${what}", que no está en la factura del pedido (es posible que el pedido se editara después de facturarlo). Emita la nota de crédito manualmente.`,
      path,
    ),

  refundMoneyMismatch: (refunded: number, computed: number) =>
    problem(
      'refund_money_mismatch',
      `Shopify refunded ${money(refunded)}, but the refunded items, shipping and adjustments add up to ${money(computed)}. Check the refund in Shopify; the credit note must be issued by hand.`,
      `Shopify reembolsó ${money(refunded)}, pero los artículos, el envío y los ajustes reembolsados suman ${money(computed)}. Revise el reembolso en Shopify; la nota de crédito debe emitirse manualmente.`,
      'transactions',
    ),

  refundLessThanItems: (refunded: number, items: number) =>
    problem(
      'refund_less_than_items',
      `Shopify refunded ${money(refunded)} for items and shipping worth ${money(items)} (a restocking fee or a reduced refund). The app does not decide how to split the difference; issue the credit note by hand.`,
      `Shopify reembolsó ${money(refunded)} por artículos y envío que valen ${money(items)} (un cargo por reposición o un reembolso reducido). La app no decide cómo repartir la diferencia; emita la nota de crédito manualmente.`,
      'order_adjustments',
    ),

  refundShippingTaxUnknown: (path: string) =>
    problem(
      'refund_shipping_tax_unknown',
      'Part of the shipping was refunded and Shopify did not say how much of it was tax. Issue the credit note by hand.',
      'Se reembolsó parte del envío y Shopify no indicó cuánto de ello era impuesto. Emita la nota de crédito manualmente.',
      path,
    ),

  creditExceedsInvoice: (scope: CreditScope, credited: number, invoiced: number) => {
    const [en, es] = scopeWords(scope);
    const amount = (c: number) => (scope.kind === 'units' ? String(c) : money(c));
    return problem(
      'credit_exceeds_invoice',
      `With this refund the credit notes would credit ${amount(credited)} ${en}, more than the invoice's ${amount(invoiced)}. Check the order's refunds in Shopify; this credit note must be issued by hand.`,
      `Con este reembolso las notas de crédito acreditarían ${amount(credited)} ${es}, más que los ${amount(invoiced)} de la factura. Revise los reembolsos del pedido en Shopify; esta nota de crédito debe emitirse manualmente.`,
    );
  },

  creditTaxNotDistributable: (refundedTax: number) =>
    problem(
      'credit_tax_not_distributable',
      `Shopify refunded ${money(refundedTax)} of tax, which cannot be spread over the credit note's lines within the DGI's rounding tolerance of 0.01 per line. Issue the credit note by hand.`,
      `Shopify reembolsó ${money(refundedTax)} de impuesto, que no se puede repartir entre las líneas de la nota de crédito dentro de la tolerancia de redondeo de la DGI (0.01 por línea). Emita la nota de crédito manualmente.`,
    ),
};
