// orders/paid answers: 401, 400, 413, unknown or disabled shop, duplicates; and what each stores.
import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, rowsOf } from '../../../src/db/database.ts';
import { documents, webhookDeliveries } from '../../../src/db/schema.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, TEST_API_SECRET, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-intake.myshopify.com';
const DISABLED = 'tienda-apagada.myshopify.com';

describe.each(testDatabases)('orders/paid webhook answers on $name', (target) => {
  let database: Database;
  let h: Harness;
  const countInvoices = async (shop: string) => (await database.db.select().from(documents).where(eq(documents.shop, shop))).length;

  beforeAll(async () => {
    database = await target.open();
    h = await startHarness({
      database,
      logger: (await import('../../../src/logger.ts')).createLogger('error'),
      env: { WEBHOOK_BODY_LIMIT_BYTES: '65536', WORKER_ENABLED: 'false' },
    });
    await h.installShop(SHOP);
    await h.app.shops.ensureInstalled(DISABLED);
  });
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });

  const send = (payload: object | string, extra: Record<string, unknown> = {}) =>
    h.simulator.sendWebhook({ address: h.webhookAddress, topic: 'orders/paid', shop: SHOP, payload, ...extra });

  it('401 for a body signed with another secret; nothing stored', async () => {
    const result = await send(makePaidOrder({ id: 7001 }), { secret: 'not-the-app-secret' });
    expect(result.status).toBe(401);
    expect(JSON.parse(result.body)).toEqual({ error: 'invalid HMAC signature' });
    expect(await countInvoices(SHOP)).toBe(0);
  });

  it('400 when a required header is missing', async () => {
    const result = await send(makePaidOrder({ id: 7002 }), { omitHeaders: ['X-Shopify-Webhook-Id'] });
    expect(result.status).toBe(400);
    expect(JSON.parse(result.body).error).toMatch(/missing headers/i);
    expect(await countInvoices(SHOP)).toBe(0);
  });

  it('400 for malformed JSON under a valid signature; nothing stored', async () => {
    const result = await send('{"id": 7003, "name": "#7003",');
    expect(result.status).toBe(400);
    expect(JSON.parse(result.body)).toEqual({ error: 'body is not valid JSON' });
    expect(await countInvoices(SHOP)).toBe(0);
  });

  it('400 for signed JSON that is not an order', async () => {
    const result = await send({ hello: 'world' });
    expect(result.status).toBe(400);
    expect(JSON.parse(result.body).error).toMatch(/^not an order: /);
    expect(await countInvoices(SHOP)).toBe(0);
  });

  it('413 for a body over the limit; nothing stored', async () => {
    const order = makePaidOrder({ id: 7004 });
    order.note = 'x'.repeat(70_000);
    const result = await send(order);
    expect(result.status).toBe(413);
    expect(await countInvoices(SHOP)).toBe(0);
  });

  it('200 for a shop that never installed the app: recorded, not processed', async () => {
    const result = await h.simulator.sendWebhook({
      address: h.webhookAddress,
      topic: 'orders/paid',
      shop: 'desconocida.myshopify.com',
      payload: makePaidOrder({ id: 7005 }),
    });
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ outcome: 'shop_not_installed' });
    expect(await countInvoices('desconocida.myshopify.com')).toBe(0);
    const [delivery] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.shop, 'desconocida.myshopify.com'));
    expect(delivery).toMatchObject({ topic: 'orders/paid', outcome: 'shop_not_installed', orderGid: 'gid://shopify/Order/7005' });
  });

  it('200 for an installed shop that has not enabled invoicing: recorded, not processed', async () => {
    const result = await h.simulator.sendWebhook({
      address: h.webhookAddress,
      topic: 'orders/paid',
      shop: DISABLED,
      payload: makePaidOrder({ id: 7006 }),
    });
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ outcome: 'shop_not_enabled' });
    expect(await countInvoices(DISABLED)).toBe(0);
  });

  it('stores once; a duplicate delivery answers 200 and is recorded as such', async () => {
    const order = makePaidOrder({ id: 7007 });
    const first = await send(order, { webhookId: 'wh-1', eventId: 'ev-1' });
    const second = await send(order, { webhookId: 'wh-2', eventId: 'ev-1' });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(JSON.parse(first.body)).toEqual({ outcome: 'stored' });
    expect(JSON.parse(second.body)).toEqual({ outcome: 'duplicate' });
    const rows = await database.db.select().from(documents).where(eq(documents.orderGid, 'gid://shopify/Order/7007'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ shop: SHOP, orderName: '#7007', status: 'pending', step: 'send', totalCents: 7043, currency: 'USD' });
    const deliveries = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.orderGid, 'gid://shopify/Order/7007'));
    expect(deliveries.map((d) => [d.webhookId, d.eventId, d.outcome])).toEqual([
      ['wh-1', 'ev-1', 'stored'],
      ['wh-2', 'ev-1', 'duplicate'],
    ]);
  });

  it('keeps the snapshot exactly, including ids above 2^53', async () => {
    const order = makePaidOrder({ id: 7008 });
    const raw = JSON.stringify(order).replace('"id":7008,', '"id":820982911946154508,');
    const result = await send(raw);
    expect(result.status).toBe(200);
    const row = await waitFor(
      async () => (await database.db.select().from(documents).where(eq(documents.orderGid, 'gid://shopify/Order/7008')))[0],
    );
    const text = await database.db.execute<{ id: string; snapshot: string }>(
      // Read the number as text in SQL: a JS number would round it.
      sql`select snapshot::json->>'id' as id, snapshot as snapshot from documents where id = ${row.id}`,
    );
    const rows = rowsOf<{ id: string; snapshot: string }>(text);
    expect(rows[0]!.id).toBe('820982911946154508');
    // Byte for byte what Shopify sent: accents and all (long texts reach PGlite as UTF-8 bytes).
    expect(raw).toMatch(/é/);
    expect(Buffer.from(rows[0]!.snapshot, 'utf8').equals(Buffer.from(raw, 'utf8'))).toBe(true);
  });

  it('stores a body whose bytes are not UTF-8 as the text read from it (U+FFFD), not as those bytes', async () => {
    // "Café" with its é as one Latin-1 byte (0xE9), which is not UTF-8: read as U+FFFD. Signed over the text read, as
    // the HMAC is checked.
    const [before, after] = JSON.stringify({ ...makePaidOrder({ id: 7009 }), note: 'Caf§' }).split('§') as [string, string];
    const bytes = Buffer.concat([Buffer.from(before, 'utf8'), Buffer.from([0xe9]), Buffer.from(after, 'utf8')]);
    const read = bytes.toString('utf8');
    const response = await fetch(h.webhookAddress, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'orders/paid',
        'x-shopify-shop-domain': SHOP,
        'x-shopify-api-version': '2026-10',
        'x-shopify-webhook-id': 'wh-latin1',
        'x-shopify-hmac-sha256': createHmac('sha256', TEST_API_SECRET).update(read, 'utf8').digest('base64'),
      },
      body: bytes,
    });
    expect(response.status).toBe(200);
    const row = await waitFor(
      async () => (await database.db.select().from(documents).where(eq(documents.orderGid, 'gid://shopify/Order/7009')))[0],
    );
    expect((row.snapshot as { note: string }).note).toBe('Caf\ufffd');
  });
});
