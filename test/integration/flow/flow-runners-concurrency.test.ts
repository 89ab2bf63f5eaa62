// Many Flow runners on one database (as many app processes would be): each event fires once. The outbox's rows are
// claimed with SKIP LOCKED under a lease; a row whose holder died (its lease ran out) is fired by another, once, and a
// row another runner holds is left alone.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { documents, flowEvents } from '../../../src/db/schema.ts';
import { FlowRunner } from '../../../src/flow/flow-runner.ts';
import { silentLogger } from '../../../src/logger.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { harnessFor } from '../../support/harness-blocks.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-flow-runners.myshopify.com';
const ORDERS = 12;

describe.each(testDatabases)('Flow runners side by side on $name', (target) => {
  // The app's own runner stays: four more race it.
  const run = harnessFor(target);

  it(`${ORDERS} invoices, five runners, stale and held leases: each trigger once`, async () => {
    const { h, database } = run;
    const db = database.db;
    await h.installShop(SHOP, { flowTriggers: { enabled: false, language: 'es' } });
    const ids = Array.from({ length: ORDERS }, (_, i) => 7_200_000_000_000 + i);
    for (const id of ids) await h.simulator.orderPaid(SHOP, makePaidOrder({ id }), h.webhookAddress);
    const done = await waitFor(
      async () => {
        const rows = await db.select().from(documents).where(eq(documents.shop, SHOP));
        return rows.length === ORDERS && rows.every((r) => r.status === 'completed') ? rows : undefined;
      },
      60_000,
      'the invoices',
    );
    // Flow was off while they completed: the test queues their events at once, so the runners meet them together.
    const settings = (await h.app.shops.get(SHOP))!.settings;
    await h.app.shops.saveSettings(SHOP, { ...settings, flowTriggers: { enabled: true, language: 'es' } });
    const [dead, held, ...free] = done;
    await db.insert(flowEvents).values([
      // A runner died holding this one: its lease ran out.
      { documentId: dead!.id, shop: SHOP, event: 'invoice_authorized', leaseOwner: 'dead', leaseUntil: new Date(Date.now() - 1000) },
      // Another runner holds this one for a while yet.
      { documentId: held!.id, shop: SHOP, event: 'invoice_authorized', leaseOwner: 'alive', leaseUntil: new Date(Date.now() + 3_600_000) },
      ...free.map((d) => ({ documentId: d.id, shop: SHOP, event: 'invoice_authorized' as const })),
    ]);
    const runners = Array.from(
      { length: 4 },
      () =>
        new FlowRunner({
          db,
          admin: h.app.admin,
          appUrl: h.app.url,
          logger: silentLogger,
          options: { leaseMs: 10_000, pollMs: 20, maxAttempts: 5, retryBaseMs: 20, retryMaxMs: 200 },
        }),
    );
    try {
      for (const r of runners) r.start();
      h.app.flow.wake();
      await waitFor(
        async () => {
          const rows = await db.select().from(flowEvents).where(eq(flowEvents.shop, SHOP));
          return rows.filter((r) => r.status === 'sent').length === ORDERS - 1 || undefined;
        },
        30_000,
        'the events to be sent',
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      await Promise.all(runners.map((r) => r.stop()));
    }
    const fired = h.simulator.flowTriggers(SHOP).map((t) => t.payload['order_id']);
    expect([...fired].sort()).toEqual(ids.filter((id) => `gid://shopify/Order/${id}` !== held!.orderGid).sort());
    const calls = h.simulator.calls().filter((c) => c.shop === SHOP && c.operation === 'flowTriggerReceive');
    expect(calls).toHaveLength(ORDERS - 1);
    const rows = await db.select().from(flowEvents).where(eq(flowEvents.shop, SHOP));
    expect(rows.filter((r) => r.status === 'sent').every((r) => r.attempts === 1 && r.leaseOwner === null)).toBe(true);
    expect(rows.find((r) => r.documentId === held!.id)).toMatchObject({ status: 'pending', leaseOwner: 'alive', attempts: 0 });
  }, 90_000);
});
