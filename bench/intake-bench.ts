// Webhook intake: signed, distinct 8 KB `orders/paid` deliveries at 50 connections for a fixed time, against the app as
// deployed (its own process, `npm start`'s node flags and bundle, worker off, so only intake is measured) and a baseline
// endpoint in a process of its own made the same way (bench/baseline-server.ts): Express + HMAC check (key made once) +
// JSON.parse + one drizzle insert of the body as jsonb into a scratch table. Each on a fresh database of its own kind:
// its own PGlite data directory (made here first, so neither process runs initdb), or one fresh PostgreSQL database.
// The load generator is a child process.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { count, sql } from 'drizzle-orm';
import { baseChildEnvironment } from '../src/config/env.ts';
import { type Database, openDatabase, rowsOf } from '../src/db/database.ts';
import { documents } from '../src/db/schema.ts';
import { bundle } from '../scripts/bundle-app.ts';
import { APP_NODE_FLAGS } from '../sim/harness/app-process.ts';
import { createFreshPostgresDatabase } from '../sim/harness/databases.ts';
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
  spawnBenchApp,
  tempDir,
} from './bench-support.ts';
import type { LoadResult } from './load-generator.ts';

const SHOP = 'tienda-bench.myshopify.com';
const { connections: CONNECTIONS, warmUpSeconds: WARM_UP_SECONDS, seconds: RUN_SECONDS } = INTAKE_LOAD;

// The ratio is issue 13's bound: intake at least twice its baseline on both databases.
const TARGETS = {
  pglite: { perSecond: 1000, ratio: 2, p99: 50 },
  postgres: { perSecond: 2500, ratio: 2, p99: 50 },
} as const;

/** The baseline endpoint in its own process, bundled and run with the app's node flags, on `database`. */
async function startBaseline(database: string): Promise<{ url: string; stop(): Promise<void> }> {
  const file = await bundle('bench/baseline-server.ts', 'bench-baseline');
  const child = spawn(process.execPath, [...APP_NODE_FLAGS, file, database, BENCH_API_SECRET], {
    env: baseChildEnvironment(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = /baseline listening (\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`baseline exited before listening:\n${seen}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

interface Measured {
  ours: LoadResult;
  baseline: LoadResult;
  /** Rows actually written by the end, to check that every 200 (warm-up and run) was a stored delivery. */
  oursRows: number;
  baselineRows: number;
  /** Answers 200 of the warm-up and the run. */
  oursAnswered: number;
  baselineAnswered: number;
}

let block = 100;

const load = (url: string, seconds: number): Promise<LoadResult> => intakeLoad(url, SHOP, block++, seconds);

/** Start the app and the baseline, each on a fresh database, warm both up, then measure each for RUN_SECONDS. */
async function measure(serverUrl: string | undefined): Promise<Measured> {
  const key = benchKey();
  const tmp = tempDir('fe-bench-intake-');
  const fresh = serverUrl ? await createFreshPostgresDatabase(serverUrl) : undefined;
  const oursDb = path.join(tmp.dir, 'pglite');
  const baselineDb = fresh?.url ?? path.join(tmp.dir, 'baseline');
  const open = (dataDir: string) => openDatabase(fresh ? { kind: 'postgres', url: fresh.url } : { kind: 'pglite', dataDir });
  const counted = async (dataDir: string, n: (db: Database['db']) => Promise<number>): Promise<number> => {
    const database = await open(dataDir);
    try {
      return await n(database.db);
    } finally {
      await database.close();
    }
  };
  try {
    // The databases made (migrated, the shop seeded) before either process starts, then closed: PGlite's directory
    // belongs to one process at a time.
    const seed = await open(oursDb);
    await seedShop(seed, key, SHOP);
    await seed.close();
    if (!fresh) await (await open(baselineDb)).close();

    const app = await spawnBenchApp(tmp.dir, key, {
      GATEWAY_BASE_URL: 'http://127.0.0.1:9',
      GATEWAY_AUTH_TOKEN: 'unused',
      WORKER_ENABLED: 'false',
      ...(fresh ? { DATABASE_URL: fresh.url } : {}),
    });
    const baseline = await startBaseline(baselineDb);
    let measured: Omit<Measured, 'oursRows' | 'baselineRows'>;
    try {
      await app.ready;
      const oursUrl = `${app.url}/webhooks/orders/paid`;
      const baselineUrl = `${baseline.url}/baseline`;
      const warmBaseline = await load(baselineUrl, WARM_UP_SECONDS);
      const warmOurs = await load(oursUrl, WARM_UP_SECONDS);
      const baselineResult = await load(baselineUrl, RUN_SECONDS);
      const oursResult = await load(oursUrl, RUN_SECONDS);
      // Deliveries still in flight when a load stops are written a moment later: let them land before counting.
      await sleep(500);
      measured = {
        ours: oursResult,
        baseline: baselineResult,
        oursAnswered: answered(warmOurs) + answered(oursResult),
        baselineAnswered: answered(warmBaseline) + answered(baselineResult),
      };
    } finally {
      await app.kill('SIGTERM');
      await baseline.stop();
    }
    // On PostgreSQL both tables are in the one fresh database; on PGlite each in its own directory.
    const oursRows = await counted(oursDb, async (db) => (await db.select({ n: count() }).from(documents))[0]!.n);
    const baselineRows = await counted(
      baselineDb,
      async (db) => rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from bench_baseline`))[0]!.n,
    );
    return { ...measured, oursRows, baselineRows };
  } finally {
    await fresh?.drop();
    tmp.remove();
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

/** Every 200 has its row; a few more rows are deliveries in flight when a load stopped (warm-up and run: no answer counted). */
function everyAnswerStored(rows: number, answers: number): boolean {
  return rows >= answers && rows - answers <= 2 * CONNECTIONS;
}

function rowsFor(label: 'PGlite' | 'PostgreSQL', m: Measured): BenchRow[] {
  const target = label === 'PGlite' ? TARGETS.pglite : TARGETS.postgres;
  const ratio = m.ours.perSecond / m.baseline.perSecond;
  const clean = m.ours.non2xx + m.ours.errors + m.ours.timeouts === 0;
  const pass = clean && m.ours.perSecond >= target.perSecond && m.ours.p99 < target.p99 && ratio >= target.ratio;
  const wanted = [`≥ ${int(target.perSecond)} req/s`, `p99 < ${target.p99} ms`, `≥ ${target.ratio}× baseline`].join(', ');
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
      figure: `${int(m.oursRows)} invoices stored for ${int(m.oursAnswered)} answers 200 (warm-up and run)`,
      baseline: `baseline ${int(m.baselineRows)} rows for ${int(m.baselineAnswered)} answers 200`,
      result: everyAnswerStored(m.oursRows, m.oursAnswered) ? 'every 200 stored' : 'MISMATCH',
      pass: everyAnswerStored(m.oursRows, m.oursAnswered),
    },
  ];
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  console.log(
    `intake: ${CONNECTIONS} connections, ${RUN_SECONDS} s per endpoint after ${WARM_UP_SECONDS} s warm-up, distinct signed 8 KB deliveries`,
  );
  rows.push(...rowsFor('PGlite', await measure(undefined)));
  const pgUrl = await findPostgres();
  if (pgUrl) rows.push(...rowsFor('PostgreSQL', await measure(pgUrl)));
  else
    rows.push({
      row: 'intake, PostgreSQL',
      figure: 'PostgreSQL: not available',
      baseline: 'set DATABASE_URL or TEST_DATABASE_URL',
      result: '—',
    });
  return rows;
}
