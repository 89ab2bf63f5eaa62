// Token exchange against the store simulator as Shopify documents it (docs/reference/shopify-refunds.md §5.1),
// driven by @shopify/shopify-api's own `shopify.auth.tokenExchange`: an App Bridge session token becomes an
// expiring offline token and the shop is installed with the app's declared scopes (Shopify-managed install).
import { HttpResponseError, RequestedTokenType } from '@shopify/shopify-api';
import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreSimulator } from '../../../sim/store-simulator/store-simulator.ts';
import { API_KEY, API_SECRET, SHOP, graphqlClient, rawGraphql, restOrder, shopify, startSim } from '../../support/store-simulator-kit.ts';

const DECLARED = 'read_orders,write_orders,read_customers';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';

let sim: StoreSimulator;
let closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
  closers = [];
  sim = await startSim(closers, { scopes: DECLARED });
});

afterEach(async () => {
  for (const close of closers.reverse()) await close();
});

function exchange(body: Record<string, unknown>, shop = SHOP) {
  return fetch(`${sim.origin}/admin/oauth/access_token`, {
    method: 'POST',
    headers: { 'x-shopify-shop-domain': shop, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      client_id: API_KEY,
      client_secret: API_SECRET,
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token_type: ID_TOKEN,
      requested_token_type: RequestedTokenType.OfflineAccessToken,
      expiring: '1',
      ...body,
    }),
  });
}

/** A session token with chosen claims, signed with `secret` (the app's unless told). */
async function idToken(claims: Record<string, unknown>, secret = API_SECRET): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: `https://${SHOP}/admin`,
    dest: `https://${SHOP}`,
    aud: API_KEY,
    sub: '1',
    exp: now + 60,
    nbf: now - 5,
    iat: now,
    ...claims,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(secret));
}

describe('token exchange', () => {
  it('shopify.auth.tokenExchange installs the shop with the declared scopes and gets an expiring offline token that refreshes', async () => {
    expect(sim.installation(SHOP)).toBeUndefined();

    const { session } = await shopify.auth.tokenExchange({
      shop: SHOP,
      sessionToken: await sim.sessionToken(SHOP),
      requestedTokenType: RequestedTokenType.OfflineAccessToken,
      expiring: true,
    });

    expect(session).toMatchObject({ id: `offline_${SHOP}`, shop: SHOP, isOnline: false, scope: DECLARED });
    expect(session.accessToken).toMatch(/^shpua_[0-9a-f]{32}$/);
    expect(session.refreshToken).toMatch(/^shprt_[0-9a-f]{32}$/);
    const lifetime = (session.expires?.getTime() ?? 0) - Date.now();
    expect(lifetime).toBeGreaterThan(3_590_000);
    expect(lifetime).toBeLessThanOrEqual(3_600_000);
    expect((session.refreshTokenExpires?.getTime() ?? 0) - Date.now()).toBeGreaterThan(89 * 24 * 3600_000);
    expect(sim.installation(SHOP)).toEqual({ scope: DECLARED });

    // The granted scopes are the declared ones: the buyer is readable.
    const gid = sim.setOrder(SHOP, restOrder(5_900_000_000_060, { customer: { id: 7300000000060, email: 'c@example.com' } }));
    const read = `query($id: ID!) { order(id: $id) { id customer { email } } }`;
    expect((await graphqlClient(session.accessToken ?? '').request(read, { variables: { id: gid } })).data).toEqual({
      order: { id: gid, customer: { email: 'c@example.com' } },
    });

    // The existing refresh flow takes the refresh token; the rotated token works, the first one expires.
    sim.advanceClock(3_601_000);
    expect((await rawGraphql(sim, session.accessToken ?? '', read, { id: gid })).status).toBe(401);
    const refreshed = await shopify.auth.refreshToken({ shop: SHOP, refreshToken: session.refreshToken ?? '' });
    expect(sim.refreshCount(SHOP)).toBe(1);
    expect((await rawGraphql(sim, refreshed.session.accessToken ?? '', read, { id: gid })).status).toBe(200);

    // Uninstalling revokes everything; opening the app again installs it again.
    sim.uninstallShop(SHOP);
    expect(sim.installation(SHOP)).toBeUndefined();
    expect((await rawGraphql(sim, refreshed.session.accessToken ?? '', read, { id: gid })).status).toBe(401);
    await shopify.auth.tokenExchange({
      shop: SHOP,
      sessionToken: await sim.sessionToken(SHOP),
      requestedTokenType: RequestedTokenType.OfflineAccessToken,
    });
    expect(sim.installation(SHOP)).toEqual({ scope: DECLARED });
  });

  it('answers Shopify’s fields: expiring offline, non-expiring offline, online with the token’s user', async () => {
    const expiring = await exchange({ subject_token: await sim.sessionToken(SHOP) });
    expect(expiring.status).toBe(200);
    expect(await expiring.json()).toEqual({
      access_token: expect.stringMatching(/^shpua_/),
      scope: DECLARED,
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^shprt_/),
      refresh_token_expires_in: 7_776_000,
    });
    const plain = await exchange({ subject_token: await sim.sessionToken(SHOP), expiring: '0' });
    expect(await plain.json()).toEqual({ access_token: expect.stringMatching(/^shpua_/), scope: DECLARED });
    const online = await exchange({
      subject_token: await sim.sessionToken(SHOP, { userId: 4242 }),
      requested_token_type: RequestedTokenType.OnlineAccessToken,
    });
    expect(await online.json()).toMatchObject({ scope: DECLARED, expires_in: 86_399, associated_user: { id: 4242, account_owner: true } });
  });

  it('refuses a subject token that is expired, forged, for another app, another shop or no shop (400 invalid_subject_token)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string, string?][] = [
      [await sim.sessionToken(SHOP, { expiresInSeconds: -60 }), 'Session token has expired.'],
      [await idToken({}, 'not-the-app-secret'), 'Session token is invalid.'],
      [await idToken({ aud: 'another-app' }), 'Session token is invalid.'],
      [await idToken({ exp: undefined }), 'Session token is invalid.'],
      [await idToken({ dest: 'https://evil.example.com' }), 'Session token names no shop.'],
      [await idToken({ dest: `https://${SHOP}/admin` }), 'Session token names no shop.'],
      [await idToken({ dest: 'https://otra.myshopify.com', exp: now + 60 }), 'Session token is for another shop.'],
      ['not.a.jwt', 'Session token is invalid.'],
    ];
    for (const [subject, description] of cases) {
      const res = await exchange({ subject_token: subject });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'invalid_subject_token', error_description: description });
    }
    expect(sim.installation(SHOP)).toBeUndefined();
    expect(sim.installation('otra.myshopify.com')).toBeUndefined();
  });

  it('a wrong client secret is refused like the code grant (401 invalid_client), without echoing it', async () => {
    const res = await exchange({ subject_token: await sim.sessionToken(SHOP), client_secret: 'guess-123' });
    expect(res.status).toBe(401);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ error: 'invalid_client' });
    expect(text).not.toContain('guess-123');
    expect(sim.installation(SHOP)).toBeUndefined();

    const viaLibrary = await shopify.auth
      .tokenExchange({
        shop: 'otra.myshopify.com',
        sessionToken: await sim.sessionToken(SHOP),
        requestedTokenType: RequestedTokenType.OfflineAccessToken,
      })
      .catch((e: unknown) => e);
    expect(viaLibrary).toBeInstanceOf(HttpResponseError);
    expect((viaLibrary as HttpResponseError).response.code).toBe(400);
  });
});
