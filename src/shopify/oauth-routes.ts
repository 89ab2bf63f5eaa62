// Install outside the Shopify admin: the OAuth authorization-code flow with expiring offline tokens, on
// @shopify/shopify-api. (Inside the admin, Shopify installs the app itself and the embedded page exchanges
// its session token for the offline token: src/shopify/embedded-install.ts.)
//   GET /api/auth?shop=…            → 302 to Shopify's authorize page (a signed state cookie is set)
//   GET /api/auth/callback?code=…   → HMAC + state checked, code exchanged, session stored (encrypted),
//                                      the shop's settings row created (disabled), back into Shopify admin
//   GET /?shop=…  (not embedded)    → OAuth first if we hold no access, otherwise the app's page
//
// Why not @shopify/shopify-app-express: its callback always runs registerWebhooks (a GraphQL query and the
// deletion of shop-specific subscriptions, on every install), while ours are app-specific in
// shopify.app.toml; it builds a second Shopify API instance configured from process.env; and its token
// refresh is per process, where ours (offline-sessions.ts) holds a database row lock.
import {
  BotActivityDetected,
  CookieNotFound,
  HttpResponseError,
  InvalidHmacError,
  InvalidOAuthError,
  type Shopify,
} from '@shopify/shopify-api';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger.ts';
import type { ShopRepository } from '../shops/shop-repository.ts';
import { rewriteShopifyUrl } from './admin-api-origin.ts';
import type { EncryptedSessionStorage } from './session-storage.ts';

export const AUTH_PATH = '/api/auth';
export const AUTH_CALLBACK_PATH = '/api/auth/callback';

export interface OAuthDeps {
  shopify: Shopify;
  sessions: Pick<EncryptedSessionStorage, 'storeSession' | 'loadSession'>;
  shops: Pick<ShopRepository, 'ensureInstalled' | 'get'>;
  logger: Logger;
  /** Outside production: where Shopify's pages are simulated (the authorize redirect goes there). */
  adminApiOrigin: string | undefined;
  /** Where an installed shop's app home lives; the install gate sends it there. Default '/admin'. */
  appHomePath?: string;
}

export function mountOAuthRoutes(app: Express, deps: OAuthDeps): void {
  app.get(AUTH_PATH, beginAuth(deps));
  app.get(AUTH_CALLBACK_PATH, authCallback(deps));
  app.get('/', installGate(deps));
}

/** Start OAuth for `?shop=`. Inside the admin iframe, first leave the frame: cookies and Shopify's page need the top window. */
export function beginAuth(deps: OAuthDeps): RequestHandler {
  return async (req, res) => {
    const shop = shopParam(deps.shopify, req);
    if (!shop) return plainAnswer(res, 400, 'shop must be a store domain like tienda.myshopify.com');
    if (req.query['embedded'] === '1') {
      sendExitIframe(res, deps.shopify.config.apiKey, `${AUTH_PATH}?shop=${encodeURIComponent(shop)}`);
      return;
    }
    // The library writes a complete response; capture it so the Location can be pointed at a simulator.
    const captured = capturedResponse();
    await deps.shopify.auth.begin({ shop, callbackPath: AUTH_CALLBACK_PATH, isOnline: false, rawRequest: req, rawResponse: captured });
    for (const [name, value] of Object.entries(captured.headers)) {
      res.setHeader(
        name,
        name.toLowerCase() === 'location' && typeof value === 'string' ? browserLocation(value, deps.adminApiOrigin) : value,
      );
    }
    res.status(captured.statusCode).end();
  };
}

export function authCallback(deps: OAuthDeps): RequestHandler {
  return async (req, res) => {
    let result: Awaited<ReturnType<Shopify['auth']['callback']>>;
    try {
      result = await deps.shopify.auth.callback({ rawRequest: req, rawResponse: res, expiring: true });
    } catch (error) {
      refuse(res, error, deps.logger);
      return;
    }
    const { session, headers } = result;
    await deps.sessions.storeSession(session);
    // First install creates the settings row, disabled until the merchant completes the settings.
    await deps.shops.ensureInstalled(session.shop);
    deps.logger.info({ shop: session.shop, expiring: session.expires !== undefined }, 'app installed: offline session stored');

    for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value as string | string[]);
    res.redirect(302, adminAppUrl(deps.shopify, req, session.shop));
  };
}

/**
 * The app home opened outside the admin: without our access to the shop, install first; otherwise on to the
 * app's page. Embedded loads never reach it: the admin page takes them (src/admin/admin-routes.ts).
 */
export function installGate(deps: OAuthDeps): RequestHandler {
  return async (req, res) => {
    const shop = shopParam(deps.shopify, req);
    if (!shop) return plainAnswer(res, 400, 'Open this app from your Shopify admin (the shop parameter is missing or invalid).');
    const [session, row] = await Promise.all([deps.sessions.loadSession(deps.shopify.session.getOfflineId(shop)), deps.shops.get(shop)]);
    const query = req.originalUrl.split('?')[1] ?? '';
    if (!session || !row?.installed) {
      res.redirect(302, `${AUTH_PATH}?shop=${encodeURIComponent(shop)}`);
      return;
    }
    res.redirect(302, `${deps.appHomePath ?? '/admin'}?${query}`);
  };
}

function shopParam(shopify: Shopify, req: Request): string | undefined {
  const raw = req.query['shop'];
  return typeof raw === 'string' ? (shopify.utils.sanitizeShop(raw) ?? undefined) : undefined;
}

/** A short answer in plain text (the install flow's pages are the browser's, not the app's). */
function plainAnswer(res: Response, status: number, text: string): void {
  res.status(status).type('text/plain').send(text);
}

/** Refusals name the reason, never a token, code or signature. */
function refuse(res: Response, error: unknown, logger: Logger): void {
  if (error instanceof InvalidOAuthError || error instanceof InvalidHmacError) {
    logger.warn({ reason: error.name }, 'OAuth callback refused: bad signature or state');
    return plainAnswer(res, 400, 'Install refused: the request signature or state is not valid. Start the install again from Shopify.');
  }
  if (error instanceof CookieNotFound) {
    return plainAnswer(
      res,
      400,
      'Install refused: the install session expired or cookies are blocked. Start the install again from Shopify.',
    );
  }
  if (error instanceof BotActivityDetected) return void res.status(410).end();
  if (error instanceof HttpResponseError) {
    logger.error({ status: error.response.code }, 'OAuth: Shopify refused the authorization code');
    return plainAnswer(res, 502, 'Shopify refused the authorization code. Start the install again from Shopify.');
  }
  logger.error({ err: error }, 'OAuth callback failed');
  plainAnswer(res, 500, 'Install failed. Try again in a moment.');
}

/** Back into the Shopify admin, where the embedded app opens; `host` is Shopify's own base64 admin address. */
function adminAppUrl(shopify: Shopify, req: Request, shop: string): string {
  const host = req.query['host'];
  if (typeof host === 'string') {
    try {
      return shopify.auth.buildEmbeddedAppUrl(host);
    } catch {
      // fall through: an unusable host
    }
  }
  return `/?shop=${encodeURIComponent(shop)}`;
}

function browserLocation(location: string, adminApiOrigin: string | undefined): string {
  if (!adminApiOrigin) return location;
  return rewriteShopifyUrl(location, adminApiOrigin, { shopInQuery: true })?.url ?? location;
}

/** App Bridge takes the top window to `target` (a same-origin path), leaving the admin's iframe. */
function sendExitIframe(res: Response, apiKey: string, target: string): void {
  const json = (v: string) => JSON.stringify(v).replace(/</g, '\\u003c');
  res
    .status(200)
    .type('html')
    .send(
      `<!doctype html><html><head><meta name="shopify-api-key" content="${apiKey.replace(/[^A-Za-z0-9_-]/g, '')}">` +
        `<script src="https://cdn.shopify.com/shopifycloud/app-bridge.js"></script></head>` +
        `<body><script>window.open(new URL(${json(target)}, location.origin).href, '_top');</script></body></html>`,
    );
}

/** Enough of a Node response for the library's adapter to write into. */
function capturedResponse() {
  const headers: Record<string, string | string[]> = {};
  return {
    statusCode: 200,
    statusMessage: '',
    headers,
    getHeaders: () => ({}),
    setHeader(name: string, value: string | string[]) {
      headers[name] = value;
    },
    write() {},
    end() {},
  };
}
