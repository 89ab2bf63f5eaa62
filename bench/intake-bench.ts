// Webhook intake: signed, distinct 8 KB `orders/paid` deliveries at 50 connections for a fixed time, against
// the real app (startApp, worker off, so only intake is measured) and, in the same process on the same
// database, a baseline endpoint: Express + HMAC check (key made once) + JSON.parse + one drizzle insert of
// the body as jsonb into a scratch table. The load generator is a child process.
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { count, sql } from 'drizzle-orm';
import { bigserial, jsonb, pgTable } from 'drizzle-orm/pg-core';
import express from 'express';
import type { Database } from '../src/db/database.ts';
import { documents } from '../src/db/schema.ts';
import type { BenchRow } from './bench-table.ts';
import {
  BENCH_API_SECRET,
  INTAKE_LOAD,
  benchKey,
  findPostgres,
  int,
  intakeLoad,
  ms,
  seedShop,
  sleep,
  onFreshDatabase,
  startIntakeApp,
} from './bench-support.ts';
import type { LoadResult } from './load-generator.ts';

const SHOP = 'tienda-bench.myshopify.com';

const TARGETS = {
  pglite: { perSecond: 1000, ratio: 1.5, p99: 50 },
  postgres: { perSecond: 2500, ratio: undefined, p99: 50 },
} as const;

const baselineTable = pgTable('bench_baseline', { id: bigserial('id', { mode: 'number' }).primaryKey(), body: jsonb('body').notNull() });

/** The baseline: what any app must do per delivery, with one plain insert and no batching. */
function baselineApp(database: Database, secret: string): express.Express {
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const app = express();
  app.disable('x-powered-by');
  app.post('/baseline', express.text({ type: () => true, limit: '2mb' }), async (req, res) => {
    const raw = typeof req.body === 'string' ? req.body : '';
    const header = req.get('x-shopify-hmac-sha256') ?? '';
    const expected = createHmac('sha256', key).update(raw, 'utf8').digest();
    const given = Buffer.from(header, 'base64');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.status(401).json({ error: 'invalid HMAC signature' });
      return;
    }
    try {
      JSON.parse(raw);
    } catch {
      res.status(400).json({ error: 'body is not valid JSON' });
      return;
    }
    await database.db.insert(baselineTable).values({ body: sql`${raw}::jsonb` });
    res.status(200).json({ outcome: 'stored' });
  });
  return app;
}

async function listen(app: express.Express): Promise<{ server: http.Server; url: string }> {
  const server = await new Promise<http.Server>((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface Measured {
  ours: LoadResult;
  baseline: LoadResult;
  /** Rows actually written, to check that every 200 was a stored delivery. */
  oursRows: number;
  baselineRows: number;
}

let block = 100;

async function load(url: string, seconds: number): Promise<LoadResult> {
  return intakeLoad(url, SHOP, block++, seconds);
}

/** Start the app and the baseline on one database, warm both up, then measure each for INTAKE_LOAD.seconds. */
async function measure(database: Database): Promise<Measured> {
  await database.db.execute(sql`create table if not exists bench_baseline (id bigserial primary key, body jsonb not null)`);
  const key = benchKey();
  await seedShop(database, key, SHOP);
  const app = await startIntakeApp(database, key);
  const baseline = await listen(baselineApp(database, BENCH_API_SECRET));
  try {
    const oursUrl = `${app.url}/webhooks/orders/paid`;
    const baselineUrl = `${baseline.url}/baseline`;
    await load(baselineUrl, INTAKE_LOAD.warmUpSeconds);
    await load(oursUrl, INTAKE_LOAD.warmUpSeconds);
    // Deliveries still in flight when a load stops are written a moment later: let them land before counting.
    await sleep(500);
    const [b0] = await database.db.select({ n: count() }).from(baselineTable);
    const [o0] = await database.db.select({ n: count() }).from(documents);
    const baselineResult = await load(baselineUrl, INTAKE_LOAD.seconds);
    const oursResult = await load(oursUrl, INTAKE_LOAD.seconds);
    await sleep(500);
    const [b1] = await database.db.select({ n: count() }).from(baselineTable);
    const [o1] = await database.db.select({ n: count() }).from(documents);
    return { ours: oursResult, baseline: baselineResult, oursRows: o1!.n - o0!.n, baselineRows: b1!.n - b0!.n };
  } finally {
    await app.close();
    await new Promise<void>((resolve) => {
      baseline.server.close(() => resolve());
      baseline.server.closeAllConnections();
    });
  }
}

function describeLoad(r: LoadResult): string {
  return `${int(r.perSecond)} req/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}`;
}

function failures(r: LoadResult): string {
  const bad = r.non2xx + r.errors + r.timeouts;
  return bad === 0 ? '' : `; ${bad} failed (${JSON.stringify(r.statusCodes)}, ${r.errors} errors, ${r.timeouts} time-outs)`;
}

const answered = (r: LoadResult) => r.statusCodes['200'] ?? 0;

/** Every 200 has its row; a few more rows are deliveries still in flight when the load stopped (no answer counted). */
function everyAnswerStored(rows: number, r: LoadResult): boolean {
  return rows >= answered(r) && rows - answered(r) <= INTAKE_LOAD.connections;
}

function rowsFor(label: 'PGlite' | 'PostgreSQL', m: Measured): BenchRow[] {
  const target = label === 'PGlite' ? TARGETS.pglite : TARGETS.postgres;
  const ratio = m.ours.perSecond / m.baseline.perSecond;
  const clean = m.ours.non2xx + m.ours.errors + m.ours.timeouts === 0;
  const pass =
    clean && m.ours.perSecond >= target.perSecond && m.ours.p99 < target.p99 && (target.ratio === undefined || ratio >= target.ratio);
  const wanted = [
    `≥ ${int(target.perSecond)} req/s`,
    `p99 < ${target.p99} ms`,
    ...(target.ratio ? [`≥ ${target.ratio}× baseline`] : []),
  ].join(', ');
  return [
    {
      row: `intake, ${label}`,
      figure: `${describeLoad(m.ours)}${failures(m.ours)}`,
      baseline: `baseline ${describeLoad(m.baseline)}${failures(m.baseline)}; target ${wanted}`,
      result: `${ratio.toFixed(2)}× baseline`,
      pass,
    },
    {
      row: `intake, ${label}: rows`,
      figure: `${int(m.oursRows)} invoices stored for ${int(answered(m.ours))} answers 200`,
      baseline: `baseline ${int(m.baselineRows)} rows for ${int(answered(m.baseline))} answers 200`,
      result: everyAnswerStored(m.oursRows, m.ours) ? 'every 200 stored' : 'MISMATCH',
      pass: everyAnswerStored(m.oursRows, m.ours),
    },
  ];
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  console.log(
    `intake: ${INTAKE_LOAD.connections} connections, ${INTAKE_LOAD.seconds} s per endpoint after ${INTAKE_LOAD.warmUpSeconds} s warm-up, distinct signed 8 KB deliveries`,
  );
  const pglite = await onFreshDatabase(undefined, measure);
  rows.push(...rowsFor('PGlite', pglite));
  const pgUrl = await findPostgres();
  if (pgUrl) rows.push(...rowsFor('PostgreSQL', await onFreshDatabase(pgUrl, measure)));
  else
    rows.push({
      row: 'intake, PostgreSQL',
      figure: 'PostgreSQL: not available',
      baseline: 'set DATABASE_URL or TEST_DATABASE_URL',
      result: '—',
    });
  return rows;
}
