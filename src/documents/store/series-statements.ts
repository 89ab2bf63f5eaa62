// The number series of a shop (docs/series.md): listed with their last number used, next number and gaps (each with
// its reason), and moved forward by a person (`series set-next`, *Configuración*). Reserving a number is in
// lease-statements.ts (reserveFiscalNumber).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { rowsOf } from '../../db/database.ts';
import { documents, fiscalSequences, fiscalSeriesChanges, fiscalSkips } from '../../db/schema.ts';
import type { SeriesPoint } from './lease-statements.ts';

/** One series: where and what it numbers. */
export interface SeriesKey extends SeriesPoint {
  documentType: string;
}

/** Why numbers below a series' next number are held by no document of it. */
export type GapReason =
  /** Used outside the app (the gateway answered 102): the skip's reason. */
  | { kind: 'skipped'; detail: string }
  /** A person moved the next number forward past them. */
  | { kind: 'set_next'; by: string; at: string; fromNext: number; toNext: number }
  /** Numbered by the other environment's documents while both shared one sequence (before drizzle/0006). */
  | { kind: 'other_environment' }
  | { kind: 'unknown' };

export interface SeriesGap {
  from: number;
  to: number;
  reason: GapReason;
}

export interface SeriesSummary extends SeriesKey {
  /** The highest number a document of the series holds or that was skipped (used outside the app); null when none. */
  lastUsed: number | null;
  nextNumber: number;
  gaps: SeriesGap[];
}

const OTHER = { pruebas: 'produccion', produccion: 'pruebas' } as const;

const sameSeries = (k: SeriesKey) =>
  and(
    eq(documents.environment, k.environment),
    eq(documents.branchCode, k.branchCode),
    eq(documents.billingPoint, k.billingPoint),
    eq(documents.documentType, k.documentType),
  );

/** Every series of the shop, in order of environment, branch, point and type. */
export async function listSeries(db: Db, shop: string): Promise<SeriesSummary[]> {
  const rows = await db
    .select()
    .from(fiscalSequences)
    .where(eq(fiscalSequences.shop, shop))
    .orderBy(
      asc(fiscalSequences.environment),
      asc(fiscalSequences.branchCode),
      asc(fiscalSequences.billingPoint),
      asc(fiscalSequences.documentType),
    );
  const [skips, changes] = await Promise.all([
    db.select().from(fiscalSkips).where(eq(fiscalSkips.shop, shop)),
    db.select().from(fiscalSeriesChanges).where(eq(fiscalSeriesChanges.shop, shop)).orderBy(asc(fiscalSeriesChanges.id)),
  ]);
  const out: SeriesSummary[] = [];
  for (const row of rows) {
    const key: SeriesKey = {
      environment: row.environment as SeriesKey['environment'],
      branchCode: row.branchCode,
      billingPoint: row.billingPoint,
      documentType: row.documentType,
    };
    const same = (r: { environment: string; branchCode: string; billingPoint: string; documentType: string }) =>
      r.environment === key.environment &&
      r.branchCode === key.branchCode &&
      r.billingPoint === key.billingPoint &&
      r.documentType === key.documentType;
    const { lastUsed, holes } = await holesOf(db, shop, key, row.nextNumber);
    const gaps: SeriesGap[] = [];
    // The other environment's numbers matter only where the two once shared a sequence (the split recorded it).
    const shared = changes.some(
      (c) =>
        c.kind === 'split' && c.branchCode === key.branchCode && c.billingPoint === key.billingPoint && c.documentType === key.documentType,
    );
    for (const [from, to] of holes) {
      gaps.push(...(await explain(db, shop, { ...key, shared }, from, to, skips.filter(same), changes.filter(same))));
    }
    // A skipped number was used too (outside the app).
    const used = [lastUsed ?? 0, ...skips.filter(same).map((k) => k.number)];
    out.push({ ...key, lastUsed: Math.max(...used) || null, nextNumber: row.nextNumber, gaps });
  }
  return out;
}

/** The ranges of numbers below `next` no document of the series holds (one scan of the series' numbers). */
async function holesOf(
  db: Db,
  shop: string,
  key: SeriesKey,
  next: number,
): Promise<{ lastUsed: number | null; holes: [number, number][] }> {
  const result = await db.execute(sql`
    select prev + 1 as "from", n - 1 as "to", last from (
      select ${documents.fiscalNumber} as n,
        coalesce(lag(${documents.fiscalNumber}) over (order by ${documents.fiscalNumber}), 0) as prev,
        max(${documents.fiscalNumber}) over () as last
      from ${documents}
      where ${documents.shop} = ${shop} and ${sameSeries(key)} and ${documents.fiscalNumber} is not null
      union all
      select ${next}::bigint, coalesce(max(${documents.fiscalNumber}), 0), max(${documents.fiscalNumber})
      from ${documents} where ${documents.shop} = ${shop} and ${sameSeries(key)} and ${documents.fiscalNumber} is not null
    ) numbers
    where n - prev > 1 or n = ${next}
    order by 1`);
  const rows = rowsOf<{ from: string | number; to: string | number; last: string | number | null }>(result);
  const lastUsed = rows[0]?.last === null || rows[0] === undefined ? null : Number(rows[0].last);
  const holes = rows.map((r): [number, number] => [Number(r.from), Number(r.to)]).filter(([from, to]) => from <= to);
  return { lastUsed, holes };
}

/** A range of missing numbers cut into runs of one reason each. */
async function explain(
  db: Db,
  shop: string,
  key: SeriesKey & { shared: boolean },
  from: number,
  to: number,
  skips: (typeof fiscalSkips.$inferSelect)[],
  changes: (typeof fiscalSeriesChanges.$inferSelect)[],
): Promise<SeriesGap[]> {
  const other = !key.shared
    ? []
    : await db
        .select({ n: documents.fiscalNumber })
        .from(documents)
        .where(
          and(
            eq(documents.shop, shop),
            sameSeries({ ...key, environment: OTHER[key.environment] }),
            sql`${documents.fiscalNumber} between ${from} and ${to}`,
          ),
        );
  const byOther = new Set(other.flatMap((o) => (o.n === null ? [] : [o.n])));
  const skipped = new Map(skips.filter((s) => s.number >= from && s.number <= to).map((s) => [s.number, s.reason]));
  const reasonOf = (n: number): GapReason => {
    const skip = skipped.get(n);
    if (skip !== undefined) return { kind: 'skipped', detail: skip };
    const moved = changes.find((c) => c.kind === 'set_next' && c.fromNext <= n && n < c.toNext);
    if (moved)
      return { kind: 'set_next', by: moved.changedBy, at: moved.createdAt.toISOString(), fromNext: moved.fromNext, toNext: moved.toNext };
    if (byOther.has(n)) return { kind: 'other_environment' };
    return { kind: 'unknown' };
  };
  // The reason changes only at a skip, a number of the other environment or a move's ends: one reason per segment
  // between those, then neighbours of the same reason joined (a skip stays one number of its own).
  const cuts = new Set<number>([from, to + 1]);
  for (const n of [...skipped.keys(), ...byOther]) cuts.add(n).add(n + 1);
  for (const c of changes) cuts.add(c.fromNext).add(c.toNext);
  const points = [...cuts].filter((n) => n >= from && n <= to + 1).sort((x, y) => x - y);
  const gaps: SeriesGap[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [start, end] = [points[i]!, points[i + 1]! - 1];
    const reason = reasonOf(start);
    const last = gaps.at(-1);
    if (last && last.to === start - 1 && reason.kind !== 'skipped' && JSON.stringify(last.reason) === JSON.stringify(reason)) last.to = end;
    else gaps.push({ from: start, to: end, reason });
  }
  return gaps;
}

export type SetNextOutcome =
  | { kind: 'set'; from: number; to: number }
  | { kind: 'unchanged'; next: number }
  /** Refused: `next` is at or below a number already used (`lastUsed`) or reserved (`nextNumber` − 1). Nothing changed. */
  | { kind: 'refused'; next: number; lastUsed: number | null; lastReserved: number | null; nextNumber: number };

/**
 * Move a series' next number forward to `next`, recording who, when, from and to. Only forward: a number at or below
 * one already used by a document (or skipped) or reserved is refused and nothing changes. Under the series' row lock,
 * so no reservation slips in between the check and the move.
 */
export async function setNextNumber(db: Db, key: SeriesKey & { shop: string }, next: number, by: string): Promise<SetNextOutcome> {
  return db.transaction(async (tx) => {
    const where = and(
      eq(fiscalSequences.shop, key.shop),
      eq(fiscalSequences.environment, key.environment),
      eq(fiscalSequences.branchCode, key.branchCode),
      eq(fiscalSequences.billingPoint, key.billingPoint),
      eq(fiscalSequences.documentType, key.documentType),
    );
    const [row] = await tx.select({ next: fiscalSequences.nextNumber }).from(fiscalSequences).where(where).for('update');
    const [used] = await tx
      .select({ last: sql<string | null>`max(${documents.fiscalNumber})` })
      .from(documents)
      .where(and(eq(documents.shop, key.shop), sameSeries(key)));
    const [skip] = await tx
      .select({ last: sql<string | null>`max(${fiscalSkips.number})` })
      .from(fiscalSkips)
      .where(
        and(
          eq(fiscalSkips.shop, key.shop),
          eq(fiscalSkips.environment, key.environment),
          eq(fiscalSkips.branchCode, key.branchCode),
          eq(fiscalSkips.billingPoint, key.billingPoint),
          eq(fiscalSkips.documentType, key.documentType),
        ),
      );
    const lasts = [used?.last, skip?.last].filter((v) => v !== null && v !== undefined).map(Number);
    const lastUsed = lasts.length > 0 ? Math.max(...lasts) : null;
    const current = row?.next ?? 1;
    if (next < current || (lastUsed !== null && next <= lastUsed)) {
      return { kind: 'refused', next, lastUsed, lastReserved: current > 1 ? current - 1 : null, nextNumber: current };
    }
    if (next === current) return { kind: 'unchanged', next };
    // A series no document has used yet may have no row: it is made at `next` (a reservation racing it waits on the
    // conflict, then continues from here).
    const moved = await tx
      .insert(fiscalSequences)
      .values({ ...key, nextNumber: next })
      .onConflictDoUpdate({
        target: [
          fiscalSequences.shop,
          fiscalSequences.environment,
          fiscalSequences.branchCode,
          fiscalSequences.billingPoint,
          fiscalSequences.documentType,
        ],
        set: { nextNumber: next },
        setWhere: sql`${fiscalSequences.nextNumber} < ${next}`,
      })
      .returning({ next: fiscalSequences.nextNumber });
    if (moved.length === 0) return { kind: 'refused', next, lastUsed, lastReserved: null, nextNumber: current };
    await tx.insert(fiscalSeriesChanges).values({ ...key, kind: 'set_next', fromNext: current, toNext: next, changedBy: by });
    return { kind: 'set', from: current, to: next };
  });
}
