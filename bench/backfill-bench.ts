// A backfill beside live sales (docs/backfill.md): one shop backfills 5,000 paid orders of the last 30 days while new
// orders are paid at 5 a second. The backfill should drain at the gateway's pace (at least 90 % of what the live
// orders leave of its limit), and the live orders should not wait behind it: the worker claims a shop's live
// documents before its backfilled ones, so their time to invoice stays that of a quiet shop (p99 < 5 s).
// The backfill is started on the database before the app starts (as `POST /api/backfill` would, through the same
// service); the app's worker reads the orders through the store simulator's Admin GraphQL, page by page.
//   npm run bench -- backfill
import { readBackfillRange } from '../src/backfill/backfill-range.ts';
import { startBackfill } from '../src/backfill/backfill-service.ts';
import type { BenchRow } from './bench-table.ts';
import { findPostgres, int, orderIdBase, paidOrder, percentile } from './bench-support.ts';
import type { Delivery } from './pipeline-run.ts';
import {
  CALLS_PER_INVOICE,
  CONCURRENCY,
  LATENCY_MS,
  MAX_SECONDS,
  gatewayLimit,
  runPipeline,
  timesToInvoice,
  writtenBack,
} from './pipeline-run.ts';

const SHOP = 'tienda-pedidos-anteriores.myshopify.com';
const BACKFILL_ORDERS = 5_000;
const LIVE_PER_SECOND = 5;
/** Live orders from this moment for this long: while the backfill drains. */
const LIVE_FROM_MS = 2_000;
const LIVE_WINDOW_MS = 100_000;
const LIVE_P99_TARGET_MS = 5_000;
const DRAIN_SHARE_TARGET = 0.9;
const DAY_MS = 86_400_000;
const PANAMA_OFFSET_MS = 5 * 3_600_000;

const panamaDay = (at: number) => new Date(at - PANAMA_OFFSET_MS).toISOString().slice(0, 10);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function plan(now: number) {
  const base = orderIdBase(930);
  // Paid over the 30 days before yesterday: all inside the range, none of today's live ones.
  const past: Delivery[] = Array.from({ length: BACKFILL_ORDERS }, (_, i) => ({ shop: SHOP, orderId: base + i }));
  const createdAt = (i: number) => new Date(now - 2 * DAY_MS - Math.floor((i / BACKFILL_ORDERS) * 29 * DAY_MS)).toISOString();
  const live: Delivery[] = Array.from({ length: (LIVE_WINDOW_MS / 1000) * LIVE_PER_SECOND }, (_, i) => ({
    shop: SHOP,
    orderId: base + BACKFILL_ORDERS + i,
    atMs: LIVE_FROM_MS + Math.floor((i * 1000) / LIVE_PER_SECOND),
  }));
  return { past, live, createdAt, from: panamaDay(now - 32 * DAY_MS), to: panamaDay(now - DAY_MS) };
}

export async function run(): Promise<BenchRow[]> {
  const postgresUrl = await findPostgres();
  const storage = postgresUrl ? 'PostgreSQL' : 'PGlite';
  const limit = gatewayLimit(CONCURRENCY);
  const { past, live, createdAt, from, to } = plan(Date.now());
  console.log(
    `backfill: ${int(BACKFILL_ORDERS)} past orders (${from} … ${to}) backfilled while ${LIVE_PER_SECOND} orders/s are paid for ` +
      `${LIVE_WINDOW_MS / 1000} s, on ${storage}; gateway ${LATENCY_MS} ms, concurrency ${CONCURRENCY}: limit ${int(limit)} invoices/s`,
  );
  const r = await runPipeline({
    postgresUrl,
    shops: [SHOP],
    deliveries: live,
    background: past,
    concurrency: CONCURRENCY,
    maxSeconds: MAX_SECONDS,
    traffic: {
      kind: 'invoice',
      async prepare(database, { simulator }) {
        past.forEach((d, i) => simulator.setOrder(SHOP, { ...paidOrder(d.orderId), created_at: createdAt(i) }));
        const range = readBackfillRange(from, to, new Date());
        if (!range.ok) throw new Error(`backfill bench: the range ${from} … ${to} is refused (${range.error.key})`);
        const started = await startBackfill(database.db, SHOP, range.range, BACKFILL_ORDERS);
        if (!started.ok) throw new Error(`backfill bench: the backfill did not start (${started.refusal.code})`);
      },
      body: (d) => paidOrder(d.orderId),
      send: async (simulator, appUrl, d, body) => (await simulator.orderPaid(d.shop, body, `${appUrl}/webhooks/orders/paid`)).status,
      done: writtenBack,
    },
  });
  const complete = r.done === past.length + live.length;
  const liveInvoices = r.invoices.filter((i) => !i.backfilled);
  const backfilled = r.invoices.filter((i) => i.backfilled);
  const waits = timesToInvoice(liveInvoices);
  const liveP99 = percentile(waits, 99);
  // The backfill's drain: from its first document stored to its last written back.
  const drainStart = Math.min(...backfilled.map((i) => i.receivedAt));
  const drainEnd = Math.max(...backfilled.map((i) => i.writtenBackAt));
  const drainSeconds = (drainEnd - drainStart) / 1000;
  const drainRate = backfilled.length / drainSeconds;
  const liveMeanwhile = liveInvoices.filter((i) => i.writtenBackAt <= drainEnd).length / drainSeconds;
  const leftToBackfill = limit - liveMeanwhile;
  const gatewayShare = (drainRate + liveMeanwhile) / limit;
  const machine =
    `an invoice's calls took ${Math.round(r.gateway.perInvoice)} ms (nominal ${CALLS_PER_INVOICE * LATENCY_MS} ms), ` +
    `app CPU ${r.cpu.app === undefined ? 'n/a' : `${(r.cpu.app / r.done).toFixed(1)} ms`} per invoice, ` +
    `the sandbox gateway ${r.cpu.sandbox === undefined ? 'n/a' : `${(r.cpu.sandbox / r.done).toFixed(1)} ms`}, ` +
    `the store simulator's process ${(r.cpu.bench / r.done).toFixed(1)} ms`;
  console.log(
    `  live orders: time to invoice p50 ${seconds(percentile(waits, 50))}, p99 ${seconds(liveP99)}, max ${seconds(Math.max(...waits))}; ` +
      `backfill: ${int(backfilled.length)} in ${drainSeconds.toFixed(1)} s = ${drainRate.toFixed(1)}/s; ${machine}`,
  );
  return [
    {
      row: `backfill (${storage}): live orders beside a ${int(BACKFILL_ORDERS)}-order backfill, time to invoice`,
      figure: complete
        ? `p50 ${seconds(percentile(waits, 50))}, p99 ${seconds(liveP99)} (${int(waits.length)} live invoices)`
        : `STOPPED after ${r.seconds.toFixed(0)} s with ${int(r.done)} of ${int(past.length + live.length)} written back`,
      baseline: `${LIVE_PER_SECOND} orders/s for ${LIVE_WINDOW_MS / 1000} s while the backfill drains; target p99 < ${seconds(LIVE_P99_TARGET_MS)} at a ${LATENCY_MS} ms gateway`,
      result: `${(liveP99 / LIVE_P99_TARGET_MS).toFixed(2)}× target`,
      pass: complete && liveP99 < LIVE_P99_TARGET_MS,
    },
    {
      row: `backfill (${storage}): the backfill's drain`,
      figure: `${int(backfilled.length)} invoices in ${drainSeconds.toFixed(1)} s = ${drainRate.toFixed(1)}/s, ${((drainRate / limit) * 100).toFixed(1)} % of the limit`,
      baseline:
        `limit ${int(limit)}/s (${CONCURRENCY} ÷ (${CALLS_PER_INVOICE} calls × ${LATENCY_MS} ms)); live orders took ${liveMeanwhile.toFixed(1)}/s meanwhile, ` +
        `leaving ${leftToBackfill.toFixed(1)}/s; target ≥ ${DRAIN_SHARE_TARGET * 100} % of what they left`,
      result:
        `${((drainRate / leftToBackfill) * 100).toFixed(1)} % of what the live orders left; the gateway ran at ${(gatewayShare * 100).toFixed(1)} % of its limit; ` +
        `${int(r.issued)} documents issued for ${int(r.done)} invoices; ${machine}`,
      pass: complete && drainRate >= DRAIN_SHARE_TARGET * leftToBackfill && r.issued === r.done,
    },
  ];
}
