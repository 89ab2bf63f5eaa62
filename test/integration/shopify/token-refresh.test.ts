// Expiring offline tokens: a token near expiry is refreshed once, even when several workers (separate
// in-process caches, separate database connections) need it at the same moment. The simulator refuses a
// used refresh token, so a second refresh would also surface as an error, not only as a count.
import '@shopify/shopify-api/adapters/node';
import { randomBytes } from 'node:crypto';
import { ApiVersion, LogSeverity, Session, type Shopify, shopifyApi } from '@shopify/shopify-api';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../src/db/database.ts';
import type { OfflineSessions } from '../../../src/shopify/admin-client.ts';
import { rewritingFetch } from '../../../src/shopify/admin-api-origin.ts';
import { createOfflineSessions } from '../../../src/shopify/offline-sessions.ts';
import { EncryptedSessionStorage } from '../../../src/shopify/session-storage.ts';
import { type StoreSimulator, startStoreSimulator } from '../../../sim/store-simulator/store-simulator.ts';
import { createSecretBox, type SecretBox } from '../../../src/shops/secret-box.ts';
import { createFreshPostgresDatabase, postgresUrlForTests } from '../../../sim/harness/databases.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const API_KEY = 'refresh-api-key';
const API_SECRET = 'refresh-api-secret';
const ORDER_QUERY = 'query Order($id: ID!) { order(id: $id) { id name } }';

let sim: StoreSimulator;
let shopify: Shopify;
const box: SecretBox = createSecretBox(randomBytes(32));

beforeAll(async () => {
  sim = await startStoreSimulator({ apiKey: API_KEY, apiSecret: API_SECRET });
  setAbstractFetchFunc(rewritingFetch(sim.origin, globalThis.fetch));
  shopify = shopifyApi({
    apiKey: API_KEY,
    apiSecretKey: API_SECRET,
    hostName: 'app.test',
    apiVersion: ApiVersion.October26,
    isEmbeddedApp: true,
    scopes: ['read_orders', 'write_orders'],
    logger: { level: LogSeverity.Error },
  });
});
afterAll(async () => {
  await sim?.close();
});

/** What an install leaves: an expiring pair from the simulator, stored with its expiry `expiresInMs` away. */
async function installExpiring(storage: EncryptedSessionStorage, shop: string, expiresInMs: number): Promise<Session> {
  const authorize = await fetch(
    `${sim.origin}/admin/oauth/authorize?${new URLSearchParams({ client_id: API_KEY, scope: 'write_orders', redirect_uri: 'https://app.test/api/auth/callback', state: 's', shop })}`,
    { redirect: 'manual' },
  );
  const code = new URL(authorize.headers.get('location') ?? '').searchParams.get('code');
  const granted = await fetch(`${sim.origin}/admin/oauth/access_token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-shopify-shop-domain': shop },
    body: JSON.stringify({ client_id: API_KEY, client_secret: API_SECRET, code, expiring: '1' }),
  });
  const pair = (await granted.json()) as { access_token: string; refresh_token: string; scope: string };
  const session = new Session({
    id: shopify.session.getOfflineId(shop),
    shop,
    state: 'installed',
    isOnline: false,
    scope: pair.scope,
    accessToken: pair.access_token,
    expires: new Date(Date.now() + expiresInMs),
    refreshToken: pair.refresh_token,
    refreshTokenExpires: new Date(Date.now() + 90 * 24 * 3600_000),
  });
  await storage.storeSession(session);
  return session;
}

/** Every worker asks at once, `callsEach` times; returns the access tokens they were given. */
async function allAtOnce(workers: OfflineSessions[], shop: string, callsEach: number): Promise<string[]> {
  const sessions = await Promise.all(workers.flatMap((w) => Array.from({ length: callsEach }, () => w.get(shop))));
  return sessions.map((s) => s?.accessToken ?? 'none');
}

async function expectRefreshedOnce(storage: EncryptedSessionStorage, old: Session, tokens: string[]): Promise<void> {
  const shop = old.shop;
  expect(sim.refreshCount(shop)).toBe(1);
  const [first] = tokens;
  expect(first).toMatch(/^shpua_/);
  expect(first).not.toBe(old.accessToken);
  expect(new Set(tokens)).toEqual(new Set([first]));

  const stored = await storage.loadSession(old.id);
  expect(stored?.accessToken).toBe(first);
  expect(stored?.refreshToken).toMatch(/^shprt_/);
  expect(stored?.refreshToken).not.toBe(old.refreshToken);
  const lifetimeMs = (stored?.expires?.getTime() ?? 0) - Date.now();
  expect(lifetimeMs).toBeGreaterThan(3_590_000);
  expect(lifetimeMs).toBeLessThanOrEqual(3_600_000);

  // The new token is accepted by the Admin API.
  const gid = sim.setOrder(shop, makePaidOrder({ id: 5_900_000_000_401 }));
  const client = new shopify.clients.Graphql({ session: stored! });
  const answer = await client.request<{ order: { name: string } }>(ORDER_QUERY, { variables: { id: gid } });
  expect(answer.data?.order.name).toBe('#401');
}

describe('token refresh on PGlite (one database, two workers with their own caches)', () => {
  let database: Database;
  let storage: EncryptedSessionStorage;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: undefined });
    storage = new EncryptedSessionStorage(database.db, box);
  });
  afterAll(async () => {
    await database?.close();
  });
  const worker = () => createOfflineSessions({ shopify, db: database.db, storage });

  it('a token with more than five minutes left is used as it is', async () => {
    const shop = 'fresh-pglite.myshopify.com';
    const old = await installExpiring(storage, shop, 30 * 60_000);
    const tokens = await allAtOnce([worker(), worker()], shop, 3);
    expect(tokens).toEqual(Array(6).fill(old.accessToken));
    expect(sim.refreshCount(shop)).toBe(0);
  });

  it('one worker asking many times at once refreshes once', async () => {
    const shop = 'single-pglite.myshopify.com';
    const old = await installExpiring(storage, shop, 60_000);
    await expectRefreshedOnce(storage, old, await allAtOnce([worker()], shop, 5));
  });

  it('two workers needing it at the same moment refresh once, and both get the new token', async () => {
    const shop = 'two-pglite.myshopify.com';
    const old = await installExpiring(storage, shop, 60_000);
    const a = worker();
    const b = worker();
    await expectRefreshedOnce(storage, old, await allAtOnce([a, b], shop, 3));
    // Later calls use the stored token; no second refresh.
    expect((await allAtOnce([a, b], shop, 2)).every((t) => t !== old.accessToken)).toBe(true);
    expect(sim.refreshCount(shop)).toBe(1);
  });
});

describe.skipIf(!postgresUrlForTests)('token refresh on PostgreSQL (two connections, as two processes would have)', () => {
  let drop: () => Promise<void>;
  let one: Database;
  let two: Database;
  let storageOne: EncryptedSessionStorage;
  let storageTwo: EncryptedSessionStorage;

  beforeAll(async () => {
    const fresh = await createFreshPostgresDatabase(postgresUrlForTests!);
    drop = fresh.drop;
    one = await openDatabase({ kind: 'postgres', url: fresh.url, maxConnections: 3 });
    two = await openDatabase({ kind: 'postgres', url: fresh.url, maxConnections: 3 });
    storageOne = new EncryptedSessionStorage(one.db, box);
    storageTwo = new EncryptedSessionStorage(two.db, box);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await drop?.();
  });

  it('two workers on separate connections refresh once; the second waits on the row lock and reads the new token', async () => {
    const shop = 'two-postgres.myshopify.com';
    const old = await installExpiring(storageOne, shop, 60_000);
    const a = createOfflineSessions({ shopify, db: one.db, storage: storageOne });
    const b = createOfflineSessions({ shopify, db: two.db, storage: storageTwo });
    const tokens = await allAtOnce([a, b], shop, 3);
    await expectRefreshedOnce(storageTwo, old, tokens);
  });

  it('an expired token (not only a near one) is refreshed once too', async () => {
    const shop = 'expired-postgres.myshopify.com';
    const old = await installExpiring(storageOne, shop, -60_000);
    const workers = [
      createOfflineSessions({ shopify, db: one.db, storage: storageOne }),
      createOfflineSessions({ shopify, db: two.db, storage: storageTwo }),
      createOfflineSessions({ shopify, db: two.db, storage: storageTwo }),
    ];
    await expectRefreshedOnce(storageOne, old, await allAtOnce(workers, shop, 2));
  });
});
