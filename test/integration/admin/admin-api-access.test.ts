// The admin API over real HTTP: session tokens (401 without, forged, expired), list filters, search and keyset
// paging to the exact row, and counts per status.
import { beforeAll, describe, expect, it } from 'vitest';
import { mintSessionToken, shopFromClaims } from '../../../src/admin/session-token.ts';
import type { Database } from '../../../src/db/database.ts';
import { documents } from '../../../src/db/schema.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, TEST_API_KEY, TEST_API_SECRET } from '../../../sim/harness/harness.ts';
import { A, B, id, REJECTED_MESSAGE, A_ROWS, adminApiWorld } from '../../support/admin-api-world.ts';

describe.each(testDatabases)('admin API on $name', (target) => {
  const world = adminApiWorld(target);
  const { call, ids, shopRow } = world;
  let database: Database;
  let h: Harness;
  let realA: { id: string; orderName: string; gid: string };
  beforeAll(() => ({ database, h, realA } = world));

  // ── session tokens ────────────────────────────────────────────────────────────

  const ROUTES: [string, string, unknown?][] = [
    ['GET', '/api/shop'],
    ['PUT', '/api/settings', { environment: 'pruebas' }],
    ['POST', '/api/settings/test-connection', {}],
    ['POST', '/api/shop/enabled', { enabled: false }],
    ['GET', '/api/invoices'],
    ['GET', '/api/invoices/counts'],
    ['GET', `/api/invoices/${id(1)}`],
    ['POST', `/api/invoices/${id(2)}/retry`],
    ['POST', '/api/invoices/retry', { statuses: ['failed'] }],
  ];

  it('answers 401 on every route without a token, with a forged, expired, foreign or shop-less one, and changes nothing', async () => {
    const now = Math.floor(Date.now() / 1000);
    const forged = (await mintSessionToken({ shop: A, apiKey: TEST_API_KEY, apiSecret: 'not-the-app-secret', ttlSeconds: 60 })).token;
    const expired = (
      await mintSessionToken({
        shop: A,
        apiKey: TEST_API_KEY,
        apiSecret: TEST_API_SECRET,
        ttlSeconds: 60,
        now: new Date((now - 600) * 1000),
      })
    ).token;
    const otherApp = (await mintSessionToken({ shop: A, apiKey: 'another-app', apiSecret: TEST_API_SECRET, ttlSeconds: 60 })).token;
    const before = (await database.db.select().from(documents)).map((r) => [r.id, r.status, r.updatedAt.getTime()]);
    const versions = [(await shopRow(A)).settingsVersion, (await shopRow(A)).enabled];
    for (const [method, path, body] of ROUTES) {
      for (const token of [null, 'not-a-jwt', forged, expired, otherApp]) {
        const r = await call(method, path, { token, body });
        expect(r.status, `${method} ${path} with ${token ? token.slice(0, 12) : 'no token'}`).toBe(401);
        expect(r.body.error).toMatch(/session token/);
        expect(r.text).not.toContain(token ?? '@@none@@');
      }
    }
    expect((await database.db.select().from(documents)).map((r) => [r.id, r.status, r.updatedAt.getTime()])).toEqual(before);
    expect([(await shopRow(A)).settingsVersion, (await shopRow(A)).enabled]).toEqual(versions);
  });

  it('accepts App Bridge tokens (the simulator signs them like Shopify) and the dev route token', async () => {
    expect((await call('GET', '/api/shop')).body.shop).toBe(A);
    const dev = await fetch(`${h.app.url}/admin/dev-session-token?shop=${B}`);
    expect(dev.status).toBe(200);
    const { token } = (await dev.json()) as { token: string };
    expect((await call('GET', '/api/shop', { token })).body.shop).toBe(B);
    expect((await fetch(`${h.app.url}/admin/dev-session-token?shop=nope.myshopify.com`)).status).toBe(404);
    expect((await fetch(`${h.app.url}/admin/dev-session-token?shop=evil.example.com`)).status).toBe(400);
  });

  it('reads dest and iss: both must name the same shop', () => {
    const sanitize = (s: string) => (/\.myshopify\.com$/.test(s) ? s : null);
    expect(shopFromClaims({ dest: `https://${A}`, iss: `https://${A}/admin` }, sanitize)).toBe(A);
    expect(shopFromClaims({ dest: `https://${B}`, iss: `https://${A}/admin` }, sanitize)).toBeUndefined();
    expect(shopFromClaims({ dest: 'https://evil.example.com', iss: 'https://evil.example.com/admin' }, sanitize)).toBeUndefined();
    expect(shopFromClaims({ iss: `https://${A}/admin` }, sanitize)).toBeUndefined();
  });

  // ── list, search, paging ──────────────────────────────────────────────────────

  const ALL_A = () => [realA.id, id(5), id(4), id(3), id(2), id(1), id(6), id(7)];

  it('lists the shop’s invoices newest first, paged by cursor without skipping or repeating rows of the same millisecond', async () => {
    const first = await call('GET', '/api/invoices');
    expect(first.status).toBe(200);
    expect(ids(first.body)).toEqual(ALL_A());
    expect(first.body.nextCursor).toBeNull();

    for (const limit of [1, 3, 4]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { body: { invoices: { id: string }[]; nextCursor: string | null } } = await call(
          'GET',
          `/api/invoices?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(page.body.invoices.length).toBeLessThanOrEqual(limit);
        seen.push(...ids(page.body));
        cursor = page.body.nextCursor;
        pages++;
      } while (cursor);
      expect(seen, `limit ${limit}`).toEqual(ALL_A());
      expect(pages).toBe(Math.ceil(8 / limit));
    }
  });

  it('shows each invoice with its amount, fiscal number and, when not authorized, the reason in plain words', async () => {
    const { body } = await call('GET', '/api/invoices');
    const byId = new Map(body.invoices.map((i: { id: string }) => [i.id, i]));
    expect(byId.get(realA.id)).toMatchObject({
      orderName: realA.orderName,
      status: 'completed',
      authorized: true,
      totalCents: 7578,
      amount: '75.78',
      currency: 'USD',
      fiscalNumber: '0000-001-0000000001',
      environment: 'pruebas',
      reason: null,
    });
    expect(byId.get(id(2))).toMatchObject({
      status: 'needs_attention',
      fiscalNumber: '0000-001-0000000102',
      authorized: false,
      reason: { kind: 'rejected', code: '109', message: REJECTED_MESSAGE, problems: [] },
    });
    expect(byId.get(id(5))).toMatchObject({
      status: 'skipped',
      test: true,
      reason: { kind: 'skipped', code: null, message: A_ROWS[4].lastErrorMessage },
    });
    expect(byId.get(id(7))).toMatchObject({ status: 'pending', reason: { kind: 'unavailable', code: null } });
    expect(byId.get(id(6))).toMatchObject({
      fiscalNumber: '0000-001-0000000007',
      cufe: 'FE-A-2006',
      reason: null,
      createdAt: '2026-02-28T12:00:00.000Z',
    });
  });

  it('filters by status and by Panama calendar day, exactly', async () => {
    expect(ids((await call('GET', '/api/invoices?status=failed')).body)).toEqual([id(4), id(3)]);
    expect(ids((await call('GET', '/api/invoices?status=needs_attention')).body)).toEqual([id(2)]);
    expect(ids((await call('GET', '/api/invoices?status=completed')).body)).toEqual([realA.id, id(1), id(6)]);
    // 2026-03-02T04:59:59Z is still March 1 in Panama; 05:00Z is March 2.
    expect(ids((await call('GET', '/api/invoices?from=2026-03-01&to=2026-03-01')).body)).toEqual([id(4), id(3), id(2), id(1)]);
    expect(ids((await call('GET', '/api/invoices?from=2026-03-02&to=2026-03-02')).body)).toEqual([id(5)]);
    expect(ids((await call('GET', '/api/invoices?to=2026-02-28')).body)).toEqual([id(6), id(7)]);
    expect(ids((await call('GET', '/api/invoices?status=failed&from=2026-03-01&to=2026-03-01&limit=1')).body)).toEqual([id(4)]);
  });

  it('searches by order name or fiscal number, never across shops', async () => {
    expect(ids((await call('GET', '/api/invoices?q=2003')).body)).toEqual([id(3)]);
    expect(ids((await call('GET', `/api/invoices?q=${encodeURIComponent('#2003')}`)).body)).toEqual([id(3)]);
    expect(ids((await call('GET', '/api/invoices?q=0000-001-0000000007')).body)).toEqual([id(6)]);
    expect(ids((await call('GET', '/api/invoices?q=7')).body)).toEqual([id(6)]);
    expect(ids((await call('GET', '/api/invoices?q=101')).body)).toEqual([id(1)]);
    expect(ids((await call('GET', `/api/invoices?q=${encodeURIComponent(realA.orderName)}`)).body)).toEqual([realA.id]);
    expect(ids((await call('GET', '/api/invoices?q=3001')).body)).toEqual([]);
    expect(ids((await call('GET', '/api/invoices?q=nothing-like-this')).body)).toEqual([]);
  });

  it('names the field of bad list parameters (400)', async () => {
    const cases: [string, string][] = [
      ['status=bogus', 'status'],
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['from=2026-02-30', 'from'],
      ['to=yesterday', 'to'],
      ['from=2026-03-02&to=2026-03-01', 'to'],
      ['cursor=garbage', 'cursor'],
      ['status=failed&status=completed', 'status'],
    ];
    for (const [query, field] of cases) {
      const r = await call('GET', `/api/invoices?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.error, query).toMatch(new RegExp(`^${field}: `));
    }
  });

  it('counts per status, for the token’s shop only', async () => {
    expect((await call('GET', '/api/invoices/counts')).body.counts).toEqual({
      all: 8,
      pending: 1,
      waiting: 0,
      needs_attention: 1,
      failed: 2,
      completed: 3,
      skipped: 1,
    });
    expect((await call('GET', '/api/invoices/counts', { shop: B })).body.counts).toEqual({
      all: 3,
      pending: 0,
      waiting: 0,
      needs_attention: 1,
      failed: 1,
      completed: 1,
      skipped: 0,
    });
  });
});
