// The backfill's reader (docs/backfill.md): under its lease, the range's paid orders page by page from the saved
// cursor; each order without an invoice read through the Admin API and enqueued through the same intake as orders/paid
// (idempotent on shop, kind and source: an order its webhook or the sweep brings too is stored once), carrying the
// backfill's id so the worker takes it after live orders. The cursor and counts are saved with each page, so a killed
// process's successor goes on from the last page saved (a page half done is read again; what it stored is found).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { IntakeBatcher } from '../documents/intake-batcher.ts';
import { intakeDocument, invoiceOf } from '../documents/intake-document.ts';
import { invoicesOfOrders, removeUnsentBackfillDocuments } from '../documents/store/index.ts';
import type { Logger } from '../logger.ts';
import type { ShopifyAdmin } from '../shopify/admin-client.ts';
import { readOrder } from '../shopify/order-queries.ts';
import { listOrdersPage, MAX_BACKFILL_PAGES } from './backfill-orders.ts';
import { backfillSearchQuery, storedRange } from './backfill-range.ts';
import { type BackfillRow, backfillById, extendBackfillLease, finishBackfill, releaseBackfillLease, savePage } from './backfill-store.ts';

export interface ReaderDeps {
  db: Db;
  admin: Pick<ShopifyAdmin, 'graphql'>;
  intake: Pick<IntakeBatcher, 'enqueue'>;
  logger: Logger;
  /** Who holds the lease. */
  owner: string;
  leaseMs: number;
  /** Tell the worker there is work (same process). */
  onStored?: () => void;
}

/** Orders read through the Admin API at once (and enqueued together); the lease is extended after each group. */
const READS_AT_ONCE = 8;

/**
 * Read a backfill whose lease this owner holds until its last page (`read`), or until Shopify fails for now (`later`:
 * the lease is given back and the next tick tries again), refuses for good (`failed`), or the lease or the backfill is
 * gone (`stopped`: cancelled, or another process took over).
 */
export async function readBackfill(deps: ReaderDeps, row: BackfillRow): Promise<'read' | 'later' | 'failed' | 'stopped'> {
  const query = backfillSearchQuery(storedRange(row.fromDay, row.toDay));
  let after = row.cursor;
  for (let n = 0; n < MAX_BACKFILL_PAGES; n++) {
    const page = await listOrdersPage(deps.admin, row.shop, query, after);
    if (!page.ok) return giveUp(deps, row, page, 'listing paid orders');
    const invoiced = await invoicesOfOrders(
      deps.db,
      row.shop,
      page.data.orders.map((o) => o.id),
    );
    const counts = { enqueued: 0, alreadyInvoiced: 0 };
    const unknown = page.data.orders.filter((listed) => {
      if (!invoiced.has(listed.id)) return true;
      // Ours already: stored before a restart, on a page read again.
      if (invoiced.get(listed.id) === row.id) counts.enqueued++;
      else counts.alreadyInvoiced++;
      return false;
    });
    // A few orders read at once, and each group enqueued together (one intake statement): one at a time, the Admin
    // API's round trips kept the backfill far below the gateway's pace.
    for (let i = 0; i < unknown.length; i += READS_AT_ONCE) {
      const group = unknown.slice(i, i + READS_AT_ONCE);
      const reads = await Promise.all(group.map((listed) => readOrder(deps.admin, row.shop, listed.id)));
      for (const [k, read] of reads.entries()) if (!read.ok) return giveUp(deps, row, read, `reading order ${group[k]!.name}`);
      const outcomes = await Promise.all(
        reads.map(async (read, k) => {
          const data = read.ok ? read.data : null;
          const source = data === null ? undefined : invoiceOf(data.json);
          if (!data || !source?.ok) {
            deps.logger.warn({ shop: row.shop, orderGid: group[k]!.id }, 'backfill: listed order not readable; left out');
            return undefined;
          }
          return deps.intake.enqueue(
            { ...intakeDocument(row.shop, source.source, data.text), backfillId: row.id },
            { webhookId: `backfill-${randomUUID()}`, eventId: undefined, topic: 'orders/paid', triggeredAt: undefined },
          );
        }),
      );
      for (const outcome of outcomes) {
        if (outcome === 'stored') counts.enqueued++;
        else if (outcome !== undefined) counts.alreadyInvoiced++; // its webhook (or the sweep) stored it a moment ago
      }
      if (outcomes.includes('stored')) deps.onStored?.();
      if (!(await extendBackfillLease(deps.db, row.id, deps.owner, deps.leaseMs))) return stopped(deps, row.id);
    }
    const last = page.data.next === null;
    const saved = await savePage(deps.db, row.id, deps.owner, deps.leaseMs, {
      cursor: page.data.next ?? after,
      read: page.data.orders.length,
      ...counts,
      last,
    });
    if (!saved) return stopped(deps, row.id);
    if (last) return 'read';
    after = page.data.next;
  }
  await finishBackfill(deps.db, row.id, 'failed', `more than ${MAX_BACKFILL_PAGES} pages of paid orders`);
  return 'failed';
}

async function giveUp(
  deps: ReaderDeps,
  row: BackfillRow,
  failure: { retryable: boolean; message: string },
  what: string,
): Promise<'later' | 'failed'> {
  const error = `${what}: ${failure.message}`.slice(0, 500);
  if (failure.retryable) {
    deps.logger.warn({ shop: row.shop, backfill: row.id, error }, 'backfill: Shopify failed; the next tick goes on from the saved page');
    await releaseBackfillLease(deps.db, row.id, deps.owner);
    return 'later';
  }
  deps.logger.error({ shop: row.shop, backfill: row.id, error }, 'backfill: Shopify refused; backfill failed');
  await finishBackfill(deps.db, row.id, 'failed', error);
  return 'failed';
}

/** The lease or the backfill is gone. Cancelled: what this reader stored after the cancel is removed too. */
async function stopped(deps: ReaderDeps, id: string): Promise<'stopped'> {
  const now = await backfillById(deps.db, id);
  if (now?.status === 'cancelled') await removeUnsentBackfillDocuments(deps.db, id);
  return 'stopped';
}
