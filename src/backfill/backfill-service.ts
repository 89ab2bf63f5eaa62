// What the page and the CLI ask of a backfill (docs/backfill.md): check a request before anything starts, start one
// (one running per shop), cancel it, and its progress. The reading itself is the runner's (backfill-runner.ts).
import type { Db } from '../db/database.ts';
import type { DocumentStatus } from '../db/document-state.ts';
import { backfillDocumentCounts, removeUnsentBackfillDocuments } from '../documents/store/index.ts';
import { type Message, message } from '../messages/message.ts';
import { panamaDate } from '../reports/report-month.ts';
import type { Shop } from '../shops/shop-repository.ts';
import { ALL_ORDERS_SCOPE, type BackfillRange, RECENT_ORDER_DAYS, needsAllOrders, readBackfillRange } from './backfill-range.ts';
import { type BackfillRow, finishBackfill, insertBackfill, latestBackfill, runningBackfill } from './backfill-store.ts';

/** Why nothing starts: HTTP 400 / exit 2 for input, 409 for a state. `field`: the input it names. */
export interface BackfillRefusal {
  status: 400 | 409;
  code: string;
  field?: string;
  error: Message;
}

export type Checked = { ok: true; range: BackfillRange; shop: Shop } | { ok: false; refusal: BackfillRefusal };

export interface CheckDeps {
  shops: { get(shop: string): Promise<Shop | undefined> };
  /** The scopes the shop granted (its offline session's), or undefined when it has none. */
  grantedScopes(shop: string): Promise<string[] | undefined>;
}

/** The range read, the shop installed (and enabled to start), and read_all_orders held when the range needs it. */
export async function checkBackfill(
  deps: CheckDeps,
  shop: string,
  input: { from: unknown; to: unknown },
  now: Date,
  purpose: 'dry_run' | 'start',
): Promise<Checked> {
  const read = readBackfillRange(input.from, input.to, now);
  if (!read.ok) return { ok: false, refusal: { status: 400, code: 'bad_range', field: read.field, error: read.error } };
  const found = await deps.shops.get(shop);
  if (!found?.installed)
    return {
      ok: false,
      refusal: { status: 400, code: 'shop_not_installed', field: 'shop', error: message('backfill_shop_not_installed', { shop }) },
    };
  if (purpose === 'start' && !found.enabled)
    return { ok: false, refusal: { status: 409, code: 'shop_disabled', error: message('backfill_shop_disabled', { shop }) } };
  const scopes = await deps.grantedScopes(shop);
  if (!scopes)
    return {
      ok: false,
      refusal: { status: 400, code: 'shop_not_installed', field: 'shop', error: message('backfill_shop_not_installed', { shop }) },
    };
  if (needsAllOrders(read.range, now) && !scopes.includes(ALL_ORDERS_SCOPE)) {
    const earliest = panamaDate(new Date(now.getTime() - RECENT_ORDER_DAYS * 86_400_000 + 86_400_000));
    return {
      ok: false,
      refusal: { status: 400, code: 'needs_read_all_orders', field: 'from', error: message('backfill_needs_all_orders', { earliest }) },
    };
  }
  return { ok: true, range: read.range, shop: found };
}

export type Started = { ok: true; backfill: BackfillRow; attached: boolean } | { ok: false; refusal: BackfillRefusal };

/**
 * Start the shop's backfill of the range. The same range while one runs attaches to it (a second click, the CLI
 * started twice); another range is refused until the running one ends.
 */
export async function startBackfill(db: Db, shop: string, range: BackfillRange, expected: number | undefined): Promise<Started> {
  const started = await insertBackfill(db, { shop, from: range.from, to: range.to, expected });
  if (started) return { ok: true, backfill: started, attached: false };
  const running = await runningBackfill(db, shop);
  if (running && running.fromDay === range.from && running.toDay === range.to) return { ok: true, backfill: running, attached: true };
  const error = message('backfill_running', { from: running?.fromDay ?? '?', to: running?.toDay ?? '?' });
  return { ok: false, refusal: { status: 409, code: 'backfill_running', error } };
}

/** Stop the shop's running backfill: no more reading, and its documents that never reached the gateway removed. */
export async function cancelBackfill(
  db: Db,
  shop: string,
): Promise<{ ok: true; backfill: BackfillRow; removed: number } | { ok: false; refusal: BackfillRefusal }> {
  const running = await runningBackfill(db, shop);
  if (!running || !(await finishBackfill(db, running.id, 'cancelled')))
    return { ok: false, refusal: { status: 409, code: 'no_backfill', error: message('backfill_none_running') } };
  const removed = await removeUnsentBackfillDocuments(db, running.id);
  return { ok: true, backfill: { ...running, status: 'cancelled' }, removed };
}

export interface BackfillProgress {
  id: string;
  from: string;
  to: string;
  status: BackfillRow['status'];
  /** Every page has been read. */
  read: boolean;
  ordersRead: number;
  alreadyInvoiced: number;
  /** Documents this backfill made, and of those, settled (completed, needs attention, failed, skipped). */
  total: number;
  done: number;
  byStatus: Partial<Record<DocumentStatus, number>>;
  /** Seconds left at the pace so far; null until something settled, 0 once finished. */
  secondsLeft: number | null;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
}

const UNSETTLED: readonly DocumentStatus[] = ['pending', 'waiting'];

export async function backfillProgress(db: Db, row: BackfillRow, now: Date): Promise<BackfillProgress> {
  const byStatus = await backfillDocumentCounts(db, row.id);
  const documents = Object.values(byStatus).reduce((a, b) => a + b, 0);
  const unsettled = UNSETTLED.reduce((a, s) => a + (byStatus[s] ?? 0), 0);
  const done = documents - unsettled;
  // Until every page is read, the dry run's figure stands for what is still to come.
  const total = row.readDone || row.status !== 'running' ? documents : Math.max(row.expected ?? 0, documents);
  const elapsed = (now.getTime() - row.createdAt.getTime()) / 1000;
  const secondsLeft = row.status !== 'running' || total === done ? 0 : done > 0 ? Math.ceil(((total - done) * elapsed) / done) : null;
  return {
    id: row.id,
    from: row.fromDay,
    to: row.toDay,
    status: row.status,
    read: row.readDone,
    ordersRead: row.ordersRead,
    alreadyInvoiced: row.alreadyInvoiced,
    total,
    done,
    byStatus,
    secondsLeft,
    error: row.error,
    startedAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** Whether every document of a read backfill has settled: then it is done. */
export function settled(progress: BackfillProgress): boolean {
  return progress.read && progress.done === progress.total;
}

export { latestBackfill };
