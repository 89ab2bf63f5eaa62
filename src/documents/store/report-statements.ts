// The accountant's month (src/reports/): what a shop's authorized documents of one environment and one Panamá month
// say, read from the documents the gateway received. The sums are kept by the database as documents are authorized
// (report_month_totals: a few rows, whatever the month's size); the sales book and the ZIP read the month in keyset
// batches.
import { and, asc, eq, gt, gte, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { rowsOf } from '../../db/database.ts';
import { documentPdfs, documents, fiscalSkips, reportMonthTotals } from '../../db/schema.ts';
import { REFERENCE_FIELDS } from '../../../mappers/gateway/gateway-document.ts';

export interface MonthQuery {
  shop: string;
  environment: string;
  /** `YYYY-MM` in Panamá: the month `from` and `before` bound. */
  month: string;
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  before: Date;
}

/** Authorized documents of the shop, environment and month (a document is authorized once it has its CUFE). */
function inMonth(q: MonthQuery): SQL {
  return and(
    eq(documents.shop, q.shop),
    eq(documents.environment, q.environment),
    isNotNull(documents.authorizedAt),
    gte(documents.authorizedAt, q.from),
    lt(documents.authorizedAt, q.before),
    isNotNull(documents.cufe),
  )!;
}

/** The same condition as inMonth, on the alias `d` of a raw statement. */
function inMonthAliased(q: MonthQuery): SQL {
  return sql`d.shop = ${q.shop} and d.environment = ${q.environment} and d.authorized_at is not null
    and d.authorized_at >= ${q.from.toISOString()}::timestamptz and d.authorized_at < ${q.before.toISOString()}::timestamptz
    and d.cufe is not null`;
}

/** The ITBMS rate codes the sums are split by (docs/reference/panama-fe.md §3.9). */
type RateCode = '00' | '01' | '02' | '03';

export interface MonthSeriesRow {
  branchCode: string;
  billingPoint: string;
  documentType: string;
  count: number;
  firstNumber: number;
  lastNumber: number;
  /** Σ totalsSubTotals.totalInvoice. */
  totalCents: number;
  /** Σ items' priceItem and valueITBMS by rate code. */
  byRateCode: Record<RateCode, { baseCents: number; itbmsCents: number }>;
  /** Items of none of the four rate codes, or amounts that are not one (a document the report cannot split). */
  unknownRateItems: number;
}

/**
 * Each series (branch, billing point, document type) of the month: how many documents, the first and last number,
 * and the sums of the stored documents' totals and items by rate. Read from `report_month_totals`, which triggers on
 * `documents` keep (drizzle/0013_report_month_totals.sql): a few rows, whatever the month's size.
 */
export async function monthSeriesTotals(db: Db, q: MonthQuery): Promise<MonthSeriesRow[]> {
  const t = reportMonthTotals;
  const rows = await db
    .select()
    .from(t)
    .where(and(eq(t.shop, q.shop), eq(t.environment, q.environment), eq(t.month, q.month), gt(t.documents, 0)));
  return rows
    .map((r) => ({
      branchCode: r.branchCode,
      billingPoint: r.billingPoint,
      documentType: r.documentType,
      count: r.documents,
      firstNumber: r.firstNumber ?? 0,
      lastNumber: r.lastNumber ?? 0,
      totalCents: r.totalCents,
      byRateCode: {
        '00': { baseCents: r.base0Cents, itbmsCents: r.itbms0Cents },
        '01': { baseCents: r.base7Cents, itbmsCents: r.itbms7Cents },
        '02': { baseCents: r.base10Cents, itbmsCents: r.itbms10Cents },
        '03': { baseCents: r.base15Cents, itbmsCents: r.itbms15Cents },
      },
      unknownRateItems: r.unreadable,
    }))
    .sort((a, b) =>
      `${a.branchCode}\u0000${a.billingPoint}\u0000${a.documentType}` < `${b.branchCode}\u0000${b.billingPoint}\u0000${b.documentType}`
        ? -1
        : 1,
    );
}

/** Numbers between a series' first and last of the month that no document of the month holds, at most `limit`. */
export async function seriesMissingNumbers(db: Db, q: MonthQuery, s: MonthSeriesRow, limit: number): Promise<number[]> {
  if (s.count >= s.lastNumber - s.firstNumber + 1) return [];
  const rows = rowsOf<{ n: string }>(
    await db.execute(sql`
      select n::text as n from generate_series(${s.firstNumber}::bigint, ${s.lastNumber}::bigint) n
      where not exists (
        select 1 from ${documents} d
        where d.branch_code = ${s.branchCode} and d.billing_point = ${s.billingPoint} and d.document_type = ${s.documentType}
          and d.fiscal_number = n and ${inMonthAliased(q)})
      order by n limit ${limit}`),
  );
  return rows.map((r) => Number(r.n));
}

/**
 * What is recorded about some numbers of a series: the skips (of its environment's series, docs/series.md) and the
 * documents (any environment) holding them.
 */
export async function numberRecords(
  db: Db,
  shop: string,
  s: Pick<MonthSeriesRow, 'branchCode' | 'billingPoint' | 'documentType'>,
  numbers: readonly number[],
  environment: string,
): Promise<{
  skips: { number: number; reason: string }[];
  holders: { number: number; status: string; environment: string | null; authorizedAt: Date | null }[];
}> {
  if (numbers.length === 0) return { skips: [], holders: [] };
  const skips = await db
    .select({ number: fiscalSkips.number, reason: fiscalSkips.reason })
    .from(fiscalSkips)
    .where(
      and(
        eq(fiscalSkips.shop, shop),
        eq(fiscalSkips.environment, environment),
        eq(fiscalSkips.branchCode, s.branchCode),
        eq(fiscalSkips.billingPoint, s.billingPoint),
        eq(fiscalSkips.documentType, s.documentType),
        inArray(fiscalSkips.number, [...numbers]),
      ),
    )
    .orderBy(asc(fiscalSkips.id));
  const holders = await db
    .select({
      number: sql<number>`${documents.fiscalNumber}`.mapWith(Number),
      status: documents.status,
      environment: documents.environment,
      authorizedAt: documents.authorizedAt,
    })
    .from(documents)
    .where(
      and(
        eq(documents.shop, shop),
        eq(documents.branchCode, s.branchCode),
        eq(documents.billingPoint, s.billingPoint),
        eq(documents.documentType, s.documentType),
        inArray(documents.fiscalNumber, [...numbers]),
      ),
    );
  return { skips: skips.map((r) => ({ number: Number(r.number), reason: r.reason })), holders };
}

/** Keyset position in a month read in authorization order: the last row's time (UTC text, microseconds) and id. */
export interface MonthCursor {
  authorizedAt: string;
  id: string;
}

const cursorText = sql<string>`to_char(${documents.authorizedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export interface MonthDocumentRow {
  id: string;
  kind: string;
  documentType: string;
  branchCode: string | null;
  billingPoint: string | null;
  fiscalNumber: number | null;
  cufe: string | null;
  authorizedAt: Date;
  document: unknown;
  cursor: MonthCursor;
}

/**
 * The parts of the stored document a sales book row reads (the client block, the reference, each item's rate, base
 * and ITBMS, the total), with the same names: the items' descriptions and codes stay in the database.
 */
const bookParts = sql<unknown>`jsonb_build_object(
  'dataTransaction', jsonb_build_object(
    'client', ${documents.document}->'dataTransaction'->'client',
    ${REFERENCE_FIELDS.list}::text, ${documents.document}->'dataTransaction'->${REFERENCE_FIELDS.list}::text),
  'listItems', (select coalesce(jsonb_agg(jsonb_build_object(
      'rateITBMS', i->'rateITBMS', 'priceItem', i->'priceItem', 'valueITBMS', i->'valueITBMS')), '[]'::jsonb)
    from jsonb_array_elements(${documents.document}->'listItems') i),
  'totalsSubTotals', jsonb_build_object('totalInvoice', ${documents.document}->'totalsSubTotals'->'totalInvoice'))`;

function afterCursor(after: MonthCursor | undefined): SQL | undefined {
  return after ? sql`(${documents.authorizedAt}, ${documents.id}) > (${after.authorizedAt}::timestamptz, ${after.id}::uuid)` : undefined;
}

/** One batch of the month's documents in authorization order (then id), after `after`. */
export async function monthDocumentsBatch(
  db: Db,
  q: MonthQuery,
  after: MonthCursor | undefined,
  limit: number,
): Promise<MonthDocumentRow[]> {
  const rows = await db
    .select({
      id: documents.id,
      kind: documents.kind,
      documentType: documents.documentType,
      branchCode: documents.branchCode,
      billingPoint: documents.billingPoint,
      fiscalNumber: documents.fiscalNumber,
      cufe: documents.cufe,
      authorizedAt: documents.authorizedAt,
      document: bookParts,
      cursorAt: cursorText,
    })
    .from(documents)
    .where(and(inMonth(q), afterCursor(after)))
    .orderBy(asc(documents.authorizedAt), asc(documents.id))
    .limit(limit);
  return rows.map(({ cursorAt, authorizedAt, ...r }) => ({
    ...r,
    authorizedAt: authorizedAt!,
    cursor: { authorizedAt: cursorAt, id: r.id },
  }));
}

export interface MonthPdfRow {
  id: string;
  kind: string;
  branchCode: string | null;
  billingPoint: string | null;
  fiscalNumber: number | null;
  bytes: Buffer;
  cursor: MonthCursor;
}

/** One batch of the month's stored PDFs, in the same order (a document whose PDF is not stored yet has none). */
export async function monthPdfsBatch(db: Db, q: MonthQuery, after: MonthCursor | undefined, limit: number): Promise<MonthPdfRow[]> {
  const rows = await db
    .select({
      id: documents.id,
      kind: documents.kind,
      branchCode: documents.branchCode,
      billingPoint: documents.billingPoint,
      fiscalNumber: documents.fiscalNumber,
      bytes: documentPdfs.bytes,
      cursorAt: cursorText,
    })
    .from(documents)
    .innerJoin(documentPdfs, eq(documentPdfs.documentId, documents.id))
    .where(and(inMonth(q), afterCursor(after)))
    .orderBy(asc(documents.authorizedAt), asc(documents.id))
    .limit(limit);
  return rows.map(({ cursorAt, ...r }) => ({ ...r, cursor: { authorizedAt: cursorAt, id: r.id } }));
}
