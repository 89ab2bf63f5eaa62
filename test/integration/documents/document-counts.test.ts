// The per-shop counters behind the admin's counts and the metrics (document_counts, kept by triggers) equal a full
// count after every kind of statement, and stay exact while claims, transitions, retries, intake and deletions run
// at once (on PostgreSQL on separate connections: locks, waits and rollbacks included).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, rowsOf } from '../../../src/db/database.ts';
import { documents, shops } from '../../../src/db/schema.ts';
import type { DocumentStatus } from '../../../src/db/document-state.ts';
import {
  claimDue,
  countByKindStatusStep,
  countByStatus,
  deleteShopDocuments,
  discardLeased,
  finishLeased,
  insertBatch,
  retryDocuments,
  updateLeased,
} from '../../../src/documents/store/index.ts';
import { mulberry32 } from '../../../src/seeded-random.ts';
import { databaseForBlock } from '../../support/database-block.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { newInvoice } from '../../support/documents.ts';

const SHOPS = ['tienda-a.myshopify.com', 'tienda-b.myshopify.com', 'tienda-c.myshopify.com'];
const LEASE_MS = 60_000;

describe.each(testDatabases)('document counters on $name', (target) => {
  const run = databaseForBlock(target, [documents, shops]);
  let order = 0;

  beforeEach(async () => {
    await run.database.db.insert(shops).values(SHOPS.map((shop) => ({ shop, enabled: true })));
  });

  /** Deliveries of new orders (and one repeat, a duplicate that stores nothing), as the intake stores them. */
  function intake(shop: string, count: number) {
    const items = Array.from({ length: count }, () => {
      const n = ++order;
      const delivery = { webhookId: `w-${n}`, eventId: undefined, topic: 'orders/paid', triggeredAt: undefined };
      return { document: newInvoice({ shop, orderGid: `gid://shopify/Order/${n}`, orderName: `#${n}`, totalCents: 100 }), delivery };
    });
    const repeat = { ...items[0]!, delivery: { ...items[0]!.delivery, webhookId: `w-${order}-again` } };
    return insertBatch(run.database.db, [...items, repeat]);
  }

  async function exact() {
    const rows = rowsOf<{ shop: string; kind: string; status: string; step: string; n: number | string }>(
      await run.database.db.execute(sql`select shop, kind, status, step, count(*) as n from documents group by 1, 2, 3, 4`),
    );
    return rows.map((r) => `${r.shop} ${r.kind} ${r.status} ${r.step} ${Number(r.n)}`).sort();
  }
  async function counted() {
    const rows = rowsOf<{ shop: string; kind: string; status: string; step: string; n: number | string }>(
      await run.database.db.execute(sql`select shop, kind, status, step, n from document_counts where n <> 0`),
    );
    return rows.map((r) => `${r.shop} ${r.kind} ${r.status} ${r.step} ${Number(r.n)}`).sort();
  }

  it('follows intake, claims, steps, endings, retries and deletions', async () => {
    await intake(SHOPS[0]!, 6);
    await intake(SHOPS[1]!, 2);
    expect(await counted()).toEqual([`${SHOPS[0]} invoice pending send 6`, `${SHOPS[1]} invoice pending send 2`]);

    // Two shops share 8 places (4 each, 2 left unused by the second); the next claim takes the rest.
    const claim = () => claimDue(run.database.db, { owner: 'w', limit: 8, leaseMs: LEASE_MS, shopLimit: 8, held: new Map() });
    const held = [...(await claim()), ...(await claim())];
    expect(held).toHaveLength(8);
    const a = held.filter((r) => r.shop === SHOPS[0]);
    await updateLeased(run.database.db, a[0]!, 'w', LEASE_MS, { step: 'pdf' });
    await finishLeased(run.database.db, a[1]!.id, 'w', { step: 'done', status: 'completed' });
    await finishLeased(run.database.db, a[2]!.id, 'w', { status: 'failed' });
    await finishLeased(run.database.db, a[3]!.id, 'w', { status: 'needs_attention' });
    await discardLeased(run.database.db, a[4]!, 'w');
    // A lease lost: nothing changes, nothing is counted.
    await finishLeased(run.database.db, a[5]!.id, 'someone-else', { status: 'failed' });
    expect(await countByStatus(run.database.db, SHOPS[0]!)).toEqual({
      all: 5,
      pending: 2,
      waiting: 0,
      needs_attention: 1,
      failed: 1,
      completed: 1,
      skipped: 0,
    });
    expect(await counted()).toEqual(await exact());

    expect(await retryDocuments(run.database.db, { shop: SHOPS[0]! })).toBe(2);
    expect(await countByStatus(run.database.db, SHOPS[0]!)).toMatchObject({ all: 5, pending: 4, failed: 0, needs_attention: 0 });
    expect(await countByKindStatusStep(run.database.db)).toEqual(
      expect.arrayContaining([
        { kind: 'invoice', status: 'pending', step: 'send', n: 5 },
        { kind: 'invoice', status: 'pending', step: 'pdf', n: 1 },
        { kind: 'invoice', status: 'completed', step: 'done', n: 1 },
      ]),
    );

    await deleteShopDocuments(run.database.db, SHOPS[0]!);
    expect(await countByStatus(run.database.db, SHOPS[0]!)).toMatchObject({ all: 0, pending: 0, completed: 0 });
    expect(await counted()).toEqual([`${SHOPS[1]} invoice pending send 2`]);
    expect(await counted()).toEqual(await exact());

    // A statement that fails changes no counter.
    await expect(run.database.db.update(documents).set({ status: 'nonsense' as DocumentStatus })).rejects.toThrow();
    expect(await counted()).toEqual([`${SHOPS[1]} invoice pending send 2`]);
  });

  it('stays exact while workers claim and finish, people retry and the intake stores, all at once', async () => {
    const random = mulberry32(42);
    const endings: { step?: 'pdf' | 'done'; status?: DocumentStatus }[] = [
      { step: 'pdf' },
      { step: 'done', status: 'completed' },
      { status: 'failed' },
      { status: 'needs_attention' },
      { status: 'skipped', step: 'done' },
    ];
    let errors = 0;
    const worker = async (owner: string) => {
      for (let round = 0; round < 15; round++) {
        const rows = await claimDue(run.database.db, { owner, limit: 6, leaseMs: LEASE_MS, shopLimit: 6, held: new Map() });
        await Promise.all(
          rows.map(async (row) => {
            const ending = endings[Math.floor(random() * endings.length)]!;
            if (ending.status === undefined) await updateLeased(run.database.db, row, owner, LEASE_MS, ending);
            await finishLeased(run.database.db, row.id, owner, ending.status === undefined ? { nextAttemptAt: new Date() } : ending);
          }),
        ).catch(() => errors++);
      }
    };
    const people = async () => {
      for (let round = 0; round < 15; round++) await retryDocuments(run.database.db, {}).catch(() => errors++);
    };
    const deliveries = async () => {
      for (let round = 0; round < 15; round++) await intake(SHOPS[round % SHOPS.length]!, 4).catch(() => errors++);
    };
    await intake(SHOPS[0]!, 30);
    await Promise.all([worker('w1'), worker('w2'), worker('w3'), people(), deliveries()]);

    expect(errors).toBe(0);
    const totals = await exact();
    expect(totals.length).toBeGreaterThan(3);
    expect(await counted()).toEqual(totals);
    const all = (await Promise.all(SHOPS.map((s) => countByStatus(run.database.db, s)))).reduce((sum, c) => sum + c.all, 0);
    expect(all).toBe(30 + 15 * 4);
  });
});

describe('document counters after an upgrade', () => {
  it('start from the documents already stored', async () => {
    // The migrations before the counters, then documents, then the rest.
    const before = fs.mkdtempSync(path.join(os.tmpdir(), 'fe-migrations-'));
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    const upTo = journal.entries.findIndex((e) => e.tag.endsWith('_fair_claims_and_counts'));
    fs.mkdirSync(path.join(before, 'meta'));
    fs.writeFileSync(path.join(before, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }));
    for (const e of journal.entries.slice(0, upTo))
      fs.copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(before, `${e.tag}.sql`));
    const client = await PGlite.create();
    try {
      const db = drizzle({ client });
      await migrate(db, { migrationsFolder: before });
      await db.execute(sql`
        insert into documents (shop, source_key, order_gid, order_name, total_cents, currency, snapshot, status, step)
        select 'tienda-' || (g % 2) || '.myshopify.com', 'o' || g, 'o' || g, '#' || g, 100, 'USD', '{}',
          case when g % 3 = 0 then 'completed' else 'pending' end, case when g % 3 = 0 then 'done' else 'send' end
        from generate_series(1, 12) g`);
      await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
      const counted = await db.execute<{ shop: string; status: string; n: string }>(
        sql`select shop, status, n::text from document_counts order by shop, status`,
      );
      expect(counted.rows).toEqual([
        { shop: 'tienda-0.myshopify.com', status: 'completed', n: '2' },
        { shop: 'tienda-0.myshopify.com', status: 'pending', n: '4' },
        { shop: 'tienda-1.myshopify.com', status: 'completed', n: '2' },
        { shop: 'tienda-1.myshopify.com', status: 'pending', n: '4' },
      ]);
    } finally {
      await client.close();
      fs.rmSync(before, { recursive: true, force: true });
    }
  });
});
