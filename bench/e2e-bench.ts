// End to end: 10,000 paid orders delivered as fast as a burst from Shopify, through the app (its own process) and
// the sandbox gateway (its own process, 200 ms per answer), from the first delivery to the last invoice written back
// to the order's metafields: the gateway works at its limit throughout (bench/pipeline-run.ts says why that limit).
// Then 1,500 orders sent at half the limit, as they come on a busy day: what a merchant watching an order waits.
// Both report time to invoice (webhook received → metafields written), p50 and p99.
// Then the app's memory on PGlite, the embedded default: at start, through an intake run, through the same
// 10,000-order burst (run again on PGlite when the runs above were on PostgreSQL).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { openDatabase } from '../src/db/database.ts';
import type { BenchRow } from './bench-table.ts';
import {
  type BenchAppProcess,
  INTAKE_LOAD,
  currentRss,
  findPostgres,
  int,
  intakeLoad,
  mib,
  ms,
  orderIdBase,
  peakRss,
  percentile,
  seedShop,
  sleep,
  spawnBenchApp,
  tempDir,
} from './bench-support.ts';
import type { LoadResult } from './load-generator.ts';
import type { RunResult } from './pipeline-run.ts';
import { CALLS_PER_INVOICE, CONCURRENCY, LATENCY_MS, MAX_SECONDS, TARGET_SHARE } from './pipeline-run.ts';
import { announceRun, gatewayLimit, runPipeline, timesToInvoice } from './pipeline-run.ts';

const SHOP = 'tienda-e2e.myshopify.com';
const ORDERS = 10_000;
/** The run at half the gateway's limit: orders sent at this share of it, open loop (as Shopify sends events). */
const PACED_SHARE = 0.5;
const PACED_ORDERS = 1_500;
/** A merchant watching an order at half the limit: invoiced within a few seconds. */
const PACED_P99_TARGET_MS = 5_000;
/** MAX_SECONDS for the run on PGlite (for its memory): below the gateway's limit on a busy 2-core machine (about 20/s). */
const MAX_SECONDS_PGLITE = 900;
const RSS_LIMIT = 300 * 2 ** 20;

export interface E2eResult extends RunResult {
  perSecond: number;
  limit: number;
  /** Time to invoice (webhook received → metafields written) of the invoices written back, ms. */
  toInvoice: { p50: number; p99: number };
}

export async function run(): Promise<BenchRow[]> {
  const postgresUrl = await findPostgres();
  const storage = postgresUrl ? 'PostgreSQL' : 'PGlite';
  const limit = gatewayLimit(CONCURRENCY);
  announceRun('e2e', `${int(ORDERS)} orders`, storage, CONCURRENCY);
  const r = await measure(postgresUrl);
  const perInvoice = (ms: number | undefined) => (ms === undefined ? 'n/a' : `${(ms / r.done).toFixed(1)} ms`);
  const cpu = `CPU per invoice: app ${perInvoice(r.cpu.app)}, sandbox gateway ${perInvoice(r.cpu.sandbox)}, store simulator + bench ${perInvoice(r.cpu.bench)}`;
  console.log(cpu);
  const complete = r.done === ORDERS;
  // Little's law: calls in flight on average = invoices/s × gateway time per invoice; out of CONCURRENCY slots.
  const busy = (r.perSecond * (r.gateway.perInvoice / 1000)) / CONCURRENCY;
  const timeSplit =
    `gateway slots busy ${(busy * 100).toFixed(0)} % of the run; an invoice's calls took ${Math.round(r.gateway.perInvoice)} ms ` +
    `(nominal ${CALLS_PER_INVOICE * LATENCY_MS} ms; one call p50 ${Math.round(r.gateway.p50)} ms, p99 ${Math.round(r.gateway.p99)} ms)`;
  console.log(timeSplit);

  const rate = PACED_SHARE * limit;
  console.log(`e2e: ${int(PACED_ORDERS)} orders sent at ${int(rate)}/s (${PACED_SHARE * 100} % of the limit)`);
  const paced = await measure(postgresUrl, PACED_ORDERS, CONCURRENCY, {}, rate);
  const pacedComplete = paced.done === PACED_ORDERS;
  if (postgresUrl) console.log(`e2e: ${int(ORDERS)} orders on PGlite, for the app's memory`);
  const onPglite = postgresUrl ? await measure(undefined, ORDERS, CONCURRENCY, {}, undefined, MAX_SECONDS_PGLITE) : r;
  const pgliteComplete = onPglite.done === ORDERS && onPglite.issued === onPglite.done && onPglite.non200 === 0;
  console.log('e2e: the app on PGlite, just started and through an intake run');
  const pglite = await pgliteAppMemory();
  const intakeClean = pglite.intake.non2xx + pglite.intake.errors + pglite.intake.timeouts === 0;
  const peaks = [pglite.peak, onPglite.rss];
  const peak = peaks.every((p) => p !== undefined) ? Math.max(...(peaks as number[])) : undefined;
  return [
    {
      row: `end to end (${storage}): invoices/s`,
      figure: complete
        ? `${r.perSecond.toFixed(1)} invoices/s (${int(ORDERS)} in ${r.seconds.toFixed(1)} s)`
        : `${r.perSecond.toFixed(1)} invoices/s; STOPPED after ${r.seconds.toFixed(0)} s with ${int(r.done)} of ${int(ORDERS)} written back`,
      baseline: `limit ${int(r.limit)}/s = gateway concurrency ${CONCURRENCY} ÷ (${CALLS_PER_INVOICE} gateway calls per invoice × ${LATENCY_MS} ms); target ≥ ${TARGET_SHARE * 100} %`,
      result: `${((r.perSecond / r.limit) * 100).toFixed(1)} % of limit; ${timeSplit}; ${cpu}`,
      pass: complete && r.perSecond >= TARGET_SHARE * r.limit,
    },
    {
      row: `end to end (${storage}): drain, RSS`,
      figure: `intake of ${int(ORDERS)} deliveries done in ${r.intakeSeconds.toFixed(1)} s (${r.non200} not 200), drained ${r.drainSeconds.toFixed(1)} s later; app peak RSS ${mib(r.rss)}`,
      baseline: `target peak RSS < ${mib(RSS_LIMIT)}`,
      result: `${int(r.issued)} documents issued for ${int(r.done)} invoices written back (+ in flight); ${int(r.sendDocuments - r.issued)} SendDocument repeated after a time-out`,
      pass: complete && r.rss !== undefined && r.rss < RSS_LIMIT && r.non200 === 0 && r.issued === r.done,
    },
    {
      row: `end to end (${storage}): time to invoice, burst at 100 % of the limit`,
      figure: `p50 ${seconds(r.toInvoice.p50)}, p99 ${seconds(r.toInvoice.p99)} (${int(r.invoices.length)} invoices)`,
      baseline: `webhook received → metafields written, ${int(ORDERS)} orders delivered in ${r.intakeSeconds.toFixed(0)} s and drained at the limit`,
      result: `informational: a burst waits its turn (the last invoice comes after ${int(ORDERS)} ÷ ${int(limit)}/s = ${int(ORDERS / limit)} s)`,
    },
    {
      row: `end to end (${storage}): time to invoice at ${PACED_SHARE * 100} % of the limit`,
      figure: pacedComplete
        ? `p50 ${seconds(paced.toInvoice.p50)}, p99 ${seconds(paced.toInvoice.p99)} (${int(paced.invoices.length)} orders sent at ${int(rate)}/s)`
        : `STOPPED after ${paced.seconds.toFixed(0)} s with ${int(paced.done)} of ${int(PACED_ORDERS)} written back`,
      baseline: `webhook received → metafields written; nominal ${ms(CALLS_PER_INVOICE * LATENCY_MS)} of gateway calls; target p99 < ${seconds(PACED_P99_TARGET_MS)}`,
      result: `${(paced.toInvoice.p99 / PACED_P99_TARGET_MS).toFixed(2)}× target; ${paced.perSecond.toFixed(1)} invoices/s; ${int(paced.issued)} documents issued for ${int(paced.done)} invoices`,
      pass: pacedComplete && paced.toInvoice.p99 < PACED_P99_TARGET_MS && paced.issued === paced.done,
    },
    {
      row: 'app memory on PGlite',
      figure:
        `peak RSS ${mib(peak)}: just started ${mib(pglite.rss)}; through an intake run ${mib(pglite.peak)} ` +
        `(${int(pglite.intake.perSecond)} req/s for ${INTAKE_LOAD.seconds} s${intakeClean ? '' : ', NOT all 200'}); ` +
        `through ${int(ORDERS)} orders end to end ${mib(onPglite.rss)}`,
      baseline: `target peak RSS < ${mib(RSS_LIMIT)} through both runs (the embedded database lives in the app's process)`,
      result:
        `end to end on PGlite: ${int(onPglite.done)} of ${int(ORDERS)} written back in ${onPglite.seconds.toFixed(1)} s ` +
        `(${onPglite.perSecond.toFixed(1)} invoices/s, ${((onPglite.perSecond / onPglite.limit) * 100).toFixed(1)} % of limit), ` +
        `${int(onPglite.issued)} documents issued, ${onPglite.non200} not 200; ` +
        `the first start, which creates the database (PGlite's initdb), peaked at ${mib(pglite.firstStart)} (informational)`,
      pass: pgliteComplete && intakeClean && peak !== undefined && peak < RSS_LIMIT,
    },
  ];
}

/** 1.23 s */
function seconds(msValue: number): string {
  return `${(msValue / 1000).toFixed(2)} s`;
}

/**
 * The app on PGlite: its peak through its first start on an empty data directory (it creates the database: PGlite runs
 * initdb in the app's process); then, on that directory with a shop added, its resident memory right after start-up
 * and its peak through the intake bench's load (worker off, as there: only intake).
 */
async function pgliteAppMemory(): Promise<{
  firstStart: number | undefined;
  rss: number | undefined;
  peak: number | undefined;
  intake: LoadResult;
}> {
  const tmp = tempDir('fe-bench-rss-');
  const key = randomBytes(32);
  let app: BenchAppProcess | undefined;
  const start = async () => {
    app = await spawnBenchApp(tmp.dir, key, {
      GATEWAY_BASE_URL: 'http://127.0.0.1:9',
      GATEWAY_AUTH_TOKEN: 'unused',
      WORKER_ENABLED: 'false',
    });
    await app.ready;
    await sleep(1000);
    return app;
  };
  try {
    const first = await start();
    const firstStart = peakRss(first.child.pid!);
    await first.kill('SIGTERM');
    const seedDb = await openDatabase({ kind: 'pglite', dataDir: path.join(tmp.dir, 'pglite') });
    await seedShop(seedDb, key, SHOP);
    await seedDb.close();
    const started = await start();
    const rss = currentRss(started.child.pid!);
    const url = `${started.url}/webhooks/orders/paid`;
    await intakeLoad(url, SHOP, 902, INTAKE_LOAD.warmUpSeconds);
    const intake = await intakeLoad(url, SHOP, 903, INTAKE_LOAD.seconds);
    await sleep(500);
    return { firstStart, rss, peak: peakRss(started.child.pid!), intake };
  } finally {
    await app?.kill('SIGTERM');
    tmp.remove();
  }
}

/** One run; `orders`, `concurrency` and the delivery rate (undefined: a burst) are parameters so other runs can be tried. */
export async function measure(
  postgresUrl: string | undefined,
  orders = ORDERS,
  concurrency = CONCURRENCY,
  extraEnv: Record<string, string> = {},
  ratePerSecond?: number,
  maxSeconds = MAX_SECONDS,
): Promise<E2eResult> {
  const base = orderIdBase(ratePerSecond === undefined ? 900 : 901);
  const r = await runPipeline({
    postgresUrl,
    shops: [SHOP],
    deliveries: Array.from({ length: orders }, (_, i) => ({
      shop: SHOP,
      orderId: base + i,
      ...(ratePerSecond === undefined ? {} : { atMs: (i * 1000) / ratePerSecond }),
    })),
    concurrency,
    maxSeconds,
    extraEnv,
  });
  const toInvoice = timesToInvoice(r.invoices);
  return {
    ...r,
    perSecond: r.done / r.seconds,
    limit: gatewayLimit(concurrency),
    toInvoice: { p50: percentile(toInvoice, 50), p99: percentile(toInvoice, 99) },
  };
}
