// Reads and manual actions on documents for people and monitors: the admin API, the CLI, health and metrics, the
// PDF link. Functions that take a shop put it in their WHERE clause: an id from another shop matches nothing.
import { and, asc, desc, eq, gte, inArray, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { documentCounts, documentPdfs, documents, gatewayCalls, shops } from '../../db/schema.ts';
import {
  DOCUMENT_STATUSES,
  type DocumentKind,
  type DocumentStatus,
  RETRYABLE_STATUSES,
  type RetryableStatus,
} from '../../db/document-state.ts';
import type { DocumentRow, GatewayCallRow } from './document-rows.ts';
import { dueCondition } from './lease-statements.ts';

/** What the search box may mean: an order name, a fiscal number, or a full "0000-001-0000000042". */
export interface DocumentSearch {
  orderNames: string[];
  fiscalNumber: number | undefined;
  fiscalKey: { branchCode: string; billingPoint: string; fiscalNumber: number } | undefined;
}

/** Keyset position: the last row of a page, by (created_at desc, id desc). */
export interface DocumentCursor {
  /** created_at as UTC text with microseconds: a JS Date would drop them and skip or repeat rows. */
  createdAt: string;
  id: string;
}

export interface DocumentListQuery {
  shop: string | undefined;
  status: DocumentStatus | undefined;
  kind: DocumentKind | undefined;
  /** Inclusive lower bound. */
  from: Date | undefined;
  /** Exclusive upper bound. */
  before: Date | undefined;
  search: DocumentSearch | undefined;
  after: DocumentCursor | undefined;
  limit: number;
}

/** The columns a list shows: no snapshot, no document (they are large). */
const listColumns = {
  id: documents.id,
  shop: documents.shop,
  kind: documents.kind,
  orderGid: documents.orderGid,
  orderName: documents.orderName,
  documentType: documents.documentType,
  invoiceId: documents.invoiceId,
  replacesId: documents.replacesId,
  status: documents.status,
  step: documents.step,
  totalCents: documents.totalCents,
  currency: documents.currency,
  test: documents.test,
  environment: documents.environment,
  branchCode: documents.branchCode,
  billingPoint: documents.billingPoint,
  fiscalNumber: documents.fiscalNumber,
  cufe: documents.cufe,
  taxIdSource: documents.taxIdSource,
  authorizedAt: documents.authorizedAt,
  lastErrorKind: documents.lastErrorKind,
  lastErrorCode: documents.lastErrorCode,
  lastError: documents.lastError,
  problems: documents.problems,
  notice: documents.notice,
  createdAt: documents.createdAt,
  cursorAt: sql<string>`to_char(${documents.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
};

export type DocumentListRow = Pick<DocumentRow, Exclude<keyof typeof listColumns, 'cursorAt'>> & { cursorAt: string };

export function searchCondition(s: DocumentSearch): SQL | undefined {
  const byNumber = s.fiscalKey
    ? and(
        eq(documents.branchCode, s.fiscalKey.branchCode),
        eq(documents.billingPoint, s.fiscalKey.billingPoint),
        eq(documents.fiscalNumber, s.fiscalKey.fiscalNumber),
      )
    : s.fiscalNumber !== undefined
      ? eq(documents.fiscalNumber, s.fiscalNumber)
      : undefined;
  return or(inArray(documents.orderName, s.orderNames), byNumber);
}

/** One page, newest first, plus where the next page starts. */
export async function listDocuments(db: Db, q: DocumentListQuery): Promise<{ rows: DocumentListRow[]; next: DocumentCursor | undefined }> {
  const rows = await db
    .select(listColumns)
    .from(documents)
    .where(
      and(
        q.shop ? eq(documents.shop, q.shop) : undefined,
        q.status ? eq(documents.status, q.status) : undefined,
        q.kind ? eq(documents.kind, q.kind) : undefined,
        q.from ? gte(documents.createdAt, q.from) : undefined,
        q.before ? lt(documents.createdAt, q.before) : undefined,
        q.search ? searchCondition(q.search) : undefined,
        q.after ? sql`(${documents.createdAt}, ${documents.id}) < (${q.after.createdAt}::timestamptz, ${q.after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(documents.createdAt), desc(documents.id))
    .limit(q.limit + 1);
  const page: DocumentListRow[] = rows.slice(0, q.limit);
  const last = page.at(-1);
  return { rows: page, next: rows.length > q.limit && last ? { createdAt: last.cursorAt, id: last.id } : undefined };
}

export type StatusCounts = Record<DocumentStatus, number> & { all: number };

/** A shop's documents per status, from the counters the database keeps (exact, a few rows to read at any size). */
export async function countByStatus(db: Db, shop: string): Promise<StatusCounts> {
  const rows = await db
    .select({ status: documentCounts.status, n: sql<number>`sum(${documentCounts.n})::bigint` })
    .from(documentCounts)
    .where(eq(documentCounts.shop, shop))
    .groupBy(documentCounts.status);
  const counts = { all: 0, ...Object.fromEntries(DOCUMENT_STATUSES.map((s) => [s, 0])) } as StatusCounts;
  for (const r of rows) {
    counts.all += Number(r.n);
    counts[r.status] = Number(r.n);
  }
  return counts;
}

/** A document by id; with a shop, only that shop's. */
export async function findDocument(db: Db, id: string, shop?: string): Promise<DocumentRow | undefined> {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.id, id), shop ? eq(documents.shop, shop) : undefined));
  return row;
}

/** An order's documents (its invoices and credit notes), oldest first, with their PDF link tokens. */
export async function orderDocuments(db: Db, shop: string, orderGid: string): Promise<(DocumentListRow & { pdfToken: string | null })[]> {
  return db
    .select({ ...listColumns, pdfToken: documentPdfs.token })
    .from(documents)
    .leftJoin(documentPdfs, eq(documentPdfs.documentId, documents.id))
    .where(and(eq(documents.shop, shop), eq(documents.orderGid, orderGid)))
    .orderBy(asc(documents.createdAt), asc(documents.id));
}

export async function pdfToken(db: Db, shop: string, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ token: documentPdfs.token })
    .from(documentPdfs)
    .innerJoin(documents, eq(documents.id, documentPdfs.documentId))
    .where(and(eq(documents.shop, shop), eq(documentPdfs.documentId, id)));
  return row?.token;
}

/** The stored PDF's size and hash (the link's token is a credential: not for the CLI). */
export async function pdfInfo(db: Db, id: string): Promise<{ bytes: number; sha256: string } | undefined> {
  const [row] = await db
    .select({ sha256: documentPdfs.sha256, size: sql<number>`length(${documentPdfs.bytes})` })
    .from(documentPdfs)
    .where(eq(documentPdfs.documentId, id));
  return row && { bytes: Number(row.size), sha256: row.sha256 };
}

/** The PDF behind a link token, with what names its file. */
export async function pdfByToken(db: Db, token: string) {
  const [row] = await db
    .select({
      bytes: documentPdfs.bytes,
      sha256: documentPdfs.sha256,
      kind: documents.kind,
      branchCode: documents.branchCode,
      billingPoint: documents.billingPoint,
      fiscalNumber: documents.fiscalNumber,
    })
    .from(documentPdfs)
    .innerJoin(documents, eq(documents.id, documentPdfs.documentId))
    .where(eq(documentPdfs.token, token));
  return row;
}

export async function documentCalls(db: Db, id: string, shop?: string): Promise<GatewayCallRow[]> {
  return db
    .select()
    .from(gatewayCalls)
    .where(and(eq(gatewayCalls.documentId, id), shop ? eq(gatewayCalls.shop, shop) : undefined))
    .orderBy(asc(gatewayCalls.createdAt), asc(gatewayCalls.id));
}

/** A document a person sends back: due now, fresh attempts, the order read again before it is mapped. */
export function backInTheQueue() {
  return { status: 'pending', attempts: 0, refreshSnapshot: true, nextAttemptAt: sql`now()`, updatedAt: sql`now()` } as const;
}

export interface RetryFilter {
  shop?: string;
  ids?: string[];
  statuses?: readonly RetryableStatus[];
}

/**
 * Put documents back in the queue by hand (after a fix): failed and needs-attention ones with fresh attempts; the
 * order is read again through the Admin API before it is mapped, so edits made in Shopify count. Returns how many.
 */
export async function retryDocuments(db: Db, filter: RetryFilter): Promise<number> {
  const rows = await db
    .update(documents)
    .set(backInTheQueue())
    .where(
      and(
        inArray(documents.status, filter.statuses ?? RETRYABLE_STATUSES),
        filter.shop ? eq(documents.shop, filter.shop) : undefined,
        filter.ids ? inArray(documents.id, filter.ids) : undefined,
      ),
    )
    .returning({ id: documents.id });
  return rows.length;
}

/**
 * "Retry" on one document of a shop: failed and needs-attention go back to the queue; a pending one waiting out a
 * backoff after an error, or a waiting one (a credit note and its invoice), is made due now. Anything else is left
 * alone, so repeating the call changes nothing more.
 */
export async function retryShopDocument(db: Db, shop: string, id: string): Promise<number> {
  const requeued = await retryDocuments(db, { shop, ids: [id] });
  if (requeued > 0) return requeued;
  const hurried = await db
    .update(documents)
    .set({ nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(documents.shop, shop),
        eq(documents.id, id),
        or(eq(documents.status, 'waiting'), and(eq(documents.status, 'pending'), isNotNull(documents.lastErrorKind))),
        sql`${documents.nextAttemptAt} > now()`,
      ),
    )
    .returning({ id: documents.id });
  return hurried.length;
}

export interface QueueStats {
  due: number;
  oldestDueAgeSeconds: number;
}

/** Same conditions as claiming (minus the lease): waiting for the worker, not for a person or a setting. */
export async function queueStats(db: Db): Promise<QueueStats> {
  const [row] = await db
    .select({
      due: sql<number>`count(*)::int`,
      oldest: sql<number | null>`extract(epoch from (now() - min(${documents.nextAttemptAt})))::float8`,
    })
    .from(documents)
    .innerJoin(shops, eq(shops.shop, documents.shop))
    .where(dueCondition());
  const oldest = row?.oldest === null || row?.oldest === undefined ? 0 : Math.max(0, Number(row.oldest));
  return { due: Number(row?.due ?? 0), oldestDueAgeSeconds: Math.round(oldest * 1000) / 1000 };
}

/** Every shop's documents by kind, status and step (metrics), from the counters. */
export async function countByKindStatusStep(db: Db): Promise<{ kind: DocumentKind; status: DocumentStatus; step: string; n: number }[]> {
  const rows = await db
    .select({
      kind: documentCounts.kind,
      status: documentCounts.status,
      step: documentCounts.step,
      n: sql<number>`sum(${documentCounts.n})::bigint`,
    })
    .from(documentCounts)
    .groupBy(documentCounts.kind, documentCounts.status, documentCounts.step)
    .having(sql`sum(${documentCounts.n}) <> 0`);
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}
