// The texts of the mapping problems (mappers/mapping-problems.ts gives each a code and parameters), in Spanish
// and English.
import type { Language, MessageParams } from './message.ts';

const t = (v: string | number | undefined) => (v === undefined ? '' : String(v));

export const PROBLEM_TEXTS: Record<string, Record<Language, (p: MessageParams) => string>> = {
  order_unreadable: {
    en: (p) =>
      `Shopify's order data could not be read (${t(p.where) || 'order'}: ${t(p.detail)}). No invoice was made; please contact the app's support with the order number.`,
    es: (p) =>
      `Los datos del pedido enviados por Shopify no se pudieron leer (${t(p.where) || 'pedido'}: ${t(p.detail)}). No se emitió factura; contacte al soporte de la app con el número de pedido.`,
  },
  unsupported_currency: {
    en: (p) =>
      `The shop's currency is ${t(p.currency)}. Panamanian invoices are issued in US dollars (or balboas): set the store currency to USD in Shopify to invoice its orders.`,
    es: (p) =>
      `La moneda de la tienda es ${t(p.currency)}. Las facturas panameñas se emiten en dólares (o balboas): configure la moneda de la tienda en USD en Shopify para facturar sus pedidos.`,
  },
  unsupported_tax_rate: {
    en: (p) =>
      `"${t(p.what)}" is charged a tax rate of ${t(p.rate)} %, which is not an ITBMS rate (0, 7, 10 or 15 %). Correct the tax settings in Shopify, or tell the app which ITBMS rate to use for ${t(p.rate)} % in its settings (tax rate codes).`,
    es: (p) =>
      `A "${t(p.what)}" se le cobró una tasa de impuesto de ${t(p.rate)} %, que no es una tasa de ITBMS (0, 7, 10 o 15 %). Corrija la configuración de impuestos en Shopify, o indique en la configuración de la app qué tasa de ITBMS usar para ${t(p.rate)} %.`,
  },
  ruc_unreadable: {
    en: (p) =>
      `The customer entered "${t(p.text)}" as RUC, which is not a RUC or cédula number (e.g. 155596713-2-2015 or 8-442-445). Ask the customer for the correct RUC, correct the order's attribute, then retry.`,
    es: (p) =>
      `El cliente indicó "${t(p.text)}" como RUC, que no es un número de RUC ni de cédula (p. ej. 155596713-2-2015 u 8-442-445). Pida al cliente el RUC correcto, corrija el atributo del pedido y reintente.`,
  },
  ruc_check_digit_missing: {
    en: (p) =>
      `The customer gave the RUC ${t(p.ruc)} without its check digit (DV). A taxpayer invoice needs both: ask the customer for the DV, add it to the order, then retry.`,
    es: (p) =>
      `El cliente indicó el RUC ${t(p.ruc)} sin su dígito verificador (DV). Una factura a contribuyente necesita ambos: pida el DV al cliente, agréguelo al pedido y reintente.`,
  },
  ruc_check_digit_invalid: {
    en: (p) =>
      `The check digit (DV) ${t(p.dv)} does not belong to the RUC ${t(p.ruc)}; one of them was mistyped. Confirm the RUC and DV with the customer, correct the order, then retry.`,
    es: (p) =>
      `El dígito verificador (DV) ${t(p.dv)} no corresponde al RUC ${t(p.ruc)}; uno de los dos está mal escrito. Confirme el RUC y el DV con el cliente, corrija el pedido y reintente.`,
  },
  taxpayer_name_missing: {
    en: (p) =>
      `The order asks for an invoice to RUC ${t(p.ruc)} but gives no business name. Add the customer's business name (razón social) to the order, then retry.`,
    es: (p) =>
      `El pedido solicita factura al RUC ${t(p.ruc)} pero no indica la razón social. Agregue la razón social del cliente al pedido y reintente.`,
  },
  taxpayer_address_missing: {
    en: (p) =>
      `The order asks for an invoice to RUC ${t(p.ruc)} but has no address (a taxpayer invoice needs one of 5 to 100 characters). Add a billing address or the address attribute to the order, then retry.`,
    es: (p) =>
      `El pedido solicita factura al RUC ${t(p.ruc)} pero no tiene dirección (una factura a contribuyente necesita una de 5 a 100 caracteres). Agregue una dirección de facturación o el atributo de dirección al pedido y reintente.`,
  },
  foreign_destination: {
    en: (p) =>
      `The order ships to ${t(p.country)}, outside Panama. That is an export, which the app does not invoice; issue this invoice by hand.`,
    es: (p) =>
      `El pedido se envía a ${t(p.country)}, fuera de Panamá. Es una exportación, que la app no factura; emita esta factura manualmente.`,
  },
  duties_not_supported: {
    en: (p) => `The order includes ${t(p.amount)} of import duties, which the invoice cannot show. Issue this invoice by hand.`,
    es: (p) =>
      `El pedido incluye ${t(p.amount)} de aranceles de importación, que la factura no puede mostrar. Emita esta factura manualmente.`,
  },
  additional_fees_not_supported: {
    en: (p) => `The order includes ${t(p.amount)} of additional fees, which the invoice cannot show. Issue this invoice by hand.`,
    es: (p) => `El pedido incluye ${t(p.amount)} de cargos adicionales, que la factura no puede mostrar. Emita esta factura manualmente.`,
  },
  cash_rounding_not_supported: {
    en: (p) =>
      `The order's total was rounded by ${t(p.amount)} for a cash payment, which the invoice cannot show. Issue this invoice by hand.`,
    es: (p) =>
      `El total del pedido se redondeó en ${t(p.amount)} por pago en efectivo, lo que la factura no puede mostrar. Emita esta factura manualmente.`,
  },
  nothing_to_invoice: {
    en: () =>
      'Nothing in this order is invoiced: it only contains gift cards or tips, which the shop settings leave out of invoices. No invoice is needed.',
    es: () =>
      'Nada de este pedido se factura: solo contiene tarjetas de regalo o propinas, que la configuración de la tienda deja fuera de las facturas. No se necesita factura.',
  },
  too_many_items: {
    en: (p) =>
      `The invoice would have ${t(p.count)} lines; an electronic invoice can have at most 1000. Split the order into smaller orders, or issue the invoice by hand.`,
    es: (p) =>
      `La factura tendría ${t(p.count)} líneas; una factura electrónica admite como máximo 1000. Divida el pedido en pedidos más pequeños o emita la factura manualmente.`,
  },
  amount_too_large: {
    en: () => 'An amount in this order is too large to be invoiced. Issue this invoice by hand.',
    es: () => 'Un monto de este pedido es demasiado grande para facturarlo. Emita esta factura manualmente.',
  },
  tax_not_distributable: {
    en: (p) =>
      `Shopify charged ${t(p.charged)} of tax, which cannot be spread over the invoice lines within the DGI's rounding tolerance of 0.01 per line. Check the order's taxes in Shopify, then retry or issue the invoice by hand.`,
    es: (p) =>
      `Shopify cobró ${t(p.charged)} de impuesto, que no se puede repartir entre las líneas de la factura dentro de la tolerancia de redondeo de la DGI (0.01 por línea). Revise los impuestos del pedido en Shopify; luego reintente o emita la factura manualmente.`,
  },
  total_mismatch: {
    en: (p) =>
      `The invoice would total ${t(p.invoice)} but the customer paid ${t(p.paid)} for the invoiced items. The order may have been edited in an unusual way; check it in Shopify, then retry or issue the invoice by hand.`,
    es: (p) =>
      `La factura sumaría ${t(p.invoice)} pero el cliente pagó ${t(p.paid)} por lo facturado. Es posible que el pedido se haya editado de forma inusual; revíselo en Shopify; luego reintente o emita la factura manualmente.`,
  },
  transactions_missing: {
    en: (p) =>
      `The order was paid with several methods (${t(p.gateways)}) and the amount of each could not be read from Shopify. Retry later.`,
    es: (p) =>
      `El pedido se pagó con varios métodos (${t(p.gateways)}) y no se pudo leer de Shopify el monto de cada uno. Reintente más tarde.`,
  },
  payments_mismatch: {
    en: (p) =>
      `Shopify's payment records add up to ${t(p.paid)} but the order total is ${t(p.total)}. Check the order's payments in Shopify, then retry.`,
    es: (p) =>
      `Los pagos registrados en Shopify suman ${t(p.paid)} pero el total del pedido es ${t(p.total)}. Revise los pagos del pedido en Shopify y reintente.`,
  },

  // Credit notes (mappers/refund-to-credit-note.ts, full-credit-note.ts, shopify-refund.ts)
  refund_unreadable: {
    en: (p) =>
      `Shopify's refund data could not be read (${t(p.where) || 'refund'}: ${t(p.detail)}). No credit note was made; please contact the app's support with the order number.`,
    es: (p) =>
      `Los datos del reembolso enviados por Shopify no se pudieron leer (${t(p.where) || 'reembolso'}: ${t(p.detail)}). No se emitió nota de crédito; contacte al soporte de la app con el número de pedido.`,
  },
  refund_currency_unsupported: {
    en: (p) =>
      `Money was refunded in ${t(p.currency)}. Credit notes are issued in US dollars (or balboas), so this one cannot be made automatically; issue it by hand.`,
    es: (p) =>
      `El dinero se reembolsó en ${t(p.currency)}. Las notas de crédito se emiten en dólares (o balboas), así que esta no se puede emitir automáticamente; emítala manualmente.`,
  },
  invoice_not_readable: {
    en: (p) =>
      `The invoice this refund belongs to cannot be matched with its order (${t(p.detail)}), so the app cannot tell which invoice lines were refunded. Issue the credit note by hand.`,
    es: (p) =>
      `La factura de este reembolso no se puede relacionar con su pedido (${t(p.detail)}), así que la app no puede saber qué líneas de la factura se reembolsaron. Emita la nota de crédito manualmente.`,
  },
  refund_line_not_invoiced: {
    en: (p) =>
      `The refund includes "${t(p.what)}", which is not on the order's invoice (the order may have been edited after it was invoiced). Issue the credit note by hand.`,
    es: (p) =>
      `El reembolso incluye "${t(p.what)}", que no está en la factura del pedido (es posible que el pedido se editara después de facturarlo). Emita la nota de crédito manualmente.`,
  },
  refund_money_mismatch: {
    en: (p) =>
      `Shopify refunded ${t(p.refunded)}, but the refunded items, shipping and adjustments add up to ${t(p.computed)}. Check the refund in Shopify; the credit note must be issued by hand.`,
    es: (p) =>
      `Shopify reembolsó ${t(p.refunded)}, pero los artículos, el envío y los ajustes reembolsados suman ${t(p.computed)}. Revise el reembolso en Shopify; la nota de crédito debe emitirse manualmente.`,
  },
  refund_less_than_items: {
    en: (p) =>
      `Shopify refunded ${t(p.refunded)} for items and shipping worth ${t(p.items)} (a restocking fee or a reduced refund). The app does not decide how to split the difference; issue the credit note by hand.`,
    es: (p) =>
      `Shopify reembolsó ${t(p.refunded)} por artículos y envío que valen ${t(p.items)} (un cargo por reposición o un reembolso reducido). La app no decide cómo repartir la diferencia; emita la nota de crédito manualmente.`,
  },
  refund_shipping_tax_unknown: {
    en: () => 'Part of the shipping was refunded and Shopify did not say how much of it was tax. Issue the credit note by hand.',
    es: () => 'Se reembolsó parte del envío y Shopify no indicó cuánto de ello era impuesto. Emita la nota de crédito manualmente.',
  },
  credit_exceeds_invoice: {
    en: (p) =>
      `With this refund the credit notes would credit ${t(p.credited)} ${creditScope(p, 'en')}, more than the invoice's ${t(p.invoiced)}. Check the order's refunds in Shopify; this credit note must be issued by hand.`,
    es: (p) =>
      `Con este reembolso las notas de crédito acreditarían ${t(p.credited)} ${creditScope(p, 'es')}, más que los ${t(p.invoiced)} de la factura. Revise los reembolsos del pedido en Shopify; esta nota de crédito debe emitirse manualmente.`,
  },
  credit_tax_not_distributable: {
    en: (p) =>
      `Shopify refunded ${t(p.tax)} of tax, which cannot be spread over the credit note's lines within the DGI's rounding tolerance of 0.01 per line. Issue the credit note by hand.`,
    es: (p) =>
      `Shopify reembolsó ${t(p.tax)} de impuesto, que no se puede repartir entre las líneas de la nota de crédito dentro de la tolerancia de redondeo de la DGI (0.01 por línea). Emita la nota de crédito manualmente.`,
  },
};

/** What credit_exceeds_invoice is about (its `scope` parameter), in words. */
function creditScope(p: MessageParams, language: Language): string {
  const words: Record<string, Record<Language, string>> = {
    units: { en: `units of "${t(p.line)}"`, es: `unidades de "${t(p.line)}"` },
    base: { en: `of the base taxed at ${t(p.rate)}`, es: `de la base gravada al ${t(p.rate)}` },
    itbms: { en: `of ITBMS at ${t(p.rate)}`, es: `de ITBMS al ${t(p.rate)}` },
    total: { en: 'in total', es: 'en total' },
  };
  return words[t(p.scope)]?.[language] ?? '';
}
