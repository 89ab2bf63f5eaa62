// Fairness between shops: 100 shops on one app. One has a flash sale and sends 5,000 paid orders at once; while its
// queue drains, each of the other 99 receives 5 orders at moments drawn over the drain (seeded, the same every run).
// The claim gives every shop with due work its turn before the flooding shop gets more, so the small shops' invoices
// should not wait behind the 5,000; and the flooding shop should still get the gateway's capacity the others leave.
// The per-shop limit (WORKER_SHOP_CONCURRENCY) is as large as the worker, so only the claim's order protects them.
//   npm run bench -- fairness
import { mulberry32 } from '../src/seeded-random.ts';
import type { BenchRow } from './bench-table.ts';
import { findPostgres, int, orderIdBase, percentile } from './bench-support.ts';
import type { Delivery } from './pipeline-run.ts';
import { CALLS_PER_INVOICE, CONCURRENCY, LATENCY_MS, MAX_SECONDS, gatewayLimit, runPipeline, timesToInvoice } from './pipeline-run.ts';

const FLOOD_SHOP = 'tienda-venta-flash.myshopify.com';
const FLOOD_ORDERS = 5_000;
const SMALL_SHOPS = Array.from({ length: 99 }, (_, i) => `tienda-${String(i + 1).padStart(2, '0')}.myshopify.com`);
const SMALL_ORDERS = 5;
/** The small shops' orders arrive from this moment to the end of the window: while the flood drains. */
const SMALL_FROM_MS = 2_000;
const SMALL_WINDOW_MS = 100_000;
const SMALL_P99_TARGET_MS = 5_000;
const FLOOD_SHARE_TARGET = 0.9;

function plan(): Delivery[] {
  const base = orderIdBase(910);
  const random = mulberry32(18);
  const flood = Array.from({ length: FLOOD_ORDERS }, (_, i) => ({ shop: FLOOD_SHOP, orderId: base + i }));
  const small = SMALL_SHOPS.flatMap((shop, s) =>
    Array.from({ length: SMALL_ORDERS }, (_, i) => ({
      shop,
      orderId: base + FLOOD_ORDERS + s * SMALL_ORDERS + i,
      atMs: SMALL_FROM_MS + Math.floor(random() * SMALL_WINDOW_MS),
    })),
  );
  return [...flood, ...small];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function run(): Promise<BenchRow[]> {
  const postgresUrl = await findPostgres();
  const storage = postgresUrl ? 'PostgreSQL' : 'PGlite';
  const limit = gatewayLimit(CONCURRENCY);
  console.log(
    `fairness: ${int(FLOOD_ORDERS)} orders of one shop at once, ${SMALL_ORDERS} of each of ${SMALL_SHOPS.length} others over ` +
      `${SMALL_WINDOW_MS / 1000} s, on ${storage}; gateway ${LATENCY_MS} ms, concurrency ${CONCURRENCY}: limit ${int(limit)} invoices/s`,
  );
  const deliveries = plan();
  const r = await runPipeline({
    postgresUrl,
    shops: [FLOOD_SHOP, ...SMALL_SHOPS],
    deliveries,
    concurrency: CONCURRENCY,
    maxSeconds: MAX_SECONDS,
  });
  const complete = r.done === deliveries.length;

  const small = r.invoices.filter((i) => i.shop !== FLOOD_SHOP);
  const flood = r.invoices.filter((i) => i.shop === FLOOD_SHOP);
  const waits = timesToInvoice(small);
  const smallP99 = percentile(waits, 99);
  // The flooding shop's drain: from its first order received to its last invoice written back.
  const floodStart = Math.min(...flood.map((i) => i.receivedAt));
  const floodEnd = Math.max(...flood.map((i) => i.writtenBackAt));
  const floodSeconds = (floodEnd - floodStart) / 1000;
  const floodRate = flood.length / floodSeconds;
  // What the others took of the gateway meanwhile; the rest was the flooding shop's to use.
  const othersMeanwhile = small.filter((i) => i.writtenBackAt <= floodEnd).length / floodSeconds;
  const leftToFlood = limit - othersMeanwhile;
  const gatewayShare = (floodRate + othersMeanwhile) / limit;
  // What the machine gave: an invoice's gateway calls against their nominal time, and the app's CPU per invoice.
  const machine =
    `an invoice's calls took ${Math.round(r.gateway.perInvoice)} ms (nominal ${CALLS_PER_INVOICE * LATENCY_MS} ms), ` +
    `app CPU ${r.cpu.app === undefined ? 'n/a' : `${(r.cpu.app / r.done).toFixed(1)} ms`} per invoice`;
  console.log(
    `  small shops: time to invoice p50 ${seconds(percentile(waits, 50))}, p99 ${seconds(smallP99)}, max ${seconds(Math.max(...waits))}; ` +
      `flooding shop: ${int(flood.length)} in ${floodSeconds.toFixed(1)} s = ${floodRate.toFixed(1)}/s; ${machine}`,
  );
  return [
    {
      row: `fairness (${storage}): ${SMALL_SHOPS.length} shops beside a flash sale, time to invoice`,
      figure: complete
        ? `p50 ${seconds(percentile(waits, 50))}, p99 ${seconds(smallP99)} (${int(waits.length)} invoices of ${SMALL_SHOPS.length} shops)`
        : `STOPPED after ${r.seconds.toFixed(0)} s with ${int(r.done)} of ${int(deliveries.length)} written back`,
      baseline: `${SMALL_ORDERS} orders each over ${SMALL_WINDOW_MS / 1000} s while one shop drains ${int(FLOOD_ORDERS)}; target p99 < ${seconds(SMALL_P99_TARGET_MS)} at a ${LATENCY_MS} ms gateway`,
      result: `${(smallP99 / SMALL_P99_TARGET_MS).toFixed(2)}× target`,
      pass: complete && smallP99 < SMALL_P99_TARGET_MS,
    },
    {
      row: `fairness (${storage}): the flooding shop's drain`,
      figure: `${int(flood.length)} invoices in ${floodSeconds.toFixed(1)} s = ${floodRate.toFixed(1)}/s, ${((floodRate / limit) * 100).toFixed(1)} % of the limit`,
      baseline:
        `limit ${int(limit)}/s (${CONCURRENCY} ÷ (${CALLS_PER_INVOICE} calls × ${LATENCY_MS} ms)); the other shops took ${othersMeanwhile.toFixed(1)}/s meanwhile, ` +
        `leaving ${leftToFlood.toFixed(1)}/s; target ≥ ${FLOOD_SHARE_TARGET * 100} % of what they left`,
      result:
        `${((floodRate / leftToFlood) * 100).toFixed(1)} % of what the others left; the gateway ran at ${(gatewayShare * 100).toFixed(1)} % of its limit; ` +
        `${int(r.issued)} documents issued for ${int(r.done)} invoices; ${machine}`,
      pass: complete && floodRate >= FLOOD_SHARE_TARGET * leftToFlood && r.issued === r.done,
    },
  ];
}
