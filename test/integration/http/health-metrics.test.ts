// /healthz and /metrics: the app's own answers on loopback, and the Prometheus exposition prom-client writes.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import express from 'express';
import { Counter, Histogram } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetricsAccess } from '../../../src/config/env.ts';
import type { Database } from '../../../src/db/database.ts';
import { documents } from '../../../src/db/schema.ts';
import { type HealthDeps, healthRoutes } from '../../../src/http/health-routes.ts';
import { MetricsRegistry, createAppMetrics } from '../../../src/metrics.ts';
import { legacyMessage } from '../../support/documents.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-salud.myshopify.com';

const COMMENT = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/;
const SAMPLE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\.)*")(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\.)*")*\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/;

/** Exposition format 0.0.4: each line a HELP/TYPE comment, a sample or empty (prom-client puts one between metrics); TYPE once per metric, before its samples. */
function checkExposition(text: string): Map<string, string> {
  expect(text.endsWith('\n')).toBe(true);
  const types = new Map<string, string>();
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue;
    const comment = COMMENT.exec(line);
    if (comment) {
      if (comment[1] === 'TYPE') {
        expect(types.has(comment[2]!), `TYPE ${comment[2]} twice`).toBe(false);
        expect(['counter', 'gauge', 'histogram']).toContain(comment[3]);
        types.set(comment[2]!, comment[3]!);
      }
      continue;
    }
    const sample = SAMPLE.exec(line);
    expect(sample, `not a sample line: ${line}`).not.toBeNull();
    const name = sample![1]!;
    const family = types.get(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    expect(types.has(family), `${name} sampled before its TYPE`).toBe(true);
  }
  return types;
}

async function get(url: string): Promise<{ status: number; body: unknown; text: string; type: string | null }> {
  const response = await fetch(url);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text, type: response.headers.get('content-type') };
}

describe('metrics registry', () => {
  it('renders counters, histograms with cumulative buckets, and escaped label values', async () => {
    const registry = new MetricsRegistry();
    const registers = [registry];
    const c = new Counter({ name: 'x_total', help: 'Things.\nSecond line with \\ backslash.', labelNames: ['path'], registers });
    c.inc({ path: 'a"b\\c\nd' }, 2);
    c.inc({ path: 'a"b\\c\nd' });
    const hist = new Histogram({ name: 'x_seconds', help: 'Durations.', labelNames: ['op'], buckets: [0.1, 0.5, 1], registers });
    for (const v of [0.05, 0.1, 0.7, 3]) hist.observe({ op: 'Send' }, v);
    registry.collectedGauge('x_rows', 'Rows.', ['s'], () => [{ labels: { s: 'ok' }, value: 7 }]);
    registry.collectedGauge('x_broken', 'Broken.', [], () => {
      throw new Error('down');
    });

    const text = await registry.metrics();
    expect(text).toBe(
      [
        '# HELP fe_scrape_collect_failures Metrics that could not be read in this scrape (their samples are missing).',
        '# TYPE fe_scrape_collect_failures gauge',
        'fe_scrape_collect_failures 1',
        '',
        '# HELP x_total Things.\\nSecond line with \\\\ backslash.',
        '# TYPE x_total counter',
        'x_total{path="a\\"b\\\\c\\nd"} 3',
        '',
        '# HELP x_seconds Durations.',
        '# TYPE x_seconds histogram',
        'x_seconds_bucket{le="0.1",op="Send"} 2',
        'x_seconds_bucket{le="0.5",op="Send"} 2',
        'x_seconds_bucket{le="1",op="Send"} 3',
        'x_seconds_bucket{le="+Inf",op="Send"} 4',
        'x_seconds_sum{op="Send"} 3.85',
        'x_seconds_count{op="Send"} 4',
        '',
        '# HELP x_rows Rows.',
        '# TYPE x_rows gauge',
        'x_rows{s="ok"} 7',
        '',
        '# HELP x_broken Broken.',
        '# TYPE x_broken gauge',
        '',
      ].join('\n'),
    );
    checkExposition(text);
  });

  it('a value read at scrape time is replaced at each scrape, and absent (not 0) when its read fails', async () => {
    const registry = new MetricsRegistry();
    let rows: number | Error = 7;
    registry.collectedGauge('x_rows', 'Rows.', [], () => {
      if (rows instanceof Error) throw rows;
      return [{ labels: {}, value: rows }];
    });
    registry.collectedCounter('x_seen_total', 'Seen.', ['kind'], () => [{ labels: { kind: 'a' }, value: 4 }]);
    const samples = async () => (await registry.metrics()).split('\n').filter((l) => l !== '' && !l.startsWith('#'));

    expect(await samples()).toEqual(['fe_scrape_collect_failures 0', 'x_rows 7', 'x_seen_total{kind="a"} 4']);
    expect(await samples()).toEqual(['fe_scrape_collect_failures 0', 'x_rows 7', 'x_seen_total{kind="a"} 4']);
    rows = new Error('database down');
    expect(await samples()).toEqual(['fe_scrape_collect_failures 1', 'x_seen_total{kind="a"} 4']);
    rows = 2;
    expect(await samples()).toEqual(['fe_scrape_collect_failures 0', 'x_rows 2', 'x_seen_total{kind="a"} 4']);
  });

  it('refuses what Prometheus would refuse', () => {
    const registry = new MetricsRegistry();
    const registers = [registry];
    expect(() => new Counter({ name: 'bad-name', help: 'x', registers })).toThrow('Invalid metric name');
    expect(() => new Counter({ name: 'x_total', help: 'x', labelNames: ['bad-label'], registers })).toThrow('Invalid label name');
    const c = new Counter({ name: 'ok_total', help: 'x', labelNames: ['ok'], registers });
    expect(() => new Counter({ name: 'ok_total', help: 'again', registers })).toThrow('already been registered');
    const undeclared: Record<string, string> = { other: 'x' };
    expect(() => c.inc(undeclared)).toThrow('not included in initial labelset');
    expect(() => c.inc({ ok: 'x' }, -1)).toThrow('not possible to decrease a counter');
  });
});

describe.each(testDatabases)('/healthz and /metrics on $name', (target) => {
  let database: Database;
  let h: Harness;

  beforeAll(async () => {
    database = await target.open();
    h = await startHarness({ database, env: { RECONCILE_INTERVAL_MINUTES: '0' } });
    await h.installShop(SHOP);
  });
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });

  it('/healthz: ok with database, a ticking worker and an empty queue', async () => {
    const r = await get(`${h.app.url}/healthz`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'ok',
      database: 'ok',
      worker: { enabled: true, alive: true, busy: 0 },
      queue: { due: 0, oldestDueAgeSeconds: 0 },
    });
    const { lastTickAgoMs } = (r.body as { worker: { lastTickAgoMs: number } }).worker;
    // WORKER_POLL_MS is 50 in the harness: alive means a tick within 500 ms.
    expect(lastTickAgoMs).toBeGreaterThanOrEqual(0);
    expect(lastTickAgoMs).toBeLessThanOrEqual(500);
    expect(r.body).not.toHaveProperty('failing');
  });

  it('/metrics: exact series after one authorized invoice, in valid exposition format', async () => {
    const order = makePaidOrder({ id: 6_200_000_000_001, shippingCents: 500 });
    const delivery = await h.simulator.orderPaid(SHOP, order, h.webhookAddress);
    expect(JSON.parse(delivery.body)).toEqual({ outcome: 'stored' });
    await waitFor(
      async () => {
        const [row] = await database.db.select().from(documents).where(eq(documents.orderGid, 'gid://shopify/Order/6200000000001'));
        return row?.status === 'completed';
      },
      20_000,
      'the invoice to complete',
    );

    const r = await get(`${h.app.url}/metrics`);
    expect(r.status).toBe(200);
    expect(r.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    const types = checkExposition(r.text);
    const lines = r.text.split('\n');
    for (const expected of [
      'fe_invoices{status="completed",step="done"} 1',
      'fe_gateway_calls_total{operation="SendDocument",outcome="authorized",code="200"} 1',
      'fe_gateway_calls_total{operation="DownloadPDF",outcome="pdf",code="200"} 1',
      'fe_gateway_call_duration_seconds_count{operation="SendDocument"} 1',
      'fe_gateway_call_duration_seconds_bucket{le="+Inf",operation="SendDocument"} 1',
      'fe_gateway_call_duration_seconds_count{operation="DownloadPDF"} 1',
      'fe_webhook_deliveries_total{topic="orders/paid",outcome="stored"} 1',
      'fe_queue_depth 0',
      'fe_queue_oldest_age_seconds 0',
      'fe_worker_busy 0',
      'fe_sweep_runs_total 0',
      'fe_sweep_enqueued_total 0',
      'fe_scrape_collect_failures 0',
    ]) {
      expect(lines).toContain(expected);
    }
    // Exactly these gateway series: nothing else was called.
    expect(lines.filter((l) => l.startsWith('fe_gateway_calls_total{'))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('fe_invoices{'))).toEqual(['fe_invoices{status="completed",step="done"} 1']);
    expect(Object.fromEntries(types)).toMatchObject({
      fe_webhook_deliveries_total: 'counter',
      fe_invoices: 'gauge',
      fe_gateway_calls_total: 'counter',
      fe_gateway_call_duration_seconds: 'histogram',
      fe_queue_depth: 'gauge',
      fe_queue_oldest_age_seconds: 'gauge',
      fe_sweep_runs_total: 'counter',
      fe_sweep_enqueued_total: 'counter',
    });
    // Cumulative buckets never go down, and the +Inf bucket equals the count. (prom-client writes le first; label
    // order means nothing to Prometheus.)
    const buckets = lines
      .filter((l) => l.startsWith('fe_gateway_call_duration_seconds_bucket{') && l.includes('operation="SendDocument"'))
      .map((l) => Number(l.split(' ')[1]));
    expect(buckets).toHaveLength(11);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(r.text).not.toContain('sandbox-token');
  });
});

describe.each(testDatabases)('/healthz with the worker off and a waiting queue on $name', (target) => {
  let database: Database;
  let h: Harness;

  beforeAll(async () => {
    database = await target.open();
    h = await startHarness({ database, env: { RECONCILE_INTERVAL_MINUTES: '0', WORKER_ENABLED: 'false' } });
    await h.installShop(SHOP);
  });
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });

  it('reports the queue age without failing, and no worker liveness when the worker is off', async () => {
    await h.simulator.orderPaid(SHOP, makePaidOrder({ id: 6_200_000_000_002 }), h.webhookAddress);
    await h.simulator.orderPaid(SHOP, makePaidOrder({ id: 6_200_000_000_003 }), h.webhookAddress);
    await database.db
      .update(documents)
      .set({ nextAttemptAt: sql`now() - interval '90 seconds'` })
      .where(eq(documents.orderGid, 'gid://shopify/Order/6200000000002'));

    const r = await get(`${h.app.url}/healthz`);
    expect(r.status).toBe(200);
    const body = r.body as { status: string; worker: unknown; queue: { due: number; oldestDueAgeSeconds: number } };
    expect(body.status).toBe('ok');
    expect(body.worker).toEqual({ enabled: false, alive: null, lastTickAgoMs: null, busy: 0 });
    expect(body.queue.due).toBe(2);
    expect(body.queue.oldestDueAgeSeconds).toBeGreaterThanOrEqual(90);
    expect(body.queue.oldestDueAgeSeconds).toBeLessThan(100);

    const lines = (await get(`${h.app.url}/metrics`)).text.split('\n');
    expect(lines).toContain('fe_queue_depth 2');
    expect(lines).toContain('fe_invoices{status="pending",step="send"} 2');
    expect(lines.find((l) => l.startsWith('fe_queue_oldest_age_seconds '))).toMatch(/^fe_queue_oldest_age_seconds (9\d)(\.\d+)?$/);
    // No worker in this process: no tick age series.
    expect(lines.some((l) => l.startsWith('fe_worker_last_tick_age_seconds '))).toBe(false);

    // A paused shop's invoices wait for the merchant, not the worker: out of the queue.
    await h.app.shops.pause(SHOP, legacyMessage('credentials refused'));
    expect(((await get(`${h.app.url}/healthz`)).body as { queue: unknown }).queue).toEqual({ due: 0, oldestDueAgeSeconds: 0 });
  });
});

describe.each(testDatabases)('/healthz when the database is gone on $name', (target) => {
  let database: Database;
  let h: Harness;

  beforeAll(async () => {
    database = await target.open();
    h = await startHarness({ database, env: { RECONCILE_INTERVAL_MINUTES: '0' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers 503 naming the database; /metrics still serves what the process knows', async () => {
    expect((await get(`${h.app.url}/healthz`)).status).toBe(200);
    await database.close();

    const r = await get(`${h.app.url}/healthz`);
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({
      status: 'fail',
      failing: ['database'],
      database: 'unreachable',
      queue: null,
      worker: { enabled: true },
    });

    const m = await get(`${h.app.url}/metrics`);
    expect(m.status).toBe(200);
    checkExposition(m.text);
    const lines = m.text.split('\n');
    // Deliveries, invoices, documents, queue depth and queue age could not be read.
    expect(lines).toContain('fe_scrape_collect_failures 5');
    expect(lines).toContain('fe_sweep_runs_total 0');
    expect(lines.some((l) => l.startsWith('fe_invoices{'))).toBe(false);
    // An unread value is absent, not 0.
    expect(lines.some((l) => l.startsWith('fe_queue_depth '))).toBe(false);
  });
});

/** The health routes alone, on a loopback server of their own. */
async function serveHealthRoutes(deps: HealthDeps): Promise<{ server: Server; url: string }> {
  const app = express();
  app.use(healthRoutes(deps));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('/healthz failing parts, with a stand-in worker', () => {
  let database: Database;
  let server: Server;
  let url: string;
  const worker = { lastTickAt: undefined as Date | undefined, busy: 3 };
  let now = 1_000_000;

  beforeAll(async () => {
    database = await testDatabases[0]!.open();
    ({ server, url } = await serveHealthRoutes({
      db: database.db,
      worker,
      workerEnabled: true,
      pollMs: 100,
      metrics: createAppMetrics(),
      metricsAccess: { kind: 'open' },
      now: () => now,
      databaseTimeoutMs: 500,
    }));
  });
  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await database?.close();
  });

  it('a worker that has not ticked for more than 10 poll intervals fails /healthz as "worker"', async () => {
    worker.lastTickAt = new Date(now - 1_000); // exactly 10 × 100 ms: still alive
    let r = await get(`${url}/healthz`);
    expect(r.status).toBe(200);
    expect((r.body as { worker: unknown }).worker).toEqual({ enabled: true, alive: true, lastTickAgoMs: 1000, busy: 3 });

    now += 1; // 1001 ms
    r = await get(`${url}/healthz`);
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ status: 'fail', failing: ['worker'], database: 'ok', worker: { alive: false, lastTickAgoMs: 1001 } });

    const lines = (await get(`${url}/metrics`)).text.split('\n');
    expect(lines).toContain('fe_worker_last_tick_age_seconds 1.001');
    expect(lines).toContain('fe_worker_busy 3');
  });

  it('before the first tick, the worker is given 10 poll intervals from start-up', async () => {
    worker.lastTickAt = undefined;
    now = 1_000_500; // half a second after start-up
    expect((await get(`${url}/healthz`)).status).toBe(200);
    now = 1_002_000;
    const r = await get(`${url}/healthz`);
    expect(r.status).toBe(503);
    expect((r.body as { worker: unknown }).worker).toEqual({ enabled: true, alive: false, lastTickAgoMs: null, busy: 3 });
  });
});

describe('/metrics access (METRICS_TOKEN)', () => {
  const TOKEN = 'scrape-token-0123456789';
  let database: Database;
  const servers: Server[] = [];

  /** The health routes with this access rule. */
  async function serve(metricsAccess: MetricsAccess): Promise<string> {
    const { server, url } = await serveHealthRoutes({
      db: database.db,
      worker: { lastTickAt: new Date(), busy: 0 },
      workerEnabled: true,
      pollMs: 100,
      metrics: createAppMetrics(),
      metricsAccess,
    });
    servers.push(server);
    return url;
  }

  async function scrape(url: string, authorization?: string) {
    const response = await fetch(`${url}/metrics`, { headers: authorization ? { authorization } : {} });
    return { status: response.status, text: await response.text(), challenge: response.headers.get('www-authenticate') };
  }

  beforeAll(async () => {
    database = await testDatabases[0]!.open();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    await database?.close();
  });

  it('with a token: 401 and a Bearer challenge without it or with another; the exposition with it', async () => {
    const url = await serve({ kind: 'token', token: TOKEN });
    for (const authorization of [undefined, `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
      const r = await scrape(url, authorization);
      expect(r.status, String(authorization)).toBe(401);
      expect(r.challenge).toBe('Bearer realm="metrics"');
      expect(JSON.parse(r.text)).toEqual({ error: 'metrics need Authorization: Bearer <METRICS_TOKEN>' });
    }
    const ok = await scrape(url, `Bearer ${TOKEN}`);
    expect(ok.status).toBe(200);
    expect(checkExposition(ok.text).get('fe_worker_busy')).toBe('gauge');
    // /healthz stays open for load balancers.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('off (production without a token): 404 saying how to turn them on; /healthz still answers', async () => {
    const url = await serve({ kind: 'off' });
    const r = await scrape(url, `Bearer ${TOKEN}`);
    expect(r.status).toBe(404);
    expect(JSON.parse(r.text)).toEqual({ error: 'metrics are off in production until METRICS_TOKEN is set' });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});
