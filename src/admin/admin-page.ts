// The admin page: one HTML shell that loads the plain ES modules in ./public (no build step, no CDN).
// Embedded in Shopify (`host` in the query) the shell also carries App Bridge, which Shopify's admin serves
// and which gives the page its session tokens, title bar and navigation; everywhere else the page has no
// external reference at all. An embedded load carries `id_token`: a shop seen for the first time is
// installed right here by token exchange (src/shopify/embedded-install.ts), with no redirect.
import path from 'node:path';
import type { Shopify } from '@shopify/shopify-api';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { PROJECT_ROOT } from '../project-root.ts';
import type { EnsureOfflineSession } from '../shopify/embedded-install.ts';
import type { ShopRepository } from '../shops/shop-repository.ts';
import { mintSessionToken, verifySessionToken } from './session-token.ts';

export const ADMIN_PATH = '/admin';
export const ASSETS_PATH = `${ADMIN_PATH}/assets`;
export const DEV_TOKEN_PATH = `${ADMIN_PATH}/dev-session-token`;
/** In cascade order: each file's rules may override the ones before (phone.css last). */
const STYLESHEETS = ['page.css', 'components.css', 'forms.css', 'invoices.css', 'reports.css', 'phone.css'];

export const PUBLIC_DIR = path.join(PROJECT_ROOT, 'src', 'admin', 'public');
const APP_BRIDGE_URL = 'https://cdn.shopify.com/shopifycloud/app-bridge.js';
/** As long as App Bridge's own tokens live. */
const DEV_TOKEN_TTL_SECONDS = 60;

/** What the page script reads from the shell (a JSON block, not globals). */
export interface PageConfig {
  /** The shop named in the address; the session token decides which shop the API serves. */
  shop: string | null;
  embedded: boolean;
  /** The demo/test token route exists. */
  devSessionTokens: boolean;
  /** Installed shops to choose from, demo/test only, when the address names none. */
  shops: string[];
  /** The admin's language as Shopify puts it in the address (`locale=es-PA`), if it does. */
  locale: string | null;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const jsonForScript = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

export function adminPageHtml(o: { config: PageConfig; apiKey: string }): string {
  // Shopify asks for App Bridge as the first, synchronous script of the head; only the embedded shell has it.
  const appBridge = o.config.embedded
    ? `<meta name="shopify-api-key" content="${escapeHtml(o.apiKey)}">\n    <script src="${APP_BRIDGE_URL}"></script>\n    `
    : '';
  return `<!doctype html>
<html lang="es">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    ${appBridge}<title>Facturación electrónica</title>
    <link rel="icon" href="data:,">
    ${STYLESHEETS.map((name) => `<link rel="stylesheet" href="${ASSETS_PATH}/styles/${name}">`).join('\n    ')}
    <script type="application/json" id="app-config">${jsonForScript(o.config)}</script>
    <script type="module" src="${ASSETS_PATH}/app.js"></script>
  </head>
  <body>
    <div id="app" class="app">
      <div class="page"><p class="loading" role="status">Cargando…</p></div>
    </div>
    <noscript><p class="page">Esta página necesita JavaScript. / This page needs JavaScript.</p></noscript>
  </body>
</html>
`;
}

export interface AdminPageDeps {
  shopify: Shopify;
  shops: Pick<ShopRepository, 'get' | 'list'>;
  devSessionTokens: boolean;
  ensureOfflineSession: EnsureOfflineSession;
}

function queryText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Shopify opens embedded apps with ?embedded=1&host=…&shop=…; `host` is what only Shopify adds. */
export function isEmbeddedLoad(req: Request): boolean {
  return queryText(req.query['host']) !== undefined || req.query['embedded'] === '1';
}

export function adminPageRoute(deps: AdminPageDeps): RequestHandler {
  return async (req, res) => {
    const shopText = queryText(req.query['shop']);
    let shop = shopText ? (deps.shopify.utils.sanitizeShop(shopText) ?? null) : null;
    const embedded = isEmbeddedLoad(req);
    const idToken = queryText(req.query['id_token']);
    if (embedded && idToken) {
      const verified = await verifySessionToken(idToken, deps);
      // A stale token on a document load: App Bridge fetches a fresh one and loads the page again.
      if (!verified.ok) return sendSessionTokenBounce(res, deps.shopify.config.apiKey);
      const installed = await deps.ensureOfflineSession(verified.shop, idToken);
      if (!installed.ok && installed.retry) return sendSessionTokenBounce(res, deps.shopify.config.apiKey);
      if (!installed.ok) {
        res.status(installed.status).type('text/plain').set('Cache-Control', 'no-store').send(installed.error);
        return;
      }
      shop = verified.shop;
    }
    let shops: string[] = [];
    if (!shop && !embedded && deps.devSessionTokens) {
      shops = (await deps.shops.list()).filter((s) => s.installed).map((s) => s.shop);
      if (shops.length === 1) {
        res.redirect(302, `${ADMIN_PATH}?shop=${encodeURIComponent(shops[0]!)}`);
        return;
      }
    }
    const locale = queryText(req.query['locale']);
    const config: PageConfig = {
      shop,
      embedded,
      devSessionTokens: deps.devSessionTokens,
      shops,
      locale: locale && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(locale) ? locale : null,
    };
    res
      .status(200)
      .set({
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        // The address may hold the id_token: never send it on to another site.
        'Referrer-Policy': 'same-origin',
        // Inside Shopify the page may only be framed by the shop's admin; elsewhere not at all.
        'Content-Security-Policy':
          embedded && shop ? `frame-ancestors https://${shop} https://admin.shopify.com` : "frame-ancestors 'none'",
      })
      .send(adminPageHtml({ config, apiKey: deps.shopify.config.apiKey }));
  };
}

/** App Bridge alone: it gets a fresh session token and reloads the page with it (Shopify's bounce page). */
function sendSessionTokenBounce(res: Response, apiKey: string): void {
  res
    .status(200)
    .set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'same-origin' })
    .send(`<!doctype html>\n<script data-api-key="${escapeHtml(apiKey)}" src="${APP_BRIDGE_URL}"></script>\n`);
}

/** Demo and tests only: a session token for an installed shop, as App Bridge would give the page. */
export function devSessionTokenRoute(deps: AdminPageDeps): RequestHandler {
  return async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const shopText = queryText(req.query['shop']);
    const shop = shopText ? deps.shopify.utils.sanitizeShop(shopText) : null;
    if (!shop) {
      res.status(400).json({ error: 'shop: must be a store domain like tienda.myshopify.com' });
      return;
    }
    const row = await deps.shops.get(shop);
    if (!row?.installed) {
      res.status(404).json({ error: 'this shop has not installed the app' });
      return;
    }
    res.json(
      await mintSessionToken({
        shop,
        apiKey: deps.shopify.config.apiKey,
        apiSecret: deps.shopify.config.apiSecretKey,
        ttlSeconds: DEV_TOKEN_TTL_SECONDS,
      }),
    );
  };
}

export function adminAssets(): RequestHandler {
  return express.static(PUBLIC_DIR, {
    index: false,
    fallthrough: true,
    // Small files, no build step: revalidate every time (ETag), so a deploy is never half old, half new.
    cacheControl: true,
    maxAge: 0,
    setHeaders: (res) => res.setHeader('X-Content-Type-Options', 'nosniff'),
  });
}
