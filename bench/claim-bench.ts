// The worker's claim (claimDue) with 10,000 due documents, as the runner calls it several times a second under load:
// 32 places offered, one shop already holding 5. Laid out four ways: all of one shop; one flooding shop beside 99
// with one each; 100 shops with 100 each; 1,000 shops with 10 each; with 20,000 finished documents beside them.
// CPU per claim (the app's process on PGlite, the database backend on PostgreSQL) and wall time, median and p95 of 40
// claims, each in a transaction rolled back (the same queue every time), beside the claim of before (oldest first) on
// its own index; on PGlite (file-backed, as the app runs it) and PostgreSQL when one answers.
//   npm run bench -- claim
import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../src/db/database.ts';
import { documents, shops } from '../src/db/schema.ts';
import { claimDue } from '../src/documents/store/index.ts';
import type { BenchRow } from './bench-table.ts';
import { cpuMs, findPostgres, int, ms, onFreshDatabase, percentile } from './bench-support.ts';

const DUE = 10_000;
const FINISHED = 20_000;
const PLACES = 32;
const RUNS = 40;

interface Layout {
  name: string;
  shops: number;
  /** The shop number (1-based) of due document g (1..DUE). */
  shopOf: string;
}

const LAYOUTS: Layout[] = [
  { name: 'one shop', shops: 1, shopOf: '1' },
  { name: 'one flooding shop beside 99 with one each', shops: 100, shopOf: 'case when g <= 99 then g + 1 else 1 end' },
  { name: '100 shops with 100 each', shops: 100, shopOf: 'g % 100 + 1' },
  { name: '1,000 shops with 10 each', shops: 1000, shopOf: 'g % 1000 + 1' },
];

const shopName = (n: string) => sql.raw(`'tienda-' || (${n}) || '.myshopify.com'`);

async function seed(database: Database, layout: Layout): Promise<void> {
  const { db } = database;
  await db.delete(documents);
  await db.delete(shops);
  await db.execute(sql`insert into ${shops} (shop, enabled) select ${shopName('g')}, true from generate_series(1, ${layout.shops}) g`);
  // Due over the last 10,000 s, the flooding shop's oldest; finished ones spread over the shops.
  await db.execute(sql`
    insert into ${documents} (shop, source_key, order_gid, order_name, total_cents, currency, snapshot, next_attempt_at)
    select ${shopName(layout.shopOf)}, 'due-' || g, 'due-' || g, '#' || g, 1000, 'USD', '{}', now() - (${DUE} - g) * interval '1 second'
    from generate_series(1, ${DUE}) g`);
  await db.execute(sql`
    insert into ${documents} (shop, source_key, order_gid, order_name, total_cents, currency, snapshot, status, step)
    select ${shopName(`g % ${layout.shops} + 1`)}, 'done-' || g, 'done-' || g, '#' || g, 1000, 'USD', '{}', 'completed', 'done'
    from generate_series(1, ${FINISHED}) g`);
}

/** The claim before it was fair (oldest due first, any shop), on its own index: the baseline. */
const OLDEST_FIRST = sql`
  update ${documents} set lease_owner = 'bench', lease_until = now() + interval '1 minute', updated_at = now()
  where id in (
    select d.id from ${documents} d join ${shops} s on s.shop = d.shop
    where d.status in ('pending', 'waiting') and d.next_attempt_at <= now() and s.enabled and s.installed
      and s.paused_reason is null and (d.lease_until is null or d.lease_until <= now())
    order by d.next_attempt_at limit ${PLACES}
    for update of d skip locked)
  returning *`;

interface Timing {
  median: number;
  p95: number;
  /** CPU per claim: the app's process on PGlite (the database runs in it), the database backend on PostgreSQL. */
  cpu: number | undefined;
  claimed: number;
  shops: number;
}

/** `claim` RUNS times (after one not counted: it plans and warms the pages), each in a transaction rolled back. */
async function time(database: Database, claim: (tx: Database['db']) => Promise<{ shop: string }[]>): Promise<Timing> {
  const durations: number[] = [];
  let cpu = 0;
  let claimed: { shop: string }[] = [];
  for (let i = 0; i <= RUNS; i++) {
    await database.db
      .transaction(async (tx) => {
        const db = tx as unknown as Database['db'];
        const backend =
          database.kind === 'postgres' ? rowsOf<{ pid: number }>(await db.execute(sql`select pg_backend_pid() as pid`))[0]!.pid : undefined;
        const cpuBefore = backend === undefined ? process.cpuUsage() : cpuMs(backend);
        const started = performance.now();
        claimed = await claim(db);
        const elapsed = performance.now() - started;
        if (i > 0) {
          durations.push(elapsed);
          if (backend === undefined) {
            const used = process.cpuUsage(cpuBefore as NodeJS.CpuUsage);
            cpu += (used.user + used.system) / 1000;
          } else cpu += (cpuMs(backend) ?? Number.NaN) - ((cpuBefore as number | undefined) ?? Number.NaN);
        }
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error && error.message.includes('Rollback'))) throw error;
      });
  }
  return {
    median: percentile(durations, 50),
    p95: percentile(durations, 95),
    cpu: Number.isNaN(cpu) ? undefined : cpu / RUNS,
    claimed: claimed.length,
    shops: new Set(claimed.map((r) => r.shop)).size,
  };
}

async function measure(database: Database): Promise<{ layout: Layout; fair: Timing; oldest: Timing }[]> {
  const results = [];
  for (const layout of LAYOUTS) {
    await seed(database, layout);
    const fair = await time(database, (db) =>
      claimDue(db, { owner: 'bench', limit: PLACES, leaseMs: 60_000, shopLimit: PLACES, held: new Map([['tienda-1.myshopify.com', 5]]) }),
    );
    await database.db.execute(sql`create index bench_oldest_due_idx on ${documents} (status, next_attempt_at)`);
    const oldest = await time(database, async (db) => rowsOf<{ shop: string }>(await db.execute(OLDEST_FIRST)));
    await database.db.execute(sql`drop index bench_oldest_due_idx`);
    console.log(`  ${layout.name}: fair ${describe(fair)}; oldest first ${describe(oldest)}`);
    results.push({ layout, fair, oldest });
  }
  return results;
}

function describe(t: Timing): string {
  return `CPU ${t.cpu === undefined ? 'n/a' : ms(t.cpu)} a claim (wall median ${ms(t.median)}, p95 ${ms(t.p95)}); ${t.claimed} claimed from ${t.shops} shop${t.shops === 1 ? '' : 's'}`;
}

export async function run(): Promise<BenchRow[]> {
  console.log(`claim: ${int(DUE)} due documents (+ ${int(FINISHED)} finished), ${PLACES} places offered, median of ${RUNS} claims`);
  const rows: BenchRow[] = [];
  const targets: [string, string | undefined][] = [
    ['PGlite', undefined],
    ['PostgreSQL', await findPostgres()],
  ];
  for (const [name, url] of targets) {
    if (name === 'PostgreSQL' && url === undefined) {
      rows.push({
        row: 'claim, PostgreSQL',
        figure: 'PostgreSQL: not available',
        baseline: 'set DATABASE_URL or TEST_DATABASE_URL',
        result: '—',
      });
      continue;
    }
    console.log(`  ${name}`);
    for (const r of await onFreshDatabase(url, measure)) {
      rows.push({
        row: `claim, ${name}: ${int(DUE)} due, ${r.layout.name}`,
        figure: describe(r.fair),
        baseline: `oldest first (the claim before): ${describe(r.oldest)}`,
        // CPU, not wall time, is the claim's cost: on a shared machine the wall time measures the others too.
        result:
          r.fair.cpu === undefined || r.oldest.cpu === undefined
            ? 'informational'
            : `informational: ${(r.fair.cpu / r.oldest.cpu).toFixed(2)}× the CPU of oldest first`,
      });
    }
  }
  return rows;
}
