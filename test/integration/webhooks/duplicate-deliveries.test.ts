// 50 deliveries of one order at once, each with its own webhook id: one invoice, one SendDocument.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { gatewayCalls, documents, webhookDeliveries } from '../../../src/db/schema.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { harnessForShop } from '../../support/harness-blocks.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-duplicados.myshopify.com';

describe.each(testDatabases)('a storm of duplicate deliveries on $name', (target) => {
  const run = harnessForShop(target, SHOP);

  it('50 concurrent deliveries with different webhook ids make exactly one invoice and one SendDocument', async () => {
    const order = makePaidOrder({ id: 7_500_000_000_001 });
    const gid = run.h.simulator.setOrder(SHOP, order);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        run.h.simulator.sendWebhook({
          address: run.h.webhookAddress,
          topic: 'orders/paid',
          shop: SHOP,
          payload: order,
          webhookId: `storm-${i}`,
          eventId: 'storm-event',
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const outcomes = results.map((r) => (JSON.parse(r.body) as { outcome: string }).outcome);
    expect(outcomes.filter((o) => o === 'stored')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(49);

    const invoice = await waitFor(async () => {
      const [row] = await run.database.db.select().from(documents).where(eq(documents.orderGid, gid));
      return row?.status === 'completed' ? row : undefined;
    });
    expect(await run.database.db.select().from(documents).where(eq(documents.shop, SHOP))).toHaveLength(1);
    const sends = (await run.database.db.select().from(gatewayCalls).where(eq(gatewayCalls.documentId, invoice.id))).filter(
      (c) => c.operation === 'SendDocument',
    );
    expect(sends).toHaveLength(1);
    expect(run.h.sandbox.gateway.stats().requests.SendDocument).toBe(1);
    const deliveries = await run.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.orderGid, gid));
    expect(deliveries).toHaveLength(50);
    expect(new Set(deliveries.map((d) => d.webhookId)).size).toBe(50);
  });
});
