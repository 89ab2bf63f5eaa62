// The buyer's e-mail (subject, body, attachment name) in Spanish and English, and the outbox's own messages (why an
// e-mail was not sent), which the catalogue renders like every other message.
import type { Language, MessageParams } from './message.ts';

/** What an e-mail says about its document. */
export interface EmailFacts {
  kind: 'invoice' | 'credit_note';
  shopName: string;
  orderName: string;
  /** As merchants read it: 0000-001-0000000042. */
  fiscalNumber: string;
  /** "75.78 USD". */
  total: string;
  cufe: string;
  /** The DGI's address for the document (its QR). */
  qr: string;
}

interface EmailTexts {
  subject(f: EmailFacts): string;
  body(f: EmailFacts): string;
  attachmentName(f: EmailFacts): string;
}

const fileSafe = (number: string) => number.replace(/[^0-9A-Za-z-]/g, '');

export const BUYER_EMAIL: Record<Language, EmailTexts> = {
  es: {
    subject: (f) =>
      `${f.kind === 'invoice' ? 'Factura electrónica' : 'Nota de crédito'} ${f.fiscalNumber} de ${f.shopName} (pedido ${f.orderName})`,
    body: (f) =>
      [
        'Estimado(a) cliente:',
        '',
        f.kind === 'invoice'
          ? `Gracias por su compra. ${f.shopName} le envía la factura electrónica de su pedido ${f.orderName}, autorizada por la Dirección General de Ingresos (DGI) de Panamá.`
          : `${f.shopName} le envía la nota de crédito de su pedido ${f.orderName}, autorizada por la Dirección General de Ingresos (DGI) de Panamá.`,
        '',
        `Número fiscal: ${f.fiscalNumber}`,
        `Total: ${f.total}`,
        `CUFE: ${f.cufe}`,
        `Consulta en la DGI: ${f.qr}`,
        '',
        `El PDF adjunto es el comprobante auxiliar (CAFE) de ${f.kind === 'invoice' ? 'la factura' : 'la nota de crédito'}.`,
        '',
        f.shopName,
      ].join('\n'),
    attachmentName: (f) => `${f.kind === 'invoice' ? 'factura' : 'nota-de-credito'}-${fileSafe(f.fiscalNumber)}.pdf`,
  },
  en: {
    subject: (f) =>
      `${f.kind === 'invoice' ? 'Electronic invoice' : 'Credit note'} ${f.fiscalNumber} from ${f.shopName} (order ${f.orderName})`,
    body: (f) =>
      [
        'Dear customer,',
        '',
        f.kind === 'invoice'
          ? `Thank you for your purchase. ${f.shopName} sends you the electronic invoice for your order ${f.orderName}, authorized by Panama's tax authority (DGI).`
          : `${f.shopName} sends you the credit note for your order ${f.orderName}, authorized by Panama's tax authority (DGI).`,
        '',
        `Fiscal number: ${f.fiscalNumber}`,
        `Total: ${f.total}`,
        `CUFE: ${f.cufe}`,
        `Look it up at the DGI: ${f.qr}`,
        '',
        `The attached PDF is the ${f.kind === 'invoice' ? "invoice's" : "credit note's"} printable copy (CAFE).`,
        '',
        f.shopName,
      ].join('\n'),
    attachmentName: (f) => `${f.kind === 'invoice' ? 'invoice' : 'credit-note'}-${fileSafe(f.fiscalNumber)}.pdf`,
  },
};

const str = (v: string | number | undefined) => (v === undefined ? '' : String(v));

/** Why an e-mail to the buyer was not sent (the outbox's last error). */
export const EMAIL_MESSAGES: Record<string, Record<Language, (p: MessageParams) => string>> = {
  email_smtp_failed: {
    es: (p) => `El servidor de correo no aceptó el mensaje (${str(p.detail)}); la app reintenta automáticamente.`,
    en: (p) => `The mail server did not take the message (${str(p.detail)}); the app retries automatically.`,
  },
  email_refused: {
    es: (p) =>
      `El servidor de correo rechazó la dirección o el mensaje (${str(p.detail)}); no se reintenta. Revise el correo del comprador.`,
    en: (p) => `The mail server refused the address or the message (${str(p.detail)}); not retried. Check the buyer's e-mail address.`,
  },
  email_shop_name: {
    es: (p) => `Shopify no dio el nombre de la tienda para el remitente (${str(p.detail)}); la app reintenta automáticamente.`,
    en: (p) => `Shopify did not give the shop's name for the sender (${str(p.detail)}); the app retries automatically.`,
  },
  email_no_pdf: {
    es: () => 'El documento no tiene su PDF guardado; no hay nada que adjuntar.',
    en: () => 'The document has no stored PDF; there is nothing to attach.',
  },
  email_gave_up: {
    es: () => 'Se dejó de intentar tras fallos repetidos. Use Reenviar cuando se haya resuelto la causa. Último error:',
    en: () => 'Gave up after repeated failures. Use "Resend" once the cause is fixed. Last error:',
  },
};
