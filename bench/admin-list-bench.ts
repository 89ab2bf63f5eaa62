// The admin invoice list with 50,000 invoices for one shop (among 30,000 of three other shops): response
// time of GET /api/invoices (first page, a page deep in the list by cursor, a status + date filtered page,
// a search by order name and by fiscal number) and of the counts, over real HTTP with a session token,
// median of 20 runs each, on PGlite (file-backed, as the app runs it) and on PostgreSQL when one answers.
// Target: every median under 200 ms.
//   npm run bench -- admin        (or: node bench/admin-list-bench.ts [--vacuum])
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { mintSessionToken } from '../src/admin/session-token.ts';
import type { Database } from '../src/db/database.ts';
import { documents } from '../src/db/schema.ts';
import type { DocumentStatus } from '../src/documents/document-state.ts';
import { message } from '../src/messages/message.ts';
import {
  BENCH_API_KEY,
  BENCH_API_SECRET,
  benchKey,
  findPostgres,
  int,
  ms,
  percentile,
  seedShop,
  onFreshDatabase,
  startIntakeApp,
} from './bench-support.ts';
import type { BenchRow } from './bench-table.ts';
import { textTable } from './bench-table.ts';

const SHOP = 'tienda-bench-admin.myshopify.com';
const OTHER_SHOPS = ['tienda-otra-1.myshopify.com', 'tienda-otra-2.myshopify.com', 'tienda-otra-3.myshopify.com'];
const INVOICES = 50_000;
const OTHER_INVOICES = 10_000;
const BATCH = 1_000;
const RUNS = 20;
const TARGET_MS = 200;
const DAY_MS = 24 * 3600 * 1000;

/** Deterministic pseudo-random numbers, so every run has the same data. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Status mix of a shop that has run a year: mostly authorized, a few stuck. */
function statusFor(r: number): DocumentStatus {
  if (r < 0.9) return 'completed';
  if (r < 0.94) return 'needs_attention';
  if (r < 0.97) return 'failed';
  if (r < 0.99) return 'pending';
  return 'skipped';
}

/** An order snapshot of a realistic size (the list never reads it, but it shapes the table). */
function snapshot(n: number): Record<string, unknown> {
  return {
    id: n,
    name: `#${n}`,
    line_items: Array.from({ length: 3 }, (_, i) => ({
      id: n * 10 + i,
      title: `Producto ${i}`,
      price: '24.50',
      quantity: 2,
      tax_lines: [{ rate: 0.07, price: '3.43' }],
    })),
    note: 'x'.repeat(600),
  };
}

export async function seedInvoices(database: Database, shop: string, count: number, seed: number, orderBase: number): Promise<void> {
  const random = mulberry32(seed);
  const now = Date.now();
  let fiscal = 0;
  for (let start = 0; start < count; start += BATCH) {
    const rows: (typeof documents.$inferInsert)[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const status = statusFor(random());
      const issued = status === 'completed' || (status === 'needs_attention' && random() < 0.3);
      const orderNumber = orderBase + i;
      const orderGid = `gid://shopify/Order/${7_100_000_000_000 + orderNumber}`;
      rows.push({
        shop,
        sourceKey: orderGid,
        orderGid,
        orderName: `#${orderNumber}`,
        status,
        step: status === 'completed' ? 'done' : 'send',
        totalCents: 500 + Math.floor(random() * 50_000),
        currency: 'USD',
        snapshot: snapshot(orderNumber),
        createdAt: new Date(now - Math.floor(random() * 365 * DAY_MS)),
        environment: 'pruebas',
        branchCode: issued ? '0000' : null,
        billingPoint: issued ? '001' : null,
        fiscalNumber: issued ? ++fiscal : null,
        cufe: status === 'completed' ? `FE0120000155596713-2-2015-59000020260301${randomBytes(14).toString('hex').slice(0, 26)}` : null,
        lastErrorKind: status === 'needs_attention' ? 'rejected' : status === 'failed' ? 'unavailable' : null,
        lastErrorCode: status === 'needs_attention' ? '109' : null,
        lastError:
          status === 'needs_attention'
            ? message('rejected', { code: '109', field: 'numberRUC' })
            : status === 'failed'
              ? message('exhausted', {}, message('unavailable', { reason: 'network error' }))
              : null,
      });
    }
    await database.db.insert(documents).values(rows);
  }
}

interface Timing {
  label: string;
  medianMs: number;
  p95Ms: number;
  rows: number;
}

async function time(label: string, url: string, token: string): Promise<Timing> {
  const durations: number[] = [];
  let rows = 0;
  // One warm-up call, not counted: the first query plans and loads pages.
  for (let i = 0; i <= RUNS; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await response.json()) as { invoices?: unknown[]; counts?: { all: number } };
    const elapsed = performance.now() - started;
    if (!response.ok) throw new Error(`${label}: HTTP ${response.status} ${JSON.stringify(body)}`);
    rows = body.invoices?.length ?? body.counts?.all ?? 0;
    if (i > 0) durations.push(elapsed);
  }
  return { label, medianMs: percentile(durations, 50), p95Ms: percentile(durations, 95), rows };
}

async function measure(database: Database): Promise<Timing[]> {
  const key = benchKey();
  const seeded = performance.now();
  // An offline session, as an installed shop has: without one the API would install it by token exchange.
  await seedShop(database, key, SHOP, 'shpat_bench_admin_list');
  await seedInvoices(database, SHOP, INVOICES, 1, 100_000);
  for (const [i, other] of OTHER_SHOPS.entries()) {
    await seedShop(database, key, other);
    await seedInvoices(database, other, OTHER_INVOICES, 10 + i, 1_000_000 * (i + 2));
  }
  // Measured as freshly written, before any VACUUM/ANALYZE: PGlite has no autovacuum, and PostgreSQL's may
  // not have run yet (the worst case, mostly for the counts' index-only scan). `--vacuum` measures after one.
  if (process.argv.includes('--vacuum')) await database.db.execute(sql`vacuum analyze documents`);
  console.log(`  seeded ${int(INVOICES + OTHER_INVOICES * OTHER_SHOPS.length)} invoices in ${ms(performance.now() - seeded)}`);

  const app = await startIntakeApp(database, key);
  try {
    // The longest lifetime the API accepts (it checks the token on every call like any other); the run is shorter.
    const { token } = await mintSessionToken({ shop: SHOP, apiKey: BENCH_API_KEY, apiSecret: BENCH_API_SECRET, ttlSeconds: 300 });
    const api = `${app.url}/api/invoices`;
    const first = (await (await fetch(`${api}?limit=50`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
      nextCursor: string;
    };
    // A cursor 100 pages (5,000 invoices) into the list.
    let cursor = first.nextCursor;
    for (let page = 1; page < 100; page++) {
      const next = (await (
        await fetch(`${api}?limit=50&cursor=${encodeURIComponent(cursor)}`, { headers: { Authorization: `Bearer ${token}` } })
      ).json()) as { nextCursor: string };
      cursor = next.nextCursor;
    }
    const day = (offset: number) => new Date(Date.now() - offset * DAY_MS).toISOString().slice(0, 10);
    return [
      await time('first page (50)', `${api}?limit=50`, token),
      await time('page 101, by cursor', `${api}?limit=50&cursor=${encodeURIComponent(cursor)}`, token),
      await time('failed, last 90 days', `${api}?limit=50&status=failed&from=${day(90)}&to=${day(0)}`, token),
      await time('needs attention, one week', `${api}?limit=50&status=needs_attention&from=${day(200)}&to=${day(193)}`, token),
      await time('search order name', `${api}?limit=50&q=${encodeURIComponent('#125000')}`, token),
      await time('search fiscal number', `${api}?limit=50&q=0000-001-0000020000`, token),
      await time('search, no match', `${api}?limit=50&q=999999999`, token),
      await time('counts per status', `${api}/counts`, token),
    ];
  } finally {
    await app.close();
  }
}

function rowsFor(target: string, timings: Timing[]): BenchRow[] {
  return timings.map((t) => ({
    row: `admin list, ${target}: ${t.label}`,
    figure: `median ${ms(t.medianMs)}, p95 ${ms(t.p95Ms)} (${int(t.rows)} ${t.label.startsWith('counts') ? 'invoices counted' : 'rows'})`,
    baseline: `target < ${TARGET_MS} ms with ${int(INVOICES)} invoices`,
    result: `${(t.medianMs / TARGET_MS).toFixed(2)}× target`,
    pass: t.medianMs < TARGET_MS,
  }));
}

export async function run(): Promise<BenchRow[]> {
  console.log(
    `admin list: ${int(INVOICES)} invoices for one shop + ${int(OTHER_INVOICES)} for each of ${OTHER_SHOPS.length} others; median of ${RUNS} runs per query`,
  );
  console.log('  PGlite');
  const rows = rowsFor('PGlite', await onFreshDatabase(undefined, measure));
  const pgUrl = await findPostgres();
  if (pgUrl) {
    console.log('  PostgreSQL');
    rows.push(...rowsFor('PostgreSQL', await onFreshDatabase(pgUrl, measure)));
  } else {
    rows.push({
      row: 'admin list, PostgreSQL',
      figure: 'PostgreSQL: not available',
      baseline: 'set DATABASE_URL or TEST_DATABASE_URL',
      result: '—',
    });
  }
  return rows;
}

if (import.meta.main) console.log(`\n${textTable(await run())}`);
