// The migration that gives each environment its own number series (docs/series.md), run on both databases over a
// database made before it: documents of the test and production environments numbered from one shared sequence.
// Every issued number stays; each environment continues after its own last number.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { asc, sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type Db, MIGRATIONS_DIR } from '../../../src/db/database.ts';
import { documents, fiscalSequences, fiscalSeriesChanges, schema } from '../../../src/db/schema.ts';
import { listSeries, reserveFiscalNumber } from '../../../src/documents/store/index.ts';
import { createFreshPostgresDatabase, postgresUrlForTests } from '../../../sim/harness/databases.ts';

/** A migrations folder holding every migration before the series split. */
function migrationsBeforeSplit(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fe-series-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const split = journal.entries.findIndex((e) => e.tag.endsWith('_number_series'));
  expect(split).toBeGreaterThan(0);
  const earlier = journal.entries.slice(0, split);
  for (const e of earlier) fs.copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: earlier }));
  return dir;
}

interface Target {
  name: string;
  /** A database migrated up to just before the split; `finish` applies the rest; `typed` reads it with the schema. */
  open(before: string): Promise<{ exec(text: string): Promise<void>; finish(): Promise<void>; typed: Db; close(): Promise<void> }>;
}

const targets: Target[] = [
  {
    name: 'pglite',
    async open(before) {
      const client = await PGlite.create();
      const db = drizzlePglite({ client });
      await migratePglite(db, { migrationsFolder: before });
      return {
        exec: async (text) => void (await client.exec(text)),
        finish: () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }),
        typed: drizzlePglite({ client, schema }) as unknown as Db,
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
            const db = drizzlePostgres({ client });
            await migratePostgres(db, { migrationsFolder: before });
            return {
              exec: async (text: string) => void (await client.query(text)),
              finish: () => migratePostgres(db, { migrationsFolder: MIGRATIONS_DIR }),
              typed: drizzlePostgres({ client, schema }) as unknown as Db,
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

const A = 'switched.myshopify.com';
const B = 'still-testing.myshopify.com';
const C = 'no-documents-left.myshopify.com';

/** A document row as the app before the split left it. */
function doc(shop: string, n: number, o: { env: string | null; type?: string; point?: string }): string {
  const type = o.type ?? '01';
  const kind = type === '04' ? 'credit_note' : 'invoice';
  const source = `gid://shopify/${kind === 'invoice' ? 'Order' : 'Refund'}/${shop.length}${type}${o.point ?? '001'}${n}`;
  const env = o.env === null ? 'null' : `'${o.env}'`;
  return `('${shop}', '${kind}', '${source}', 'gid://shopify/Order/${n}', '#${n}', '${type}', 100, 'USD', '{}', ${env}, '0000', '${o.point ?? '001'}', ${n})`;
}

const BEFORE = `
  insert into shops (shop, settings, enabled) values
    ('${A}', '{"environment":"produccion"}', true), ('${B}', '{}', true), ('${C}', '{"environment":"pruebas"}', true);
  insert into documents (shop, kind, source_key, order_gid, order_name, document_type, total_cents, currency, snapshot,
      environment, branch_code, billing_point, fiscal_number) values
    ${[
      // A: three test invoices, then production (4, 5; 6 numbered but not sent yet; 7 skipped after a 102).
      doc(A, 1, { env: 'pruebas' }),
      doc(A, 2, { env: 'pruebas' }),
      doc(A, 3, { env: 'pruebas' }),
      doc(A, 4, { env: 'produccion' }),
      doc(A, 5, { env: 'produccion' }),
      doc(A, 6, { env: null }),
      doc(A, 8, { env: 'produccion' }),
      // A's notes: one in test, one in production; and a second billing point used in test only.
      doc(A, 1, { env: 'pruebas', type: '04' }),
      doc(A, 2, { env: 'produccion', type: '04' }),
      doc(A, 1, { env: 'pruebas', point: '002' }),
      // B never left the test environment.
      doc(B, 1, { env: 'pruebas' }),
      doc(B, 2, { env: 'pruebas' }),
    ].join(',\n    ')};
  insert into fiscal_skips (shop, branch_code, billing_point, document_type, number, reason, document_id)
    select '${A}', '0000', '001', '01', 7, 'used outside the app', id from documents where shop = '${A}' and fiscal_number = 8;
  insert into fiscal_sequences (shop, branch_code, billing_point, document_type, next_number) values
    ('${A}', '0000', '001', '01', 9), ('${A}', '0000', '001', '04', 3), ('${A}', '0000', '002', '01', 2),
    ('${B}', '0000', '001', '01', 3), ('${C}', '0000', '001', '01', 5);
`;

describe.each(targets)('the series split on $name', (target) => {
  const before = migrationsBeforeSplit();
  afterAll(() => fs.rmSync(before, { recursive: true, force: true }));

  it('keeps every issued number, and each environment continues after its own last one', async () => {
    const database = await target.open(before);
    try {
      await database.exec(BEFORE);
      const numbersBefore = await database.typed.execute(
        sql`select shop, document_type, billing_point, fiscal_number from documents order by 1, 2, 3, 4`,
      );
      await database.finish();
      const db = database.typed;

      const numbersAfter = await db.execute(
        sql`select shop, document_type, billing_point, fiscal_number from documents order by 1, 2, 3, 4`,
      );
      expect((numbersAfter as { rows: unknown[] }).rows).toEqual((numbersBefore as { rows: unknown[] }).rows);
      const series = await db
        .select()
        .from(fiscalSequences)
        .orderBy(
          asc(fiscalSequences.shop),
          asc(fiscalSequences.billingPoint),
          asc(fiscalSequences.documentType),
          asc(fiscalSequences.environment),
        );
      expect(series.map((s) => [s.shop, s.environment, s.billingPoint, s.documentType, s.nextNumber])).toEqual([
        [C, 'pruebas', '001', '01', 5],
        [B, 'pruebas', '001', '01', 3],
        [A, 'produccion', '001', '01', 9],
        [A, 'pruebas', '001', '01', 4],
        [A, 'produccion', '001', '04', 3],
        [A, 'pruebas', '001', '04', 2],
        [A, 'pruebas', '002', '01', 2],
      ]);
      // The document numbered but not sent belongs to the environment the shop was in.
      const unsent = await db.execute(
        sql`select environment from documents where shop = ${A} and fiscal_number = 6 and document_type = '01'`,
      );
      expect((unsent as { rows: unknown[] }).rows).toEqual([{ environment: 'produccion' }]);
      const skips = await db.execute(sql`select environment, number::int as number from fiscal_skips`);
      expect((skips as { rows: unknown[] }).rows).toEqual([{ environment: 'produccion', number: 7 }]);
      const changes = await db.select().from(fiscalSeriesChanges).orderBy(asc(fiscalSeriesChanges.documentType));
      expect(
        changes.map((c) => [c.shop, c.environment, c.billingPoint, c.documentType, c.kind, c.fromNext, c.toNext, c.changedBy]),
      ).toEqual([
        [A, 'pruebas', '001', '01', 'split', 9, 4, 'migration'],
        [A, 'pruebas', '001', '04', 'split', 3, 2, 'migration'],
      ]);

      // series list names the numbers the other environment used before the split, and the skip.
      const listed = await listSeries(db, A);
      const gapsOf = (environment: string, type: string) =>
        listed.find((s) => s.environment === environment && s.billingPoint === '001' && s.documentType === type)?.gaps;
      expect(gapsOf('produccion', '01')).toEqual([
        { from: 1, to: 3, reason: { kind: 'other_environment' } },
        { from: 7, to: 7, reason: { kind: 'skipped', detail: 'used outside the app' } },
      ]);
      expect(gapsOf('produccion', '04')).toEqual([{ from: 1, to: 1, reason: { kind: 'other_environment' } }]);
      expect(gapsOf('pruebas', '01')).toEqual([]);
      expect(listed.find((s) => s.environment === 'produccion' && s.documentType === '01')).toMatchObject({ lastUsed: 8, nextNumber: 9 });

      // Numbering goes on in each environment's own series.
      const next = async (environment: 'pruebas' | 'produccion', n: number) => {
        const [row] = await db
          .insert(documents)
          .values({
            shop: A,
            sourceKey: `gid://shopify/Order/9${n}`,
            orderGid: `gid://shopify/Order/9${n}`,
            orderName: `#9${n}`,
            totalCents: 100,
            currency: 'USD',
            snapshot: {},
            leaseOwner: 'w',
          })
          .returning();
        const numbered = await reserveFiscalNumber(db, row!, 'w', 60_000, { environment, branchCode: '0000', billingPoint: '001' });
        return numbered?.fiscalNumber;
      };
      expect([await next('pruebas', 1), await next('produccion', 2), await next('pruebas', 3)]).toEqual([4, 9, 5]);
    } finally {
      await database.close();
    }
  });
});
