// The buyer's tax id from where Shopify keeps it (docs/design.md §10), and an order confirmed through its own shop's Admin API
// before anything is issued (docs/design.md §7): end to end over HTTP, store simulator and sandbox gateway, both databases.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMappingSettings } from '../../../mappers/invoice/mapping-settings.ts';
import type { Database } from '../../../src/db/database.ts';
import { documents, fiscalSequences, webhookDeliveries } from '../../../src/db/schema.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-ruc.myshopify.com';
const OTHER = 'tienda-ajena.myshopify.com';

describe.each(testDatabases)('the buyer’s tax id and the order’s own shop on $name', (target) => {
  let database: Database;
  let h: Harness;

  beforeAll(async () => {
    database = await target.open();
    h = await startHarness({ database });
    await h.installShop(SHOP, { mapping: { ...defaultMappingSettings, customerTaxIdMetafield: { namespace: 'facturacion', key: 'ruc' } } });
    await h.installShop(OTHER);
  });
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });

  const documentOf = (shop: string, id: number) =>
    waitFor(async () => {
      const [row] = await database.db
        .select()
        .from(documents)
        .where(and(eq(documents.shop, shop), eq(documents.orderGid, `gid://shopify/Order/${id}`)));
      return row && row.status !== 'pending' ? row : undefined;
    }, 20_000);

  const clientOf = (row: { document: unknown }) =>
    (row.document as { dataTransaction: { client: Record<string, string> } }).dataTransaction.client;

  it('a B2B order whose company location has a tax id is invoiced to that taxpayer, and the page says where the RUC came from', async () => {
    const id = 6_500_000_000_001;
    const order = { ...makePaidOrder({ id }), company: { id: 7_100_000_001, location_id: 7_200_000_001 } };
    h.simulator.setCompanyLocationTaxId(SHOP, 'gid://shopify/CompanyLocation/7200000001', '155646463-2-2017 DV 86', {
      companyName: 'Importadora Ejemplo, S.A.',
    });
    await h.simulator.orderPaid(SHOP, order, h.webhookAddress);
    const row = await documentOf(SHOP, id);
    expect(row).toMatchObject({ status: 'completed', taxIdSource: 'b2b_company' });
    expect(clientOf(row)).toMatchObject({
      typeClientEB: '01',
      typeTaxpayer: '2',
      numberRUC: '155646463-2-2017',
      digitCheckRUC: '86',
      businessName: 'Importadora Ejemplo, S.A.',
    });
    const token = await h.simulator.sessionToken(SHOP);
    const detail = (await (
      await fetch(`${h.app.url}/api/invoices/${row.id}`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as {
      invoice: { taxIdSource: string };
    };
    expect(detail.invoice.taxIdSource).toBe('b2b_company');
  });

  it('a RUC kept in the customer metafield the shop names is invoiced to that taxpayer', async () => {
    const id = 6_500_000_000_002;
    const order = makePaidOrder({ id });
    const customer = (order.customer as { admin_graphql_api_id: string }).admin_graphql_api_id;
    h.simulator.setCustomerMetafield(SHOP, customer, 'facturacion', 'ruc', '8-442-445 DV 08');
    await h.simulator.orderPaid(SHOP, order, h.webhookAddress);
    const row = await documentOf(SHOP, id);
    expect(row).toMatchObject({ status: 'completed', taxIdSource: 'customer_metafield' });
    expect(clientOf(row)).toMatchObject({ typeClientEB: '01', typeTaxpayer: '1', numberRUC: '8-442-445', digitCheckRUC: '08' });
  });

  it("another shop's signed order sent under this shop's header is refused: nothing issued, no number used, the delivery says so", async () => {
    const id = 6_500_000_000_003;
    const order = makePaidOrder({ id });
    h.simulator.setOrder(SHOP, order);
    // Signed with the app's secret like every delivery; only the (unsigned) shop header lies.
    const replay = await h.simulator.sendWebhook({ address: h.webhookAddress, topic: 'orders/paid', shop: OTHER, payload: order });
    expect(replay.status).toBe(200);
    const gid = `gid://shopify/Order/${id}`;
    await waitFor(
      async () => {
        const [delivery] = await database.db
          .select({ outcome: webhookDeliveries.outcome })
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.shop, OTHER), eq(webhookDeliveries.orderGid, gid)));
        return delivery?.outcome === 'refused_not_in_shop';
      },
      20_000,
      'the replay to be refused',
    );
    expect(await database.db.select().from(documents).where(eq(documents.shop, OTHER))).toEqual([]);
    expect(await database.db.select().from(fiscalSequences).where(eq(fiscalSequences.shop, OTHER))).toEqual([]);
    expect(h.sandbox.gateway.documents().filter((d) => d.company === OTHER)).toEqual([]);
    expect(await h.app.shops.get(OTHER)).toMatchObject({ installed: true, enabled: true, pausedReason: null });
  });
});
