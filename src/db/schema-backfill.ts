// The backfill's table (docs/backfill.md): one row per backfill of a shop's past paid orders. Only
// src/backfill/backfill-store.ts speaks SQL to it.
import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { oneOf, rowTimes, tstz } from './schema-columns.ts';

export const BACKFILL_STATUSES = ['running', 'done', 'cancelled', 'failed'] as const;
export type BackfillStatus = (typeof BACKFILL_STATUSES)[number];

/**
 * A backfill: the orders of a range of Panama days read page by page through the Admin API (the cursor of the last
 * page done is kept, so a restarted process goes on from there) and enqueued as documents that carry its id. Its
 * reader holds a lease, like the sweep's: any app process may take it over once it runs out.
 */
export const backfills = pgTable(
  'backfills',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    shop: text('shop').notNull(),
    /** The range, Panama days, both included (YYYY-MM-DD). */
    fromDay: text('from_day').notNull(),
    toDay: text('to_day').notNull(),
    status: text('status', { enum: BACKFILL_STATUSES }).notNull().default('running'),
    /** The Admin API cursor after the last page read and enqueued; null before the first. */
    cursor: text('cursor'),
    /** Every page has been read: what is left is the documents' issuing. */
    readDone: boolean('read_done').notNull().default(false),
    /** How many documents the dry run said it would make (the progress bar's total until reading ends). */
    expected: integer('expected'),
    ordersRead: integer('orders_read').notNull().default(0),
    enqueued: integer('enqueued').notNull().default(0),
    alreadyInvoiced: integer('already_invoiced').notNull().default(0),
    leaseOwner: text('lease_owner'),
    leaseUntil: tstz('lease_until'),
    finishedAt: tstz('finished_at'),
    error: text('error'),
    ...rowTimes(),
  },
  (t) => [
    // One running backfill per shop.
    uniqueIndex('backfills_running_shop_uq')
      .on(t.shop)
      .where(sql`${t.status} = 'running'`),
    check('backfills_status_ck', oneOf('status', BACKFILL_STATUSES)),
  ],
);
