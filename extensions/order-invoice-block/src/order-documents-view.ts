// What the order block shows for each state of the order's fiscal documents: pure, no Shopify API, so it is
// unit-tested (test/unit/extensions/order-documents-view.test.ts). Texts are keys into ../locales; the statuses use the
// admin page's words (Autorizada, Requiere atención, …).
import WORDS from '../locales/es.default.json' with { type: 'json' };

/** One document as GET /api/orders/:orderId/documents returns it (src/admin/order-documents-api.ts). */
export interface OrderDocument {
  id: string;
  kind: 'invoice' | 'credit_note' | 'other';
  status: 'pending' | 'waiting' | 'needs_attention' | 'failed' | 'completed' | 'skipped';
  authorized: boolean;
  fiscalNumber: string | null;
  /** A credit note's invoice's fiscal number. */
  invoiceNumber?: string | null;
  cufe: string | null;
  pdfUrl: string | null;
  retryable: boolean;
  reason: { kind: string; code: string | null } | null;
}

export type Tone = 'success' | 'info' | 'caution' | 'warning' | 'critical' | 'neutral';

export interface DocumentLine {
  id: string;
  /** locales key: "kind.invoice", "kind.credit_note", "kind.other". */
  kindKey: string;
  /** locales key: "status.completed", "status.onHold", … */
  statusKey: string;
  tone: Tone;
  fiscalNumber: string | null;
  /** The invoice a credit note credits, by its fiscal number. */
  invoiceNumber: string | null;
  cufe: string | null;
  pdfUrl: string | null;
  /** locales key of what stopped it, when something did ("reason.mapping", …). */
  reasonKey: string | null;
  reasonCode: string | null;
  canRetry: boolean;
}

export type BlockState =
  | { kind: 'loading' }
  | { kind: 'failed'; messageKey: string }
  | { kind: 'empty' }
  | { kind: 'documents'; lines: DocumentLine[]; summaryKey: string };

/** Queue states that wait on the merchant (settings), not on the gateway. */
const WAITING_ON_MERCHANT = new Set(['paused', 'disabled', 'credentials']);
/** The reasons the block has words for, and those whose words name the document (a credit note has its own). */
const KNOWN_REASONS = new Set(Object.keys(WORDS.reason));
const NOTE_REASONS = new Set(Object.keys(WORDS.reasonNote));

export function statusOf(doc: OrderDocument): { statusKey: string; tone: Tone } {
  switch (doc.status) {
    case 'completed':
      return { statusKey: 'status.completed', tone: 'success' };
    case 'needs_attention':
      return { statusKey: 'status.needs_attention', tone: 'warning' };
    case 'failed':
      return { statusKey: 'status.failed', tone: 'critical' };
    case 'skipped':
      return { statusKey: 'status.skipped', tone: 'neutral' };
    case 'waiting':
      // A credit note waiting for its invoice: it goes on by itself.
      return { statusKey: 'status.waiting', tone: 'info' };
    case 'pending':
      // Authorized by the DGI; the PDF or the write-back is still on its way.
      if (doc.authorized) return { statusKey: 'status.completed', tone: 'success' };
      if (doc.reason && WAITING_ON_MERCHANT.has(doc.reason.kind)) return { statusKey: 'status.onHold', tone: 'caution' };
      if (doc.reason) return { statusKey: 'status.retrying', tone: 'caution' };
      return { statusKey: 'status.pending', tone: 'info' };
  }
}

export function documentLine(doc: OrderDocument): DocumentLine {
  const reasonKind = doc.status === 'completed' || doc.status === 'skipped' ? null : (doc.reason?.kind ?? null);
  return {
    id: doc.id,
    kindKey: `kind.${doc.kind}`,
    ...statusOf(doc),
    fiscalNumber: doc.fiscalNumber,
    invoiceNumber: doc.kind === 'credit_note' ? (doc.invoiceNumber ?? null) : null,
    cufe: doc.cufe,
    pdfUrl: doc.pdfUrl,
    reasonKey: reasonKeyOf(doc.kind, reasonKind),
    reasonCode: reasonKind === null ? null : (doc.reason?.code ?? null),
    canRetry: doc.retryable,
  };
}

function reasonKeyOf(kind: OrderDocument['kind'], reason: string | null): string | null {
  if (reason === null) return null;
  if (kind === 'credit_note' && NOTE_REASONS.has(reason)) return `reasonNote.${reason}`;
  return KNOWN_REASONS.has(reason) ? `reason.${reason}` : 'reason.unknown';
}

/** The block's collapsed one-liner: the invoice's state, or that there is none yet. */
function summaryKey(lines: DocumentLine[]): string {
  const invoice = lines.find((l) => l.kindKey === 'kind.invoice') ?? lines[0];
  if (!invoice) return 'summary.none';
  if (lines.some((l) => l.canRetry)) return 'summary.attention';
  return invoice.statusKey === 'status.completed' ? 'summary.authorized' : 'summary.inProgress';
}

/** The block's state from the app's answer (HTTP status and JSON body). */
export function blockState(status: number, body: unknown): BlockState {
  if (status === 401) return { kind: 'failed', messageKey: 'error.session' };
  if (status !== 200 || !isDocuments(body)) return { kind: 'failed', messageKey: 'error.load' };
  if (body.documents.length === 0) return { kind: 'empty' };
  const lines = body.documents.map(documentLine);
  return { kind: 'documents', lines, summaryKey: summaryKey(lines) };
}

function isDocuments(body: unknown): body is { documents: OrderDocument[] } {
  return typeof body === 'object' && body !== null && Array.isArray((body as { documents?: unknown }).documents);
}

/** "gid://shopify/Order/123" (what the admin hands the block) → the app's path for its documents. */
export function documentsPath(orderGid: string): string {
  return `/api/orders/${encodeURIComponent(orderGid)}/documents`;
}
