// The store simulator over real HTTP, checked with Shopify's own library: the OAuth redirect HMAC, the token
// endpoint and token exchange.
import { HttpResponseError, RequestedTokenType, type Session } from '@shopify/shopify-api';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewriteShopifyUrl } from '../../../src/shopify/admin-api-origin.ts';
import type { StoreSimulator, StoreSimulatorOptions } from '../../../sim/store-simulator/store-simulator.ts';
import {
  API_KEY,
  API_SECRET,
  APP_HOST,
  SHOP,
  graphqlClient,
  listen,
  restOrder,
  shopify,
  startSim as startSimOn,
  ORDER_QUERY,
} from '../../support/store-simulator-kit.ts';
import { BROWSER_UA } from '../../support/oauth-install.ts';

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
