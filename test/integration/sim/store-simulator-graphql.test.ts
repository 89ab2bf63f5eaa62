// The store simulator over real HTTP, checked with Shopify's own library: the Admin GraphQL answers, the REST
// order read, and the rewriting fetch the app installs.
import { GraphqlQueryError, HttpInternalError, HttpThrottlingError } from '@shopify/shopify-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewriteShopifyUrl, rewritingFetch } from '../../../src/shopify/admin-api-origin.ts';
import type { StoreSimulator, StoreSimulatorOptions } from '../../../sim/store-simulator/store-simulator.ts';
import {
  APP_NS,
  SHOP,
  graphqlClient,
  rawGraphql as rawGraphqlOn,
  restOrder,
  startSim as startSimOn,
  METAFIELDS_SET,
  ORDER_QUERY,
} from '../../support/store-simulator-kit.ts';

let sim: StoreSimulator;
let closers: (() => Promise<void>)[] = [];

const startSim = (extra: Partial<StoreSimulatorOptions> = {}) => startSimOn(closers, extra);
const rawGraphql = (token: string, query: string, variables: Record<string, unknown> = {}) => rawGraphqlOn(sim, token, query, variables);

beforeEach(async () => {
  closers = [];
  sim = await startSim();
});

afterEach(async () => {
  for (const close of closers.reverse()) await close();
});

describe('Admin GraphQL', () => {
  it('metafieldsSet through shopify.clients.Graphql + rewriting fetch writes, upserts and reads back', async () => {
    const { accessToken } = sim.addShop(SHOP);
    const gid = sim.setOrder(SHOP, restOrder(5_900_000_000_001));
    const client = graphqlClient(accessToken);
    const metafields = [
      { ownerId: gid, namespace: '$app', key: 'cufe', type: 'single_line_text_field', value: 'FE0120000155596713-2-2015-0001' },
      {
        ownerId: gid,
        namespace: '$app',
        key: 'qr_url',
        type: 'url',
        value: 'https://dgi-fep.mef.gob.pa/Consultas/FacturasPorQR?chFE=FE01',
      },
      { ownerId: gid, key: 'pdf_url', type: 'url', value: 'https://files.example.test/factura.pdf' },
    ];

    const { data } = await client.request(METAFIELDS_SET, { variables: { metafields } });

    expect(data?.metafieldsSet?.userErrors).toEqual([]);
    expect(data?.metafieldsSet?.metafields?.map((m: { namespace: string; key: string }) => `${m.namespace}.${m.key}`)).toEqual([
      `${APP_NS}.cufe`,
      `${APP_NS}.qr_url`,
      `${APP_NS}.pdf_url`,
    ]);
    expect(sim.metafields(gid)).toEqual([
      { namespace: APP_NS, key: 'cufe', type: 'single_line_text_field', value: 'FE0120000155596713-2-2015-0001' },
      { namespace: APP_NS, key: 'qr_url', type: 'url', value: 'https://dgi-fep.mef.gob.pa/Consultas/FacturasPorQR?chFE=FE01' },
      { namespace: APP_NS, key: 'pdf_url', type: 'url', value: 'https://files.example.test/factura.pdf' },
    ]);

    const firstId = data?.metafieldsSet?.metafields?.[0]?.id;
    const again = await client.request(METAFIELDS_SET, {
      variables: { metafields: [{ ...metafields[0], value: 'FE0120000155596713-2-2015-0002' }] },
    });
    expect(again.data?.metafieldsSet?.metafields?.[0]?.id).toBe(firstId);
    expect(sim.metafields(gid).map((m) => m.value)).toEqual([
      'FE0120000155596713-2-2015-0002',
      'https://dgi-fep.mef.gob.pa/Consultas/FacturasPorQR?chFE=FE01',
      'https://files.example.test/factura.pdf',
    ]);
    const read = await client.request(ORDER_QUERY, { variables: { id: gid } });
    expect(read.data?.order?.cufe).toMatchObject({ value: 'FE0120000155596713-2-2015-0002' });
    expect(sim.calls().map((c) => [c.operation, c.shop, c.outcome])).toEqual([
      ['metafieldsSet', SHOP, 'ok'],
      ['metafieldsSet', SHOP, 'ok'],
      ['order', SHOP, 'ok'],
    ]);
    expect(sim.calls()[0]?.variables).toEqual({ metafields });
  });

  it('userErrors for a bad key, an unknown order, a non-http url, a missing type or >25 inputs, and nothing is written', async () => {
    const { accessToken } = sim.addShop(SHOP);
    const gid = sim.setOrder(SHOP, restOrder(5_900_000_000_002));
    const client = graphqlClient(accessToken);
    const ok = { ownerId: gid, namespace: '$app', key: 'cufe', type: 'single_line_text_field', value: 'FE01' };
    const set = async (metafields: unknown[]) => (await client.request(METAFIELDS_SET, { variables: { metafields } })).data?.metafieldsSet;

    expect(await set([ok, { ...ok, key: 'x' }])).toEqual({
      metafields: [],
      userErrors: [{ field: ['metafields', '1', 'key'], message: 'Key is too short (minimum is 2 characters)', code: 'TOO_SHORT' }],
    });
    expect(await set([ok, { ...ok, ownerId: 'gid://shopify/Order/404' }])).toEqual({
      metafields: [],
      userErrors: [{ field: ['metafields', '1', 'ownerId'], message: 'Owner does not exist.', code: 'INVALID' }],
    });
    expect((await set([{ ...ok, key: 'qr_url', type: 'url', value: 'ftp://files.example.test/qr.png' }]))?.userErrors).toEqual([
      { field: ['metafields', '0', 'value'], message: 'Value must use one of the allowed schemes: http, https.', code: 'INVALID_VALUE' },
    ]);
    expect((await set([{ ownerId: gid, key: 'cufe', value: 'FE01' }]))?.userErrors).toEqual([
      { field: ['metafields', '0', 'type'], message: "Type can't be blank.", code: 'BLANK' },
    ]);
    expect((await set(Array.from({ length: 26 }, (_, i) => ({ ...ok, key: `k${i}` }))))?.userErrors).toEqual([
      { field: ['metafields'], message: 'Exceeded the maximum metafields input limit of 25.', code: 'LESS_THAN_OR_EQUAL_TO' },
    ]);
    expect(sim.metafields(gid)).toEqual([]);
    expect(sim.calls().map((c) => c.outcome)).toEqual(['user_errors', 'user_errors', 'user_errors', 'user_errors', 'user_errors']);
  });

  it('a declared definition makes the type optional (as with the TOML definitions)', async () => {
    const withDefs = await startSim({ metafieldDefinitions: [{ namespace: '$app', key: 'cufe', type: 'single_line_text_field' }] });
    const { accessToken } = withDefs.addShop(SHOP);
    const gid = withDefs.setOrder(SHOP, restOrder(5_900_000_000_003));
    const { data } = await graphqlClient(accessToken).request(METAFIELDS_SET, {
      variables: { metafields: [{ ownerId: gid, key: 'cufe', value: 'FE01' }] },
    });
    expect(data?.metafieldsSet?.userErrors).toEqual([]);
    expect(withDefs.metafields(gid)).toEqual([{ namespace: APP_NS, key: 'cufe', type: 'single_line_text_field', value: 'FE01' }]);
  });

  it("401 with Shopify's body for an unknown token, a token of another shop, or a revoked one", async () => {
    const { accessToken } = sim.addShop(SHOP);
    const other = sim.addShop('other.myshopify.com');
    const expectedBody = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };

    const bad = await rawGraphql('shpat_wrong', ORDER_QUERY, { id: 'gid://shopify/Order/1' });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual(expectedBody);
    expect((await rawGraphql(other.accessToken, ORDER_QUERY, { id: 'gid://shopify/Order/1' })).status).toBe(401);
    expect((await rawGraphql(accessToken, ORDER_QUERY, { id: 'gid://shopify/Order/1' })).status).toBe(200);
    sim.uninstallShop(SHOP);
    expect((await rawGraphql(accessToken, ORDER_QUERY, { id: 'gid://shopify/Order/1' })).status).toBe(401);
    expect(sim.calls().map((c) => [c.status, c.outcome])).toEqual([
      [401, 'unauthorized'],
      [401, 'unauthorized'],
      [200, 'ok'],
      [401, 'unauthorized'],
    ]);
  });

  it('order(id:) answers transactions: one SALE per gateway summing to current_total_price, or the registered ones', async () => {
    const { accessToken } = sim.addShop(SHOP);
    const client = graphqlClient(accessToken);
    const single = sim.setOrder(SHOP, restOrder(5_900_000_000_004));
    const split = sim.setOrder(SHOP, restOrder(5_900_000_000_005, { payment_gateway_names: ['gift_card', 'bogus'] }));
    const given = sim.setOrder(SHOP, restOrder(5_900_000_000_006), {
      transactions: [
        { gateway: 'manual', amount: '50.00' },
        { gateway: 'manual', kind: 'AUTHORIZATION', status: 'PENDING', amount: '40.15' },
      ],
    });
    const transactions = async (id: string) => (await client.request(ORDER_QUERY, { variables: { id } })).data?.order?.transactions;

    expect(await transactions(single)).toEqual([
      {
        id: expect.stringMatching(/^gid:\/\/shopify\/OrderTransaction\/\d+$/),
        gateway: 'bogus',
        kind: 'SALE',
        status: 'SUCCESS',
        processedAt: '2026-11-20T15:15:00Z',
        amountSet: { shopMoney: { amount: '90.15', currencyCode: 'USD' } },
      },
    ]);
    expect(
      (await transactions(split))?.map((t: { gateway: string; amountSet: { shopMoney: { amount: string } } }) => [
        t.gateway,
        t.amountSet.shopMoney.amount,
      ]),
    ).toEqual([
      ['gift_card', '45.08'],
      ['bogus', '45.07'],
    ]);
    expect(
      (await transactions(given))?.map((t: { kind: string; status: string; amountSet: { shopMoney: { amount: string } } }) => [
        t.kind,
        t.status,
        t.amountSet.shopMoney.amount,
      ]),
    ).toEqual([
      ['SALE', 'SUCCESS', '50.0'],
      ['AUTHORIZATION', 'PENDING', '40.15'],
    ]);
    expect((await client.request(ORDER_QUERY, { variables: { id: 'gid://shopify/Order/404' } })).data?.order).toBeNull();
  });

  it('orders(first:, after:, query:) pages through paid orders filtered by created_at', async () => {
    const { accessToken } = sim.addShop(SHOP);
    sim.setOrder(SHOP, restOrder(5_900_000_000_021, { created_at: '2026-11-19T08:00:00-05:00' }));
    sim.setOrder(SHOP, restOrder(5_900_000_000_022, { created_at: '2026-11-20T08:00:00-05:00' }));
    sim.setOrder(SHOP, restOrder(5_900_000_000_023, { created_at: '2026-11-20T09:00:00-05:00', financial_status: 'pending' }));
    sim.setOrder(SHOP, restOrder(5_900_000_000_024, { created_at: '2026-11-21T08:00:00-05:00' }));
    const query = `#graphql
      query Paid($after: String, $q: String) {
        orders(first: 1, after: $after, query: $q) {
          edges {
            cursor
            node {
              id name createdAt displayFinancialStatus legacyResourceId updatedAt processedAt test currencyCode
              currentTotalPriceSet { shopMoney { amount currencyCode } }
            }
          }
          pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        }
      }`;
    const client = graphqlClient(accessToken);
    const page = async (after?: string) =>
      (await client.request(query, { variables: { q: "created_at:>='2026-11-20T00:00:00-05:00'", ...(after ? { after } : {}) } })).data
        ?.orders;

    const first = await page();
    expect(first?.edges.map((e: { node: unknown }) => e.node)).toEqual([
      {
        id: 'gid://shopify/Order/5900000000022',
        name: '#22',
        createdAt: '2026-11-20T13:00:00Z',
        displayFinancialStatus: 'PAID',
        legacyResourceId: '5900000000022',
        updatedAt: '2026-11-20T15:16:00Z',
        processedAt: '2026-11-20T15:15:00Z',
        test: true,
        currencyCode: 'USD',
        currentTotalPriceSet: { shopMoney: { amount: '90.15', currencyCode: 'USD' } },
      },
    ]);
    expect(first?.pageInfo.hasNextPage).toBe(true);
    const second = await page(first?.pageInfo.endCursor);
    expect(second?.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(['gid://shopify/Order/5900000000024']);
    expect(second?.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: true,
      startCursor: second?.edges[0]?.cursor,
      endCursor: second?.edges[0]?.cursor,
    });
  });

  it('fault injection: THROTTLED (200 with errors, nothing written), 429 with Retry-After, 5xx', async () => {
    const { accessToken } = sim.addShop(SHOP);
    const gid = sim.setOrder(SHOP, restOrder(5_900_000_000_007));
    const client = graphqlClient(accessToken);
    const metafields = [{ ownerId: gid, namespace: '$app', key: 'cufe', type: 'single_line_text_field', value: 'FE01' }];

    sim.setFaults({ graphqlThrottledRate: 1 });
    const raw = await rawGraphql(accessToken, METAFIELDS_SET, { metafields });
    expect(raw.status).toBe(200);
    expect(raw.body['errors']).toEqual([
      { message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } },
    ]);
    expect(raw.body['data']).toBeUndefined();
    const thrown = await client.request(METAFIELDS_SET, { variables: { metafields } }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(GraphqlQueryError);
    expect((thrown as GraphqlQueryError).body?.errors?.graphQLErrors?.[0]?.extensions?.code).toBe('THROTTLED');
    expect(sim.metafields(gid)).toEqual([]);

    sim.setFaults({ http429Rate: 1 });
    const limited = await rawGraphql(accessToken, METAFIELDS_SET, { metafields });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    const throttled = await client.request(METAFIELDS_SET, { variables: { metafields } }).catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(HttpThrottlingError);
    expect((throttled as HttpThrottlingError).response.retryAfter).toBe(1);

    sim.setFaults({ http5xxRate: 1 });
    const down = await client.request(METAFIELDS_SET, { variables: { metafields } }).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(HttpInternalError);
    expect((down as HttpInternalError).response.code).toBe(503);
    expect(sim.metafields(gid)).toEqual([]);

    sim.setFaults({});
    await client.request(METAFIELDS_SET, { variables: { metafields } });
    expect(sim.metafields(gid)).toHaveLength(1);
    expect(sim.calls().map((c) => c.outcome)).toEqual(['throttled', 'throttled', 'http_429', 'http_429', 'http_5xx', 'ok']);
  });

  it('a seed makes a fault rate reproducible', async () => {
    const { accessToken } = sim.addShop(SHOP);
    const run = async () => {
      sim.setFaults({ graphqlThrottledRate: 0.5, seed: 42 });
      const statuses: string[] = [];
      for (let i = 0; i < 16; i++) {
        const r = await rawGraphql(accessToken, ORDER_QUERY, { id: 'gid://shopify/Order/1' });
        statuses.push(r.body['errors'] ? 'T' : 'ok');
      }
      return statuses;
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    expect(a).toContain('T');
    expect(a).toContain('ok');
  });
});

describe('REST order read', () => {
  it('GET /admin/api/:version/orders/:id.json returns the stored order, 404 when unknown, 401 without a token', async () => {
    const { accessToken } = sim.addShop(SHOP);
    const order = restOrder(5_900_000_000_030);
    sim.setOrder(SHOP, order);
    const get = (id: string, token = accessToken) =>
      fetch(`${sim.origin}/admin/api/2026-10/orders/${id}.json`, {
        headers: { 'X-Shopify-Access-Token': token, 'x-shopify-shop-domain': SHOP },
      });

    const found = await get('5900000000030');
    expect(found.status).toBe(200);
    expect(await found.json()).toEqual({ order });
    const missing = await get('404');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ errors: 'Not Found' });
    expect((await get('5900000000030', 'shpat_nope')).status).toBe(401);
  });
});

describe('rewritingFetch', () => {
  it('rewrites https://<shop>.myshopify.com to the origin with the shop header; leaves other URLs alone', async () => {
    const seen: { url: string; shop: string | null; body: string; method: string }[] = [];
    const base = (async (input: string | URL | Request, init?: RequestInit) => {
      const req = new Request(input, init);
      seen.push({ url: req.url, shop: req.headers.get('x-shopify-shop-domain'), body: await req.text(), method: req.method });
      return new Response('{}');
    }) as typeof fetch;
    const f = rewritingFetch('http://127.0.0.1:9999/', base);

    await f('https://demo.myshopify.com/admin/api/2026-10/graphql.json?x=1', {
      method: 'POST',
      body: '{"q":1}',
      headers: { 'X-Keep': 'yes' },
    });
    await f(new Request('https://shop-2.myshopify.com/admin/oauth/access_token', { method: 'POST', body: 'code=1' }));
    await f(new URL('https://gateway.example.test/api/send'));
    await f('http://demo.myshopify.com/admin/api/2026-10/graphql.json');
    await f('https://demo.myshopify.com.evil.test/admin');

    expect(seen).toEqual([
      { url: 'http://127.0.0.1:9999/admin/api/2026-10/graphql.json?x=1', shop: 'demo.myshopify.com', body: '{"q":1}', method: 'POST' },
      { url: 'http://127.0.0.1:9999/admin/oauth/access_token', shop: 'shop-2.myshopify.com', body: 'code=1', method: 'POST' },
      { url: 'https://gateway.example.test/api/send', shop: null, body: '', method: 'GET' },
      { url: 'http://demo.myshopify.com/admin/api/2026-10/graphql.json', shop: null, body: '', method: 'GET' },
      { url: 'https://demo.myshopify.com.evil.test/admin', shop: null, body: '', method: 'GET' },
    ]);
    expect(
      rewriteShopifyUrl('https://demo.myshopify.com/admin/oauth/authorize?client_id=k', 'http://sim.test', { shopInQuery: true }),
    ).toEqual({
      url: 'http://sim.test/admin/oauth/authorize?client_id=k&shop=demo.myshopify.com',
      shop: 'demo.myshopify.com',
    });
  });
});
