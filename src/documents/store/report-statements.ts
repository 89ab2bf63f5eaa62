// The accountant's month (src/reports/): what a shop's authorized documents of one environment and one Panamá month
// say, read from the documents the gateway received. Sums are made by the database over the stored items (a few rows
// come back, whatever the month's size); the sales book and the ZIP read the month in keyset batches.
import { and, asc, eq, gte, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { rowsOf } from '../../db/database.ts';
import { documentPdfs, documents, fiscalSkips } from '../../db/schema.ts';
import { REFERENCE_FIELDS } from '../../../mappers/gateway/gateway-document.ts';

export interface MonthQuery {
  shop: string;
  environment: string;
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

/** Cents of a decimal text of the stored document ("12.34" → 1234). */
const cents = (value: SQL) => sql`round((${value})::numeric * 100)::bigint`;

/** The same condition as inMonth, on the alias `d` of a raw statement. */
function inMonthAliased(q: MonthQuery): SQL {
  return sql`d.shop = ${q.shop} and d.environment = ${q.environment} and d.authorized_at is not null
    and d.authorized_at >= ${q.from.toISOString()}::timestamptz and d.authorized_at < ${q.before.toISOString()}::timestamptz
    and d.cufe is not null`;
}

/** The ITBMS rate codes the sums are split by (docs/reference/panama-fe.md §3.9). */
const RATE_CODES = ['00', '01', '02', '03'] as const;

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
  byRateCode: Record<(typeof RATE_CODES)[number], { baseCents: number; itbmsCents: number }>;
  /** Items whose rate code is none of the four (a document the report cannot split). */
  unknownRateItems: number;
}

/**
 * Each series (branch, billing point, document type) of the month: how many documents, the first and last number, and
 * the sums of the stored documents' totals and items by rate, in one pass over the month's documents: their items
 * grouped by series and rate, each document's own figures taken once, on its first item (the month's rows are read
 * once: on PGlite, with a small buffer pool, reading them twice cost twice, bench/RESULTS.md).
 */
export async function monthSeriesTotals(db: Db, q: MonthQuery): Promise<MonthSeriesRow[]> {
  const first = sql.raw('(i.n = 1 or i.n is null)');
  const result = await db.execute(sql`
    select d.branch_code, d.billing_point, d.document_type, i.item->>'rateITBMS' as rate_code,
      count(*) filter (where ${first})::text as docs,
      min(d.fiscal_number) filter (where ${first})::text as first,
      max(d.fiscal_number) filter (where ${first})::text as last,
      sum(${cents(sql`d.document->'totalsSubTotals'->>'totalInvoice'`)}) filter (where ${first})::text as total,
      sum(${cents(sql`i.item->>'priceItem'`)})::text as base, sum(${cents(sql`i.item->>'valueITBMS'`)})::text as itbms,
      count(i.item)::text as items
    from ${documents} d
      left join lateral jsonb_array_elements(d.document->'listItems') with ordinality as i(item, n) on true
    where ${inMonthAliased(q)} and d.fiscal_number is not null
    group by 1, 2, 3, 4`);
  const num = (v: string | null | undefined) => Number(v ?? 0);
  const byKey = new Map<string, MonthSeriesRow>();
  for (const r of rowsOf<Record<string, string | null>>(result)) {
    const key = `${r['branch_code']}\u0000${r['billing_point']}\u0000${r['document_type']}`;
    let row = byKey.get(key);
    if (!row) {
      row = {
        branchCode: r['branch_code'] ?? '',
        billingPoint: r['billing_point'] ?? '',
        documentType: r['document_type'] ?? '',
        count: 0,
        firstNumber: Number.MAX_SAFE_INTEGER,
        lastNumber: 0,
        totalCents: 0,
        byRateCode: Object.fromEntries(RATE_CODES.map((c) => [c, { baseCents: 0, itbmsCents: 0 }])) as MonthSeriesRow['byRateCode'],
        unknownRateItems: 0,
      };
      byKey.set(key, row);
    }
    if (num(r['docs']) > 0) {
      row.count += num(r['docs']);
      row.firstNumber = Math.min(row.firstNumber, num(r['first']));
      row.lastNumber = Math.max(row.lastNumber, num(r['last']));
      row.totalCents += num(r['total']);
    }
    const code = r['rate_code'];
    if (code !== null && code !== undefined && (RATE_CODES as readonly string[]).includes(code)) {
      row.byRateCode[code as (typeof RATE_CODES)[number]].baseCents += num(r['base']);
      row.byRateCode[code as (typeof RATE_CODES)[number]].itbmsCents += num(r['itbms']);
    } else row.unknownRateItems += num(r['items']);
  }
  return [...byKey.values()].sort((a, b) =>
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
