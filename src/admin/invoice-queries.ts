// The admin's reads and writes on invoices. Every function takes the shop and puts it in its WHERE clause:
// an id from another shop simply matches nothing.
import { and, asc, desc, eq, gte, inArray, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { gatewayCalls, invoicePdfs, invoices } from '../db/schema.ts';
import type { InvoiceStatus } from '../invoices/invoice-errors.ts';
import type { InvoiceRow } from '../invoices/invoice-repository.ts';

export const INVOICE_STATUSES = [
  'pending',
  'needs_attention',
  'failed',
  'completed',
  'skipped',
] as const satisfies readonly InvoiceStatus[];

/** What the search box may mean: an order name, a fiscal number, or a full "0000-001-0000000042". */
export interface InvoiceSearch {
  orderNames: string[];
  fiscalNumber: number | undefined;
  fiscalKey: { branchCode: string; billingPoint: string; fiscalNumber: number } | undefined;
}

/** Keyset position: the last row of a page, by (created_at desc, id desc). */
export interface InvoiceCursor {
  /** created_at as UTC text with microseconds: a JS Date would drop them and skip or repeat rows. */
  createdAt: string;
  id: string;
}

export interface InvoiceListQuery {
  shop: string;
  status: InvoiceStatus | undefined;
  /** Inclusive lower bound. */
  from: Date | undefined;
  /** Exclusive upper bound. */
  before: Date | undefined;
  search: InvoiceSearch | undefined;
  after: InvoiceCursor | undefined;
  limit: number;
}

/** The columns the list shows: no order snapshot, no document (they are large). */
const listColumns = {
  id: invoices.id,
  orderGid: invoices.orderGid,
  orderName: invoices.orderName,
  status: invoices.status,
  step: invoices.step,
  totalCents: invoices.totalCents,
  currency: invoices.currency,
  test: invoices.test,
  environment: invoices.environment,
  branchCode: invoices.branchCode,
  billingPoint: invoices.billingPoint,
  fiscalNumber: invoices.fiscalNumber,
  cufe: invoices.cufe,
  authorizedAt: invoices.authorizedAt,
  lastErrorKind: invoices.lastErrorKind,
  lastErrorCode: invoices.lastErrorCode,
  lastErrorMessage: invoices.lastErrorMessage,
  problems: invoices.problems,
  notice: invoices.notice,
  createdAt: invoices.createdAt,
  cursorAt: sql<string>`to_char(${invoices.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
};

export type InvoiceListRow = Pick<InvoiceRow, Exclude<keyof typeof listColumns, 'cursorAt'>> & { cursorAt: string };

/** Search text → what to match. Exact matches only, so every branch is an index lookup. */
export function parseSearch(text: string): InvoiceSearch | undefined {
  const q = text.trim();
  if (q === '') return undefined;
  const full = /^([0-9A-Za-z]{4})-(\d{3})-(\d{1,10})$/.exec(q);
  if (full)
    return {
      orderNames: [q],
      fiscalNumber: undefined,
      fiscalKey: { branchCode: full[1]!, billingPoint: full[2]!, fiscalNumber: Number(full[3]) },
    };
  const names = q.startsWith('#') ? [q] : [q, `#${q}`];
  const digits = /^\d{1,10}$/.test(q) ? Number(q) : undefined;
  return { orderNames: names, fiscalNumber: digits, fiscalKey: undefined };
}

export function encodeCursor(c: InvoiceCursor): string {
  return Buffer.from(JSON.stringify([c.createdAt, c.id])).toString('base64url');
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function decodeCursor(text: string): InvoiceCursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [createdAt, id] = value as unknown[];
    if (typeof createdAt !== 'string' || !CURSOR_TIME.test(createdAt) || typeof id !== 'string' || !UUID.test(id)) return undefined;
    return { createdAt, id };
  } catch {
    return undefined;
  }
}

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

function searchCondition(s: InvoiceSearch): SQL | undefined {
  const byNumber = s.fiscalKey
    ? and(
        eq(invoices.branchCode, s.fiscalKey.branchCode),
        eq(invoices.billingPoint, s.fiscalKey.billingPoint),
        eq(invoices.fiscalNumber, s.fiscalKey.fiscalNumber),
      )
    : s.fiscalNumber !== undefined
      ? eq(invoices.fiscalNumber, s.fiscalNumber)
      : undefined;
  return or(inArray(invoices.orderName, s.orderNames), byNumber);
}

/** One page, newest first, plus whether another page follows. */
export async function listInvoices(db: Db, q: InvoiceListQuery): Promise<{ rows: InvoiceListRow[]; next: InvoiceCursor | undefined }> {
  const rows = await db
    .select(listColumns)
    .from(invoices)
    .where(
      and(
        eq(invoices.shop, q.shop),
        q.status ? eq(invoices.status, q.status) : undefined,
        q.from ? gte(invoices.createdAt, q.from) : undefined,
        q.before ? lt(invoices.createdAt, q.before) : undefined,
        q.search ? searchCondition(q.search) : undefined,
        q.after ? sql`(${invoices.createdAt}, ${invoices.id}) < (${q.after.createdAt}::timestamptz, ${q.after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(q.limit + 1);
  const page: InvoiceListRow[] = rows.slice(0, q.limit);
  const last = page.at(-1);
  return { rows: page, next: rows.length > q.limit && last ? { createdAt: last.cursorAt, id: last.id } : undefined };
}

export type StatusCounts = Record<InvoiceStatus, number> & { all: number };

export async function countInvoices(db: Db, shop: string): Promise<StatusCounts> {
  const rows = await db
    .select({ status: invoices.status, n: sql<number>`count(*)::int` })
    .from(invoices)
    .where(eq(invoices.shop, shop))
    .groupBy(invoices.status);
  const counts: StatusCounts = { all: 0, pending: 0, needs_attention: 0, failed: 0, completed: 0, skipped: 0 };
  for (const r of rows) {
    const n = Number(r.n);
    counts.all += n;
    if ((INVOICE_STATUSES as readonly string[]).includes(r.status)) counts[r.status as InvoiceStatus] = n;
  }
  return counts;
}

export async function findShopInvoice(db: Db, shop: string, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.shop, shop), eq(invoices.id, id)));
  return row;
}

export async function shopPdfToken(db: Db, shop: string, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ token: invoicePdfs.token })
    .from(invoicePdfs)
    .innerJoin(invoices, eq(invoices.id, invoicePdfs.invoiceId))
    .where(and(eq(invoices.shop, shop), eq(invoicePdfs.invoiceId, id)));
  return row?.token;
}

export type GatewayCallRow = typeof gatewayCalls.$inferSelect;

export async function shopInvoiceCalls(db: Db, shop: string, id: string): Promise<GatewayCallRow[]> {
  return db
    .select()
    .from(gatewayCalls)
    .where(and(eq(gatewayCalls.shop, shop), eq(gatewayCalls.invoiceId, id)))
    .orderBy(asc(gatewayCalls.createdAt), asc(gatewayCalls.id));
}

/**
 * "Retry" on one invoice. failed / needs_attention go back to the queue with fresh attempts; a pending
 * invoice waiting out a backoff after an error is made due now. Anything else is left alone, so
 * repeating the call changes nothing more. Returns how many rows changed (0 or 1).
 */
export async function retryShopInvoice(db: Db, shop: string, id: string): Promise<number> {
  const requeued = await db
    .update(invoices)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(invoices.shop, shop), eq(invoices.id, id), inArray(invoices.status, ['failed', 'needs_attention'])))
    .returning({ id: invoices.id });
  if (requeued.length > 0) return requeued.length;
  const hurried = await db
    .update(invoices)
    .set({ nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(invoices.shop, shop),
        eq(invoices.id, id),
        eq(invoices.status, 'pending'),
        isNotNull(invoices.lastErrorKind),
        sql`${invoices.nextAttemptAt} > now()`,
      ),
    )
    .returning({ id: invoices.id });
  return hurried.length;
}

/** One order's fiscal documents (its invoice and any credit notes), oldest first, with each PDF's link token. */
export async function findOrderDocuments(
  db: Db,
  shop: string,
  orderGid: string,
): Promise<(InvoiceListRow & { documentType: string; pdfToken: string | null })[]> {
  return db
    .select({ ...listColumns, documentType: invoices.documentType, pdfToken: invoicePdfs.token })
    .from(invoices)
    .leftJoin(invoicePdfs, eq(invoicePdfs.invoiceId, invoices.id))
    .where(and(eq(invoices.shop, shop), eq(invoices.orderGid, orderGid)))
    .orderBy(asc(invoices.createdAt), asc(invoices.id));
}
