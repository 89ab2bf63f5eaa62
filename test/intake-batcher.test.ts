// Group commit: concurrent deliveries share one transaction, and each answer waits for its commit.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { documents, webhookDeliveries } from '../src/db/schema.ts';
import { IntakeBatcher } from '../src/documents/intake-batcher.ts';
import type { NewDocument } from '../src/documents/store/index.ts';
import { newInvoice } from './support/documents.ts';
import { testDatabases } from './support/databases.ts';

const invoice = (n: number, shop = 'batch.myshopify.com'): NewDocument =>
  newInvoice({
    shop,
    orderGid: `gid://shopify/Order/${n}`,
    orderName: `#${n}`,
    totalCents: 1000 + n,
    rawOrder: JSON.stringify({ id: n, name: `#${n}` }),
  });
const delivery = (id: string) => ({ webhookId: id, eventId: undefined, topic: 'orders/paid', triggeredAt: undefined });

describe.each(testDatabases)('intake batcher on $name', (target) => {
  let database: Database;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('writes 300 concurrent deliveries in a few statements; duplicates inside one batch count once', async () => {
    const batcher = new IntakeBatcher(database.db, { maxBatch: 100 });
    let statements = 0;
    const counting = new Proxy(database.db, {
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
    const [count] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(documents)
      .where(eq(documents.shop, 'batch.myshopify.com'));
    expect(count!.n).toBe(250);
    const [deliveries] = await database.db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries);
    expect(deliveries!.n).toBe(300);
    // A later delivery of a stored order is a duplicate too.
    expect(await batcher.enqueue(invoice(7), delivery('c-1'))).toBe('duplicate');
  });

  it('judges each delivery alone: one the database refuses fails by itself, its neighbours in the batch are stored', async () => {
    const batcher = new IntakeBatcher(database.db);
    // A NUL is a value PostgreSQL's text refuses: the batch statement fails, then each delivery goes again alone.
    const poisoned = { ...invoice(9001, 'fail.myshopify.com'), orderName: '#9001\u0000' };
    const results = await Promise.allSettled([
      batcher.enqueue(invoice(9000, 'fail.myshopify.com'), delivery('f-1')),
      batcher.enqueue(poisoned, delivery('f-2')),
      batcher.enqueue(invoice(9002, 'fail.myshopify.com'), delivery('f-3')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const stored = await database.db.select({ name: documents.orderName }).from(documents).where(eq(documents.shop, 'fail.myshopify.com'));
    expect(stored.map((r) => r.name).sort()).toEqual(['#9000', '#9002']);
  });
});
