// The store simulator over real HTTP, checked with Shopify's own library: webhook signatures, the OAuth
// redirect HMAC and token endpoint, the Admin GraphQL answers, and the rewriting fetch the app installs.
import {
  GraphqlQueryError,
  HttpInternalError,
  HttpResponseError,
  HttpThrottlingError,
  RequestedTokenType,
  type Session,
} from '@shopify/shopify-api';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewriteShopifyUrl, rewritingFetch } from '../../../src/shopify/admin-api-origin.ts';
import type { StoreSimulator, StoreSimulatorOptions } from '../../../sim/store-simulator/store-simulator.ts';
import {
  API_KEY,
  API_SECRET,
  APP_HOST,
  APP_NS,
  SHOP,
  graphqlClient,
  listen,
  rawGraphql as rawGraphqlOn,
  restOrder,
  shopify,
  startSim as startSimOn,
  webhookReceiver,
} from '../../support/store-simulator-kit.ts';
import { BROWSER_UA } from '../../support/oauth-install.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const METAFIELDS_SET = `#graphql
  mutation SetInvoiceMetafields($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields { id namespace key type value compareDigest }
      userErrors { field message code }
    }
  }`;

const ORDER_QUERY = `#graphql
  query OrderPayments($id: ID!) {
    order(id: $id) {
      id
      name
      transactions { id gateway kind status processedAt amountSet { shopMoney { amount currencyCode } } }
      cufe: metafield(namespace: "$app", key: "cufe") { value }
    }
  }`;

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

describe('OAuth', () => {
  async function authorize(query: Record<string, string>): Promise<Response> {
    const params = new URLSearchParams(query);
    return fetch(`${sim.origin}/admin/oauth/authorize?${params.toString()}`, {
      headers: { 'x-shopify-shop-domain': SHOP },
      redirect: 'manual',
    });
  }

  const authorizeQuery = {
    client_id: API_KEY,
    scope: 'read_orders,write_orders',
    redirect_uri: `https://${APP_HOST}/auth/callback`,
    state: 'nonce-123',
    'grant_options[]': '',
  };

  it('redirects with code, hmac, host, shop, state, timestamp; the HMAC validates with shopify-api', async () => {
    const res = await authorize(authorizeQuery);

    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(`https://${APP_HOST}/auth/callback`);
    const query = Object.fromEntries(location.searchParams);
    expect(Object.keys(query).sort()).toEqual(['code', 'hmac', 'host', 'shop', 'state', 'timestamp']);
    expect(query['shop']).toBe(SHOP);
    expect(query['state']).toBe('nonce-123');
    expect(atob(query['host'] ?? '')).toBe('admin.shopify.com/store/demo');
    expect(Math.abs(Number(query['timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(await shopify.utils.validateHmac(query)).toBe(true);
    expect(await shopify.utils.validateHmac({ ...query, shop: 'evil.myshopify.com' })).toBe(false);
  });

  it('rejects a wrong client_id or a redirect_uri outside the allowed list', async () => {
    expect((await authorize({ ...authorizeQuery, client_id: 'other' })).status).toBe(400);
    const strict = await startSim({ redirectUrls: [`https://${APP_HOST}/auth/callback`] });
    const res = await fetch(
      `${strict.origin}/admin/oauth/authorize?${new URLSearchParams({ ...authorizeQuery, redirect_uri: 'https://evil.test/cb' }).toString()}`,
      { headers: { 'x-shopify-shop-domain': SHOP }, redirect: 'manual' },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'invalid_request',
      error_description: 'The redirect_uri is missing or not whitelisted.',
    });
  });

  it('runs the library OAuth flow end to end: begin → authorize → callback → expiring offline session', async () => {
    const sessions: Session[] = [];
    const app = express();
    app.get('/auth', async (req, res) => {
      await shopify.auth.begin({
        shop: String(req.query['shop']),
        callbackPath: '/auth/callback',
        isOnline: false,
        rawRequest: req,
        rawResponse: res,
      });
    });
    app.get('/auth/callback', async (req, res) => {
      const { session } = await shopify.auth.callback({ rawRequest: req, rawResponse: res, expiring: true });
      sessions.push(session);
      res.status(200).send('installed');
    });
    const appServer = await listen(app);
    closers.push(appServer.close);

    // Browser: app → Shopify authorize → back to the app's callback, carrying the state cookie.
    const begin = await fetch(`${appServer.origin}/auth?shop=${SHOP}`, { redirect: 'manual', headers: { 'User-Agent': BROWSER_UA } });
    expect(begin.status).toBe(302);
    const cookies = begin.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const toShopify = rewriteShopifyUrl(begin.headers.get('location') ?? '', sim.origin, { shopInQuery: true });
    expect(toShopify?.shop).toBe(SHOP);
    const granted = await fetch(toShopify?.url ?? '', { redirect: 'manual', headers: { 'User-Agent': BROWSER_UA } });
    expect(granted.status).toBe(302);
    const callback = new URL(granted.headers.get('location') ?? '');
    expect(callback.host).toBe(APP_HOST);
    const done = await fetch(`${appServer.origin}${callback.pathname}${callback.search}`, {
      headers: { Cookie: cookies, 'User-Agent': BROWSER_UA },
    });

    expect(done.status).toBe(200);
    const [session] = sessions;
    expect(session?.shop).toBe(SHOP);
    expect(session?.id).toBe(`offline_${SHOP}`);
    // The library asks for the compressed scope list (write_orders implies read_orders); Shopify echoes it.
    expect(session?.scope).toBe('write_orders');
    expect(session?.accessToken).toMatch(/^shpua_/);
    expect(session?.refreshToken).toMatch(/^shprt_/);
    expect((session?.expires?.getTime() ?? 0) - Date.now()).toBeGreaterThan(3590_000);
    // The new token works on the Admin API through the rewriting fetch.
    const gid = sim.setOrder(SHOP, restOrder(5_900_000_000_010));
    const answer = await graphqlClient(session?.accessToken ?? '').request(ORDER_QUERY, { variables: { id: gid } });
    expect(answer.data?.order?.name).toBe('#10');
  });

  it('code → token (JSON or form body); a used code, a wrong secret are refused like Shopify', async () => {
    const codeFrom = async () => new URL((await authorize(authorizeQuery)).headers.get('location') ?? '').searchParams.get('code') ?? '';
    const tokenEndpoint = `${sim.origin}/admin/oauth/access_token`;
    const headers = { 'x-shopify-shop-domain': SHOP };

    const code = await codeFrom();
    const form = await fetch(tokenEndpoint, {
      method: 'POST',
      headers,
      body: new URLSearchParams({ client_id: API_KEY, client_secret: API_SECRET, code }),
    });
    expect(form.status).toBe(200);
    const granted = (await form.json()) as Record<string, unknown>;
    expect(Object.keys(granted).sort()).toEqual(['access_token', 'scope']);
    expect(granted['scope']).toBe('read_orders,write_orders');

    const again = await fetch(tokenEndpoint, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: API_KEY, client_secret: API_SECRET, code }),
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({
      error: 'invalid_request',
      error_description: 'The authorization code was not found or was already used',
    });

    const wrongSecret = await fetch(tokenEndpoint, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: API_KEY, client_secret: 'guess', code: await codeFrom() }),
    });
    expect(wrongSecret.status).toBe(401);
    const body = await wrongSecret.text();
    expect(JSON.parse(body)).toMatchObject({ error: 'invalid_client' });
    expect(body).not.toContain('guess');

    const expiring = await fetch(tokenEndpoint, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: API_KEY, client_secret: API_SECRET, code: await codeFrom(), expiring: '1' }),
    });
    expect(await expiring.json()).toEqual({
      access_token: expect.stringMatching(/^shpua_/),
      scope: 'read_orders,write_orders',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^shprt_/),
      refresh_token_expires_in: 7_776_000,
    });

    const perUser = new URL(
      (await authorize({ ...authorizeQuery, 'grant_options[]': 'per-user' })).headers.get('location') ?? '',
    ).searchParams.get('code');
    const online = await fetch(tokenEndpoint, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: API_KEY, client_secret: API_SECRET, code: perUser }),
    });
    expect(await online.json()).toMatchObject({
      scope: 'read_orders,write_orders',
      expires_in: 86_399,
      associated_user_scope: 'read_orders,write_orders',
      associated_user: { id: 1, account_owner: true },
    });
  });

  async function expiringSession(s: StoreSimulator): Promise<{ accessToken: string; refreshToken: string }> {
    const code = new URL(
      (
        await fetch(`${s.origin}/admin/oauth/authorize?${new URLSearchParams(authorizeQuery).toString()}`, {
          headers: { 'x-shopify-shop-domain': SHOP },
          redirect: 'manual',
        })
      ).headers.get('location') ?? '',
    ).searchParams.get('code');
    const res = await fetch(`${s.origin}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'x-shopify-shop-domain': SHOP, 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: API_KEY, client_secret: API_SECRET, code, expiring: '1' }),
    });
    const body = (await res.json()) as { access_token: string; refresh_token: string };
    return { accessToken: body.access_token, refreshToken: body.refresh_token };
  }

  it('an expired access token gets 401; refresh rotates the pair once and the old refresh token is refused', async () => {
    const first = await expiringSession(sim);
    const gid = sim.setOrder(SHOP, restOrder(5_900_000_000_011));
    expect((await graphqlClient(first.accessToken).request(ORDER_QUERY, { variables: { id: gid } })).data?.order?.id).toBe(gid);

    sim.advanceClock(3_601_000);
    const expired = await graphqlClient(first.accessToken)
      .request(ORDER_QUERY, { variables: { id: gid } })
      .catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(HttpResponseError);
    expect((expired as HttpResponseError).response.code).toBe(401);

    const { session } = await shopify.auth.refreshToken({ shop: SHOP, refreshToken: first.refreshToken });
    expect(sim.refreshCount(SHOP)).toBe(1);
    expect(session.accessToken).not.toBe(first.accessToken);
    expect(session.refreshToken).not.toBe(first.refreshToken);
    expect((session.expires?.getTime() ?? 0) - Date.now()).toBeGreaterThan(3590_000);
    expect((await graphqlClient(session.accessToken ?? '').request(ORDER_QUERY, { variables: { id: gid } })).data?.order?.id).toBe(gid);

    const reused = await shopify.auth.refreshToken({ shop: SHOP, refreshToken: first.refreshToken }).catch((e: unknown) => e);
    expect(reused).toBeInstanceOf(HttpResponseError);
    expect((reused as HttpResponseError).response.code).toBe(400);
    expect((reused as HttpResponseError).response.body).toEqual({
      error: 'invalid_grant',
      error_description: 'Token has been expired or revoked.',
    });
    expect(sim.refreshCount(SHOP)).toBe(1);
  });

  it('grace mode: a lost refresh answer can be retried until the replacement is used', async () => {
    const graceSim = await startSim({ refreshTokenGrace: true });
    const first = await expiringSession(graceSim);

    const lost = await shopify.auth.refreshToken({ shop: SHOP, refreshToken: first.refreshToken });
    const retried = await shopify.auth.refreshToken({ shop: SHOP, refreshToken: first.refreshToken });
    expect(graceSim.refreshCount(SHOP)).toBe(2);
    graceSim.setOrder(SHOP, restOrder(5_900_000_000_012));
    // The lost pair was replaced by the retry; the retried pair works.
    const lostUse = await graphqlClient(lost.session.accessToken ?? '')
      .request(ORDER_QUERY, { variables: { id: 'gid://shopify/Order/5900000000012' } })
      .catch((e: unknown) => e);
    expect((lostUse as HttpResponseError).response.code).toBe(401);
    await graphqlClient(retried.session.accessToken ?? '').request(ORDER_QUERY, { variables: { id: 'gid://shopify/Order/5900000000012' } });
    // Once the replacement is used, the old refresh token is gone.
    const late = await shopify.auth.refreshToken({ shop: SHOP, refreshToken: first.refreshToken }).catch((e: unknown) => e);
    expect((late as HttpResponseError).response.code).toBe(400);
    expect(graceSim.refreshCount(SHOP)).toBe(2);
  });

  it('token exchange: an App Bridge session token becomes an expiring offline token', async () => {
    const { session } = await shopify.auth.tokenExchange({
      shop: SHOP,
      sessionToken: await sim.sessionToken(SHOP),
      requestedTokenType: RequestedTokenType.OfflineAccessToken,
      expiring: true,
    });
    expect(session.id).toBe(`offline_${SHOP}`);
    expect(session.refreshToken).toMatch(/^shprt_/);
    const gid = sim.setOrder(SHOP, restOrder(5_900_000_000_013));
    expect((await graphqlClient(session.accessToken ?? '').request(ORDER_QUERY, { variables: { id: gid } })).data?.order?.id).toBe(gid);

    const forged = await fetch(`${sim.origin}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'x-shopify-shop-domain': SHOP, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_id: API_KEY,
        client_secret: API_SECRET,
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: `${(await sim.sessionToken(SHOP)).slice(0, -4)}AAAA`,
        subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
        requested_token_type: RequestedTokenType.OfflineAccessToken,
      }),
    });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ error: 'invalid_subject_token' });
  });
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
