// The document as its buyer's page shows it, and as `GET <link>.json` returns it (docs/buyer-page.md): only this
// document, the documents of the same order linked to it (an invoice's credit notes, the invoice that replaced it),
// and what the PDF shows. Texts in the buyer's language.
import { toString as qrSvg } from 'qrcode';
import { formatCents } from '../../mappers/fiscal/money.ts';
import type { Language } from '../db/languages.ts';
import { buyerUrl } from '../documents/buyer-link.ts';
import { pdfUrl } from '../documents/pdf-link.ts';
import { type BuyerRequestRow, type DocumentWithPdf, formatFiscalNumber } from '../documents/store/index.ts';
import { text } from './buyer-problems.ts';
import { type RequestPlan, type Refusal, windowEnds } from './request-rules.ts';

export type DocumentState = 'authorized' | 'in_progress' | 'not_issued' | 'replaced';

export interface LinkedDocument {
  kind: 'invoice' | 'credit_note';
  fiscalNumber: string | null;
  date: string | null;
  total: string;
  currency: string;
  cufe: string | null;
  pdfUrl: string | null;
  url: string;
  state: DocumentState;
}

export interface BuyerDocumentView {
  kind: 'invoice' | 'credit_note';
  language: Language;
  state: DocumentState;
  stateText: string;
  orderName: string;
  fiscalNumber: string | null;
  /** The issue date as sent to the DGI (Panamá time, ISO 8601). */
  date: string | null;
  /** "70.43" */
  total: string;
  totalCents: number;
  currency: string;
  cufe: string | null;
  /** The DGI's look-up: its address and the QR image (an SVG data URL). */
  qr: { url: string; image: string } | null;
  pdfUrl: string | null;
  client: { type: 'taxpayer' | 'final_consumer'; name: string | null; ruc: string | null; dv: string | null } | null;
  /** A credit note's invoice. */
  invoice: LinkedDocument | null;
  creditNotes: LinkedDocument[];
  replacedBy: LinkedDocument | null;
  replaces: LinkedDocument | null;
  requestable: boolean;
  /** Why not, when not requestable: a code and the text to show (with what to do). */
  reason: { code: Refusal | 'requested'; message: string } | null;
  /** The buyer's request, once made. */
  request: { requestedAt: string; outcome: BuyerRequestRow['outcome']; message: string } | null;
  /** Until when a request is taken (when requestable). */
  requestUntil: string | null;
  links: { page: string; json: string; request: string };
}

export interface ViewInput {
  doc: DocumentWithPdf;
  relatives: DocumentWithPdf[];
  request: BuyerRequestRow | undefined;
  plan: RequestPlan;
  days: number;
  language: Language;
  appUrl: string;
}

export async function buyerView(i: ViewInput): Promise<BuyerDocumentView> {
  const { doc, language: lang } = i;
  const state = stateOf(doc, i.relatives);
  const page = buyerUrl(i.appUrl, doc.buyerToken);
  const linked = (r: DocumentWithPdf) => linkedDocument(r, i.relatives, i.appUrl);
  const requestable = !i.request && i.plan.kind !== 'refuse';
  const sent = clientBlock(doc.document);
  return {
    kind: doc.kind,
    language: lang,
    state,
    stateText: text(lang, `state_${state}`, { kind: doc.kind }),
    orderName: doc.orderName,
    fiscalNumber: doc.fiscalNumber === null ? null : formatFiscalNumber(doc),
    date: issueDate(doc),
    total: formatCents(doc.totalCents),
    totalCents: doc.totalCents,
    currency: doc.currency,
    cufe: doc.cufe,
    qr: doc.qr ? { url: doc.qr, image: await qrImage(doc.qr) } : null,
    pdfUrl: pdfUrl(i.appUrl, doc.pdfToken),
    client: sent,
    invoice:
      doc.kind === 'credit_note'
        ? optional(
            i.relatives.find((r) => r.id === doc.invoiceId),
            linked,
          )
        : null,
    creditNotes: doc.kind === 'invoice' ? i.relatives.filter((r) => r.invoiceId === doc.id).map(linked) : [],
    replacedBy: optional(
      i.relatives.find((r) => r.replacesId === doc.id),
      linked,
    ),
    replaces: optional(
      i.relatives.find((r) => r.id === doc.replacesId),
      linked,
    ),
    requestable,
    reason: i.request
      ? { code: 'requested', message: requestedText(i.request, lang) }
      : i.plan.kind === 'refuse'
        ? { code: i.plan.reason, message: refusalText(i.plan.reason, doc, i.days, lang) }
        : null,
    request: i.request
      ? { requestedAt: i.request.createdAt.toISOString(), outcome: i.request.outcome, message: requestedText(i.request, lang) }
      : null,
    requestUntil: requestable ? windowEnds(doc, i.days).toISOString() : null,
    links: { page, json: `${page}.json`, request: `${page}/request` },
  };
}

/** The refusal's text, with what to do. */
export function refusalText(
  reason: Refusal,
  doc: Pick<DocumentWithPdf, 'authorizedAt' | 'createdAt'>,
  days: number,
  lang: Language,
): string {
  const date = panamaDay(windowEnds(doc, days), lang);
  return `${text(lang, `refusal_${reason}`, { date })} ${text(lang, 'contactShop')}`;
}

export function requestedText(request: Pick<BuyerRequestRow, 'createdAt' | 'outcome'>, lang: Language): string {
  return `${text(lang, 'requested', { date: panamaDay(request.createdAt, lang) })} ${text(lang, `outcome_${request.outcome}`)}`;
}

function stateOf(doc: DocumentWithPdf, relatives: readonly DocumentWithPdf[]): DocumentState {
  if (doc.kind === 'invoice' && relatives.some((r) => r.replacesId === doc.id)) return 'replaced';
  if (doc.status === 'skipped') return 'not_issued';
  return doc.status === 'completed' ? 'authorized' : 'in_progress';
}

function linkedDocument(r: DocumentWithPdf, relatives: readonly DocumentWithPdf[], appUrl: string): LinkedDocument {
  return {
    kind: r.kind,
    fiscalNumber: r.fiscalNumber === null ? null : formatFiscalNumber(r),
    date: issueDate(r),
    total: formatCents(r.totalCents),
    currency: r.currency,
    cufe: r.cufe,
    pdfUrl: pdfUrl(appUrl, r.pdfToken),
    url: buyerUrl(appUrl, r.buyerToken),
    state: r.status === 'completed' ? 'authorized' : stateOf(r, relatives),
  };
}

function optional<T, U>(value: T | undefined, f: (v: T) => U): U | null {
  return value === undefined ? null : f(value);
}

function issueDate(doc: Pick<DocumentWithPdf, 'document' | 'cufe'>): string | null {
  const date = (doc.document as { dataTransaction?: { dateBroadcast?: unknown } } | null)?.dataTransaction?.dateBroadcast;
  return doc.cufe !== null && typeof date === 'string' ? date : null;
}

function clientBlock(document: unknown): BuyerDocumentView['client'] {
  const c = (document as { dataTransaction?: { client?: Record<string, unknown> } } | null)?.dataTransaction?.client;
  if (!c) return null;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return {
    type: c['typeClientEB'] === '02' ? 'final_consumer' : 'taxpayer',
    name: str(c['businessName']),
    ruc: str(c['numberRUC']),
    dv: str(c['digitCheckRUC']),
  };
}

/** A day in Panamá as the DGI's documents write it, day first: 27/11/2026 (in both languages). */
export function panamaDay(date: Date, _lang: Language): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: 'America/Panama',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(date);
}

async function qrImage(address: string): Promise<string> {
  const svg = await qrSvg(address, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
