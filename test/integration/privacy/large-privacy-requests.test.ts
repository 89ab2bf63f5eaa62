// Privacy requests that list 150,000 orders (Shopify's ids, 13 digits: about 2 MB) answer 200 and do their work
// (issue 25, item 9), on both databases: the orders are looked up in slices, never one statement of 150,000 values.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { documents } from '../../../src/db/schema.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { harnessForShop } from '../../support/harness-blocks.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-privacidad-grande.myshopify.com';
const FIRST_ID = 5_912_345_600_000;
const IDS = Array.from({ length: 150_000 }, (_, i) => FIRST_ID + i);

describe.each(testDatabases)('privacy requests of 150,000 orders on $name', (target) => {
  const run = harnessForShop(target, SHOP);
  const send = (topic: string, payload: object) =>
    run.h.simulator.sendWebhook({ address: `${run.h.app.url}/webhooks/compliance`, topic, shop: SHOP, payload });

  it('customers/data_request and customers/redact answer 200 and find the order among them', async () => {
    // One real order of the customer, in the middle of the list.
    const id = IDS[75_000]!;
    await run.h.simulator.orderPaid(SHOP, makePaidOrder({ id, email: 'ana.perez@example.com' }), run.h.webhookAddress);
    const gid = `gid://shopify/Order/${id}`;
    await waitFor(
      async () => (await run.database.db.select().from(documents).where(eq(documents.orderGid, gid)))[0]?.status === 'completed',
      30_000,
      'the invoice',
    );
    const request = await send('customers/data_request', { shop_domain: SHOP, customer: { id: 999 }, orders_requested: IDS });
    expect(request.status).toBe(200);
    const redact = await send('customers/redact', { shop_domain: SHOP, customer: { id: 999 }, orders_to_redact: IDS });
    expect(redact.status).toBe(200);
    expect(String(redact.body)).toContain('"snapshotsRedacted":1');
    const [row] = await run.database.db.select().from(documents).where(eq(documents.orderGid, gid));
    expect(row?.snapshotRedacted).toBe(true);
  });
});
