// The migration that adds the accountant's month's totals (drizzle/0013, report_month_totals), run on both databases
// over documents authorized before it: the totals are filled from them, and the month's figures read from the totals
// equal what the documents say; documents authorized after it are added by the triggers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type Db, MIGRATIONS_DIR } from '../../../src/db/database.ts';
import { reportMonthTotals, schema } from '../../../src/db/schema.ts';
import { readMonthFigures } from '../../../src/reports/month-report.ts';
import { monthBounds } from '../../../src/reports/report-month.ts';
import { createFreshPostgresDatabase, postgresUrlForTests } from '../../../sim/harness/databases.ts';
import { seedDocuments } from '../../support/report-seeds.ts';

/** A migrations folder holding every migration before the month totals. */
function migrationsBeforeTotals(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fe-totals-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith('_report_month_totals'));
  expect(at).toBeGreaterThan(0);
  const earlier = journal.entries.slice(0, at);
  for (const e of earlier) fs.copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: earlier }));
  return dir;
}

interface Target {
  name: string;
  /** A database migrated up to `before`; `finish` applies the rest. */
  open(before: string): Promise<{ db: Db; finish(): Promise<void>; close(): Promise<void> }>;
}

const targets: Target[] = [
  {
    name: 'pglite',
    async open(before) {
      const client = await PGlite.create();
      await migratePglite(drizzlePglite({ client }), { migrationsFolder: before });
      const db = drizzlePglite({ client, schema });
      return {
        db: db as unknown as Db,
        finish: () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }),
        close: () => client.close(),
      };
    },
  },
  ...(postgresUrlForTests
    ? [
        {
          name: 'postgres',
          async open(before: string) {
            const fresh = await createFreshPostgresDatabase(postgresUrlForTests!);
            const client = new pg.Client({ connectionString: fresh.url });
            await client.connect();
            await migratePostgres(drizzlePostgres({ client }), { migrationsFolder: before });
            const db = drizzlePostgres({ client, schema });
            return {
              db: db as unknown as Db,
              finish: () => migratePostgres(db, { migrationsFolder: MIGRATIONS_DIR }),
              close: async () => {
                await client.end();
                await fresh.drop();
              },
            };
          },
        },
      ]
    : []),
];

const SHOP = 'antes-de-los-totales.myshopify.com';
const NOVEMBER = { shop: SHOP, month: monthBounds(2026, 11), environment: 'produccion' as const };

describe.each(targets)('the month totals migration on $name', (target) => {
  const before = migrationsBeforeTotals();
  afterAll(() => fs.rmSync(before, { recursive: true, force: true }));

  it('fills the totals from the documents authorized before it; the triggers add the ones after', async () => {
    const database = await target.open(before);
    try {
      await seedDocuments(database.db, [
        {
          shop: SHOP,
          number: 1,
          authorizedAt: '2026-11-02T15:00:00Z',
          items: [
            ['01', 10_000, 700],
            ['00', 250, 0],
          ],
        },
        { shop: SHOP, number: 2, authorizedAt: '2026-12-01T04:30:00Z', items: [['03', 2_000, 300]] },
        { shop: SHOP, number: 4, authorizedAt: '2026-11-20T15:00:00Z', items: [['02', 1_000, 100]] },
        { shop: SHOP, number: 3, authorizedAt: null },
        { shop: SHOP, number: 1, type: '04', authorizedAt: '2026-11-21T15:00:00Z', items: [['01', 1_000, 70]] },
        { shop: SHOP, number: 1, environment: 'pruebas', authorizedAt: '2026-11-05T15:00:00Z', items: [['01', 500, 35]] },
        { shop: SHOP, number: 5, authorizedAt: '2026-10-31T15:00:00Z', items: [['01', 400, 28]] },
      ]);
      await database.finish();

      const rows = await database.db.select().from(reportMonthTotals);
      expect(
        rows
          .map(
            (r) => `${r.environment} ${r.month} ${r.documentType} n=${r.documents} total=${r.totalCents} ${r.firstNumber}-${r.lastNumber}`,
          )
          .sort(),
      ).toEqual([
        'produccion 2026-10 01 n=1 total=428 5-5',
        'produccion 2026-11 01 n=3 total=14350 1-4',
        'produccion 2026-11 04 n=1 total=1070 1-1',
        'pruebas 2026-11 01 n=1 total=535 1-1',
      ]);
      const figures = await readMonthFigures(database.db, NOVEMBER);
      expect(figures.invoices).toEqual({ count: 3, baseCents: 13_250, itbmsCents: 1_100, totalCents: 14_350 });
      expect(figures.creditNotes).toEqual({ count: 1, baseCents: 1_000, itbmsCents: 70, totalCents: 1_070 });
      expect(figures.rates.map((r) => [r.rate, r.net.baseCents, r.net.itbmsCents])).toEqual([
        [0, 250, 0],
        [7, 9_000, 630],
        [10, 1_000, 100],
        [15, 2_000, 300],
      ]);
      expect(figures.series.map((s) => [s.documentType, s.first, s.last, s.gaps.map((g) => [g.from, g.to, g.reason.kind])])).toEqual([
        ['01', '0000-001-0000000001', '0000-001-0000000004', [[3, 3, 'not_authorized']]],
        ['04', '0000-001-0000000001', '0000-001-0000000001', []],
      ]);

      // Authorized after the migration: the trigger adds it.
      await seedDocuments(database.db, [{ shop: SHOP, number: 6, authorizedAt: '2026-11-25T15:00:00Z', items: [['00', 300, 0]] }]);
      const after = await readMonthFigures(database.db, NOVEMBER);
      expect(after.invoices).toEqual({ count: 4, baseCents: 13_550, itbmsCents: 1_100, totalCents: 14_650 });
      expect(after.series[0]!.last).toBe('0000-001-0000000006');
    } finally {
      await database.close();
    }
  }, 120_000);
});
