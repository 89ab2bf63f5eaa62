// Mounts the merchant's admin: the page at /admin (and / without a shop), its assets, its API under /api,
// and in the demo and tests only, the route that hands the page a session token outside Shopify.
import type { Express } from 'express';
import { AUTH_PATH } from '../shopify/oauth-routes.ts';
import { type AdminApiDeps, adminApiRouter } from './admin-api.ts';
import { ADMIN_PATH, ASSETS_PATH, DEV_TOKEN_PATH, adminAssets, adminPageRoute, devSessionTokenRoute } from './admin-page.ts';

export interface AdminDeps extends AdminApiDeps {
  /** Demo and tests: serve GET /admin/dev-session-token. Never true in production. */
  devSessionTokens: boolean;
}

/**
 * Mount before the OAuth routes: `/` without a shop goes to the page here, `/` with one goes on to the
 * install gate, and /api/auth/* falls through this router to OAuth.
 */
export function mountAdmin(app: Express, deps: AdminDeps): void {
  const page = { shopify: deps.shopify, shops: deps.shops, devSessionTokens: deps.devSessionTokens };
  app.get('/', (req, res, next) => (req.query['shop'] === undefined ? res.redirect(302, ADMIN_PATH) : next()));
  app.use(ASSETS_PATH, adminAssets());
  if (deps.devSessionTokens) app.get(DEV_TOKEN_PATH, devSessionTokenRoute(page));
  app.get(ADMIN_PATH, adminPageRoute(page));
  app.use('/api', adminApiRouter(deps));
  // Unknown /api paths answer JSON, except the OAuth routes mounted after this.
  app.use('/api', (req, res, next) => {
    if (`/api${req.path}`.startsWith(AUTH_PATH)) return next();
    res.status(404).json({ error: 'not found' });
  });
}
