// End to end: 10,000 paid orders delivered as fast as a burst from Shopify, through the app (its own process,
// file-backed PGlite, as deployed by default) and the sandbox gateway (its own process, 200 ms per answer),
// from the first delivery to the last invoice written back to the order's metafields.
//
// The limit: each invoice makes two gateway calls in sequence (SendDocument, then DownloadPDF), each taking
// the gateway's latency, and the app keeps at most GATEWAY_CONCURRENCY calls in flight; so no design with
// that many calls in flight can do better than concurrency ÷ (2 × latency) invoices per second. The worker
// holds twice as many invoices as gateway slots, so their database and Shopify work overlaps the calls.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type DatabaseTarget, openDatabase } from '../src/db/database.ts';
import { gatewayCalls } from '../src/db/schema.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN } from '../src/sandbox/sandbox-gateway.ts';
import { startStoreSimulator } from '../src/shopify/store-simulator/store-simulator.ts';
import { spawnApp } from '../test/support/app-process.ts';
import { createFreshPostgresDatabase } from '../test/support/databases.ts';
import { freePort } from '../test/support/harness.ts';
import type { BenchRow } from './bench-table.ts';
import {
  BENCH_API_KEY,
  BENCH_API_SECRET,
  cpuMs,
  currentRss,
  findPostgres,
  int,
  mib,
  orderIdBase,
  paidOrder,
  peakRss,
  seedShop,
  sleep,
  startSandboxProcess,
  tempDir,
} from './bench-support.ts';

const SHOP = 'tienda-e2e.myshopify.com';
const ORDERS = 10_000;
const LATENCY_MS = 200;
const CALLS_PER_INVOICE = 2;
/** Gateway calls in flight at once (GATEWAY_CONCURRENCY); the worker holds twice as many invoices, all for the one shop. */
const CONCURRENCY = 16;
/** Deliveries in flight at once, like Shopify's burst. */
const DELIVERY_CONNECTIONS = 50;
const TARGET_SHARE = 0.9;
/** Longest the run may take before it stops and reports what it has. */
const MAX_SECONDS = 420;
const RSS_LIMIT = 300 * 2 ** 20;
const METAFIELD_KEYS = 6;

export interface E2eResult {
  seconds: number;
  intakeSeconds: number;
  drainSeconds: number;
  perSecond: number;
  /** Invoices written back (all of them unless the run hit MAX_SECONDS). */
  done: number;
  limit: number;
  rss: number | undefined;
  sendDocuments: number;
  /** Gateway calls as the app timed them. */
  gateway: GatewayTimes;
  /** Documents the gateway issued: one per invoice written back, or some invoice was issued twice. */
  issued: number;
  non200: number;
  cpu: { app?: number; sandbox?: number; bench: number };
}

export async function run(): Promise<BenchRow[]> {
  const postgresUrl = await findPostgres();
  const storage = postgresUrl ? 'PostgreSQL' : 'PGlite';
  const limit = CONCURRENCY / (CALLS_PER_INVOICE * (LATENCY_MS / 1000));
  console.log(
    `e2e: ${int(ORDERS)} orders on ${storage}, gateway latency ${LATENCY_MS} ms, gateway concurrency ${CONCURRENCY}: ` +
      `limit ${CONCURRENCY} ÷ (${CALLS_PER_INVOICE} calls × ${LATENCY_MS / 1000} s) = ${int(limit)} invoices/s`,
  );
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
  const pglite = await pgliteAppMemory();
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
      row: 'app memory on PGlite',
      figure: `just started on a file-backed PGlite: RSS ${mib(pglite.rss)}, peak ${mib(pglite.peak)}`,
      baseline: `target peak RSS < ${mib(RSS_LIMIT)} (the embedded database lives in the app's process)`,
      result: 'informational',
    },
  ];
}

interface GatewayTimes {
  /** Mean time an invoice spent waiting on gateway calls (all its calls). */
  perInvoice: number;
  /** One call's duration as the app timed it: median and 99th percentile. */
  p50: number;
  p99: number;
}

async function gatewayTimes(target: DatabaseTarget): Promise<GatewayTimes> {
  const database = await openDatabase(target);
  try {
    const [row] = await database.db
      .select({
        total: sql<number>`coalesce(sum(${gatewayCalls.durationMs}), 0)::float8`,
        invoices: sql<number>`count(distinct ${gatewayCalls.documentId})::int`,
        p50: sql<number>`percentile_cont(0.5) within group (order by ${gatewayCalls.durationMs})::float8`,
        p99: sql<number>`percentile_cont(0.99) within group (order by ${gatewayCalls.durationMs})::float8`,
      })
      .from(gatewayCalls);
    if (!row || row.invoices === 0) return { perInvoice: Number.NaN, p50: Number.NaN, p99: Number.NaN };
    return { perInvoice: row.total / row.invoices, p50: row.p50, p99: row.p99 };
  } finally {
    await database.close();
  }
}

/** Resident memory of the app on PGlite right after start-up (an existing data directory, as after the first run). */
async function pgliteAppMemory(): Promise<{ rss: number | undefined; peak: number | undefined }> {
  const tmp = tempDir('fe-bench-rss-');
  let app: ReturnType<typeof spawnApp> | undefined;
  try {
    const seedDb = await openDatabase({ kind: 'pglite', dataDir: path.join(tmp.dir, 'pglite') });
    await seedShop(seedDb, randomBytes(32), SHOP);
    await seedDb.close();
    const port = await freePort();
    app = spawnApp({
      NODE_ENV: 'development',
      PORT: String(port),
      BIND_ADDRESS: '127.0.0.1',
      DATA_DIR: tmp.dir,
      SHOPIFY_API_KEY: BENCH_API_KEY,
      SHOPIFY_API_SECRET: BENCH_API_SECRET,
      SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
      GATEWAY_BASE_URL: 'http://127.0.0.1:9',
      GATEWAY_AUTH_TOKEN: 'unused',
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    });
    await app.ready;
    await sleep(1000);
    return { rss: currentRss(app.child.pid!), peak: peakRss(app.child.pid!) };
  } finally {
    await app?.kill('SIGTERM');
    tmp.remove();
  }
}

/** One run; `orders` and `concurrency` are parameters so a shorter run can be tried by hand. */
export async function measure(
  postgresUrl: string | undefined,
  orders = ORDERS,
  concurrency = CONCURRENCY,
  extraEnv: Record<string, string> = {},
): Promise<E2eResult> {
  const limit = concurrency / (CALLS_PER_INVOICE * (LATENCY_MS / 1000));
  const tmp = tempDir('fe-bench-e2e-');
  const fresh = postgresUrl ? await createFreshPostgresDatabase(postgresUrl) : undefined;
  const sandbox = await startSandboxProcess({ latencyMs: LATENCY_MS, seed: 7 });
  const simulator = await startStoreSimulator({ apiKey: BENCH_API_KEY, apiSecret: BENCH_API_SECRET });
  const key = randomBytes(32);
  let app: ReturnType<typeof spawnApp> | undefined;
  try {
    // PGlite's data directory holds one process at a time: seed, close, then start the app on it.
    const seedDb = fresh
      ? await openDatabase({ kind: 'postgres', url: fresh.url })
      : await openDatabase({ kind: 'pglite', dataDir: path.join(tmp.dir, 'pglite') });
    await seedShop(seedDb, key, SHOP, simulator.addShop(SHOP).accessToken);
    await seedDb.close();

    const port = await freePort();
    app = spawnApp({
      // Development only because the Admin API is the simulator (production refuses that); same code path.
      NODE_ENV: 'development',
      SHOPIFY_ADMIN_API_ORIGIN: simulator.origin,
      PORT: String(port),
      BIND_ADDRESS: '127.0.0.1',
      DATA_DIR: tmp.dir,
      ...(fresh ? { DATABASE_URL: fresh.url } : {}),
      SHOPIFY_API_KEY: BENCH_API_KEY,
      SHOPIFY_API_SECRET: BENCH_API_SECRET,
      SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
      GATEWAY_BASE_URL: sandbox.url,
      GATEWAY_AUTH_TOKEN: DEFAULT_SANDBOX_AUTH_TOKEN,
      ENCRYPTION_KEY: key.toString('hex'),
      GATEWAY_CONCURRENCY: String(concurrency),
      WORKER_CONCURRENCY: String(2 * concurrency),
      WORKER_SHOP_CONCURRENCY: String(2 * concurrency),
      GATEWAY_TIMEOUT_MS: '10000',
      ...extraEnv,
    });
    await app.ready;
    const pid = app.child.pid!;
    const address = `http://127.0.0.1:${port}/webhooks/orders/paid`;
    const base = orderIdBase(900);
    const ids = Array.from({ length: orders }, (_, i) => base + i);
    const bodies = ids.map((id) => paidOrder(id));

    const cpu0 = { app: cpuMs(pid), sandbox: cpuMs(sandbox.pid), bench: process.cpuUsage() };
    const started = performance.now();
    let non200 = 0;
    let next = 0;
    const delivering = Promise.all(
      Array.from({ length: DELIVERY_CONNECTIONS }, async () => {
        while (next < orders) {
          const i = next++;
          const result = await simulator.orderPaid(SHOP, bodies[i]!, address);
          if (result.status !== 200) non200++;
        }
      }),
    ).then(() => performance.now());

    const pending = new Set(ids.map((id) => `gid://shopify/Order/${id}`));
    let lastReport = started;
    while (pending.size > 0) {
      await sleep(100);
      for (const gid of pending) if (simulator.metafields(gid, SHOP).length === METAFIELD_KEYS) pending.delete(gid);
      const now = performance.now();
      if (now - lastReport > 10_000) {
        lastReport = now;
        const done = orders - pending.size;
        console.log(
          `  ${((now - started) / 1000).toFixed(0)} s: ${int(done)} written back (${(done / ((now - started) / 1000)).toFixed(1)}/s, limit ${int(limit)}/s)`,
        );
      }
      // The bench must end: past the cap the rate so far is the figure, marked as stopped.
      if (now - started > MAX_SECONDS * 1000) break;
    }
    const finished = performance.now();
    const intakeDone = await delivering;
    const done = orders - pending.size;
    const benchCpu = process.cpuUsage(cpu0.bench);
    const appCpu = cpuMs(pid);
    const sandboxCpu = cpuMs(sandbox.pid);
    const rss = peakRss(pid);
    const stats = (await (await fetch(`${sandbox.url}/_sandbox/stats`)).json()) as { requests: { SendDocument: number }; issued: number };
    const seconds = (finished - started) / 1000;
    // The gateway calls as the app timed them, read after it stops (PGlite admits one process at a time).
    await app.kill('SIGTERM');
    app = undefined;
    const gateway = await gatewayTimes(
      fresh ? { kind: 'postgres', url: fresh.url } : { kind: 'pglite', dataDir: path.join(tmp.dir, 'pglite') },
    );
    return {
      gateway,
      seconds,
      intakeSeconds: (intakeDone - started) / 1000,
      drainSeconds: (finished - intakeDone) / 1000,
      perSecond: done / seconds,
      done,
      limit,
      rss,
      sendDocuments: stats.requests.SendDocument,
      issued: stats.issued,
      non200,
      cpu: {
        ...(appCpu !== undefined && cpu0.app !== undefined ? { app: appCpu - cpu0.app } : {}),
        ...(sandboxCpu !== undefined && cpu0.sandbox !== undefined ? { sandbox: sandboxCpu - cpu0.sandbox } : {}),
        bench: (benchCpu.user + benchCpu.system) / 1000,
      },
    };
  } finally {
    await app?.kill('SIGTERM');
    await simulator.close();
    await sandbox.stop();
    await fresh?.drop();
    tmp.remove();
  }
}
