// Reconciliation sweep: Shopify delivers webhooks at least once *if all goes well*; a delivery can still be
// lost. Periodically, for every installed and enabled shop, list the orders paid in a recent window through
// Admin GraphQL and enqueue those that have no invoice yet, through the same intake path as orders/paid.
//
// Window on `updated_at`, not `created_at`: an order created days ago and paid today (payment terms, bank
// transfer, manual capture) is updated when it is paid, so it is in the window when its orders/paid was due.
// Orders merely edited come back too; they already have an invoice and cost one indexed lookup per page.
// Orders created before the app was installed are never swept: they may have been invoiced another way.
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/database.ts';
import { reconcileSweeps, shops } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import type { AppMetrics } from '../metrics.ts';
import type { ShopifyAdmin } from '../shopify/admin-client.ts';
import { readOrder } from '../shopify/order-queries.ts';
import type { IntakeBatcher } from './intake-batcher.ts';
import { intakeDocument, invoiceOf } from './intake-document.ts';
import { ordersWithoutInvoice } from './store/index.ts';

export interface SweepDeps {
  db: Db;
  admin: Pick<ShopifyAdmin, 'graphql'>;
  intake: Pick<IntakeBatcher, 'enqueue'>;
  windowHours: number;
  logger: Logger;
  /** Who holds a shop's sweep lease (the worker's id is fine). */
  owner: string;
  /** Tell the worker there is work (same process). */
  onStored?: () => void;
  metrics?: Pick<AppMetrics, 'recordSweep'>;
  now?: () => Date;
  /** Lease per shop, extended after each page. Default 10 minutes. */
  leaseMs?: number;
}

export interface SweepOptions {
  /** Skip a shop whose last sweep (by any process) started less than this long ago. Default 0. */
  minIntervalMs?: number;
  /** Only these shops (CLI); default every installed and enabled shop. */
  shops?: readonly string[];
}

export interface ShopSweepResult {
  shop: string;
  /** busy: another sweep holds the shop, or swept it within the interval. */
  outcome: 'swept' | 'busy' | 'failed';
  /** Paid orders Shopify listed in the window. */
  listed: number;
  /** Of those, without an invoice (and not refused by the intake while the shop was off). */
  missing: number;
  enqueued: number;
  /** A webhook stored the order between our lookup and our insert. */
  duplicates: number;
  /** Orders that could not be read or are not orders (left for the next sweep). */
  skipped: number;
  error?: string;
}

export interface SweepSummary {
  shops: ShopSweepResult[];
  enqueued: number;
  failedShops: number;
  durationMs: number;
}

export const PAGE_SIZE = 100;
/** A cursor bug must not loop forever: 500 pages is 50 000 orders in the window. */
const MAX_PAGES = 500;
const DEFAULT_LEASE_MS = 10 * 60_000;

export const RECONCILE_ORDERS_QUERY = `query ReconcilePaidOrders($first: Int!, $after: String, $query: String!) {
  orders(first: $first, after: $after, query: $query) {
    edges { cursor node { id name createdAt } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const ordersPage = z.object({
  orders: z.object({
    edges: z.array(z.object({ node: z.object({ id: z.string(), name: z.string().nullish(), createdAt: z.string() }) })),
    pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
  }),
});
type ListedOrder = z.infer<typeof ordersPage>['orders']['edges'][number]['node'];

/** Shopify search syntax: quoted because the timestamp holds colons. */
export function sweepSearchQuery(windowStart: Date): string {
  return `financial_status:paid updated_at:>='${windowStart.toISOString().replace(/\.\d{3}Z$/, 'Z')}'`;
}

/** Orders of a page created after the shop installed the app (earlier ones are not ours to invoice). */
export function ordersSinceInstall(orders: readonly ListedOrder[], installedAt: Date): ListedOrder[] {
  return orders.filter((o) => {
    const created = Date.parse(o.createdAt);
    return !Number.isNaN(created) && created >= installedAt.getTime();
  });
}

/** One pass over the shops. Safe to run from several processes: each shop is swept under a lease. */
export async function runSweepOnce(deps: SweepDeps, options: SweepOptions = {}): Promise<SweepSummary> {
  const started = Date.now();
  const now = deps.now ?? (() => new Date());
  const rows = await deps.db
    .select({ shop: shops.shop, installedAt: shops.installedAt })
    .from(shops)
    .where(and(eq(shops.installed, true), eq(shops.enabled, true), options.shops ? inArray(shops.shop, [...options.shops]) : undefined))
    .orderBy(shops.shop);

  const results: ShopSweepResult[] = [];
  for (const row of rows) {
    results.push(await sweepShopUnderLease(deps, row.shop, row.installedAt, now(), options.minIntervalMs ?? 0));
  }
  const summary: SweepSummary = {
    shops: results,
    enqueued: results.reduce((n, r) => n + r.enqueued, 0),
    failedShops: results.filter((r) => r.outcome === 'failed').length,
    durationMs: Date.now() - started,
  };
  deps.metrics?.recordSweep(summary);
  deps.logger.info(
    {
      shops: results.length,
      swept: results.filter((r) => r.outcome === 'swept').length,
      busy: results.filter((r) => r.outcome === 'busy').length,
      failed: summary.failedShops,
      listed: results.reduce((n, r) => n + r.listed, 0),
      missing: results.reduce((n, r) => n + r.missing, 0),
      enqueued: summary.enqueued,
      skipped: results.reduce((n, r) => n + r.skipped, 0),
      windowHours: deps.windowHours,
      durationMs: summary.durationMs,
    },
    'reconciliation sweep finished',
  );
  return summary;
}

async function sweepShopUnderLease(
  deps: SweepDeps,
  shop: string,
  installedAt: Date,
  at: Date,
  minIntervalMs: number,
): Promise<ShopSweepResult> {
  const empty: ShopSweepResult = { shop, outcome: 'busy', listed: 0, missing: 0, enqueued: 0, duplicates: 0, skipped: 0 };
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  let claimed: boolean;
  try {
    claimed = await claimShopLease(deps.db, shop, deps.owner, leaseMs, minIntervalMs);
  } catch (error) {
    return { ...empty, outcome: 'failed', error: errorText(error) };
  }
  if (!claimed) return empty;

  let result: ShopSweepResult;
  try {
    result = await sweepShop(deps, shop, installedAt, at, leaseMs);
  } catch (error) {
    result = { ...empty, outcome: 'failed', error: errorText(error) };
  }
  if (result.outcome === 'failed')
    deps.logger.warn({ shop, error: result.error }, 'reconciliation sweep: shop not finished; next sweep retries');
  try {
    await releaseShopLease(deps.db, shop, deps.owner, result);
  } catch (error) {
    // The lease runs out by itself.
    deps.logger.warn({ shop, err: error }, 'reconciliation sweep: could not release the lease');
  }
  return result;
}

async function sweepShop(deps: SweepDeps, shop: string, installedAt: Date, at: Date, leaseMs: number): Promise<ShopSweepResult> {
  const result: ShopSweepResult = { shop, outcome: 'swept', listed: 0, missing: 0, enqueued: 0, duplicates: 0, skipped: 0 };
  const query = sweepSearchQuery(new Date(at.getTime() - deps.windowHours * 3_600_000));
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await deps.admin.graphql<unknown>(shop, RECONCILE_ORDERS_QUERY, { first: PAGE_SIZE, after: after ?? null, query });
    if (!answer.ok) return { ...result, outcome: 'failed', error: `listing paid orders: ${answer.message}` };
    const parsed = ordersPage.safeParse(answer.data);
    if (!parsed.success) return { ...result, outcome: 'failed', error: 'listing paid orders: unexpected answer shape' };
    const listed = parsed.data.orders.edges.map((e) => e.node);
    result.listed += listed.length;

    const recent = ordersSinceInstall(listed, installedAt);
    const without = await ordersWithoutInvoice(
      deps.db,
      shop,
      recent.map((o) => o.id),
    );
    const missing = recent.filter((o) => without.has(o.id));
    result.missing += missing.length;
    for (const order of missing) {
      const outcome = await enqueueFromShopify(deps, shop, order);
      if (outcome.kind === 'failed') return { ...result, outcome: 'failed', error: outcome.message };
      if (outcome.kind === 'skipped') result.skipped++;
      else if (outcome.kind === 'stored') result.enqueued++;
      else result.duplicates++;
    }

    const { hasNextPage, endCursor } = parsed.data.orders.pageInfo;
    if (!hasNextPage || !endCursor) return result;
    after = endCursor;
    if (!(await extendShopLease(deps.db, shop, deps.owner, leaseMs)))
      return { ...result, outcome: 'failed', error: 'lease lost (the sweep took longer than its lease)' };
  }
  return { ...result, outcome: 'failed', error: `more than ${MAX_PAGES} pages of paid orders` };
}

type EnqueueOutcome = { kind: 'stored' | 'duplicate' | 'skipped' } | { kind: 'failed'; message: string };

async function enqueueFromShopify(deps: SweepDeps, shop: string, order: ListedOrder): Promise<EnqueueOutcome> {
  const fetched = await readOrder(deps.admin, shop, order.id);
  if (!fetched.ok) return { kind: 'failed', message: `reading order ${order.id}: ${fetched.message}` };
  if (fetched.data === null) {
    deps.logger.warn({ shop, orderGid: order.id }, 'reconciliation sweep: listed order not found when read; skipped');
    return { kind: 'skipped' };
  }
  const read = invoiceOf(fetched.data.json);
  if (!read.ok) {
    deps.logger.warn({ shop, orderGid: order.id, problem: read.error }, 'reconciliation sweep: order not usable; skipped');
    return { kind: 'skipped' };
  }
  const { source } = read;
  // The document its orders/paid would have stored, through the same intake: an order a webhook stored meanwhile
  // comes back as a duplicate, no second row.
  const outcome = await deps.intake.enqueue(intakeDocument(shop, source, fetched.data.text), {
    webhookId: `sweep-${randomUUID()}`,
    eventId: undefined,
    topic: 'orders/paid',
    triggeredAt: undefined,
  });
  if (outcome === 'stored') {
    deps.logger.info(
      { shop, order: source.orderName, orderGid: source.orderGid },
      'reconciliation sweep: paid order had no invoice (webhook not received); enqueued',
    );
    deps.onStored?.();
  }
  return { kind: outcome };
}

// ── the per-shop lease ──

/** Take the shop's sweep lease if nobody holds it and (with minIntervalMs) nobody swept it that recently. */
async function claimShopLease(db: Db, shop: string, owner: string, leaseMs: number, minIntervalMs: number): Promise<boolean> {
  const claimed = await db
    .insert(reconcileSweeps)
    .values({ shop, leaseOwner: owner, leaseUntil: sql`now() + ${leaseMs} * interval '1 millisecond'`, lastStartedAt: sql`now()` })
    .onConflictDoUpdate({
      target: reconcileSweeps.shop,
      set: { leaseOwner: owner, leaseUntil: sql`now() + ${leaseMs} * interval '1 millisecond'`, lastStartedAt: sql`now()` },
      setWhere: sql`(${reconcileSweeps.leaseUntil} is null or ${reconcileSweeps.leaseUntil} <= now())
        and (${reconcileSweeps.lastStartedAt} is null or ${reconcileSweeps.lastStartedAt} <= now() - ${minIntervalMs} * interval '1 millisecond')`,
    })
    .returning({ shop: reconcileSweeps.shop });
  return claimed.length === 1;
}

async function extendShopLease(db: Db, shop: string, owner: string, leaseMs: number): Promise<boolean> {
  const rows = await db
    .update(reconcileSweeps)
    .set({ leaseUntil: sql`now() + ${leaseMs} * interval '1 millisecond'` })
    .where(and(eq(reconcileSweeps.shop, shop), eq(reconcileSweeps.leaseOwner, owner)))
    .returning({ shop: reconcileSweeps.shop });
  return rows.length === 1;
}

async function releaseShopLease(db: Db, shop: string, owner: string, result: ShopSweepResult): Promise<void> {
  await db
    .update(reconcileSweeps)
    .set({ leaseOwner: null, leaseUntil: null, lastFinishedAt: sql`now()`, lastEnqueued: result.enqueued, lastError: result.error ?? null })
    .where(and(eq(reconcileSweeps.shop, shop), eq(reconcileSweeps.leaseOwner, owner)));
}

function errorText(error: unknown): string {
  // First line only: database errors carry query parameters after it.
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.name).slice(0, 300) : 'unknown error';
}

// ── in-process scheduling ──

/**
 * Runs the sweep every `intervalMs` (timer unref'd, first run one interval after start) and on demand;
 * one sweep at a time in this process: a request while one runs gets that run's result.
 */
export class ReconcileSweeper {
  private readonly deps: SweepDeps;
  private readonly intervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SweepSummary> | undefined;

  constructor(deps: SweepDeps, options: { intervalMs: number }) {
    this.deps = deps;
    this.intervalMs = options.intervalMs;
  }

  start(): void {
    if (this.timer || this.intervalMs <= 0) return;
    this.timer = setInterval(() => {
      // Timer runs skip shops another process swept within most of the interval (timers drift a little).
      this.runOnce({ minIntervalMs: Math.floor(this.intervalMs * 0.9) }).catch((error: unknown) =>
        this.deps.logger.error({ err: error }, 'reconciliation sweep failed'),
      );
    }, this.intervalMs);
    this.timer.unref();
  }

  runOnce(options: SweepOptions = {}): Promise<SweepSummary> {
    if (this.running) return this.running;
    const run = runSweepOnce(this.deps, options).finally(() => {
      this.running = undefined;
    });
    this.running = run;
    return run;
  }

  /** Stop the timer and wait for a sweep in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }
}
