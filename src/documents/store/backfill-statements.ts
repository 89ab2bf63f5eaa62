// The backfill's statements on documents (docs/backfill.md): which orders of a page have an invoice and whose, a
// backfill's documents by status, and removing those of a cancelled backfill that never reached the gateway.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { documents } from '../../db/schema.ts';
import type { DocumentStatus } from '../../db/document-state.ts';

/** Of these orders, those with an invoice: order GID → the backfill that brought it (null: a webhook or the sweep). */
export async function invoicesOfOrders(db: Db, shop: string, orderGids: readonly string[]): Promise<Map<string, string | null>> {
  if (orderGids.length === 0) return new Map();
  const rows = await db
    .select({ orderGid: documents.orderGid, backfillId: documents.backfillId })
    .from(documents)
    .where(and(eq(documents.shop, shop), eq(documents.kind, 'invoice'), inArray(documents.orderGid, [...orderGids])));
  return new Map(rows.map((r) => [r.orderGid, r.backfillId]));
}

/** A backfill's documents by status. */
export async function backfillDocumentCounts(db: Db, backfillId: string): Promise<Partial<Record<DocumentStatus, number>>> {
  const rows = await db
    .select({ status: documents.status, n: sql<number>`count(*)::int` })
    .from(documents)
    .where(eq(documents.backfillId, backfillId))
    .groupBy(documents.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/**
 * A cancelled backfill's documents that hold no fiscal number and never may have reached the gateway: removed, so
 * their orders can be backfilled later. A document numbered or sent stays and goes on (a number is never lost).
 */
export async function removeUnsentBackfillDocuments(db: Db, backfillId: string): Promise<number> {
  const gone = await db
    .delete(documents)
    .where(
      and(
        eq(documents.backfillId, backfillId),
        isNull(documents.fiscalNumber),
        eq(documents.sendMayHaveReached, false),
        sql`${documents.status} <> 'completed'`,
      ),
    )
    .returning({ id: documents.id });
  return gone.length;
}
