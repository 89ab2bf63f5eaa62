// Claiming is fair between shops: every shop with due work gets its turn before any shop gets a second, within the
// process's per-shop limit; and it stays exactly-once when many claimers run at once (SKIP LOCKED).
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { documents, shops } from '../../../src/db/schema.ts';
import { claimDue } from '../../../src/documents/store/index.ts';
import { databaseForBlock } from '../../support/database-block.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { invoiceRow } from '../../support/documents.ts';

const FLOOD = 'tienda-flash.myshopify.com';
const SMALL_1 = 'tienda-chica-1.myshopify.com';
const SMALL_2 = 'tienda-chica-2.myshopify.com';
const LEASE_MS = 60_000;

describe.each(testDatabases)('fair claiming on $name', (target) => {
  const run = databaseForBlock(target, [documents, shops]);
  let seq = 0;

  const addShop = (shop: string, state: Partial<typeof shops.$inferInsert> = {}) =>
    run.database.db.insert(shops).values({ shop, enabled: true, ...state });

  /** `count` due documents of a shop, the first `ageSeconds` old and each next one a second younger. Their ids, oldest first. */
  async function addDue(shop: string, count: number, ageSeconds: number, values: Partial<typeof documents.$inferInsert> = {}) {
    const rows = Array.from({ length: count }, () => {
      const n = ++seq;
      return invoiceRow({
        shop,
        orderGid: `gid://shopify/Order/${n}`,
        orderName: `#${n}`,
        totalCents: 1000,
        currency: 'USD',
        snapshot: {},
        ...values,
      });
    });
    const inserted = await run.database.db.insert(documents).values(rows).returning({ id: documents.id });
    const ids = inserted.map((r) => r.id);
    for (const [i, id] of ids.entries())
      await run.database.db
        .update(documents)
        .set({ nextAttemptAt: sql`now() - ${ageSeconds - i} * interval '1 second'` })
        .where(eq(documents.id, id));
    return ids;
  }

  const claim = (limit: number, held: Record<string, number> = {}, shopLimit = 8) =>
    claimDue(run.database.db, { owner: 'worker-1', limit, leaseMs: LEASE_MS, shopLimit, held: new Map(Object.entries(held)) });

  const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

  it('gives every shop with due work its turn before the flooding shop gets more, oldest first', async () => {
    await Promise.all([addShop(FLOOD), addShop(SMALL_1), addShop(SMALL_2)]);
    const flood = await addDue(FLOOD, 20, 3600);
    const small1 = await addDue(SMALL_1, 2, 60);
    const small2 = await addDue(SMALL_2, 2, 30);

    // Three shops share 8 places: turn 1 and 2 of each, then the flooding shop's turns 3 and 4.
    const first = await claim(8);
    expect(ids(first)).toEqual([...flood.slice(0, 4), ...small1, ...small2].sort());
    expect(first.every((r) => r.leaseOwner === 'worker-1' && r.leaseUntil !== null)).toBe(true);

    // Alone now, the flooding shop takes every place offered, in its order.
    const second = await claim(8);
    expect(ids(second)).toEqual(flood.slice(4, 12).sort());
  });

  it('offers each shop no more than its room under the per-shop limit in this process', async () => {
    await Promise.all([addShop(FLOOD), addShop(SMALL_1)]);
    const flood = await addDue(FLOOD, 20, 3600);
    const small1 = await addDue(SMALL_1, 3, 60);

    expect(ids(await claim(8, { [FLOOD]: 7 }))).toEqual([flood[0]!, ...small1].sort());
    // At its limit, the shop is not offered at all.
    const more = await addDue(SMALL_1, 2, 10);
    expect(ids(await claim(8, { [FLOOD]: 8 }))).toEqual(more.sort());
    expect(await claim(8, { [FLOOD]: 8, [SMALL_1]: 8 })).toEqual([]);
  });

  it('takes only what is due, unleased, of enabled, installed, unpaused shops; an expired lease is taken again', async () => {
    await Promise.all([
      addShop(FLOOD),
      addShop(SMALL_1, { enabled: false }),
      addShop(SMALL_2, { pausedReason: { key: 'credentials_refused', params: {} } }),
      addShop('tienda-ida.myshopify.com', { installed: false }),
    ]);
    await addDue(SMALL_1, 1, 60);
    await addDue(SMALL_2, 1, 60);
    await addDue('tienda-ida.myshopify.com', 1, 60);
    await addDue(FLOOD, 1, -60); // due in a minute
    await addDue(FLOOD, 1, 60, { status: 'needs_attention' });
    await addDue(FLOOD, 1, 60, { status: 'completed', step: 'done' });
    await addDue(FLOOD, 1, 60, { leaseOwner: 'worker-2', leaseUntil: new Date(Date.now() + LEASE_MS) });
    const expired = await addDue(FLOOD, 1, 60, { leaseOwner: 'worker-2', leaseUntil: new Date(Date.now() - 1000) });
    const waiting = await addDue(FLOOD, 1, 50, { status: 'waiting' });

    expect(ids(await claim(8))).toEqual([...expired, ...waiting].sort());
    expect(await claim(8)).toEqual([]);
  });

  it('hands each document to one claimer only when many claim at once', async () => {
    const shopNames = Array.from({ length: 12 }, (_, i) => `tienda-${i}.myshopify.com`);
    await Promise.all(shopNames.map((s) => addShop(s)));
    const all = (await Promise.all(shopNames.map((s, i) => addDue(s, 10 + 3 * i, 600)))).flat();
    const claimedBy = new Map<string, string>();
    let duplicates = 0;
    await Promise.all(
      Array.from({ length: 6 }, async (_, w) => {
        const owner = `worker-${w}`;
        for (let idle = 0; claimedBy.size < all.length && idle < 50;) {
          const rows = await claimDue(run.database.db, { owner, limit: 7, leaseMs: LEASE_MS, shopLimit: 100, held: new Map() });
          idle = rows.length === 0 ? idle + 1 : 0;
          for (const r of rows) {
            if (claimedBy.has(r.id)) duplicates++;
            claimedBy.set(r.id, owner);
          }
        }
      }),
    );
    expect(duplicates).toBe(0);
    expect([...claimedBy.keys()].sort()).toEqual([...all].sort());
    // Each row's lease is its one claimer's.
    const leased = await run.database.db.select({ id: documents.id, owner: documents.leaseOwner }).from(documents);
    expect(leased.every((r) => claimedBy.get(r.id) === r.owner)).toBe(true);
  });
});
