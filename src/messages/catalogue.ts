// Every message a merchant or operator reads about a document, in Spanish and English: why it stopped and what to do,
// notices, statuses. The admin API, the CLI and the logs render from here; nothing stores or repeats these texts.
import type { DocumentStatus } from '../documents/document-state.ts';
import { EMAIL_MESSAGES } from './email-texts.ts';
import { PROBLEM_TEXTS } from './problem-texts.ts';
import type { Language, Localized, Message, MessageParams } from './message.ts';

type Template = (p: MessageParams) => string;
type Entry = Record<Language, Template>;

const str = (v: string | number | undefined) => (v === undefined ? '' : String(v));

/** The document a message is about, by its kind (`document` parameter; an invoice when not given). */
const what = {
  en: (p: MessageParams) => (p.document === 'credit_note' ? 'credit note' : 'invoice'),
  es: (p: MessageParams) => (p.document === 'credit_note' ? 'la nota de crédito' : 'la factura'),
};

/** Why a document stopped or waits, and notices about documents that went through. */
const ENTRIES: Record<string, Entry> = {
  credentials: {
    es: (p) =>
      `El proveedor rechazó las credenciales de facturación de la tienda ("${str(p.gatewayMessage)}"). Revíselas en Configuración; los documentos esperan y continúan solos al guardar.`,
    en: (p) =>
      `The gateway refused the shop's invoicing credentials ("${str(p.gatewayMessage)}"). Check the credentials in Settings; documents wait and continue on their own once the settings are saved.`,
  },
  rejected: {
    es: (p) =>
      p.field
        ? `El proveedor rechazó ${what.es(p)} (código ${str(p.code)}): el campo "${str(p.field)}" es obligatorio. Complételo en Configuración o en el pedido y reintente.`
        : `El proveedor rechazó ${what.es(p)} (código ${str(p.code)}): ${str(p.gatewayMessage)}. Corrija el dato que indica y reintente.`,
    en: (p) =>
      p.field
        ? `The gateway rejected the ${what.en(p)} (code ${str(p.code)}): field "${str(p.field)}" is required. Complete it in Settings or on the order, then retry.`
        : `The gateway rejected the ${what.en(p)} (code ${str(p.code)}): ${str(p.gatewayMessage)}. Correct the data it names, then retry.`,
  },
  unavailable: {
    es: (p) => `No se pudo contactar al proveedor (${str(p.reason)}); la app reintenta automáticamente.`,
    en: (p) => `The gateway could not be reached (${str(p.reason)}); the app retries automatically.`,
  },
  indeterminate: {
    es: (p) =>
      `El proveedor no respondió a tiempo (${str(p.reason)}); puede haber emitido el documento, así que el próximo intento lo verifica antes de volver a enviar.`,
    en: (p) =>
      `The gateway did not answer in time (${str(p.reason)}); it may have issued the document, so the next attempt checks before sending again.`,
  },
  exhausted: {
    es: () => 'Se abandonó tras fallos repetidos. Pulse Reintentar cuando se haya resuelto la causa. Último error:',
    en: () => 'Gave up after repeated failures. Use "Retry" once the cause is fixed. Last error:',
  },
  unrecoverable: {
    es: (p) =>
      `El proveedor indica que el número fiscal ${str(p.number)} ya está emitido, y puede ser ${what.es(p)} de este pedido, pero su CUFE no se pudo recuperar del proveedor. Búsquelo en el portal del proveedor antes de hacer nada más; no reintente a ciegas.`,
    en: (p) =>
      `The gateway says fiscal number ${str(p.number)} is already issued, and it may be this order's ${what.en(p)}, but its CUFE could not be recovered from the gateway. Look the number up in the provider's portal before doing anything else; do not retry blindly.`,
  },
  writeback: {
    es: (p) => `Shopify no aceptó los metacampos del documento: ${str(p.detail)}. El documento en sí está autorizado.`,
    en: (p) => `Shopify refused the document's metafields: ${str(p.detail)}. The document itself is authorized.`,
  },
  pdf_missing: {
    es: (p) => `El documento está autorizado pero su PDF aún no se pudo descargar: ${str(p.detail)}.`,
    en: (p) => `The document is authorized but its PDF could not be downloaded yet: ${str(p.detail)}.`,
  },
  mapping: {
    es: () => 'El pedido no se puede facturar tal como está; vea los problemas indicados.',
    en: () => 'The order cannot be invoiced as it stands; see the problems listed.',
  },
  order_unconfirmed: {
    es: (p) => `Shopify no confirma el pedido en esta tienda (${str(p.detail)}). No se emitió nada.`,
    en: (p) => `Shopify does not confirm the order in this shop (${str(p.detail)}). Nothing was issued.`,
  },
  test_order_in_production: {
    es: () => 'Pedido de prueba: no se factura, porque la tienda envía sus documentos al ambiente de producción.',
    en: () => 'Test order: not invoiced, because the shop sends documents to the production environment.',
  },
  waiting_for_invoice: {
    es: (p) => `La nota de crédito espera a que se autorice la factura del pedido ${str(p.orderName)}; sigue sola.`,
    en: (p) => `The credit note waits for the invoice of order ${str(p.orderName)} to be authorized; it goes on by itself.`,
  },
  waiting_for_other_note: {
    es: () => 'Otra nota de crédito de la misma factura se emitía a la vez; esta se recalcula en un momento.',
    en: () => 'Another credit note of the same invoice was being issued at the same time; this one is recalculated in a moment.',
  },
  credit_no_money_refunded: {
    es: () => 'El reembolso no devolvió dinero (solo reposición de inventario): no hay nota de crédito que emitir.',
    en: () => 'The refund returned no money (a restock only): there is no credit note to issue.',
  },
  credit_nothing_invoiced_refunded: {
    es: () => 'Solo se reembolsó lo que la factura dejó fuera (tarjetas de regalo, propinas): no hay nota de crédito que emitir.',
    en: () => 'Only what the invoice left out (gift cards, tips) was refunded: there is no credit note to issue.',
  },
  credit_everything_credited: {
    es: () => 'Las notas de crédito anteriores ya cubren toda la factura: no hay nada más que acreditar.',
    en: () => 'Earlier credit notes already cover the whole invoice: there is nothing left to credit.',
  },
  refund_pending: {
    es: () => 'El reembolso aún está pendiente en la pasarela de pago; la nota de crédito se emite cuando se confirme.',
    en: () => 'The refund is still pending at the payment gateway; the credit note is issued once it is confirmed.',
  },
  no_invoice: {
    es: (p) => `El pedido no tiene factura ni la tendrá (${str(p.why)}): no hay nota de crédito que emitir.`,
    en: (p) => `The order has no invoice and will have none (${str(p.why)}): there is no credit note to issue.`,
  },
  number_used_elsewhere: {
    es: (p) => `El número fiscal ${str(p.number)} ya se había usado fuera de esta app; la app lo saltó y usó el siguiente.`,
    en: (p) => `Fiscal number ${str(p.number)} was already used outside this app; the app skipped it and used the next number.`,
  },
  recovered_after_lost_answer: {
    es: (p) =>
      `Recuperada tras una respuesta perdida: el proveedor ya había autorizado el número ${str(p.number)}; el CUFE se leyó de su PDF.`,
    en: (p) => `Recovered after a lost answer: the gateway had already authorized number ${str(p.number)}; CUFE read from its PDF.`,
  },
  legacy: { es: (p) => str(p.text), en: (p) => str(p.text) },
};

/** The headline and what to do, per reason kind (error kinds and the queue's own states). */
const REASON_TITLES: Record<string, Localized> = {
  mapping: { es: 'El pedido no se puede facturar tal como está', en: 'The order cannot be invoiced as it stands' },
  rejected: { es: 'El proveedor rechazó la factura', en: 'The provider rejected the invoice' },
  credentials: { es: 'El proveedor rechazó las credenciales de la tienda', en: "The provider refused the shop's credentials" },
  unavailable: { es: 'El proveedor no respondió', en: 'The provider did not answer' },
  indeterminate: { es: 'El proveedor no respondió a tiempo', en: 'The provider did not answer in time' },
  unrecoverable: { es: 'El número fiscal ya figura como emitido', en: 'The fiscal number is already issued' },
  writeback: { es: 'Shopify no aceptó los datos de la factura en el pedido', en: "Shopify refused the invoice's data on the order" },
  skipped: { es: 'No se factura', en: 'Not invoiced' },
  paused: { es: 'En espera: la facturación está en pausa', en: 'On hold: invoicing is paused' },
  disabled: { es: 'En espera: la facturación está desactivada', en: 'On hold: invoicing is turned off' },
  unknown: { es: 'Detenida sin motivo registrado', en: 'Stopped without a recorded reason' },
  order_unconfirmed: { es: 'Shopify no confirma el pedido', en: 'Shopify does not confirm the order' },
  waiting: { es: 'En espera', en: 'Waiting' },
};

const REASON_ACTIONS: Record<string, Localized> = {
  mapping: {
    es: 'Corrija lo indicado (en Configuración o en el pedido) y pulse Reintentar.',
    en: 'Correct what is named (in Settings or on the order), then press Retry.',
  },
  rejected: {
    es: 'Corrija el dato que indica el proveedor y pulse Reintentar.',
    en: 'Correct the data the provider names, then press Retry.',
  },
  credentials: {
    es: 'Corrija las credenciales en Configuración; al guardar, las facturas continúan solas.',
    en: 'Correct the credentials in Settings; once saved, invoices continue on their own.',
  },
  unavailable: { es: 'La app reintenta automáticamente.', en: 'The app retries automatically.' },
  indeterminate: {
    es: 'La app verifica con el proveedor antes de volver a enviar, para no facturar dos veces.',
    en: 'The app checks with the provider before sending again, so nothing is invoiced twice.',
  },
  unrecoverable: {
    es: 'Búsquelo en el portal del proveedor antes de hacer nada más; no reintente a ciegas.',
    en: "Look it up in the provider's portal before doing anything else; do not retry blindly.",
  },
  writeback: {
    es: 'La factura está autorizada. Revise el detalle y pulse Reintentar.',
    en: 'The invoice is authorized. Check the details, then press Retry.',
  },
  skipped: { es: 'Los pedidos de prueba no se envían a producción.', en: 'Test orders are never sent to production.' },
  paused: {
    es: 'Corrija las credenciales en Configuración; al guardar, las facturas continúan solas.',
    en: 'Correct the credentials in Settings; once saved, invoices continue on their own.',
  },
  disabled: {
    es: 'Actívela en Configuración para emitir las facturas pendientes.',
    en: 'Turn it on in Settings to issue the waiting invoices.',
  },
  unknown: { es: 'Pulse Reintentar.', en: 'Press Retry.' },
  order_unconfirmed: { es: 'Compruebe el pedido en Shopify y pulse Reintentar.', en: 'Check the order in Shopify, then press Retry.' },
  waiting: { es: 'Continúa sola, sin que haga nada.', en: 'It goes on by itself.' },
  failed: {
    es: 'Se agotaron los reintentos automáticos. Pulse Reintentar cuando se haya resuelto la causa.',
    en: 'Automatic retries are used up. Press Retry once the cause is fixed.',
  },
};

/** One vocabulary for statuses: the page, the CLI and the README say these words. */
export const STATUS_LABELS: Record<DocumentStatus, Localized> = {
  pending: { es: 'En cola', en: 'Queued' },
  waiting: { es: 'En espera', en: 'Waiting' },
  needs_attention: { es: 'Requiere atención', en: 'Needs attention' },
  failed: { es: 'Fallida', en: 'Failed' },
  completed: { es: 'Autorizada', en: 'Authorized' },
  skipped: { es: 'Omitida', en: 'Skipped' },
};

/** A message in one language; an unknown key renders as its key and parameters (never nothing). */
export function render(m: Message, language: Language): string {
  const entry = ENTRIES[m.key] ?? PROBLEM_TEXTS[m.key] ?? EMAIL_MESSAGES[m.key];
  const text = entry ? entry[language](m.params) : `${m.key} ${JSON.stringify(m.params)}`;
  return m.cause ? `${text} ${render(m.cause, language)}` : text;
}

export function localize(m: Message): Localized {
  return { es: render(m, 'es'), en: render(m, 'en') };
}

export function reasonTitle(kind: string): Localized {
  return REASON_TITLES[kind] ?? REASON_TITLES.unknown!;
}

export function reasonAction(kind: string, status: DocumentStatus): Localized {
  if (status === 'failed') return REASON_ACTIONS.failed!;
  return REASON_ACTIONS[kind] ?? REASON_ACTIONS.unknown!;
}

/** Stored mapping problems, each with its text in both languages (older rows carry their own texts). */
export function localizeProblems(value: unknown): { code: string; path: string | undefined; text: Localized }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((p: unknown) => {
    if (!p || typeof p !== 'object') return [];
    const { code, params, path, message: en, messageEs: es } = p as Record<string, unknown>;
    if (typeof code !== 'string') return [];
    const where = typeof path === 'string' ? path : undefined;
    if (typeof en === 'string') return [{ code, path: where, text: { en, es: typeof es === 'string' ? es : en } }];
    const m = { key: code, params: (params && typeof params === 'object' ? params : {}) as MessageParams };
    return [{ code, path: where, text: localize(m) }];
  });
}
