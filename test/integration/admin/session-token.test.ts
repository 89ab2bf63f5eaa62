// Session tokens as the app checks them (jose, HS256 with the app secret): each rule of Shopify's, the
// lifetime bound, and the 401 a fetch gets (with the retry header when a fresh token may help).
import '@shopify/shopify-api/adapters/node';
import type { AddressInfo } from 'node:net';
import { ApiVersion, LogSeverity, shopifyApi } from '@shopify/shopify-api';
import express from 'express';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_TOKEN_LIFETIME_SECONDS,
  RETRY_INVALID_SESSION_HEADER,
  mintSessionToken,
  requireSessionToken,
  shopOf,
  verifySessionToken,
} from '../../../src/admin/session-token.ts';

const KEY = 'session-test-key';
const SECRET = 'session-test-secret';
const SHOP = 'tienda-token.myshopify.com';
const shopify = shopifyApi({
  apiKey: KEY,
  apiSecretKey: SECRET,
  hostName: '127.0.0.1',
  hostScheme: 'http',
  apiVersion: ApiVersion.October26,
  isEmbeddedApp: true,
  logger: { level: LogSeverity.Error, log: async () => {} },
});
const NOW = new Date('2026-11-25T12:00:00Z');
const T = Math.floor(NOW.getTime() / 1000);

/** A token with Shopify's claims; `claims` overrides or (undefined) removes them. */
async function token(claims: Record<string, unknown> = {}, o: { secret?: string; alg?: string } = {}): Promise<string> {
  const all: Record<string, unknown> = {
    iss: `https://${SHOP}/admin`,
    dest: `https://${SHOP}`,
    aud: KEY,
    sub: '42',
    exp: T + 60,
    nbf: T - 5,
    iat: T - 5,
    jti: 'j',
    sid: 's',
    ...claims,
  };
  const payload = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
  return new SignJWT(payload).setProtectedHeader({ alg: o.alg ?? 'HS256' }).sign(new TextEncoder().encode(o.secret ?? SECRET));
}

const check = async (jwt: string) => verifySessionToken(jwt, { shopify }, NOW);

describe('session token rules', () => {
  it('accepts a token shaped like App Bridge’s and reads the shop from dest', async () => {
    expect(await check(await token())).toEqual({ ok: true, shop: SHOP });
  });

  it('refuses a token without exp, or without iat (its lifetime could not be bounded)', async () => {
    expect(await check(await token({ exp: undefined }))).toEqual({ ok: false, reason: 'exp claim not valid' });
    expect(await check(await token({ iat: undefined }))).toEqual({ ok: false, reason: 'iat claim not valid' });
  });

  it(`refuses a lifetime (exp − iat) over ${MAX_TOKEN_LIFETIME_SECONDS} s, like a year-long token, and accepts one at the bound`, async () => {
    expect(await check(await token({ iat: T, exp: T + 365 * 86_400 }))).toEqual({ ok: false, reason: 'lives longer than 300 s' });
    expect(await check(await token({ iat: T, exp: T + MAX_TOKEN_LIFETIME_SECONDS + 1 }))).toEqual({
      ok: false,
      reason: 'lives longer than 300 s',
    });
    expect(await check(await token({ iat: T, exp: T + MAX_TOKEN_LIFETIME_SECONDS }))).toEqual({ ok: true, shop: SHOP });
    expect(await check(await token({ iat: T + 60, exp: T + 120, nbf: T }))).toEqual({ ok: false, reason: 'issued in the future' });
  });

  it('applies Shopify’s 10 s tolerance to exp and nbf', async () => {
    expect(await check(await token({ iat: T - 65, nbf: T - 65, exp: T - 5 }))).toEqual({ ok: true, shop: SHOP });
    expect(await check(await token({ iat: T - 75, nbf: T - 75, exp: T - 15 }))).toEqual({ ok: false, reason: 'expired' });
    expect(await check(await token({ nbf: T + 5 }))).toEqual({ ok: true, shop: SHOP });
    expect(await check(await token({ nbf: T + 15 }))).toEqual({ ok: false, reason: 'nbf claim not valid' });
  });

  it('refuses another app’s audience, a wrong signature and another algorithm', async () => {
    expect(await check(await token({ aud: 'another-app' }))).toEqual({ ok: false, reason: 'aud claim not valid' });
    expect(await check(await token({}, { secret: 'not-the-app-secret' }))).toEqual({ ok: false, reason: 'signature not valid' });
    expect(await check(await token({}, { alg: 'HS512' }))).toEqual({ ok: false, reason: 'not a session token of this app' });
    const [head, body] = (await token()).split('.');
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${body}.`;
    expect(head).toBeTruthy();
    expect(await check(unsigned)).toEqual({ ok: false, reason: 'not a session token of this app' });
    expect(await check('not-a-jwt')).toEqual({ ok: false, reason: 'not a session token of this app' });
  });

  it('needs dest and iss naming one shop, a store domain', async () => {
    expect(await check(await token({ dest: 'https://otra.myshopify.com' }))).toEqual({
      ok: false,
      reason: 'dest and iss do not name one shop',
    });
    expect(await check(await token({ dest: undefined }))).toEqual({ ok: false, reason: 'dest claim not valid' });
    expect(await check(await token({ dest: 'https://evil.example.com', iss: 'https://evil.example.com/admin' }))).toEqual({
      ok: false,
      reason: 'dest and iss do not name one shop',
    });
  });

  it('mints dev tokens that pass the same check, with App Bridge’s 60 s lifetime', async () => {
    const { token: dev, expiresAt } = await mintSessionToken({ shop: SHOP, apiKey: KEY, apiSecret: SECRET, ttlSeconds: 60, now: NOW });
    expect(expiresAt).toBe('2026-11-25T12:01:00.000Z');
    expect(await check(dev)).toEqual({ ok: true, shop: SHOP });
  });
});

describe('requireSessionToken over HTTP', () => {
  let url: string;
  let server: ReturnType<express.Express['listen']>;

  beforeAll(async () => {
    const app = express();
    app.get('/api/who', requireSessionToken({ shopify }), (_req, res) => res.json({ shop: shopOf(res) }));
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/who`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const get = async (authorization?: string) => {
    const res = await fetch(url, { headers: authorization ? { Authorization: authorization } : {} });
    return { status: res.status, retry: res.headers.get(RETRY_INVALID_SESSION_HEADER), body: (await res.json()) as Record<string, string> };
  };

  it('serves a valid token’s shop', async () => {
    const { token: jwt } = await mintSessionToken({ shop: SHOP, apiKey: KEY, apiSecret: SECRET, ttlSeconds: 60 });
    expect(await get(`Bearer ${jwt}`)).toEqual({ status: 200, retry: null, body: { shop: SHOP } });
  });

  it('answers 401 with the retry header to a refused token, without repeating it, and 401 without it to none at all', async () => {
    const yearLong = await token({ iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 365 * 86_400, nbf: undefined });
    const refused = await get(`Bearer ${yearLong}`);
    expect(refused).toEqual({ status: 401, retry: '1', body: { error: 'invalid session token: lives longer than 300 s' } });
    expect(JSON.stringify(refused.body)).not.toContain(yearLong.split('.')[1]);
    expect(await get()).toEqual({
      status: 401,
      retry: null,
      body: { error: 'missing session token: send Authorization: Bearer <App Bridge session token>' },
    });
  });

  it('answers 401, not 500, to a signed token whose dest is admin.shopify.com or another non-shop host', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases = [
      ['https://admin.shopify.com', 'https://admin.shopify.com/admin'],
      ['https://admin.shopify.com/store/tienda-token', 'https://admin.shopify.com/store/tienda-token/admin'],
      ['https://shopify.com', 'https://shopify.com/admin'],
      ['https://.myshopify.com', 'https://.myshopify.com/admin'],
    ];
    for (const [dest, iss] of cases) {
      const signed = await token({ dest, iss, iat: now - 5, nbf: now - 5, exp: now + 60 });
      const r = await get(`Bearer ${signed}`);
      expect([dest, r]).toEqual([
        dest,
        { status: 401, retry: '1', body: { error: 'invalid session token: dest and iss do not name one shop' } },
      ]);
    }
  });
});
