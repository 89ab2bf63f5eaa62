// Mounts the merchant's admin: the page at /admin (and at / when Shopify opens the app embedded), its assets,
// its API under /api, and in the demo and tests only, the route that hands the page a session token outside
// Shopify. Every /api request with a valid session token of a shop the app holds no usable offline session
// for installs it by token exchange first (Shopify-managed installation).
import cors from 'cors';
import type { Express, RequestHandler } from 'express';
import { AUTH_PATH } from '../shopify/oauth-routes.ts';
import { type EmbeddedInstallDeps, type EnsureOfflineSession, createEmbeddedInstall } from '../shopify/embedded-install.ts';
import { type AdminApiDeps, adminApiRouter } from './admin-api.ts';
import {
  ADMIN_PATH,
  ASSETS_PATH,
  DEV_TOKEN_PATH,
  adminAssets,
  adminPageRoute,
  devSessionTokenRoute,
  isEmbeddedLoad,
} from './admin-page.ts';
import { bulkApiRouter } from './bulk-api.ts';
import { type EmailApiDeps, emailApiRouter } from './email-api.ts';
import { clientCorrectionRouter } from './client-correction-api.ts';
import { backfillApiRouter } from './backfill-api.ts';
import { type SeriesApiDeps, seriesApiRouter } from './series-api.ts';
import { documentQrRouter } from './document-qr-api.ts';
import { orderDocumentsRouter } from './order-documents-api.ts';
import { type ReportsApiDeps, reportsApiRouter } from './reports-api.ts';
import { type SessionTokenDeps, bearerToken, refuseSessionToken, verifySessionToken } from './session-token.ts';

export interface AdminDeps extends AdminApiDeps {
  emails?: EmailApiDeps['emails'];
  /** The shops' Admin API (their locations, in Configuración). */
  shopifyAdmin?: SeriesApiDeps['shopifyAdmin'];
  sessions: EmbeddedInstallDeps['sessions'];
  /** The accountant's e-mail runner: whether this server has SMTP, and a nudge (absent: no SMTP). */
  accountantEmails?: ReportsApiDeps['accountantEmails'];
  /** Start reading a backfill at once in this process. */
  wakeBackfill?: () => void;
  /** The clock of the reports' months and the backfill's ranges (tests set it); the system's otherwise. */
  now?: () => Date;
  /** Demo and tests: serve GET /admin/dev-session-token. Never true in production. */
  devSessionTokens: boolean;
}

/** Where admin UI extensions (the order-details block) run; their fetches to /api are cross-origin. */
export const EXTENSIONS_ORIGIN = 'https://extensions.shopifycdn.com';

/**
 * Mount before the OAuth routes: `/` without a shop, or opened embedded, goes to the page here; `/` with a
 * shop outside the admin goes on to the install gate, and /api/auth/* falls through this router to OAuth.
 */
export function mountAdmin(app: Express, deps: AdminDeps): void {
  const ensureOfflineSession = createEmbeddedInstall(deps);
  const page = { shopify: deps.shopify, shops: deps.shops, devSessionTokens: deps.devSessionTokens, ensureOfflineSession };
  const pageRoute = adminPageRoute(page);
  app.get('/', (req, res, next) => {
    if (isEmbeddedLoad(req)) return pageRoute(req, res, next);
    return req.query['shop'] === undefined ? res.redirect(302, ADMIN_PATH) : next();
  });
  app.use(ASSETS_PATH, adminAssets());
  if (deps.devSessionTokens) app.get(DEV_TOKEN_PATH, devSessionTokenRoute(page));
  app.get(ADMIN_PATH, pageRoute);
  // Bearer tokens, no cookies: allowing the extensions' origin lets no other site act as the merchant.
  app.use('/api', cors({ origin: EXTENSIONS_ORIGIN, allowedHeaders: ['Authorization', 'Content-Type'], maxAge: 600 }));
  app.use('/api', installOnFirstToken(deps, ensureOfflineSession));
  // The bulk routes first: `/invoices/:id/...` would take "bulk" for an id.
  app.use('/api', bulkApiRouter(deps));
  app.use('/api', orderDocumentsRouter(deps), documentQrRouter(deps), emailApiRouter(deps), adminApiRouter(deps));
  app.use('/api', clientCorrectionRouter(deps), seriesApiRouter(deps), reportsApiRouter(deps), backfillApiRouter(deps));
  // Unknown /api paths answer JSON, except the OAuth routes mounted after this.
  app.use('/api', (req, res, next) => {
    if (`/api${req.path}`.startsWith(AUTH_PATH)) return next();
    res.status(404).json({ error: 'not found' });
  });
}

/**
 * A valid session token of a shop without a usable offline session: exchange it before the route runs.
 * Requests without a token, or with an invalid one, go on to the routes, which refuse them (401).
 */
function installOnFirstToken(deps: SessionTokenDeps, ensureOfflineSession: EnsureOfflineSession): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req.get('authorization'));
    if (!token) return next();
    const verified = await verifySessionToken(token, deps);
    if (!verified.ok) return next();
    const outcome = await ensureOfflineSession(verified.shop, token);
    if (outcome.ok) return next();
    if (outcome.status === 401) return refuseSessionToken(res, outcome.error, outcome.retry);
    res.status(outcome.status).json({ error: outcome.error });
  };
}
