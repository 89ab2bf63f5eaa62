// The only module that speaks SQL to `backfills` (src/db/schema-backfill.ts): start one (one running per shop),
// its reader's lease, the cursor and counts saved after each page, and its end.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { backfills } from '../db/schema.ts';
import type { BackfillStatus } from '../db/schema-backfill.ts';

export type BackfillRow = typeof backfills.$inferSelect;

const leaseEnd = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`;

/** A new running backfill; undefined when the shop already has one running (the partial unique index says so). */
export async function insertBackfill(
  db: Db,
  b: { shop: string; from: string; to: string; expected: number | undefined },
): Promise<BackfillRow | undefined> {
  const rows = await db
    .insert(backfills)
    .values({ shop: b.shop, fromDay: b.from, toDay: b.to, expected: b.expected ?? null })
    .onConflictDoNothing()
    .returning();
  return rows[0];
}

export async function runningBackfill(db: Db, shop: string): Promise<BackfillRow | undefined> {
  const [row] = await db
    .select()
    .from(backfills)
    .where(and(eq(backfills.shop, shop), eq(backfills.status, 'running')));
  return row;
}

/** The shop's running backfill, else its latest. */
export async function latestBackfill(db: Db, shop: string): Promise<BackfillRow | undefined> {
  const [row] = await db
    .select()
    .from(backfills)
    .where(eq(backfills.shop, shop))
    .orderBy(sql`${backfills.status} = 'running' desc`, desc(backfills.createdAt))
    .limit(1);
  return row;
}

export async function backfillById(db: Db, id: string): Promise<BackfillRow | undefined> {
  const [row] = await db.select().from(backfills).where(eq(backfills.id, id));
  return row;
}

/**
 * Take the reader's lease of a running backfill that still has pages to read and that nobody holds (or whose holder's
 * lease ran out: a killed process). `id`: that one only (the CLI waits on its own).
 */
export async function claimBackfillReader(db: Db, owner: string, leaseMs: number, id?: string): Promise<BackfillRow | undefined> {
  const free = sql`${backfills.status} = 'running' and not ${backfills.readDone}
    and (${backfills.leaseUntil} is null or ${backfills.leaseUntil} <= now())`;
  const [claimed] = await db
    .update(backfills)
    .set({ leaseOwner: owner, leaseUntil: leaseEnd(leaseMs), updatedAt: sql`now()` })
    .where(
      and(
        free,
        eq(
          backfills.id,
          sql`(select b.id from ${backfills} b where b.status = 'running' and not b.read_done
            and (b.lease_until is null or b.lease_until <= now()) ${id ? sql`and b.id = ${id}` : sql``}
            order by b.created_at limit 1 for update skip locked)`,
        ),
      ),
    )
    .returning();
  return claimed;
}

/** A page done: its cursor and counts, the lease extended. False when the lease was lost or the backfill stopped. */
export async function savePage(
  db: Db,
  id: string,
  owner: string,
  leaseMs: number,
  page: { cursor: string | null; read: number; enqueued: number; alreadyInvoiced: number; last: boolean },
): Promise<boolean> {
  const rows = await db
    .update(backfills)
    .set({
      cursor: page.cursor,
      ordersRead: sql`${backfills.ordersRead} + ${page.read}`,
      enqueued: sql`${backfills.enqueued} + ${page.enqueued}`,
      alreadyInvoiced: sql`${backfills.alreadyInvoiced} + ${page.alreadyInvoiced}`,
      readDone: page.last,
      ...(page.last ? { leaseOwner: null, leaseUntil: null } : { leaseUntil: leaseEnd(leaseMs) }),
      updatedAt: sql`now()`,
    })
    .where(and(eq(backfills.id, id), eq(backfills.leaseOwner, owner), eq(backfills.status, 'running')))
    .returning({ id: backfills.id });
  return rows.length === 1;
}

/** Keep the lease while one page's orders are read (a page of a real shop can take longer than the lease). */
export async function extendBackfillLease(db: Db, id: string, owner: string, leaseMs: number): Promise<boolean> {
  const rows = await db
    .update(backfills)
    .set({ leaseUntil: leaseEnd(leaseMs) })
    .where(and(eq(backfills.id, id), eq(backfills.leaseOwner, owner), eq(backfills.status, 'running')))
    .returning({ id: backfills.id });
  return rows.length === 1;
}

export async function releaseBackfillLease(db: Db, id: string, owner: string): Promise<void> {
  await db
    .update(backfills)
    .set({ leaseOwner: null, leaseUntil: null })
    .where(and(eq(backfills.id, id), eq(backfills.leaseOwner, owner)));
}

/** End a running backfill (done, cancelled or failed); false when it was no longer running. */
export async function finishBackfill(db: Db, id: string, status: Exclude<BackfillStatus, 'running'>, error?: string): Promise<boolean> {
  const rows = await db
    .update(backfills)
    .set({ status, error: error ?? null, leaseOwner: null, leaseUntil: null, finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(backfills.id, id), eq(backfills.status, 'running')))
    .returning({ id: backfills.id });
  return rows.length === 1;
}

/** Running backfills whose pages are all read: the runner ends each once its documents have settled. */
export async function readBackfills(db: Db): Promise<BackfillRow[]> {
  return db
    .select()
    .from(backfills)
    .where(and(eq(backfills.status, 'running'), eq(backfills.readDone, true)));
}
