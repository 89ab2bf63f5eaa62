// Installs against the store simulator, over HTTP.
// OAuth (outside the admin): begin → Shopify's authorize page → callback (HMAC + state) → code exchanged at
// the simulator → expiring offline session stored encrypted → shop row.
// Token exchange (Shopify-managed installation, inside the admin): an embedded page load with an `id_token`
// exchanges it for an expiring offline token, marks the shop installed and serves the page with no
// redirect; the same happens for an API fetch; a refused token bounces through App Bridge; uninstall then
// reinstall works as for a code-grant install.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/database.ts';
import { RETRY_INVALID_SESSION_HEADER, mintSessionToken } from '../../../src/admin/session-token.ts';
import { sessions, shops } from '../../../src/db/schema.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, TEST_API_KEY, startHarness } from '../../../sim/harness/harness.ts';
import { BROWSER_UA, approveAtShopify, beginInstall, installViaOAuth, openCallback } from '../../support/oauth-install.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const ORDER_QUERY = 'query Order($id: ID!) { order(id: $id) { id name } }';
const HOST = 'YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvdGllbmRh';

describe.each(testDatabases)('install by OAuth and by token exchange on $name', (target) => {
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
  const shopRows = (shop: string) => database.db.select().from(shops).where(eq(shops.shop, shop));
  /** The shop's stored offline session: an expiring token (one hour) with its 90-day refresh token. */
  const expiringOfflineSession = async (shop: string, scope: string) => {
    const session = await h.app.sessions.loadSession(`offline_${shop}`);
    expect(session).toMatchObject({ id: `offline_${shop}`, shop, isOnline: false, scope });
    expect(session?.accessToken).toMatch(/^shpua_[0-9a-f]{32}$/);
    expect(session?.refreshToken).toMatch(/^shprt_[0-9a-f]{32}$/);
    const lifetimeMs = (session?.expires?.getTime() ?? 0) - Date.now();
    expect(lifetimeMs).toBeGreaterThan(3_590_000);
    expect(lifetimeMs).toBeLessThanOrEqual(3_600_000);
    expect((session?.refreshTokenExpires?.getTime() ?? 0) - Date.now()).toBeGreaterThan(89 * 24 * 3600_000);
    return session;
  };

  it('begin redirects to Shopify authorize with our key, scopes, callback and a signed state cookie', async () => {
    const { cookies, authorizeUrl } = await beginInstall(h.app.url, 'tienda-begin.myshopify.com');

    // Outside production the authorize page is the simulator's; the shop rides in the query.
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${h.simulator.origin}/admin/oauth/authorize`);
    const q = Object.fromEntries(authorizeUrl.searchParams);
    expect(q).toMatchObject({
      client_id: TEST_API_KEY,
      redirect_uri: `${h.app.url}/api/auth/callback`,
      shop: 'tienda-begin.myshopify.com',
      'grant_options[]': '',
    });
    expect(q['scope']?.split(',')).toContain('write_orders');
    expect(q['state']).toMatch(/^[0-9a-f]{32,}$/);
    expect(cookies).toMatch(new RegExp(`^shopify_app_state=${q['state']}; shopify_app_state\\.sig=[A-Za-z0-9+/=_-]+$`));
    // Nothing is stored before the merchant approves.
    expect(await sessionRows('tienda-begin.myshopify.com')).toEqual([]);
    expect(await shopRows('tienda-begin.myshopify.com')).toEqual([]);
  });

  it('a valid callback stores the expiring offline session (encrypted) and a disabled shop, then opens the app in the admin', async () => {
    const shop = 'tienda-oauth.myshopify.com';
    const done = await installViaOAuth(h.app.url, shop);

    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe(`https://admin.shopify.com/store/tienda-oauth/apps/${TEST_API_KEY}`);

    const session = await expiringOfflineSession(shop, 'write_orders,read_customers,read_locations');

    // On disk the tokens are sealed, not readable.
    const [row] = await sessionRows(shop);
    expect(row?.accessTokenEnc).toMatch(/^v1\./);
    expect(row?.refreshTokenEnc).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(session?.accessToken);
    expect(JSON.stringify(row)).not.toContain(session?.refreshToken);

    // The first install made the settings row: installed, not enabled, default settings, no credentials.
    const installed = await h.app.shops.get(shop);
    expect(installed).toMatchObject({
      shop,
      installed: true,
      enabled: false,
      pausedReason: null,
      credentials: undefined,
      settingsVersion: 0,
    });
    expect(installed?.settings).toMatchObject({ environment: 'pruebas', branchCode: '0000', billingPoint: '001' });

    // The exchanged token is the simulator's: the Admin API answers with it.
    const gid = h.simulator.setOrder(shop, makePaidOrder({ id: 5_900_000_000_301 }));
    const answer = await h.app.admin.graphql<{ order: { id: string; name: string } }>(shop, ORDER_QUERY, { id: gid });
    expect(answer).toMatchObject({ ok: true, data: { order: { id: gid, name: '#301' } } });
  });

  it('the app home sends an unknown shop to OAuth outside the admin; embedded, it serves the page (token exchange installs)', async () => {
    const unknown = await fetch(`${h.app.url}/?shop=tienda-nueva.myshopify.com`, { redirect: 'manual' });
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get('location')).toBe('/api/auth?shop=tienda-nueva.myshopify.com');

    // Inside the admin Shopify installs the app itself: no OAuth, no leaving the iframe, the page itself.
    const framed = await fetch(
      `${h.app.url}/?shop=tienda-nueva.myshopify.com&embedded=1&host=YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvdGllbmRhLW51ZXZh`,
      { redirect: 'manual' },
    );
    expect(framed.status).toBe(200);
    const page = await framed.text();
    expect(page).toContain(`<meta name="shopify-api-key" content="${TEST_API_KEY}">`);
    expect(page).toContain('<script type="module" src="/admin/assets/app.js"></script>');
    expect(page).not.toContain('/api/auth');

    await installViaOAuth(h.app.url, 'tienda-home.myshopify.com');
    const home = await fetch(`${h.app.url}/?shop=tienda-home.myshopify.com`, { redirect: 'manual' });
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe('/admin?shop=tienda-home.myshopify.com');

    expect((await fetch(`${h.app.url}/?shop=not a shop`, { redirect: 'manual' })).status).toBe(400);
  });

  it('refuses a callback whose HMAC does not match; nothing is stored', async () => {
    const shop = 'tienda-hmac.myshopify.com';
    const { cookies, authorizeUrl } = await beginInstall(h.app.url, shop);
    const callback = await approveAtShopify(authorizeUrl);

    const forgedCode = new URL(callback);
    forgedCode.searchParams.set('code', 'f'.repeat(32));
    const forgedHmac = new URL(callback);
    forgedHmac.searchParams.set('hmac', '0'.repeat(64));
    for (const url of [forgedCode, forgedHmac]) {
      const refused = await openCallback(url, cookies);
      expect(refused.status).toBe(400);
      const text = await refused.text();
      expect(text).toBe('Install refused: the request signature or state is not valid. Start the install again from Shopify.');
      expect(text).not.toContain(callback.searchParams.get('code'));
    }
    expect(await sessionRows(shop)).toEqual([]);
    expect(await shopRows(shop)).toEqual([]);

    // The genuine callback still completes: the refusals consumed nothing.
    expect((await openCallback(callback, cookies)).status).toBe(302);
    expect(await sessionRows(shop)).toHaveLength(1);
  });

  it("refuses a callback whose state is not the one in the browser's cookie, or with no cookie at all", async () => {
    const shop = 'tienda-state.myshopify.com';
    const first = await beginInstall(h.app.url, shop);
    const second = await beginInstall(h.app.url, shop);
    // Shopify signed this callback (valid HMAC) for the second flow's state; the browser holds the first cookie.
    const callback = await approveAtShopify(second.authorizeUrl);
    expect(callback.searchParams.get('state')).not.toBe(first.authorizeUrl.searchParams.get('state'));

    const wrongState = await openCallback(callback, first.cookies);
    expect(wrongState.status).toBe(400);
    expect(await wrongState.text()).toMatch(/^Install refused: the request signature or state is not valid/);

    const noCookie = await openCallback(callback, '');
    expect(noCookie.status).toBe(400);
    expect(await noCookie.text()).toMatch(/^Install refused: the install session expired or cookies are blocked/);

    expect(await sessionRows(shop)).toEqual([]);
    expect(await shopRows(shop)).toEqual([]);
  });

  it('refuses to begin without a valid shop domain, and answers bots 410', async () => {
    for (const query of ['', '?shop=', '?shop=evil.example.com', '?shop=a/b.myshopify.com']) {
      const res = await fetch(`${h.app.url}/api/auth${query}`, { redirect: 'manual', headers: { 'User-Agent': BROWSER_UA } });
      expect(res.status).toBe(400);
      expect(await res.text()).toBe('shop must be a store domain like tienda.myshopify.com');
    }
    const bot = await fetch(`${h.app.url}/api/auth?shop=tienda-bot.myshopify.com`, { redirect: 'manual' });
    expect(bot.status).toBe(410);
  });

  // ── token exchange ──

  const embeddedLoad = (shop: string, idToken: string, path = '/') =>
    fetch(`${h.app.url}${path}?embedded=1&host=${HOST}&shop=${shop}&locale=es&id_token=${encodeURIComponent(idToken)}`, {
      redirect: 'manual',
    });

  it('an embedded load with id_token installs the shop: expiring offline session, shop row, the page itself', async () => {
    const shop = 'tienda-tx.myshopify.com';
    expect(await sessionRows(shop)).toEqual([]);
    const page = await embeddedLoad(shop, await h.simulator.sessionToken(shop));

    expect(page.status).toBe(200);
    expect(page.headers.get('location')).toBeNull();
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    const html = await page.text();
    expect(html).toContain(`<meta name="shopify-api-key" content="${TEST_API_KEY}">`);
    expect(html).toContain(`"shop":"${shop}","embedded":true`);
    expect(html).toContain('"locale":"es"');

    // Shopify-managed installation grants the scopes the toml declares.
    const session = await expiringOfflineSession(shop, 'read_orders,write_orders');
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
    expect((await embeddedLoad(shop, await h.simulator.sessionToken(shop), '/admin')).status).toBe(200);
    expect((await h.app.sessions.loadSession(`offline_${shop}`))?.accessToken).toBe(session?.accessToken);
  });

  it('a first API fetch with a valid token installs too, concurrent ones included', async () => {
    const shop = 'tienda-tx-api.myshopify.com';
    const token = await h.simulator.sessionToken(shop);
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

    expect((await embeddedLoad(shop, await h.simulator.sessionToken(shop))).status).toBe(200);
    const after = await h.app.sessions.loadSession(`offline_${shop}`);
    expect(after?.accessToken).toMatch(/^shpua_/);
    expect(after?.accessToken).not.toBe(before?.accessToken);
    expect((await h.app.shops.get(shop))?.installed).toBe(true);
  });
});
