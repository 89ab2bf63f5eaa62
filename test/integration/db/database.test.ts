import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db, MIGRATIONS_DIR, openDatabase, rowsOf } from '../../../src/db/database.ts';
import { documents, schema, shops } from '../../../src/db/schema.ts';
import { findCustomerDocuments as findCustomerInvoices } from '../../../src/documents/store/index.ts';
import { createFreshPostgresDatabase, postgresUrlForTests, testDatabases } from '../../../sim/harness/databases.ts';

describe.each(testDatabases)('database on $name', (target) => {
  let database: Database;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('applies the migrations: every table exists', async () => {
    const rows = await database.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const names = rowsOf<{ table_name: string }>(rows).map((r) => r.table_name);
    expect(names).toEqual([
      'backfills',
      'buyer_requests',
      'compliance_requests',
      'document_counts',
      'document_emails',
      'document_pdfs',
      'documents',
      'fiscal_sequences',
      'fiscal_series_changes',
      'fiscal_skips',
      'flow_events',
      'gateway_calls',
      'reconcile_sweeps',
      'report_emails',
      'report_month_totals',
      'sessions',
      'shops',
      'webhook_deliveries',
    ]);
  });

  it('compresses order snapshots with lz4 where the server has it (PostgreSQL), pglz otherwise (PGlite)', async () => {
    const result = await database.db.execute<{ lz4: boolean; method: string }>(sql`
      select (select 'lz4' = any(enumvals) from pg_settings where name = 'default_toast_compression') as lz4, attcompression::text as method
      from pg_attribute where attrelid = 'documents'::regclass and attname = 'snapshot'`);
    const [row] = rowsOf<{ lz4: boolean; method: string }>(result);
    expect(row).toEqual(target.name === 'postgres' ? { lz4: true, method: 'l' } : { lz4: false, method: '' });
  });
});

describe.runIf(postgresUrlForTests)('PostgreSQL connections and prepared statements', () => {
  const preparedTexts = async (preparedStatements: boolean) => {
    const fresh = await createFreshPostgresDatabase(postgresUrlForTests!);
    // One connection, so the statements below and the look at them share it.
    const database = await openDatabase({ kind: 'postgres', url: fresh.url, maxConnections: 1, preparedStatements });
    try {
      for (const shop of ['a.myshopify.com', 'b.myshopify.com'])
        await database.db
          .select({ shop: shops.shop })
          .from(shops)
          .where(sql`${shops.shop} = ${shop}`);
      await database.db.execute(sql`select 1`);
      const rows = await database.db.execute(
        sql`select statement from pg_prepared_statements where statement <> ${'-'} order by statement`,
      );
      return rowsOf<{ statement: string }>(rows).map((r) => r.statement);
    } finally {
      await database.close();
      await fresh.drop();
    }
  };

  it('prepares each statement with parameters once per connection (DATABASE_PREPARED_STATEMENTS on)', async () => {
    // The select, once for both shops, and the look itself; "select 1" has no parameters and is not prepared.
    expect(await preparedTexts(true)).toEqual([
      'select "shop" from "shops" where "shops"."shop" = $1',
      'select statement from pg_prepared_statements where statement <> $1 order by statement',
    ]);
  });

  it('prepares none with DATABASE_PREPARED_STATEMENTS off (a pooler that cannot keep them)', async () => {
    expect(await preparedTexts(false)).toEqual([]);
  });
});

describe('the embedded database on disk', () => {
  it('belongs to one process at a time, and is taken over when its owner is gone', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { openDatabase } = await import('../../../src/db/database.ts');
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fe-lock-')), 'pglite');
    const first = await openDatabase({ kind: 'pglite', dataDir: dir });
    await expect(openDatabase({ kind: 'pglite', dataDir: dir })).rejects.toThrow(
      `the embedded database in ${dir} is in use by this process already`,
    );
    await first.close();
    // Held by another live process (our parent stands in for it): refused, naming it.
    fs.writeFileSync(`${dir}.lock`, String(process.ppid));
    await expect(openDatabase({ kind: 'pglite', dataDir: dir })).rejects.toThrow(
      `is in use by process ${process.ppid}; stop that process first`,
    );
    // A lock left by a process that no longer runs (pid 2^22 + 1 is above Linux's pid_max default) is taken over.
    fs.writeFileSync(`${dir}.lock`, String(4_194_305));
    const second = await openDatabase({ kind: 'pglite', dataDir: dir });
    expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    await second.close();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });
});

describe('an embedded database made before the order snapshot became text and invoices became documents', () => {
  it('keeps every stored snapshot, and still finds customers in it', async () => {
    // The first migration alone, as an installation made before 0001 has it.
    const first = fs.mkdtempSync(path.join(os.tmpdir(), 'fe-migrations-'));
    fs.mkdirSync(path.join(first, 'meta'));
    fs.copyFileSync(path.join(MIGRATIONS_DIR, '0000_init.sql'), path.join(first, '0000_init.sql'));
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
    fs.writeFileSync(path.join(first, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, 1) }));
    const client = await PGlite.create();
    try {
      const db = drizzle({ client });
      await migrate(db, { migrationsFolder: first });
      const snapshot = {
        id: 42,
        name: '#1042',
        email: 'ana@example.com',
        customer: { id: 8_000_000_000_001, email: 'ana@example.com' },
        note: 'café ñ',
      };
      await client.query(
        `insert into invoices (shop, order_gid, order_name, total_cents, currency, order_snapshot, status, last_error_kind, last_error_message)
         values ('a.myshopify.com', 'gid://shopify/Order/42', '#1042', 1234, 'USD', $1::jsonb, 'needs_attention', 'rejected', 'Rejected (code 109).')`,
        [JSON.stringify(snapshot)],
      );

      await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
      const typed = drizzle({ client, schema }) as unknown as Db;
      const [row] = await typed.select().from(documents);
      expect(row?.snapshot).toEqual(snapshot);
      // 0002: the invoice row is a fiscal document keyed by its order, and its reason a catalogue message.
      expect(row).toMatchObject({ kind: 'invoice', sourceKey: 'gid://shopify/Order/42', documentType: '01', status: 'needs_attention' });
      expect(row?.lastError).toEqual({ key: 'legacy', params: { text: 'Rejected (code 109).' } });
      const byId = await findCustomerInvoices(typed, 'a.myshopify.com', { orderGids: [], customerId: '8000000000001', email: undefined });
      const byEmail = await findCustomerInvoices(typed, 'a.myshopify.com', {
        orderGids: [],
        customerId: undefined,
        email: 'ana@example.com',
      });
      const byOtherEmail = await findCustomerInvoices(typed, 'a.myshopify.com', {
        orderGids: [],
        customerId: undefined,
        email: 'luis@example.com',
      });
      expect([byId, byEmail, byOtherEmail].map((found) => found.map((r) => r.orderName))).toEqual([['#1042'], ['#1042'], []]);
    } finally {
      await client.close();
      fs.rmSync(first, { recursive: true, force: true });
    }
  });
});

describe('shops saved before the buyer e-mail (0003)', () => {
  it('keep their settings; the old default deliveryCAFE 3 gives way to the delivery choice, another code stays', async () => {
    const before = fs.mkdtempSync(path.join(os.tmpdir(), 'fe-migrations-'));
    fs.mkdirSync(path.join(before, 'meta'));
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    const earlier = journal.entries.filter((e) => e.tag < '0003');
    for (const e of earlier) fs.copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(before, `${e.tag}.sql`));
    fs.writeFileSync(path.join(before, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: earlier }));
    const client = await PGlite.create();
    try {
      const db = drizzle({ client });
      await migrate(db, { migrationsFolder: before });
      const settings = (deliveryCAFE: string) => ({
        environment: 'produccion',
        branchCode: '0002',
        mapping: { transactionDefaults: { formatCAFE: '3', deliveryCAFE }, includeTips: true },
      });
      await client.query(
        `insert into shops (shop, settings, enabled) values ('a.myshopify.com', $1::jsonb, true), ('b.myshopify.com', $2::jsonb, true)`,
        [JSON.stringify(settings('3')), JSON.stringify(settings('2'))],
      );

      await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
      const typed = drizzle({ client, schema }) as unknown as Db;
      const stored = await typed.select({ shop: shops.shop, settings: shops.settings }).from(shops).orderBy(shops.shop);
      expect(stored).toEqual([
        {
          shop: 'a.myshopify.com',
          settings: {
            environment: 'produccion',
            branchCode: '0002',
            mapping: { transactionDefaults: { formatCAFE: '3' }, includeTips: true },
          },
        },
        { shop: 'b.myshopify.com', settings: settings('2') },
      ]);
    } finally {
      await client.close();
      fs.rmSync(before, { recursive: true, force: true });
    }
  });
});
