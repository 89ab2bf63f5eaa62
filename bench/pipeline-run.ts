// One run of the whole pipeline, for the end-to-end and fairness benches: the app in its own process (file-backed
// PGlite as deployed by default, or a fresh PostgreSQL database), the sandbox gateway in its own (200 ms per answer),
// the store simulator in this one; paid orders delivered as the plan says (a burst as fast as Shopify sends one, or
// each at its moment), until every invoice is written back to its order's metafields. Then, from the database: each
// invoice's time to invoice (webhook received → metafields written) and the gateway calls as the app timed them.
// Another traffic (refunds for the notes bench) may take the place of paid orders: what is delivered, how it is
// prepared and when it is done; the rest of the run is the same.
//
// The limit: each invoice makes two gateway calls in sequence (SendDocument, then DownloadPDF), each taking the
// gateway's latency, and the app keeps at most GATEWAY_CONCURRENCY calls in flight; so no design with that many calls
// in flight can do better than concurrency ÷ (2 × latency) invoices per second. The worker holds twice as many
// invoices as gateway slots, so their database and Shopify work overlaps the calls.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type Database, type DatabaseTarget, openDatabase, rowsOf } from '../src/db/database.ts';
import { documents, gatewayCalls } from '../src/db/schema.ts';
import type { DocumentKind } from '../src/db/document-state.ts';
import { INVOICE_METAFIELD_TYPES } from '../src/shopify/metafield-writer.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN } from '../sim/sandbox/sandbox-gateway.ts';
import { type StoreSimulator, startStoreSimulator } from '../sim/store-simulator/store-simulator.ts';
import { createFreshPostgresDatabase } from '../sim/harness/databases.ts';
import {
  BENCH_API_KEY,
  BENCH_API_SECRET,
  BENCH_SCOPES,
  type BenchAppProcess,
  cpuMs,
  int,
  paidOrder,
  peakRss,
  seedShop,
  sleep,
  spawnBenchApp,
  startSandboxProcess,
  tempDir,
} from './bench-support.ts';

export const LATENCY_MS = 200;
export const CALLS_PER_INVOICE = 2;
/** The gateway concurrency the e2e, notes and fairness benches run at (RunPlan.concurrency). */
export const CONCURRENCY = 16;
/** Their target for a burst: documents per second at least this share of the gateway's limit. */
export const TARGET_SHARE = 0.9;
/** Longest one of their runs may take before it stops and reports what it has. */
export const MAX_SECONDS = 420;
/** Deliveries of a burst in flight at once, like Shopify's. */
const BURST_CONNECTIONS = 50;

/** Invoices per second the gateway allows with `concurrency` calls in flight. */
export function gatewayLimit(concurrency: number): number {
  return concurrency / (CALLS_PER_INVOICE * (LATENCY_MS / 1000));
}

/** A run's first line: how many of what on which database, and the gateway's limit it is measured against. */
export function announceRun(row: string, what: string, storage: string, concurrency: number): void {
  const limit = gatewayLimit(concurrency);
  console.log(
    `${row}: ${what} on ${storage}, gateway latency ${LATENCY_MS} ms, gateway concurrency ${concurrency}: ` +
      `limit ${concurrency} ÷ (${CALLS_PER_INVOICE} calls × ${LATENCY_MS / 1000} s) = ${Math.round(limit).toLocaleString('en-US')}/s`,
  );
}

export interface Delivery {
  shop: string;
  orderId: number;
  /** When to send it, in ms after the start; without it, in the burst (as fast as its connections go). */
  atMs?: number;
}

/** What a run delivers, how the world is prepared for it, and when a delivery's document is written back. */
export interface Traffic {
  /** The documents the run measures (time to invoice and gateway calls are theirs). */
  kind: DocumentKind;
  /**
   * Before the app starts, after the shops are seeded: on the app's database (closed afterwards), with Shopify and the
   * gateway (its URL) and the key the app's secrets are sealed with. Not timed.
   */
  prepare?(database: Database, world: { simulator: StoreSimulator; gatewayUrl: string; key: Buffer }): Promise<void>;
  /** The body of one delivery, built before the clock starts. */
  body(d: Delivery): Record<string, unknown>;
  /** Deliver it to the app; the answer's HTTP status. */
  send(simulator: StoreSimulator, appUrl: string, d: Delivery, body: Record<string, unknown>): Promise<number>;
  /** Whether the delivery's document is written back to its order. */
  done(simulator: StoreSimulator, d: Delivery): boolean;
}

/** Whether the order's invoice is written back: all its metafields, set in one metafieldsSet. */
export function writtenBack(simulator: StoreSimulator, d: Delivery): boolean {
  return simulator.metafields(`gid://shopify/Order/${d.orderId}`, d.shop).length === Object.keys(INVOICE_METAFIELD_TYPES).length;
}

/** Paid orders: each invoiced and its metafields written. */
export const PAID_ORDERS: Traffic = {
  kind: 'invoice',
  body: (d) => paidOrder(d.orderId),
  send: async (simulator, appUrl, d, body) => (await simulator.orderPaid(d.shop, body, `${appUrl}/webhooks/orders/paid`)).status,
  done: writtenBack,
};

export interface RunPlan {
  /** A PostgreSQL server for a fresh database; undefined: file-backed PGlite. */
  postgresUrl: string | undefined;
  shops: readonly string[];
  deliveries: readonly Delivery[];
  /** GATEWAY_CONCURRENCY; the worker holds twice as many documents, and so may one shop. */
  concurrency: number;
  /** Longest the run may take before it stops and reports what it has. */
  maxSeconds: number;
  extraEnv?: Record<string, string>;
  /** Default PAID_ORDERS. */
  traffic?: Traffic;
  /** Orders that reach the app another way (a backfill `prepare` started): never delivered, waited for like deliveries. */
  background?: readonly Delivery[];
}

export interface GatewayTimes {
  /** Mean time an invoice spent waiting on gateway calls (all its calls). */
  perInvoice: number;
  /** One call's duration as the app timed it: median and 99th percentile. */
  p50: number;
  p99: number;
}

/** An invoice written back: its shop and its times (ms since the epoch, the database's clock). */
export interface InvoiceTimes {
  shop: string;
  receivedAt: number;
  writtenBackAt: number;
  /** Brought by a backfill (docs/backfill.md), not by a webhook. */
  backfilled: boolean;
}

export interface RunResult {
  seconds: number;
  intakeSeconds: number;
  drainSeconds: number;
  /** Invoices written back (all of them unless the run hit maxSeconds). */
  done: number;
  non200: number;
  rss: number | undefined;
  sendDocuments: number;
  /** Documents the gateway issued: one per invoice written back, or some invoice was issued twice. */
  issued: number;
  gateway: GatewayTimes;
  invoices: InvoiceTimes[];
  cpu: { app?: number; sandbox?: number; bench: number };
}

/** Time to invoice of each of these invoices, in ms. */
export function timesToInvoice(invoices: readonly InvoiceTimes[]): number[] {
  return invoices.map((i) => i.writtenBackAt - i.receivedAt);
}

export async function runPipeline(plan: RunPlan): Promise<RunResult> {
  const traffic = plan.traffic ?? PAID_ORDERS;
  const tmp = tempDir('fe-bench-e2e-');
  const fresh = plan.postgresUrl ? await createFreshPostgresDatabase(plan.postgresUrl) : undefined;
  const target: DatabaseTarget = fresh ? { kind: 'postgres', url: fresh.url } : { kind: 'pglite', dataDir: path.join(tmp.dir, 'pglite') };
  const sandbox = await startSandboxProcess({ latencyMs: LATENCY_MS, seed: 7 });
  const simulator = await startStoreSimulator({ apiKey: BENCH_API_KEY, apiSecret: BENCH_API_SECRET });
  const key = randomBytes(32);
  let app: BenchAppProcess | undefined;
  try {
    // PGlite's data directory holds one process at a time: seed, close, then start the app on it.
    const seedDb = await openDatabase(target);
    for (const shop of plan.shops) await seedShop(seedDb, key, shop, simulator.addShop(shop, { scope: BENCH_SCOPES }).accessToken);
    await traffic.prepare?.(seedDb, { simulator, gatewayUrl: sandbox.url, key });
    await seedDb.close();

    app = await spawnBenchApp(tmp.dir, key, {
      SHOPIFY_ADMIN_API_ORIGIN: simulator.origin,
      ...(fresh ? { DATABASE_URL: fresh.url } : {}),
      GATEWAY_BASE_URL: sandbox.url,
      GATEWAY_AUTH_TOKEN: DEFAULT_SANDBOX_AUTH_TOKEN,
      GATEWAY_CONCURRENCY: String(plan.concurrency),
      WORKER_CONCURRENCY: String(2 * plan.concurrency),
      WORKER_SHOP_CONCURRENCY: String(2 * plan.concurrency),
      GATEWAY_TIMEOUT_MS: '10000',
      ...plan.extraEnv,
    });
    await app.ready;
    const pid = app.child.pid!;
    const appUrl = app.url;
    const bodies = plan.deliveries.map((d) => traffic.body(d));
    const limit = gatewayLimit(plan.concurrency);
    // What the gateway did before the clock started (documents a traffic prepared) is not the run's.
    const stats0 = await sandboxStats(sandbox.url);

    const cpu0 = { app: cpuMs(pid), sandbox: cpuMs(sandbox.pid), bench: process.cpuUsage() };
    const started = performance.now();
    let non200 = 0;
    const deliver = async (i: number) => {
      if ((await traffic.send(simulator, appUrl, plan.deliveries[i]!, bodies[i]!)) !== 200) non200++;
    };
    const burst = plan.deliveries.flatMap((d, i) => (d.atMs === undefined ? [i] : []));
    const timed = plan.deliveries.flatMap((d, i) => (d.atMs === undefined ? [] : [i]));
    let next = 0;
    const delivering = Promise.all([
      ...Array.from({ length: Math.min(BURST_CONNECTIONS, burst.length) }, async () => {
        while (next < burst.length) await deliver(burst[next++]!);
      }),
      ...timed.map(async (i) => {
        await sleep(Math.max(0, started + plan.deliveries[i]!.atMs! - performance.now()));
        await deliver(i);
      }),
    ]).then(() => performance.now());

    const awaited = [...plan.deliveries, ...(plan.background ?? [])];
    const pending = new Set(awaited);
    let lastReport = started;
    while (pending.size > 0) {
      await sleep(100);
      for (const d of pending) if (traffic.done(simulator, d)) pending.delete(d);
      const now = performance.now();
      if (now - lastReport > 10_000) {
        lastReport = now;
        const done = awaited.length - pending.size;
        console.log(
          `  ${((now - started) / 1000).toFixed(0)} s: ${int(done)} written back (${(done / ((now - started) / 1000)).toFixed(1)}/s, limit ${int(limit)}/s)`,
        );
      }
      // The bench must end: past the cap the rate so far is the figure, marked as stopped.
      if (now - started > plan.maxSeconds * 1000) break;
    }
    const finished = performance.now();
    const intakeDone = await delivering;
    const benchCpu = process.cpuUsage(cpu0.bench);
    const appCpu = cpuMs(pid);
    const sandboxCpu = cpuMs(sandbox.pid);
    const rss = peakRss(pid);
    const stats = await sandboxStats(sandbox.url);
    // Read after the app stops (PGlite admits one process at a time).
    await app.kill('SIGTERM');
    app = undefined;
    const { gateway, invoices } = await readTimes(target, traffic.kind);
    return {
      gateway,
      invoices,
      seconds: (finished - started) / 1000,
      intakeSeconds: (intakeDone - started) / 1000,
      drainSeconds: (finished - intakeDone) / 1000,
      done: awaited.length - pending.size,
      rss,
      sendDocuments: stats.requests.SendDocument - stats0.requests.SendDocument,
      issued: stats.issued - stats0.issued,
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

async function sandboxStats(url: string): Promise<{ requests: { SendDocument: number }; issued: number }> {
  return (await (await fetch(`${url}/_sandbox/stats`)).json()) as { requests: { SendDocument: number }; issued: number };
}

async function readTimes(target: DatabaseTarget, kind: DocumentKind): Promise<{ gateway: GatewayTimes; invoices: InvoiceTimes[] }> {
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
    const gateway =
      !row || row.invoices === 0
        ? { perInvoice: Number.NaN, p50: Number.NaN, p99: Number.NaN }
        : { perInvoice: row.total / row.invoices, p50: row.p50, p99: row.p99 };
    // created_at is the intake's transaction (the webhook received); written_back_at is set once Shopify took the metafields.
    const invoices = rowsOf<{ shop: string; received: number; written: number; backfilled: boolean }>(
      await database.db.execute(sql`
        select shop, extract(epoch from created_at)::float8 * 1000 as received, extract(epoch from written_back_at)::float8 * 1000 as written,
          backfill_id is not null as backfilled
        from ${documents} where written_back_at is not null and kind = ${kind}`),
    ).map((r) => ({ shop: r.shop, receivedAt: Number(r.received), writtenBackAt: Number(r.written), backfilled: r.backfilled }));
    return { gateway, invoices };
  } finally {
    await database.close();
  }
}
