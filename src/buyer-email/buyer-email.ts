// The e-mail a buyer receives for an authorized document: from the shop's name (replies to the shop's own address), in
// the buyer's language, saying what the document is (a credit note names the invoice it corrects), its fiscal number,
// total, CUFE and DGI address, with the stored PDF attached as it is.
// Pure: the texts are the catalogue's (src/messages/email-texts.ts, from es.json and en.json).
import { formatCents } from '../../mappers/fiscal/money.ts';
import { type DocumentRow, formatFiscalNumber } from '../documents/store/index.ts';
import { BUYER_EMAIL, type EmailFacts } from '../messages/email-texts.ts';
import type { Language } from '../db/languages.ts';
import type { OutgoingEmail } from './smtp-mailer.ts';

export interface BuyerEmailInput {
  doc: Pick<DocumentRow, 'kind' | 'orderName' | 'branchCode' | 'billingPoint' | 'fiscalNumber' | 'totalCents' | 'currency' | 'cufe' | 'qr'>;
  pdf: Buffer;
  /** A credit note's invoice, as merchants read its number: the e-mail names what the note corrects. */
  invoiceNumber?: string | undefined;
  shopName: string;
  /** The shop's own address: the buyer's answer goes to the shop, not to the operator's sender. */
  replyTo?: string | undefined;
  language: Language;
  to: string;
  /** The operator's sender address (MAIL_FROM). */
  from: string;
  /** The document's buyer page (docs/buyer-page.md), named in the e-mail. */
  pageUrl?: string;
  /** The outbox row's id: the Message-ID is made from it, so a repeated send carries the same one. */
  emailId: string;
}

export function buyerEmail(i: BuyerEmailInput): OutgoingEmail & { messageId: string } {
  // A name from Shopify goes into a header: no line breaks or other control characters.
  const shopName = i.shopName.replace(/[\p{Cc}]+/gu, ' ').trim();
  const facts: EmailFacts = {
    kind: i.doc.kind,
    shopName,
    orderName: i.doc.orderName,
    fiscalNumber: formatFiscalNumber(i.doc),
    total: `${formatCents(i.doc.totalCents)} ${i.doc.currency}`,
    cufe: i.doc.cufe ?? '',
    qr: i.doc.qr ?? '',
    invoiceNumber: i.invoiceNumber ?? '',
    pageUrl: i.pageUrl ?? '',
  };
  const texts = BUYER_EMAIL[i.language];
  return {
    from: { name: shopName, address: i.from },
    ...(i.replyTo ? { replyTo: { name: shopName, address: i.replyTo } } : {}),
    to: i.to,
    subject: texts.subject(facts),
    text: texts.body(facts),
    messageId: messageIdFor(i.emailId, i.from),
    attachments: [{ filename: texts.attachmentName(facts), content: i.pdf, contentType: 'application/pdf' }],
  };
}

/** <outbox id@sender's domain>. */
export function messageIdFor(emailId: string, from: string): string {
  return `<${emailId}@${from.slice(from.lastIndexOf('@') + 1)}>`;
}
