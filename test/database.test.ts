import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { fiscalSequences, invoices } from '../src/db/schema.ts';
import { testDatabases } from './support/databases.ts';

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
    const names = (Array.isArray(rows) ? rows : (rows as { rows: { table_name: string }[] }).rows).map((r) => r.table_name);
    expect(names).toEqual([
      'compliance_requests',
      'fiscal_sequences',
      'fiscal_skips',
      'gateway_calls',
      'invoice_pdfs',
      'invoices',
      'reconcile_sweeps',
      'sessions',
      'shops',
      'webhook_deliveries',
    ]);
  });

  it('refuses a second invoice for the same shop, order and document type', async () => {
    const row = {
      shop: 'a.myshopify.com',
      orderGid: 'gid://shopify/Order/1',
      orderName: '#1001',
      totalCents: 1234,
      currency: 'USD',
      orderSnapshot: { id: 1 },
    };
    const first = await database.db.insert(invoices).values(row).onConflictDoNothing().returning({ id: invoices.id });
    const second = await database.db.insert(invoices).values(row).onConflictDoNothing().returning({ id: invoices.id });
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(0);
  });

  it('keeps fiscal numbers above 2^31 exactly', async () => {
    await database.db.insert(fiscalSequences).values({
      shop: 'a.myshopify.com',
      branchCode: '0000',
      billingPoint: '001',
      documentType: '01',
      nextNumber: 9_999_999_999,
    });
    const [row] = await database.db.select().from(fiscalSequences);
    expect(row?.nextNumber).toBe(9_999_999_999);
  });
});
