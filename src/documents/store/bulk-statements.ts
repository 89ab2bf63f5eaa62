// Bulk actions on the list (docs/merchants.md, "Acciones en lote"): the documents a selection names (ids, or the list's
// filters) and their PDFs one at a time, so a ZIP of hundreds holds one PDF in memory. Every function takes the shop
// into its WHERE clause when given: an id of another shop matches nothing.
import { and, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { documentPdfs, documents } from '../../db/schema.ts';
import type { DocumentRow } from './document-rows.ts';
import { type DocumentListQuery, searchCondition } from './query-statements.ts';

/** The list's filters, as listDocuments reads them (no page). */
export type DocumentFilter = Omit<DocumentListQuery, 'after' | 'limit'>;

/** A selected document as a bulk answer names it, with what the retry and resend decisions read. */
const bulkColumns = {
  id: documents.id,
  shop: documents.shop,
  kind: documents.kind,
  orderGid: documents.orderGid,
  orderName: documents.orderName,
  status: documents.status,
  step: documents.step,
  cufe: documents.cufe,
  lastErrorKind: documents.lastErrorKind,
  environment: documents.environment,
  branchCode: documents.branchCode,
  billingPoint: documents.billingPoint,
  fiscalNumber: documents.fiscalNumber,
  hasPdf: sql<boolean>`exists (select 1 from ${documentPdfs} where ${documentPdfs.documentId} = ${documents.id})`,
};

export type BulkRow = Pick<
  DocumentRow,
  | 'id'
  | 'shop'
  | 'kind'
  | 'orderGid'
  | 'orderName'
  | 'status'
  | 'step'
  | 'cufe'
  | 'lastErrorKind'
  | 'environment'
  | 'branchCode'
  | 'billingPoint'
  | 'fiscalNumber'
> & { hasPdf: boolean };

function filterCondition(f: DocumentFilter) {
  return and(
    f.shop ? eq(documents.shop, f.shop) : undefined,
    f.status ? eq(documents.status, f.status) : undefined,
    f.kind ? eq(documents.kind, f.kind) : undefined,
    f.from ? gte(documents.createdAt, f.from) : undefined,
    f.before ? lt(documents.createdAt, f.before) : undefined,
    f.search ? searchCondition(f.search) : undefined,
  );
}

/** The documents of these ids (of `shop` when given), in the order asked; ids not found are left out. */
export async function bulkRowsByIds(db: Db, ids: readonly string[], shop?: string): Promise<BulkRow[]> {
  if (ids.length === 0) return [];
  const rows: BulkRow[] = await db
    .select(bulkColumns)
    .from(documents)
    .where(and(inArray(documents.id, [...ids]), shop ? eq(documents.shop, shop) : undefined));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The documents matching the list's filters, as the list orders them (newest first), at most `limit`. */
export async function bulkRowsByFilter(db: Db, f: DocumentFilter, limit: number): Promise<BulkRow[]> {
  return db
    .select(bulkColumns)
    .from(documents)
    .where(filterCondition(f))
    .orderBy(desc(documents.createdAt), desc(documents.id))
    .limit(limit);
}

/** How many documents match the filters, counted up to `cap` (a count past the bulk limit needs no exact figure). */
export async function countMatching(db: Db, f: DocumentFilter, cap: number): Promise<number> {
  const capped = db
    .select({ one: sql`1` })
    .from(documents)
    .where(filterCondition(f))
    .limit(cap)
    .as('capped');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(capped);
  return Number(row?.n ?? 0);
}

/** One document's stored PDF (the bytes its link serves), or undefined when it has none. */
export async function storedPdf(db: Db, id: string): Promise<Buffer | undefined> {
  const [row] = await db.select({ bytes: documentPdfs.bytes }).from(documentPdfs).where(eq(documentPdfs.documentId, id));
  return row?.bytes;
}
