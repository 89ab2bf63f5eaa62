// app/uninstalled and the three privacy topics, signed by the store simulator and sent over HTTP:
// 401 for a bad signature, what each one stores, changes and deletes.
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseShopifyOrder } from '../../../mappers/shopify/shopify-order.ts';
import {
  complianceRequests,
  fiscalSequences,
  gatewayCalls,
  documentPdfs,
  documents,
  sessions,
  shops,
  webhookDeliveries,
} from '../../../src/db/schema.ts';
import type { GatewayDocument } from '../../../mappers/gateway/gateway-document.ts';
import { findDocument as getInvoice } from '../../../src/documents/store/index.ts';
import { invoiceRow } from '../../support/documents.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { harnessForShop } from '../../support/harness-blocks.ts';
import { installViaOAuth } from '../../support/oauth-install.ts';
import { ANA, LUIS, gidOf, orderOf } from '../../support/privacy-buyers.ts';

const SHOP = 'tienda-privacidad.myshopify.com';
const OTHER = 'tienda-vecina.myshopify.com';

describe.each(testDatabases)('uninstall and privacy webhooks on $name', (target) => {
  const run = harnessForShop(target, SHOP, OTHER);
  const address = (path: string) => `${run.h.app.url}${path}`;

  const invoiceOf = async (orderId: number) => {
    const [row] = await run.database.db
      .select()
      .from(documents)
      .where(eq(documents.orderGid, gidOf(orderId)));
    return row!;
  };
  const send = (path: string, topic: string, payload: object | string, extra: Record<string, unknown> = {}) =>
    run.h.simulator.sendWebhook({ address: address(path), topic, shop: SHOP, payload, ...extra });
  /** Row counts of every table for a shop. */
  const countsFor = async (shop: string) => {
    const n = sql<number>`count(*)::int`;
    const one = async (rows: Promise<{ n: number }[]>) => Number((await rows)[0]?.n ?? 0);
    const db = run.database.db;
    return {
      invoices: await one(db.select({ n }).from(documents).where(eq(documents.shop, shop))),
      documentPdfs: await one(
        db.select({ n }).from(documentPdfs).innerJoin(documents, eq(documents.id, documentPdfs.documentId)).where(eq(documents.shop, shop)),
      ),
      gatewayCalls: await one(db.select({ n }).from(gatewayCalls).where(eq(gatewayCalls.shop, shop))),
      webhookDeliveries: await one(db.select({ n }).from(webhookDeliveries).where(eq(webhookDeliveries.shop, shop))),
      fiscalSequences: await one(db.select({ n }).from(fiscalSequences).where(eq(fiscalSequences.shop, shop))),
      sessions: await one(db.select({ n }).from(sessions).where(eq(sessions.shop, shop))),
      shops: await one(db.select({ n }).from(shops).where(eq(shops.shop, shop))),
      complianceRequests: await one(db.select({ n }).from(complianceRequests).where(eq(complianceRequests.shop, shop))),
    };
  };

  beforeAll(async () => {
    for (const [id, buyer, shop] of [
      [5_900_000_000_501, ANA, SHOP],
      [5_900_000_000_502, ANA, SHOP],
      [5_900_000_000_601, LUIS, SHOP],
      [5_900_000_000_701, ANA, OTHER],
    ] as const) {
      const delivery = await run.h.simulator.orderPaid(shop, orderOf(id, buyer), run.h.webhookAddress);
      expect(delivery.status).toBe(200);
    }
    await waitFor(
      async () => {
        const rows = await run.database.db.select({ status: documents.status }).from(documents);
        return rows.length === 4 && rows.every((r) => r.status === 'completed');
      },
      30_000,
      'four completed invoices',
    );

    // An attempt the gateway rejected (109) for Ana: its document was sent but never authorized.
    const authorized = await invoiceOf(5_900_000_000_501);
    const rejectedDocument = structuredClone(authorized.document) as GatewayDocument;
    const [rejected] = await run.database.db
      .insert(documents)
      .values(
        invoiceRow({
          shop: SHOP,
          orderGid: gidOf(5_900_000_000_503),
          orderName: '#503',
          totalCents: 7043,
          currency: 'USD',
          snapshot: orderOf(5_900_000_000_503, ANA),
          status: 'needs_attention',
          document: rejectedDocument,
          lastErrorKind: 'rejected',
          lastErrorCode: '109',
        }),
      )
      .returning();
    await run.database.db.insert(gatewayCalls).values({
      documentId: rejected!.id,
      shop: SHOP,
      operation: 'SendDocument',
      outcome: 'rejected',
      code: '109',
      durationMs: 12,
      request: { GW_Token: '[redacted]', document: rejectedDocument },
      response: { code: '109' },
    });
  });

  it('every topic answers 401 to a body not signed with the app secret, and changes nothing', async () => {
    const before = await countsFor(SHOP);
    const forged = { secret: 'not-the-app-secret' };
    const cases: [string, string, object][] = [
      ['/webhooks/app/uninstalled', 'app/uninstalled', { id: 1, domain: SHOP }],
      ['/webhooks/compliance', 'customers/data_request', { shop_domain: SHOP, customer: { id: ANA.id }, orders_requested: [] }],
      ['/webhooks/compliance', 'customers/redact', { shop_domain: SHOP, customer: { id: ANA.id }, orders_to_redact: [] }],
      ['/webhooks/compliance', 'shop/redact', { shop_domain: SHOP }],
    ];
    for (const [path, topic, payload] of cases) {
      const result = await send(path, topic, payload, forged);
      expect(result.status, topic).toBe(401);
      expect(JSON.parse(result.body)).toEqual({ error: 'invalid HMAC signature' });
    }
    // Compliance: 401 even when headers are missing too (Shopify's review check), 400 only for a genuine body.
    const noId = await send(
      '/webhooks/compliance',
      'shop/redact',
      { shop_domain: SHOP },
      { ...forged, omitHeaders: ['X-Shopify-Webhook-Id'] },
    );
    expect(noId.status).toBe(401);
    const noHmac = await send('/webhooks/compliance', 'shop/redact', { shop_domain: SHOP }, { omitHeaders: ['X-Shopify-Hmac-Sha256'] });
    expect(noHmac.status).toBe(401);
    const empty = await send('/webhooks/compliance', 'shop/redact', '', forged);
    expect(empty.status).toBe(401);
    const genuineButIncomplete = await send(
      '/webhooks/compliance',
      'shop/redact',
      { shop_domain: SHOP },
      { omitHeaders: ['X-Shopify-Webhook-Id'] },
    );
    expect(genuineButIncomplete.status).toBe(400);
    // A compliance topic sent to the uninstall address (or the reverse) is refused.
    expect((await send('/webhooks/app/uninstalled', 'shop/redact', { shop_domain: SHOP })).status).toBe(400);
    expect((await send('/webhooks/compliance', 'app/uninstalled', { id: 1 })).status).toBe(400);

    expect(await countsFor(SHOP)).toEqual(before);
    expect((await run.h.app.shops.get(SHOP))?.installed).toBe(true);
  });

  it('a signed body about another shop than the header says is refused', async () => {
    const result = await send('/webhooks/compliance', 'shop/redact', { shop_id: 1, shop_domain: OTHER });
    expect(result.status).toBe(400);
    expect(JSON.parse(result.body)).toEqual({ error: 'shop_domain in the body does not match the X-Shopify-Shop-Domain header' });
    expect((await countsFor(OTHER)).invoices).toBe(1);
  });

  it('customers/data_request records, invoice by order, what we hold on the customer', async () => {
    const result = await send('/webhooks/compliance', 'customers/data_request', {
      shop_id: 954889,
      shop_domain: SHOP,
      orders_requested: [5_900_000_000_501],
      customer: { id: ANA.id, email: ANA.email, phone: ANA.phone },
      data_request: { id: 9999 },
    });
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ outcome: 'recorded', invoices: 3 });

    const [record] = await run.database.db.select().from(complianceRequests).where(eq(complianceRequests.topic, 'customers/data_request'));
    expect(record?.shop).toBe(SHOP);
    expect(record?.payload).toEqual({
      shop_id: '954889',
      shop_domain: SHOP,
      orders_requested: ['5900000000501'],
      customer: { id: '501', email: ANA.email, phone: ANA.phone },
      data_request: { id: '9999' },
    });
    const report = record?.result as { invoices: Record<string, unknown>[] };
    const first = await invoiceOf(5_900_000_000_501);
    const second = await invoiceOf(5_900_000_000_502);
    // Found by the listed order, and by the customer id for the others; Luis's order is not Ana's.
    expect(report.invoices.map((i) => [i['orderName'], i['status'], i['fiscalNumber'], i['cufe']])).toEqual([
      ['#501', 'completed', `0000-001-${String(first.fiscalNumber).padStart(10, '0')}`, first.cufe],
      ['#502', 'completed', `0000-001-${String(second.fiscalNumber).padStart(10, '0')}`, second.cufe],
      ['#503', 'needs_attention', null, null],
    ]);
    expect(report.invoices[0]).toMatchObject({
      invoiceId: first.id,
      orderGid: gidOf(5_900_000_000_501),
      snapshotRedacted: false,
      orderData: {
        email: ANA.email,
        phone: ANA.phone,
        customer: { id: ANA.id, email: ANA.email, first_name: 'Ana', last_name: 'Pérez' },
        billing_address: { address1: ANA.street, phone: ANA.phone },
        note_attributes: [{ name: 'mensaje', value: 'Feliz cumpleaños Ana' }],
      },
      invoiceClient: { typeClientEB: '02', businessName: 'Ana Pérez', email1: ANA.email, country: 'PA' },
    });
  });

  it('customers/redact clears the customer from order snapshots and unauthorized documents; authorized invoices keep their fiscal record', async () => {
    const luisBefore = await invoiceOf(5_900_000_000_601);
    const result = await send('/webhooks/compliance', 'customers/redact', {
      shop_id: 954889,
      shop_domain: SHOP,
      customer: { id: ANA.id, email: ANA.email, phone: ANA.phone },
      orders_to_redact: [5_900_000_000_501, 5_900_000_000_502],
    });
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toEqual({
      outcome: 'redacted',
      snapshotsRedacted: 3,
      fiscalRecordsKept: 2,
      documentsRedacted: 1,
      gatewayCallsRedacted: 3,
      dataReportsDeleted: 1,
    });

    for (const id of [5_900_000_000_501, 5_900_000_000_502, 5_900_000_000_503]) {
      const row = await invoiceOf(id);
      expect(row.snapshotRedacted).toBe(true);
      const text = JSON.stringify(row.snapshot);
      for (const personal of [
        ANA.email,
        ANA.phone,
        ANA.street,
        'Pérez',
        'Apto 3',
        '0801',
        'Feliz cumpleaños',
        'Para Ana',
        'Llamar a Ana',
        '190.140.1.23',
        '8.98',
      ]) {
        expect(text, `${id}: ${personal}`).not.toContain(personal);
      }
      // What an invoice is made of is still there: it can be mapped again.
      const parsed = parseShopifyOrder(row.snapshot);
      expect(parsed.ok).toBe(true);
      if (parsed.ok) {
        expect(parsed.order.lineItems.map((l) => [l.title, l.quantity, l.price])).toEqual([
          ['Camisa de lino', 2, 2450],
          ['Libro de cocina panameña', 1, 1800],
        ]);
        expect(parsed.order.totalPrice).toBe(7043);
        expect(parsed.order.customer).toEqual({ gid: `gid://shopify/Customer/${ANA.id}` });
      }
    }

    // The authorized invoices' documents are the fiscal record: unchanged, still naming the customer.
    for (const id of [5_900_000_000_501, 5_900_000_000_502]) {
      const row = await invoiceOf(id);
      expect((row.document as GatewayDocument).dataTransaction.client).toMatchObject({
        typeClientEB: '02',
        businessName: 'Ana Pérez',
        email1: ANA.email,
      });
      expect(row.status).toBe('completed');
      expect(row.cufe).toMatch(/^FE01/);
    }
    // The rejected attempt is no record: its client block lost the person, kept its classification.
    const rejected = await invoiceOf(5_900_000_000_503);
    const client = (rejected.document as GatewayDocument).dataTransaction.client;
    expect(client.typeClientEB).toBe('02');
    expect(client.country).toBe('PA');
    expect(client).not.toHaveProperty('businessName');
    expect(client).not.toHaveProperty('email1');
    // Stored gateway requests no longer repeat the customer's data.
    const calls = await run.database.db
      .select({ request: gatewayCalls.request })
      .from(gatewayCalls)
      .innerJoin(documents, eq(documents.id, gatewayCalls.documentId))
      .where(and(eq(documents.shop, SHOP), eq(gatewayCalls.operation, 'SendDocument')));
    const anaCalls = calls.filter((c) => JSON.stringify(c.request).includes('Luis') === false);
    expect(anaCalls).toHaveLength(3);
    for (const c of anaCalls) expect(JSON.stringify(c.request)).not.toContain(ANA.email);

    // Luis is untouched; so is Ana's order in another shop.
    const luis = await invoiceOf(5_900_000_000_601);
    expect(luis.snapshotRedacted).toBe(false);
    expect(luis.snapshot).toEqual(luisBefore.snapshot);
    expect(JSON.stringify((await invoiceOf(5_900_000_000_701)).snapshot)).toContain(ANA.email);

    // The earlier data report repeated Ana's data: gone. The redact record names her by id only.
    const records = await run.database.db.select().from(complianceRequests).where(eq(complianceRequests.shop, SHOP));
    expect(records.map((r) => r.topic)).toEqual(['customers/redact']);
    expect(records[0]?.payload).toEqual({
      shop_id: '954889',
      shop_domain: SHOP,
      customer: { id: '501' },
      orders_to_redact: ['5900000000501', '5900000000502'],
    });
  });

  it('app/uninstalled deletes the sessions and disables the shop; invoices stay readable; later orders are not invoiced', async () => {
    expect((await countsFor(SHOP)).sessions).toBe(1);
    // A genuine body about another shop, replayed under this shop's header, is refused.
    const replayed = await send('/webhooks/app/uninstalled', 'app/uninstalled', {
      id: 1,
      domain: 'vecina.example',
      myshopify_domain: OTHER,
    });
    expect(replayed.status).toBe(400);
    expect(JSON.parse(replayed.body)).toEqual({ error: 'myshopify_domain in the body does not match the X-Shopify-Shop-Domain header' });
    expect((await run.h.app.shops.get(SHOP))?.installed).toBe(true);

    const result = await send('/webhooks/app/uninstalled', 'app/uninstalled', {
      id: 954889,
      domain: 'tienda.example',
      myshopify_domain: SHOP,
      name: 'Tienda',
    });
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ outcome: 'uninstalled' });

    expect(await run.database.db.select().from(sessions).where(eq(sessions.shop, SHOP))).toEqual([]);
    const shop = await run.h.app.shops.get(SHOP);
    expect(shop).toMatchObject({ installed: false, enabled: false });
    const [row] = await run.database.db.select({ uninstalledAt: shops.uninstalledAt }).from(shops).where(eq(shops.shop, SHOP));
    expect(row?.uninstalledAt).toBeInstanceOf(Date);

    const invoice = await getInvoice(run.database.db, (await invoiceOf(5_900_000_000_601)).id);
    expect(invoice).toMatchObject({ status: 'completed', step: 'done', orderName: '#601' });
    expect(invoice?.cufe).toMatch(/^FE01/);
    expect((await countsFor(SHOP)).invoices).toBe(4);

    const after = await run.h.simulator.orderPaid(SHOP, orderOf(5_900_000_000_801, LUIS), run.h.webhookAddress);
    expect(JSON.parse(after.body)).toEqual({ outcome: 'shop_not_installed' });
    const deliveries = await run.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.shop, SHOP));
    expect(deliveries.filter((d) => d.topic === 'app/uninstalled').map((d) => d.outcome)).toEqual(['uninstalled']);

    // The other shop is not affected.
    expect(await run.h.app.shops.get(OTHER)).toMatchObject({ installed: true, enabled: true });
  });

  it("shop/redact after a reinstall deletes nothing; after the uninstall it deletes all the shop's data", async () => {
    // Reinstalled by OAuth: installed again, disabled until the merchant enables it; the numbering is kept.
    expect((await installViaOAuth(run.h.app.url, SHOP)).status).toBe(302);
    expect(await run.h.app.shops.get(SHOP)).toMatchObject({ installed: true, enabled: false });
    const stale = await send('/webhooks/compliance', 'shop/redact', { shop_id: 954889, shop_domain: SHOP });
    expect(JSON.parse(stale.body)).toEqual({ outcome: 'skipped', reason: 'the shop has the app installed again; nothing was deleted' });
    expect((await countsFor(SHOP)).invoices).toBe(4);
    expect((await countsFor(SHOP)).fiscalSequences).toBe(1);

    expect((await send('/webhooks/app/uninstalled', 'app/uninstalled', { id: 954889, domain: SHOP, myshopify_domain: SHOP })).status).toBe(
      200,
    );
    const otherBefore = await countsFor(OTHER);
    const result = await send('/webhooks/compliance', 'shop/redact', { shop_id: 954889, shop_domain: SHOP });
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toEqual({
      outcome: 'deleted',
      invoices: 4,
      gatewayCalls: 7,
      webhookDeliveries: 6,
      fiscalSequences: 1,
      fiscalSkips: 0,
      reportEmails: 0,
      sessions: 0,
      complianceRequests: 2,
      shop: 1,
    });

    expect(await countsFor(SHOP)).toEqual({
      invoices: 0,
      documentPdfs: 0,
      gatewayCalls: 0,
      webhookDeliveries: 0,
      fiscalSequences: 0,
      sessions: 0,
      shops: 0,
      // Only the record that the shop's data was deleted.
      complianceRequests: 1,
    });
    const [record] = await run.database.db.select().from(complianceRequests).where(eq(complianceRequests.shop, SHOP));
    expect(record).toMatchObject({ topic: 'shop/redact', payload: { shop_id: '954889', shop_domain: SHOP } });
    expect(await countsFor(OTHER)).toEqual(otherBefore);
    expect((await run.database.db.select().from(fiscalSequences).where(eq(fiscalSequences.shop, OTHER))).length).toBe(1);
  });

  it("keeps Shopify's large ids exact (beyond 2^53)", async () => {
    const raw = `{"shop_id":1,"shop_domain":"${OTHER}","orders_requested":[820982911946154508],"customer":{"id":115310627314723954,"email":null,"phone":null},"data_request":{"id":1}}`;
    const result = await run.h.simulator.sendWebhook({
      address: address('/webhooks/compliance'),
      topic: 'customers/data_request',
      shop: OTHER,
      payload: raw,
    });
    expect(result.status).toBe(200);
    const [record] = await run.database.db
      .select()
      .from(complianceRequests)
      .where(and(eq(complianceRequests.shop, OTHER), eq(complianceRequests.topic, 'customers/data_request')));
    expect(record?.payload).toMatchObject({ orders_requested: ['820982911946154508'], customer: { id: '115310627314723954' } });
  });
});
