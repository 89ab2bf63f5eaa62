// Shopify-managed installation over HTTP against the store simulator: an embedded page load with an
// `id_token` exchanges it for an expiring offline token (stored encrypted), marks the shop installed and
// serves the page with no redirect; the same happens for an API fetch; a refused token bounces through App
// Bridge; uninstall then reinstall works as for a code-grant install.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_INVALID_SESSION_HEADER, mintSessionToken } from '../src/admin/session-token.ts';
import type { Database } from '../src/db/database.ts';
import { sessions } from '../src/db/schema.ts';
import { testDatabases } from './support/databases.ts';
import { type Harness, TEST_API_KEY, startHarness } from './support/harness.ts';
import { makePaidOrder } from './support/order-factory.ts';

const HOST = 'YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvdGllbmRh';
const ORDER_QUERY = 'query Order($id: ID!) { order(id: $id) { id name } }';

describe.each(testDatabases)('install by token exchange on $name', (target) => {
  let database: Database;
  let h: Harness;

  beforeAll(async () => {
    database = await target.open();
    h = await startHarness({ database, env: { WORKER_ENABLED: 'false' } });
  });
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });

  const sessionRows = (shop: string) => database.db.select().from(sessions).where(eq(sessions.shop, shop));
  const embeddedLoad = (shop: string, idToken: string, path = '/') =>
    fetch(`${h.app.url}${path}?embedded=1&host=${HOST}&shop=${shop}&locale=es&id_token=${encodeURIComponent(idToken)}`, {
      redirect: 'manual',
    });

  it('an embedded load with id_token installs the shop: expiring offline session, shop row, the page itself', async () => {
    const shop = 'tienda-tx.myshopify.com';
    expect(await sessionRows(shop)).toEqual([]);
    const page = await embeddedLoad(shop, h.simulator.sessionToken(shop));

    expect(page.status).toBe(200);
    expect(page.headers.get('location')).toBeNull();
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    const html = await page.text();
    expect(html).toContain(`<meta name="shopify-api-key" content="${TEST_API_KEY}">`);
    expect(html).toContain(`"shop":"${shop}","embedded":true`);
    expect(html).toContain('"locale":"es"');

    const session = await h.app.sessions.loadSession(`offline_${shop}`);
    expect(session).toMatchObject({ id: `offline_${shop}`, shop, isOnline: false, scope: 'read_orders,write_orders' });
    expect(session?.accessToken).toMatch(/^shpua_[0-9a-f]{32}$/);
    expect(session?.refreshToken).toMatch(/^shprt_[0-9a-f]{32}$/);
    const lifetimeMs = (session?.expires?.getTime() ?? 0) - Date.now();
    expect(lifetimeMs).toBeGreaterThan(3_590_000);
    expect(lifetimeMs).toBeLessThanOrEqual(3_600_000);
    const [row] = await sessionRows(shop);
    expect(row?.accessTokenEnc).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(session?.accessToken);
    expect(await h.app.shops.get(shop)).toMatchObject({ shop, installed: true, enabled: false, credentials: undefined });

    // The exchanged token is the simulator's: the Admin API answers with it.
    const gid = h.simulator.setOrder(shop, makePaidOrder({ id: 5_930_000_000_001 }));
    expect(await h.app.admin.graphql(shop, ORDER_QUERY, { id: gid })).toMatchObject({
      ok: true,
      data: { order: { id: gid, name: '#1' } },
    });

    // Loading again keeps the session: no second exchange.
    expect((await embeddedLoad(shop, h.simulator.sessionToken(shop), '/admin')).status).toBe(200);
    expect((await h.app.sessions.loadSession(`offline_${shop}`))?.accessToken).toBe(session?.accessToken);
  });

  it('a first API fetch with a valid token installs too, concurrent ones included', async () => {
    const shop = 'tienda-tx-api.myshopify.com';
    const token = h.simulator.sessionToken(shop);
    const answers = await Promise.all(
      [1, 2, 3].map(() => fetch(`${h.app.url}/api/shop`, { headers: { Authorization: `Bearer ${token}` } })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(((await answers[0]!.json()) as { shop: string; installed: boolean }).installed).toBe(true);
    expect(await sessionRows(shop)).toHaveLength(1);
  });

  it('a token the app refuses bounces a document load through App Bridge and gets 401 + retry on a fetch; nothing is stored', async () => {
    const shop = 'tienda-tx-forged.myshopify.com';
    const forged = (await mintSessionToken({ shop, apiKey: TEST_API_KEY, apiSecret: 'not-the-app-secret', ttlSeconds: 60 })).token;
    const page = await embeddedLoad(shop, forged);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(
      `<!doctype html>\n<script data-api-key="${TEST_API_KEY}" src="https://cdn.shopify.com/shopifycloud/app-bridge.js"></script>\n`,
    );
    const fetched = await fetch(`${h.app.url}/api/shop`, { headers: { Authorization: `Bearer ${forged}` } });
    expect(fetched.status).toBe(401);
    expect(fetched.headers.get(RETRY_INVALID_SESSION_HEADER)).toBe('1');
    expect(await sessionRows(shop)).toEqual([]);
    expect(await h.app.shops.get(shop)).toBeUndefined();
  });

  it('uninstall deletes the session as today; the next embedded load installs again with a new token', async () => {
    const shop = 'tienda-tx.myshopify.com';
    const before = await h.app.sessions.loadSession(`offline_${shop}`);
    const uninstalled = await h.simulator.sendWebhook({
      address: `${h.app.url}/webhooks/app/uninstalled`,
      topic: 'app/uninstalled',
      shop,
      payload: { id: 1, myshopify_domain: shop },
    });
    expect(uninstalled.status).toBe(200);
    expect(await sessionRows(shop)).toEqual([]);
    expect((await h.app.shops.get(shop))?.installed).toBe(false);

    expect((await embeddedLoad(shop, h.simulator.sessionToken(shop))).status).toBe(200);
    const after = await h.app.sessions.loadSession(`offline_${shop}`);
    expect(after?.accessToken).toMatch(/^shpua_/);
    expect(after?.accessToken).not.toBe(before?.accessToken);
    expect((await h.app.shops.get(shop))?.installed).toBe(true);
  });
});
