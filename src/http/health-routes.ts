// GET /healthz for load balancers and orchestrators, GET /metrics for Prometheus.
// Database-derived values (invoices by state, queue, deliveries) are counted at scrape time and are the same
// from every process sharing the database: aggregate them with max(), not sum(), across instances.
import { sql } from 'drizzle-orm';
import { type RequestHandler, Router } from 'express';
import type { MetricsAccess } from '../config/env.ts';
import type { Db } from '../db/database.ts';
import type { DocumentRunner } from '../documents/document-runner.ts';
import { type QueueStats, countByKindStatusStep, countDeliveries, queueStats } from '../documents/store/index.ts';
import type { AppMetrics } from '../metrics.ts';
import { sameSecret } from '../same-secret.ts';

export interface HealthDeps {
  db: Db;
  worker: Pick<DocumentRunner, 'lastTickAt' | 'busy'>;
  workerEnabled: boolean;
  /** The worker's poll interval: no tick for 10 of them means the loop is stuck. */
  pollMs: number;
  metrics: AppMetrics;
  /** Who may read /metrics (METRICS_TOKEN). */
  metricsAccess: MetricsAccess;
  /** A database query slower than this counts as unreachable. Default 2 s. */
  databaseTimeoutMs?: number;
  now?: () => number;
}

export interface WorkerHealth {
  enabled: boolean;
  /** Enabled and ticked within 10 poll intervals; null when the worker is disabled in this process. */
  alive: boolean | null;
  lastTickAgoMs: number | null;
  busy: number;
}

class TimeoutError extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function workerHealth(deps: Pick<HealthDeps, 'worker' | 'workerEnabled' | 'pollMs'>, now: number, startedAt: number): WorkerHealth {
  const lastTick = deps.worker.lastTickAt?.getTime();
  const lastTickAgoMs = lastTick === undefined ? null : Math.max(0, now - lastTick);
  // Before the first tick, count from start-up: the server listens a moment before the worker starts.
  const sinceTick = now - (lastTick ?? startedAt);
  return {
    enabled: deps.workerEnabled,
    alive: deps.workerEnabled ? sinceTick <= 10 * deps.pollMs : null,
    lastTickAgoMs,
    busy: deps.worker.busy,
  };
}

export function healthRoutes(deps: HealthDeps): Router {
  const now = deps.now ?? Date.now;
  const startedAt = now();
  const timeoutMs = deps.databaseTimeoutMs ?? 2_000;
  const db = <T>(query: Promise<T>) => withTimeout(query, timeoutMs);
  registerDatabaseMetrics(deps, db, () => workerHealth(deps, now(), startedAt));

  const router = Router();

  router.get('/healthz', async (_req, res) => {
    let database: 'ok' | 'unreachable' | 'timeout' = 'ok';
    try {
      await db(deps.db.execute(sql`select 1`));
    } catch (error) {
      // The reason stays out of the answer: a driver message may name hosts or users.
      database = error instanceof TimeoutError ? 'timeout' : 'unreachable';
    }
    let queue: QueueStats | null = null;
    if (database === 'ok') queue = await db(queueStats(deps.db)).catch(() => null);
    const worker = workerHealth(deps, now(), startedAt);
    const failing = [...(database === 'ok' ? [] : ['database']), ...(worker.alive === false ? ['worker'] : [])];
    res.set('Cache-Control', 'no-store');
    res.status(failing.length === 0 ? 200 : 503).json({
      status: failing.length === 0 ? 'ok' : 'fail',
      ...(failing.length > 0 ? { failing } : {}),
      database,
      worker,
      // Reported, never failing: a long queue is a reason to look, not to restart the process.
      queue,
    });
  });

  router.get('/metrics', metricsGuard(deps.metricsAccess), async (_req, res) => {
    const { registry } = deps.metrics;
    const text = await registry.metrics();
    res.set('Cache-Control', 'no-store');
    res.type(registry.contentType).send(text);
  });

  return router;
}

/** Lets through who may read /metrics; answers the others without a word about the token. */
function metricsGuard(access: MetricsAccess): RequestHandler {
  return (req, res, next) => {
    if (access.kind === 'open' || (access.kind === 'token' && sameSecret(req.get('authorization') ?? '', `Bearer ${access.token}`)))
      return next();
    res.set('Cache-Control', 'no-store');
    if (access.kind === 'off') {
      res.status(404).json({ error: 'metrics are off in production until METRICS_TOKEN is set' });
      return;
    }
    res.set('WWW-Authenticate', 'Bearer realm="metrics"');
    res.status(401).json({ error: 'metrics need Authorization: Bearer <METRICS_TOKEN>' });
  };
}

function registerDatabaseMetrics(deps: HealthDeps, db: <T>(q: Promise<T>) => Promise<T>, worker: () => WorkerHealth): void {
  const r = deps.metrics.registry;

  r.collectedCounter(
    'fe_webhook_deliveries_total',
    'Webhook deliveries on record (all processes), by topic and outcome.',
    ['topic', 'outcome'],
    async () => {
      const rows = await db(countDeliveries(deps.db));
      return rows.map((row) => ({ labels: { topic: row.topic, outcome: row.outcome }, value: row.n }));
    },
  );

  // One query feeds both: invoices as before (fe_invoices), every document by kind (fe_documents).
  let counting: ReturnType<typeof countByKindStatusStep> | undefined;
  const counts = () => {
    counting ??= db(countByKindStatusStep(deps.db)).finally(() => setImmediate(() => (counting = undefined)));
    return counting;
  };
  r.collectedGauge('fe_invoices', 'Invoices (all processes) by status and next step.', ['status', 'step'], async () =>
    (await counts())
      .filter((row) => row.kind === 'invoice')
      .map((row) => ({ labels: { status: row.status, step: row.step }, value: row.n })),
  );
  r.collectedGauge(
    'fe_documents',
    'Fiscal documents (all processes) by kind (invoice, credit_note), status and next step.',
    ['kind', 'status', 'step'],
    async () => (await counts()).map((row) => ({ labels: { kind: row.kind, status: row.status, step: row.step }, value: row.n })),
  );

  // One query feeds both queue gauges; the second reads the first's answer within the same scrape.
  let pending: Promise<QueueStats> | undefined;
  const stats = () => {
    pending ??= db(queueStats(deps.db)).finally(() => setImmediate(() => (pending = undefined)));
    return pending;
  };
  r.collectedGauge('fe_queue_depth', 'Invoices due for the worker now (shops enabled and not paused).', [], async () => [
    { labels: {}, value: (await stats()).due },
  ]);
  r.collectedGauge('fe_queue_oldest_age_seconds', 'Seconds the longest-waiting due invoice has been due (0 when none).', [], async () => [
    { labels: {}, value: (await stats()).oldestDueAgeSeconds },
  ]);

  r.collectedGauge('fe_worker_busy', 'Invoices this process is working on.', [], () => [{ labels: {}, value: worker().busy }]);
  r.collectedGauge(
    'fe_worker_last_tick_age_seconds',
    "Seconds since this process's worker last looked for work (absent when disabled).",
    [],
    () => {
      const w = worker();
      return w.enabled && w.lastTickAgoMs !== null ? [{ labels: {}, value: w.lastTickAgoMs / 1000 }] : [];
    },
  );
}
