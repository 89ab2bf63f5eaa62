// The buyer's e-mail (subject, body, attachment name) in Spanish and English. The texts are the catalogue's
// (`buyerEmail` in es.json and en.json).
import { format } from './catalogue.ts';
import type { Language } from '../db/languages.ts';

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
  /** A credit note's invoice's fiscal number ('' when unknown, and for an invoice). */
  invoiceNumber?: string;
  /** The buyer's page of the document (docs/buyer-page.md); '' leaves its line out. */
  pageUrl?: string;
}

interface EmailTexts {
  subject(f: EmailFacts): string;
  body(f: EmailFacts): string;
  attachmentName(f: EmailFacts): string;
}

function emailTexts(language: Language): EmailTexts {
  // The file name keeps only what is safe in one: digits, letters and dashes.
  const text = (key: 'subject' | 'body' | 'attachmentName', f: EmailFacts) =>
    format(language, 'buyerEmail', key, { ...f, fileNumber: f.fiscalNumber.replace(/[^0-9A-Za-z-]/g, '') }) ?? '';
  return { subject: (f) => text('subject', f), body: (f) => text('body', f), attachmentName: (f) => text('attachmentName', f) };
}

export const BUYER_EMAIL: Record<Language, EmailTexts> = { es: emailTexts('es'), en: emailTexts('en') };
