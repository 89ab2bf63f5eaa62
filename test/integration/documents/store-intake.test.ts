// The documents store's intake (src/documents/store/): each source stored once, every delivery recorded, on PGlite
// and on PostgreSQL alike. Each test works in shops of its own.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db, rowsOf } from '../../../src/db/database.ts';
import { documents, webhookDeliveries } from '../../../src/db/schema.ts';
import { IntakeBatcher } from '../../../src/documents/intake-batcher.ts';
import { type NewDocument, countDeliveries, insertBatch, recordDelivery } from '../../../src/documents/store/index.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { deliveriesOf, delivery, newCreditNote, orderGid, uniqueShop } from '../../support/document-store-seeds.ts';
import { invoiceRow, newInvoice } from '../../support/documents.ts';

describe.each(testDatabases)('documents store on $name', (target) => {
  let database: Database;
  let db: Db;
  beforeAll(async () => {
    database = await target.open();
    db = database.db;
  });
  afterAll(async () => {
    await database?.close();
  });

  describe('intake', () => {
    it('stores each source once: a repeat in the same batch or a later one is a duplicate; every delivery is recorded', async () => {
      const shop = uniqueShop('intake');
      const [a, b] = [orderGid(), orderGid()];
      const invoice = (gid: string, raw: string) =>
        newInvoice({ shop, orderGid: gid, orderName: `#${gid.slice(-4)}`, totalCents: 10593, rawOrder: raw });
      // Stored as the text that arrived: spacing and key order kept.
      const rawA = '{"id": 1,  "name":"#A", "note": "café ñ"}';
      expect(
        await insertBatch(db, [
          { document: invoice(a, rawA), delivery: delivery('w-1') },
          { document: invoice(b, '{"id":2}'), delivery: delivery('w-2') },
          { document: invoice(a, '{"id":1,"again":true}'), delivery: delivery('w-3') },
        ]),
      ).toEqual(['stored', 'stored', 'duplicate']);
      expect(await insertBatch(db, [{ document: invoice(b, '{"id":2}'), delivery: delivery('w-4') }])).toEqual(['duplicate']);

      const rows = await db.select().from(documents).where(eq(documents.shop, shop)).orderBy(documents.orderGid);
      expect(
        rows.map((r) => [r.kind, r.sourceKey, r.orderGid, r.documentType, r.totalCents, r.currency, r.test, r.status, r.step]),
      ).toEqual([
        ['invoice', a, a, '01', 10593, 'USD', false, 'pending', 'send'],
        ['invoice', b, b, '01', 10593, 'USD', false, 'pending', 'send'],
      ]);
      const [text] = rowsOf<{ snapshot: string }>(await db.execute(sql`select snapshot from ${documents} where order_gid = ${a}`));
      expect(text?.snapshot).toBe(rawA);
      expect(rows[0]?.snapshot).toEqual({ id: 1, name: '#A', note: 'café ñ' });
      const recorded = (webhookId: string, gid: string, outcome: string) => ({
        webhookId,
        eventId: `e-${webhookId}`,
        topic: 'orders/paid',
        orderGid: gid,
        triggeredAt: '2026-11-20T15:30:00Z',
        outcome,
      });
      expect(await deliveriesOf(db, shop)).toEqual([
        recorded('w-1', a, 'stored'),
        recorded('w-2', b, 'stored'),
        recorded('w-3', a, 'duplicate'),
        recorded('w-4', b, 'duplicate'),
      ]);
    });

    it("a refund is another document than its order's invoice; its order name comes from the invoice, or is empty", async () => {
      const shop = uniqueShop('refund');
      const [invoiced, notInvoiced] = [orderGid(), orderGid()];
      const invoice = newInvoice({ shop, orderGid: invoiced, orderName: '#1001', totalCents: 5000 });
      expect(await insertBatch(db, [{ document: invoice, delivery: delivery('r-1') }])).toEqual(['stored']);
      expect(
        await insertBatch(db, [
          {
            document: newCreditNote({ shop, orderGid: invoiced, refundGid: 'gid://shopify/Refund/11', totalCents: 1250 }),
            delivery: delivery('r-2', 'refunds/create'),
          },
          {
            document: newCreditNote({ shop, orderGid: notInvoiced, refundGid: 'gid://shopify/Refund/12', totalCents: 700 }),
            delivery: delivery('r-3', 'refunds/create'),
          },
        ]),
      ).toEqual(['stored', 'stored']);
      const rows = await db.select().from(documents).where(eq(documents.shop, shop)).orderBy(documents.sourceKey);
      expect(rows.map((r) => [r.kind, r.documentType, r.sourceKey, r.orderGid, r.orderName, r.totalCents])).toEqual([
        ['invoice', '01', invoiced, invoiced, '#1001', 5000],
        ['credit_note', '04', 'gid://shopify/Refund/11', invoiced, '#1001', 1250],
        ['credit_note', '04', 'gid://shopify/Refund/12', notInvoiced, '', 700],
      ]);
    });

    it('refuses a second invoice for the same shop, order and document type', async () => {
      const row = invoiceRow({
        shop: 'a.myshopify.com',
        orderGid: 'gid://shopify/Order/1',
        orderName: '#1001',
        totalCents: 1234,
        currency: 'USD',
        snapshot: { id: 1 },
      });
      const first = await db.insert(documents).values(row).onConflictDoNothing().returning({ id: documents.id });
      const second = await db.insert(documents).values(row).onConflictDoNothing().returning({ id: documents.id });
      expect(first).toHaveLength(1);
      expect(second).toHaveLength(0);
    });

    it('group commit: 300 concurrent deliveries in a few statements; duplicates inside one batch count once', async () => {
      const shop = uniqueShop('batch');
      const invoice = (n: number): NewDocument =>
        newInvoice({
          shop,
          orderGid: `gid://shopify/Order/${n}`,
          orderName: `#${n}`,
          totalCents: 1000 + n,
          rawOrder: JSON.stringify({ id: n, name: `#${n}` }),
        });
      const batcher = new IntakeBatcher(db, { maxBatch: 100 });
      let statements = 0;
      const counting = new Proxy(db, {
        get(target, key) {
          if (key === 'execute') return ((query: never) => (statements++, target.execute(query))) as typeof target.execute;
          const value: unknown = Reflect.get(target, key);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
      const counted = new IntakeBatcher(counting, { maxBatch: 100 });
      // 250 distinct orders, and order 1..50 delivered a second time in the same burst.
      const work = [
        ...Array.from({ length: 250 }, (_, i) => counted.enqueue(invoice(i + 1), delivery(`a-${i}`))),
        ...Array.from({ length: 50 }, (_, i) => counted.enqueue(invoice(i + 1), delivery(`b-${i}`))),
      ];
      const results = await Promise.all(work);
      expect(results.filter((r) => r === 'stored')).toHaveLength(250);
      expect(results.slice(250)).toEqual(Array(50).fill('duplicate'));
      expect(statements).toBe(3);
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(documents)
        .where(eq(documents.shop, shop));
      expect(count!.n).toBe(250);
      const [deliveries] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.shop, shop));
      expect(deliveries!.n).toBe(300);
      // A later delivery of a stored order is a duplicate too.
      expect(await batcher.enqueue(invoice(7), delivery('c-1'))).toBe('duplicate');
    });

    it('judges each delivery alone: one the database refuses fails by itself, its neighbours in the batch are stored', async () => {
      const shop = uniqueShop('fail');
      const invoice = (n: number) => newInvoice({ shop, orderGid: `gid://shopify/Order/${n}`, orderName: `#${n}`, totalCents: 1000 + n });
      const batcher = new IntakeBatcher(db);
      // A NUL is a value PostgreSQL's text refuses: the batch statement fails, then each delivery goes again alone.
      const poisoned = { ...invoice(9001), orderName: '#9001\u0000' };
      const results = await Promise.allSettled([
        batcher.enqueue(invoice(9000), delivery('f-1')),
        batcher.enqueue(poisoned, delivery('f-2')),
        batcher.enqueue(invoice(9002), delivery('f-3')),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const stored = await db.select({ name: documents.orderName }).from(documents).where(eq(documents.shop, shop));
      expect(stored.map((r) => r.name).sort()).toEqual(['#9000', '#9002']);
      // Each goes again alone, at once on PostgreSQL: in either order.
      expect((await deliveriesOf(db, shop)).map((d) => [d.webhookId, d.outcome]).sort()).toEqual([
        ['f-1', 'stored'],
        ['f-3', 'stored'],
      ]);
    });

    it('deliveries answered without a document are recorded and counted, the sweep’s enqueues are not', async () => {
      const shop = uniqueShop('refused');
      const gid = orderGid();
      const key = (c: { topic: string; outcome: string }) => `${c.topic} ${c.outcome}`;
      const counts = async () => new Map((await countDeliveries(db)).map((c) => [key(c), c.n]));
      const before = await counts();
      await recordDelivery(db, shop, delivery('n-1'), 'shop_not_enabled', gid);
      await recordDelivery(db, shop, delivery('sweep-1'), 'shop_not_enabled', gid);
      const after = await counts();
      expect((after.get('orders/paid shop_not_enabled') ?? 0) - (before.get('orders/paid shop_not_enabled') ?? 0)).toBe(1);
      expect((await deliveriesOf(db, shop)).map((d) => [d.webhookId, d.orderGid, d.outcome])).toEqual([
        ['n-1', gid, 'shop_not_enabled'],
        ['sweep-1', gid, 'shop_not_enabled'],
      ]);
    });
  });
});
