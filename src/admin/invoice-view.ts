// Invoice rows as the admin API shows them: amounts as cents and text, the fiscal number as merchants read
// it, and for anything not authorized the reason in plain words. Pure functions, no I/O.
import { formatCents } from '../../mappers/money.ts';
import { CREDENTIAL_FIELDS } from '../gateway/gateway-types.ts';
import type { InvoiceRow } from '../invoices/invoice-repository.ts';
import { formatFiscalNumber } from '../invoices/invoice-worker.ts';
import type { GatewayCallRow, InvoiceListRow } from './invoice-queries.ts';

/** The shop state a reason may depend on (a pending invoice of a paused shop waits for its settings). */
export interface ShopState {
  enabled: boolean;
  pausedReason: string | null;
}

export interface ReasonProblem {
  code: string;
  message: string;
  messageEs: string | undefined;
}

/**
 * Why an invoice is not authorized. `kind` is the closed set of invoice-errors.ts plus three states of
 * the queue ('skipped', 'paused', 'disabled'); the page words a headline per kind in the merchant's
 * language and shows `message` (and the mapping problems, in both languages) under it.
 */
export interface InvoiceReason {
  kind: string;
  code: string | null;
  message: string;
  problems: ReasonProblem[];
}

export const REASON_TEXT = {
  paused: (reason: string) => reason,
  disabled: 'Invoicing is turned off for this shop: the invoice waits until it is turned on in Settings.',
  skipped: 'Not invoiced.',
  unknown: 'Stopped without a recorded reason. Use "Retry" to try again.',
};

export function reasonFor(
  row: Pick<InvoiceRow, 'status' | 'lastErrorKind' | 'lastErrorCode' | 'lastErrorMessage' | 'problems'>,
  shop: ShopState,
): InvoiceReason | null {
  if (row.status === 'completed') return null;
  const problems = problemsOf(row.problems);
  if (row.status === 'skipped') return { kind: 'skipped', code: null, message: row.lastErrorMessage ?? REASON_TEXT.skipped, problems };
  if (row.lastErrorKind) {
    return { kind: row.lastErrorKind, code: row.lastErrorCode, message: row.lastErrorMessage ?? REASON_TEXT.unknown, problems };
  }
  if (row.status === 'pending') {
    if (shop.pausedReason) return { kind: 'paused', code: null, message: REASON_TEXT.paused(shop.pausedReason), problems };
    if (!shop.enabled) return { kind: 'disabled', code: null, message: REASON_TEXT.disabled, problems };
    return null;
  }
  return { kind: 'unknown', code: null, message: REASON_TEXT.unknown, problems };
}

/** Mapping problems as stored (mappers/mapping-problems.ts), reduced to what a person reads. */
export function problemsOf(value: unknown): ReasonProblem[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((p: unknown) => {
    if (!p || typeof p !== 'object') return [];
    const { code, message, messageEs } = p as Record<string, unknown>;
    if (typeof message !== 'string') return [];
    return [
      { code: typeof code === 'string' ? code : 'problem', message, messageEs: typeof messageEs === 'string' ? messageEs : undefined },
    ];
  });
}

export interface InvoiceSummary {
  id: string;
  orderName: string;
  orderGid: string;
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
  createdAt: string;
  authorizedAt: string | null;
  reason: InvoiceReason | null;
  notice: string | null;
}

export function invoiceSummary(row: Omit<InvoiceListRow, 'cursorAt'>, shop: ShopState): InvoiceSummary {
  return {
    id: row.id,
    orderName: row.orderName,
    orderGid: row.orderGid,
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
    createdAt: row.createdAt.toISOString(),
    authorizedAt: row.authorizedAt?.toISOString() ?? null,
    reason: reasonFor(row, shop),
    notice: row.notice,
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
}

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
  };
}

export interface InvoiceDetail extends InvoiceSummary {
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
  /** What the merchant may do now. */
  retryable: boolean;
  calls: GatewayCallView[];
}

export function invoiceDetail(o: {
  row: InvoiceRow;
  shop: ShopState;
  pdfToken: string | undefined;
  appUrl: string;
  calls: GatewayCallRow[];
}): InvoiceDetail {
  const { row } = o;
  return {
    ...invoiceSummary(row, o.shop),
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
    pdfUrl: o.pdfToken ? `${o.appUrl}/invoices/${o.pdfToken}.pdf` : null,
    orderAdminUrl: orderAdminUrl(row.shop, row.orderGid),
    retryable: isRetryableByHand(row),
    calls: o.calls.map(gatewayCallView),
  };
}

/** Retry is offered where it changes something (retryShopInvoice). */
export function isRetryableByHand(row: Pick<InvoiceRow, 'status' | 'lastErrorKind'>): boolean {
  return row.status === 'failed' || row.status === 'needs_attention' || (row.status === 'pending' && row.lastErrorKind !== null);
}
