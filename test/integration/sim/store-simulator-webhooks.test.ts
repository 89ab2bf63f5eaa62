// The store simulator over real HTTP: its webhooks, checked with Shopify's own library (signatures, headers),
// and the opt-in control API the demo driver uses from another process.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreSimulator, StoreSimulatorOptions } from '../../../sim/store-simulator/store-simulator.ts';
import {
  APP_NS,
  SHOP,
  graphqlClient,
  rawGraphql as rawGraphqlOn,
  restOrder,
  startSim as startSimOn,
  webhookReceiver,
  METAFIELDS_SET,
  ORDER_QUERY,
} from '../../support/store-simulator-kit.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

let sim: StoreSimulator;
let closers: (() => Promise<void>)[] = [];

const startSim = (extra: Partial<StoreSimulatorOptions> = {}) => startSimOn(closers, extra);

beforeEach(async () => {
  closers = [];
  sim = await startSim();
});

afterEach(async () => {
  for (const close of closers.reverse()) await close();
});

describe('webhooks', () => {
  it('signs orders/paid like Shopify: shopify-api validate() accepts it and sees every header', async () => {
    const receiver = await webhookReceiver(closers);
    const order = restOrder(5_900_000_000_001);

    const result = await sim.orderPaid(SHOP, order, receiver.address, {
      webhookId: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
      eventId: '98880550-7158-44d4-b7cd-2c97c8a091b5',
      triggeredAt: '2026-11-21T15:00:00.000Z',
    });

    expect(result.status).toBe(200);
    expect(result.body).toBe('ok');
    expect(result.durationMs).toBeGreaterThan(0);
    const [got] = receiver.received;
    expect(got?.check).toEqual({
      valid: true,
      webhookType: 'webhooks',
      hmac: expect.any(String),
      topic: 'ORDERS_PAID',
      domain: SHOP,
      apiVersion: '2026-10',
      webhookId: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
      eventId: '98880550-7158-44d4-b7cd-2c97c8a091b5',
      triggeredAt: '2026-11-21T15:00:00.000Z',
    });
    expect(got?.rawBody).toBe(JSON.stringify(order));
    expect(got?.headers['content-type']).toBe('application/json');
    expect(got?.headers['x-shopify-topic']).toBe('orders/paid');
    // orderPaid also registered the order for the Admin API.
    const { accessToken } = sim.addShop(SHOP);
    const rest = await fetch(`${sim.origin}/admin/api/2026-10/orders/5900000000001.json`, {
      headers: { 'X-Shopify-Access-Token': accessToken, 'x-shopify-shop-domain': SHOP },
    });
    expect(await rest.json()).toEqual({ order });
    expect(sim.webhookLog()).toMatchObject([
      { attempt: 1, status: 200, topic: 'orders/paid', shop: SHOP, webhookId: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043' },
    ]);
  });

  it('signs a string payload byte for byte (big ids and accents survive)', async () => {
    const receiver = await webhookReceiver(closers);
    const payload = '{"id":820982911946154508,"name":"#1001","note":"Panamá ñ €"}';

    const result = await sim.sendWebhook({ address: receiver.address, topic: 'orders/paid', shop: SHOP, payload });

    expect(result.status).toBe(200);
    expect(receiver.received[0]?.rawBody).toBe(payload);
    expect(receiver.received[0]?.check.valid).toBe(true);
  });

  it('a delivery signed with another secret fails validation with invalid_hmac (401)', async () => {
    const receiver = await webhookReceiver(closers);

    const result = await sim.sendWebhook({
      address: receiver.address,
      topic: 'orders/paid',
      shop: SHOP,
      payload: restOrder(5_900_000_000_002),
      secret: 'not-the-app-secret',
    });

    expect(result).toMatchObject({ status: 401, body: 'invalid_hmac' });
    expect(receiver.received[0]?.check).toEqual({ valid: false, reason: 'invalid_hmac' });
  });

  it('can leave a required header out (the app should answer 400)', async () => {
    const receiver = await webhookReceiver(closers);

    const result = await sim.sendWebhook({
      address: receiver.address,
      topic: 'orders/paid',
      shop: SHOP,
      payload: {},
      omitHeaders: ['X-Shopify-Webhook-Id'],
    });

    expect(result.status).toBe(400);
    expect(receiver.received[0]?.check).toEqual({
      valid: false,
      reason: 'missing_headers',
      missingHeaders: ['X-Shopify-Webhook-Id'],
    });
  });

  it('retries on non-2xx with the same payload and ids, recording each try', async () => {
    const receiver = await webhookReceiver(closers, (n) => ({ status: n <= 2 ? 500 : 200 }));
    const payload = restOrder(5_900_000_000_003);

    const outcome = await sim.deliverWithRetries(
      { address: receiver.address, topic: 'orders/paid', shop: SHOP, payload, webhookId: 'wh-retry' },
      { retries: 8, backoffMs: [5, 10] },
    );

    expect(outcome.delivered).toBe(true);
    expect(outcome.attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(new Set(receiver.received.map((r) => r.headers['x-shopify-webhook-id']))).toEqual(new Set(['wh-retry']));
    expect(new Set(receiver.received.map((r) => r.rawBody))).toEqual(new Set([JSON.stringify(payload)]));
    expect(sim.webhookLog().map((a) => a.status)).toEqual([500, 500, 200]);
  });

  it('an answer slower than the timeout is a failed try; gives up after the retries', async () => {
    const slow = await webhookReceiver(closers, (n) => ({ status: 200, delayMs: n === 1 ? 500 : 0 }));
    const outcome = await sim.deliverWithRetries(
      { address: slow.address, topic: 'orders/paid', shop: SHOP, payload: {} },
      { retries: 3, timeoutMs: 150 },
    );
    expect(outcome.delivered).toBe(true);
    expect(outcome.attempts.map((a) => [a.status, a.timedOut])).toEqual([
      [0, true],
      [200, false],
    ]);
    expect(outcome.attempts[0]?.durationMs).toBeGreaterThanOrEqual(140);
    // The app still received (and processed) the abandoned first try: a duplicate to absorb.
    expect(slow.received).toHaveLength(2);

    const failing = await webhookReceiver(closers, () => ({ status: 503 }));
    const gaveUp = await sim.deliverWithRetries(
      { address: failing.address, topic: 'orders/paid', shop: SHOP, payload: {} },
      { retries: 2 },
    );
    expect(gaveUp.delivered).toBe(false);
    expect(gaveUp.attempts.map((a) => a.status)).toEqual([503, 503, 503]);
  });
});

describe('control API (opt-in, for the demo driver in another process)', () => {
  it('registers orders, sends orders/paid, reads metafields and sets faults over HTTP; off by default', async () => {
    expect((await fetch(`${sim.origin}/_simulator/calls`)).status).toBe(404);
    const ctl = await startSim({ controlApi: true });
    const receiver = await webhookReceiver(closers);
    const post = (path: string, body: unknown, method = 'POST') =>
      fetch(`${ctl.origin}/_simulator/${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const order = restOrder(5_900_000_000_040);

    const paid = await post('orders/paid', { shop: SHOP, order, address: receiver.address, webhookId: 'wh-ctl' });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ orderGid: 'gid://shopify/Order/5900000000040', delivery: { status: 200, body: 'ok' } });
    expect(receiver.received[0]?.check).toMatchObject({ valid: true, topic: 'ORDERS_PAID', webhookId: 'wh-ctl' });

    const { accessToken } = ctl.addShop(SHOP);
    await graphqlClient(accessToken).request(METAFIELDS_SET, {
      variables: {
        metafields: [{ ownerId: 'gid://shopify/Order/5900000000040', key: 'cufe', type: 'single_line_text_field', value: 'FE01' }],
      },
    });
    const read = await fetch(`${ctl.origin}/_simulator/metafields?order=${encodeURIComponent('gid://shopify/Order/5900000000040')}`);
    expect(await read.json()).toEqual({ metafields: [{ namespace: APP_NS, key: 'cufe', type: 'single_line_text_field', value: 'FE01' }] });
    const calls = (await (await fetch(`${ctl.origin}/_simulator/calls`)).json()) as { calls: { operation: string }[] };
    expect(calls.calls.map((c) => c.operation)).toEqual(['metafieldsSet']);
    expect(JSON.stringify(calls)).not.toContain(accessToken);

    expect((await post('faults', { http5xxRate: 1 })).status).toBe(200);
    expect((await rawGraphqlOn(ctl, accessToken, ORDER_QUERY, { id: 'gid://shopify/Order/1' })).status).toBe(503);
    await post('faults', {});
    expect((await rawGraphqlOn(ctl, accessToken, ORDER_QUERY, { id: 'gid://shopify/Order/1' })).status).toBe(200);

    const bad = await post('orders', { shop: SHOP, order: { name: '#1' } }, 'PUT');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'order needs admin_graphql_api_id or a numeric id' });
  });

  it("edits orders, stores and sends refunds, sets the buyer's data over HTTP; bad input is a 400 naming the problem", async () => {
    const ctl = await startSim({ controlApi: true });
    const receiver = await webhookReceiver(closers);
    const send = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${ctl.origin}/_simulator/${path}`, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    const order = restOrder(5_900_000_000_041, {
      customer: { id: 7300000000041, email: 'b@example.com' },
      company: { id: 6800000000041, location_id: 6900000000041 },
    });
    const orderGid = 'gid://shopify/Order/5900000000041';
    const customerGid = 'gid://shopify/Customer/7300000000041';
    const refund = {
      id: 9400000000041,
      order_id: 5900000000041,
      created_at: '2026-11-21T09:00:00-05:00',
      refund_line_items: [],
      transactions: [{ id: 7100000000041, kind: 'refund', status: 'success', gateway: 'bogus', amount: '90.15', currency: 'USD' }],
    };

    expect(await send('PUT', 'orders', { shop: SHOP, order })).toEqual({ status: 200, body: { orderGid } });
    expect(await send('PATCH', 'orders', { shop: SHOP, orderGid, patch: { note_attributes: [{ name: 'RUC', value: '8-1-1' }] } })).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect(
      await send('PUT', 'customers/metafield', { shop: SHOP, customerGid, namespace: 'facturacion', key: 'ruc', value: '8-2-2' }),
    ).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect((await send('PUT', 'customers/locale', { shop: SHOP, customerGid, locale: 'en' })).status).toBe(200);
    const location = { shop: SHOP, locationGid: 'gid://shopify/CompanyLocation/6900000000041', taxRegistrationId: '155646463-2-2017' };
    expect((await send('PUT', 'company-locations', { ...location, companyName: 'Importadora Ejemplo, S.A.' })).status).toBe(200);
    const created = await send('POST', 'refunds/create', { shop: SHOP, refund, address: receiver.address, webhookId: 'wh-ctl-refund' });
    expect(created).toMatchObject({ status: 200, body: { delivery: { status: 200, body: 'ok' } } });
    expect(receiver.received[0]?.check).toMatchObject({ valid: true, topic: 'REFUNDS_CREATE', webhookId: 'wh-ctl-refund' });

    expect(ctl.order(SHOP, orderGid)).toMatchObject({
      note_attributes: [{ name: 'RUC', value: '8-1-1' }],
      financial_status: 'refunded',
      refunds: [refund],
    });
    const owner = await fetch(`${ctl.origin}/_simulator/metafields?owner=${encodeURIComponent(customerGid)}&shop=${SHOP}`);
    expect(await owner.json()).toEqual({
      metafields: [{ namespace: 'facturacion', key: 'ruc', type: 'single_line_text_field', value: '8-2-2' }],
    });
    const { accessToken } = ctl.addShop(SHOP, { scope: 'read_orders,read_customers' });
    const buyer = await rawGraphqlOn(
      ctl,
      accessToken,
      `query($id: ID!) { order(id: $id) { customer { locale } purchasingEntity { ... on PurchasingCompany { company { name } location { taxSettings { taxRegistrationId } } } } } }`,
      { id: orderGid },
    );
    expect(buyer.body['data']).toEqual({
      order: {
        customer: { locale: 'en' },
        purchasingEntity: {
          company: { name: 'Importadora Ejemplo, S.A.' },
          location: { taxSettings: { taxRegistrationId: '155646463-2-2017' } },
        },
      },
    });

    expect(await send('POST', 'refunds', { shop: SHOP, orderGid, refund })).toEqual({
      status: 400,
      body: { error: 'refund gid://shopify/Refund/9400000000041 is already stored' },
    });
    expect(await send('PUT', 'company-locations', { ...location, taxRegistrationId: 17 })).toEqual({
      status: 400,
      body: { error: 'taxRegistrationId: Invalid input: expected string, received number' },
    });
    expect(await send('PATCH', 'orders', { shop: SHOP, orderGid: '5900000000041', patch: {} })).toEqual({
      status: 400,
      body: { error: 'orderGid: Invalid string: must start with "gid://shopify/"' },
    });
  });

  it('refunds an order as a merchant would (the demo driver): the body computed, stored and sent; a refund Shopify would refuse is a 400', async () => {
    const ctl = await startSim({ controlApi: true });
    const receiver = await webhookReceiver(closers);
    const send = async (body: unknown) => {
      const res = await fetch(`${ctl.origin}/_simulator/orders/refund`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const orderGid = 'gid://shopify/Order/5900000000042';
    ctl.setOrder(SHOP, makePaidOrder({ id: 5_900_000_000_042 }));
    const shirt = { lineItemId: 590_000_000_004_200, quantity: 1 };
    const request = { shop: SHOP, orderGid, address: receiver.address };

    const refunded = await send({ ...request, request: { lines: [shirt] }, webhookId: 'wh-ctl-merchant' });
    expect(refunded.status).toBe(200);
    expect(refunded.body['delivery']).toMatchObject({ status: 200, body: 'ok' });
    expect(refunded.body['refund']).toMatchObject({
      id: 9_400_000_000_421,
      order_id: 5_900_000_000_042,
      refund_line_items: [{ line_item_id: shirt.lineItemId, quantity: 1, subtotal: 24.5, total_tax: 1.72 }],
      transactions: [{ kind: 'refund', status: 'success', amount: '26.22' }],
    });
    expect(receiver.received[0]?.check).toMatchObject({ valid: true, topic: 'REFUNDS_CREATE', webhookId: 'wh-ctl-merchant' });
    expect(ctl.order(SHOP, orderGid)!['refunds']).toEqual([refunded.body['refund']]);

    expect(await send({ ...request, request: { lines: [{ ...shirt, quantity: 2 }] } })).toEqual({
      status: 400,
      body: { error: `line ${shirt.lineItemId}: 2 units asked, 1 left to refund` },
    });
    expect(await send({ ...request, request: { lines: [shirt], cash: true } })).toEqual({
      status: 400,
      body: { error: 'request: Unrecognized key: "cash"' },
    });
    expect(await send({ ...request, orderGid: 'gid://shopify/Order/1', request: { shipping: 'full' } })).toEqual({
      status: 400,
      body: { error: `no order gid://shopify/Order/1 in ${SHOP}` },
    });
    expect(ctl.order(SHOP, orderGid)!['refunds']).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
  });
});
