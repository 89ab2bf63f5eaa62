// Documents as the admin API shows them: amounts as cents and text, the fiscal number as merchants read it, and for
// anything not authorized the reason, rendered from the message catalogue in Spanish and English. Pure, no I/O.
import { type ClientCorrection, storedCorrection } from '../../mappers/invoice/client-correction.ts';
import { type GatewayDocument, REFERENCE_FIELDS } from '../../mappers/gateway/gateway-document.ts';
import { formatCents } from '../../mappers/fiscal/money.ts';
import { DOCUMENT_ACTIONS, type DocumentAction, type DocumentActions, actionsOf, retryVerdict } from '../documents/document-actions.ts';
import { pdfUrl } from '../documents/pdf-link.ts';
import {
  type DocumentListRow,
  type DocumentRow,
  type GatewayCallRow,
  type RelatedDocument,
  type Relatives,
  formatFiscalNumber,
} from '../documents/store/index.ts';
import { CREDENTIAL_FIELDS } from '../gateway/gateway-types.ts';
import { localize, localizeProblems, reasonAction, reasonTitle } from '../messages/catalogue.ts';
import { type Localized, type Message, asMessage, message } from '../messages/message.ts';

/** The shop state a reason may depend on (a pending document of a paused shop waits for its settings). */
export interface ShopState {
  enabled: boolean;
  pausedReason: Message | null;
}

export interface ReasonProblem {
  code: string;
  /** English and Spanish, as before the catalogue; `text` has both. */
  message: string;
  messageEs: string;
  text: Localized;
}

/**
 * Why a document is not authorized. `kind` is an error kind of document-state.ts or a state of the queue
 * ('skipped', 'waiting', 'paused', 'disabled', 'unknown'); title, action and text come in both languages.
 */
export interface DocumentReason {
  kind: string;
  code: string | null;
  title: Localized;
  action: Localized;
  text: Localized;
  /** The text in English (the form before the catalogue). */
  message: string;
  problems: ReasonProblem[];
}

export function reasonFor(
  row: Pick<DocumentRow, 'kind' | 'status' | 'lastErrorKind' | 'lastErrorCode' | 'lastError' | 'problems'>,
  shop: ShopState,
): DocumentReason | null {
  if (row.status === 'completed') return null;
  const stored = asMessage(row.lastError);
  const reason = (kind: string, m: Message | undefined) => build(kind, row, m);
  if (row.status === 'skipped' || row.status === 'waiting') return reason(row.status, stored);
  if (row.lastErrorKind) return reason(row.lastErrorKind, stored);
  if (row.status === 'pending') {
    if (shop.pausedReason) return reason('paused', shop.pausedReason);
    if (!shop.enabled) return reason('disabled', undefined);
    return null;
  }
  return reason('unknown', undefined);
}

function build(
  kind: string,
  row: Pick<DocumentRow, 'kind' | 'status' | 'lastErrorCode' | 'problems'>,
  m: Message | undefined,
): DocumentReason {
  const action = reasonAction(kind, row.status, row.kind);
  const text = m ? localize(m) : action;
  return {
    kind,
    code: row.lastErrorCode,
    title: reasonTitle(kind, row.kind),
    action,
    text,
    message: text.en,
    problems: localizeProblems(row.problems).map((p) => ({ code: p.code, message: p.text.en, messageEs: p.text.es, text: p.text })),
  };
}

export interface DocumentSummary {
  id: string;
  kind: string;
  documentType: string;
  orderName: string;
  orderGid: string;
  /** A credit note's invoice; an invoice that replaces another. */
  invoiceId: string | null;
  replacesId: string | null;
  /** A credit note's invoice's fiscal number, once the note is linked to it. */
  invoiceNumber: string | null;
  /** The fiscal number of the invoice this one replaces (a re-issue), when known. */
  replacesNumber: string | null;
  status: string;
  step: string;
  /** True once the gateway authorized it (the PDF and the write-back may still be on their way). */
  authorized: boolean;
  totalCents: number;
  amount: string;
  currency: string;
  test: boolean;
  environment: string | null;
  fiscalNumber: string | null;
  cufe: string | null;
  taxIdSource: string | null;
  createdAt: string;
  authorizedAt: string | null;
  reason: DocumentReason | null;
  notice: Localized | null;
}

type SummaryRow = Omit<DocumentListRow, 'cursorAt' | 'shop'>;
type NumberRow = Pick<DocumentRow, 'id' | 'branchCode' | 'billingPoint' | 'fiscalNumber'>;

/** Fiscal numbers by document id, as merchants read them (the numbered ones only). */
export function fiscalNumbers(rows: readonly NumberRow[]): ReadonlyMap<string, string> {
  return new Map(rows.filter((r) => r.fiscalNumber !== null).map((r) => [r.id, formatFiscalNumber(r)]));
}

/** `numbers`: fiscal numbers by id, holding the row's invoice's when the row is a linked credit note. */
export function documentSummary(row: SummaryRow, shop: ShopState, numbers: ReadonlyMap<string, string>): DocumentSummary {
  const notice = asMessage(row.notice);
  return {
    id: row.id,
    kind: row.kind,
    documentType: row.documentType,
    orderName: row.orderName,
    orderGid: row.orderGid,
    invoiceId: row.invoiceId,
    replacesId: row.replacesId,
    invoiceNumber: row.invoiceId === null ? null : (numbers.get(row.invoiceId) ?? null),
    replacesNumber: row.replacesId === null ? null : (numbers.get(row.replacesId) ?? null),
    status: row.status,
    step: row.step,
    authorized: row.cufe !== null,
    totalCents: row.totalCents,
    amount: formatCents(row.totalCents),
    currency: row.currency,
    test: row.test,
    environment: row.environment,
    fiscalNumber: row.fiscalNumber === null ? null : formatFiscalNumber(row),
    cufe: row.cufe,
    taxIdSource: row.taxIdSource,
    createdAt: row.createdAt.toISOString(),
    authorizedAt: row.authorizedAt?.toISOString() ?? null,
    reason: reasonFor(row, shop),
    notice: notice ? localize(notice) : null,
  };
}

/** The order in the Shopify admin: https://admin.shopify.com/store/<handle>/orders/<id>. */
export function orderAdminUrl(shop: string, orderGid: string): string | null {
  const id = /^gid:\/\/shopify\/Order\/(\d+)$/.exec(orderGid)?.[1];
  const handle = shop.replace(/\.myshopify\.com$/i, '');
  return id ? `https://admin.shopify.com/store/${encodeURIComponent(handle)}/orders/${id}` : null;
}

export interface GatewayCallView {
  id: number;
  operation: string;
  outcome: string;
  code: string | null;
  message: string | null;
  durationMs: number;
  at: string;
  request: unknown;
  response: unknown;
  /** The message for people: the gateway's own words as they came, or why no answer came, in both languages. */
  text: Localized | null;
}

/** Outcomes of a call that got no usable answer: their message is the app's raw reason, told in the reader's words. */
const NO_ANSWER = new Set(['unavailable', 'indeterminate']);

const REDACTED = '[redacted]';

/**
 * Audit rows are stored without credentials already; blank them again anywhere they might sit, so a
 * row written by an older version or another path cannot show one.
 */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (!value || typeof value !== 'object') return value;
  const secret = new Set<string>([...CREDENTIAL_FIELDS, 'authorization', 'Authorization', 'password']);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, secret.has(k) ? REDACTED : redactSecrets(v)]));
}

export function gatewayCallView(c: GatewayCallRow): GatewayCallView {
  return {
    id: c.id,
    operation: c.operation,
    outcome: c.outcome,
    code: c.code,
    message: c.message,
    durationMs: c.durationMs,
    at: c.createdAt.toISOString(),
    request: redactSecrets(c.request),
    response: redactSecrets(c.response),
    text:
      c.message === null
        ? null
        : NO_ANSWER.has(c.outcome)
          ? localize(message('call_unreachable', { reason: c.message }))
          : { es: c.message, en: c.message },
  };
}

export interface DocumentDetail extends DocumentSummary {
  attempts: number;
  nextAttemptAt: string;
  branchCode: string | null;
  billingPoint: string | null;
  qr: string | null;
  protocol: string | null;
  receptionDateDgi: string | null;
  writtenBackAt: string | null;
  updatedAt: string;
  document: unknown;
  pdfUrl: string | null;
  orderAdminUrl: string | null;
  /** What the merchant may do now, and why not (docs/design.md §9): the page offers only the allowed ones. */
  actions: Record<DocumentAction, ActionView>;
  /** The same as booleans (actions.*.allowed), as before `actions`. */
  retryable: boolean;
  /** The client may be corrected (PUT /api/invoices/:id/client). */
  correctable: boolean;
  /** Authorized: may be replaced by a full credit note and a new invoice to another client (POST /reinvoice). */
  reissuable: boolean;
  /** The merchant's correction of the client, applied over what the order says. */
  clientCorrection: ClientCorrection | null;
  calls: GatewayCallView[];
  /** A credit note's refund (its GID in Shopify); null for a note that replaces its invoice whole (re-invoicing). */
  refundId: string | null;
  /** A credit note's invoice (linked, or the order's invoice it waits for). */
  invoice: RelatedView | null;
  /** A credit note's reference to its invoice as mapped (docs/design.md §9); null before the note is mapped. */
  reference: NoteReference | null;
  /** An invoice's credit notes, oldest first. */
  creditNotes: RelatedView[];
  /** The invoice that replaced this one ("reemplazada por …"). */
  replacedBy: RelatedView | null;
  /** The invoice this one replaces ("reemplaza a …"). */
  replaces: RelatedView | null;
}

/** One action as the API shows it: allowed, or the reason it is withheld in both languages. */
export interface ActionView {
  allowed: boolean;
  reason: Localized | null;
}

export function actionsView(actions: DocumentActions): Record<DocumentAction, ActionView> {
  return Object.fromEntries(
    DOCUMENT_ACTIONS.map((a) => [a, { allowed: actions[a].allowed, reason: actions[a].reason ? localize(actions[a].reason) : null }]),
  ) as Record<DocumentAction, ActionView>;
}

/** A related document as the detail lists it: enough to show it and link to it. */
export interface RelatedView extends DocumentSummary {
  pdfUrl: string | null;
}

export interface NoteReference {
  cufe: string;
  /** The invoice's dateBroadcast as the note carries it (Panama time, -05:00). */
  date: string;
}

export function documentDetail(o: {
  row: DocumentRow;
  shop: ShopState;
  pdfToken: string | undefined;
  appUrl: string;
  calls: GatewayCallRow[];
  related: Relatives;
  mailConfigured?: boolean;
}): DocumentDetail {
  const { row, related } = o;
  const actions = actionsOf(row, related, o.mailConfigured);
  const numbers = fiscalNumbers([row, ...[related.invoice, related.replaces].filter((r) => r !== undefined)]);
  const view = (r: RelatedDocument): RelatedView => ({ ...documentSummary(r, o.shop, numbers), pdfUrl: pdfUrl(o.appUrl, r.pdfToken) });
  const note = row.kind === 'credit_note';
  return {
    ...documentSummary(row, o.shop, numbers),
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt.toISOString(),
    branchCode: row.branchCode,
    billingPoint: row.billingPoint,
    qr: row.qr,
    protocol: row.protocol,
    receptionDateDgi: row.receptionDateDgi,
    writtenBackAt: row.writtenBackAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
    document: redactSecrets(row.document),
    pdfUrl: pdfUrl(o.appUrl, o.pdfToken),
    orderAdminUrl: orderAdminUrl(row.shop, row.orderGid),
    actions: actionsView(actions),
    retryable: actions.retry.allowed,
    correctable: actions.correct_client.allowed,
    reissuable: actions.reissue.allowed,
    clientCorrection: storedCorrection(row.clientOverride) ?? null,
    calls: o.calls.map(gatewayCallView),
    refundId: refundOf(row),
    invoice: related.invoice ? view(related.invoice) : null,
    reference: note ? noteReference(row.document as GatewayDocument | null) : null,
    creditNotes: related.notes.map(view),
    replacedBy: related.replacedBy ? view(related.replacedBy) : null,
    replaces: related.replaces ? view(related.replaces) : null,
  };
}

/** The Shopify refund a credit note comes from: its source key, unless the note replaces its invoice (re-invoicing). */
export function refundOf(row: Pick<DocumentRow, 'kind' | 'sourceKey'>): string | null {
  return row.kind === 'credit_note' && row.sourceKey.startsWith('gid://shopify/Refund/') ? row.sourceKey : null;
}

/** The invoice a note names, as its document carries it (REFERENCE_FIELDS). */
export function noteReference(document: GatewayDocument | null): NoteReference | null {
  const first = document?.dataTransaction[REFERENCE_FIELDS.list]?.[0];
  return first ? { cufe: first[REFERENCE_FIELDS.cufe], date: first[REFERENCE_FIELDS.date] } : null;
}

/** Retry is offered where it changes something (document-actions.ts retryVerdict). */
export function isRetryableByHand(row: Pick<DocumentRow, 'status' | 'lastErrorKind'>): boolean {
  return retryVerdict(row).allowed;
}
