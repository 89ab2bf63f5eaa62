// /healthz and /metrics: the app's own answers on loopback, and the Prometheus exposition prom-client writes.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetricsAccess } from '../../../src/config/env.ts';
import type { Database } from '../../../src/db/database.ts';
import { documents } from '../../../src/db/schema.ts';
import { type HealthDeps, healthRoutes } from '../../../src/http/health-routes.ts';
import { createAppMetrics } from '../../../src/metrics.ts';
import { legacyMessage } from '../../support/documents.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-salud.myshopify.com';
import { checkExposition, get } from '../../support/exposition.ts';

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
    // A tick counts once its claims went through: the first may still be claiming right after start-up.
    await waitFor(
      async () => ((await get(`${h.app.url}/healthz`)).body as { worker: { lastTickAgoMs: number | null } }).worker.lastTickAgoMs !== null,
      10_000,
      'the worker to finish its first tick',
    );
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
    // The worker may be failing too by now (its claims fail with the database), but the database is named.
    expect(r.body).toMatchObject({
      status: 'fail',
      failing: expect.arrayContaining(['database']),
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
