// Shopify-managed installation for the embedded app (docs/design.md §7): Shopify installs the app and grants the
// scopes declared in shopify.app.toml; the first time the app sees a valid session token for a shop it holds
// no usable offline session for, it exchanges that token for an expiring offline token. No redirect, no
// OAuth screen. Refresh and uninstall work on the stored session as for a code-grant install.
import { HttpResponseError, InvalidJwtError, RequestedTokenType, type Session, type Shopify } from '@shopify/shopify-api';
import type { Logger } from '../logger.ts';
import type { ShopRepository } from '../shops/shop-repository.ts';
import type { EncryptedSessionStorage } from './session-storage.ts';

export interface EmbeddedInstallDeps {
  shopify: Shopify;
  sessions: Pick<EncryptedSessionStorage, 'loadSession' | 'storeSession'>;
  shops: Pick<ShopRepository, 'ensureInstalled'>;
  logger: Logger;
}

/** What became of the request's shop: already usable, installed now, or the token was refused by Shopify. */
export type InstallOutcome = { ok: true; installed: boolean } | { ok: false; status: 401 | 502; error: string; retry: boolean };

/**
 * An offline session the app can work with: it has a token, and the token is either valid or refreshable
 * (offline-sessions.ts refreshes it shortly before it runs out).
 */
export function isUsableOfflineSession(session: Session | undefined, now = Date.now()): boolean {
  if (!session?.accessToken) return false;
  if (!session.expires || session.expires.getTime() > now) return true;
  return Boolean(session.refreshToken) && (!session.refreshTokenExpires || session.refreshTokenExpires.getTime() > now);
}

/**
 * `ensureOfflineSession(shop, sessionToken)` for a verified token: exchanges it when the shop has no usable
 * offline session. Concurrent requests of one shop share one exchange.
 */
export function createEmbeddedInstall(deps: EmbeddedInstallDeps) {
  const running = new Map<string, Promise<InstallOutcome>>();

  async function exchange(shop: string, sessionToken: string): Promise<InstallOutcome> {
    let session: Session;
    try {
      ({ session } = await deps.shopify.auth.tokenExchange({
        shop,
        sessionToken,
        requestedTokenType: RequestedTokenType.OfflineAccessToken,
        expiring: true,
      }));
    } catch (error) {
      return refused(error, shop, deps.logger);
    }
    // The shop row first: a stored session is what other requests (and processes) take as "installed".
    await deps.shops.ensureInstalled(shop);
    await deps.sessions.storeSession(session);
    deps.logger.info({ shop, expiring: session.expires !== undefined }, 'app installed by token exchange: offline session stored');
    return { ok: true, installed: true };
  }

  return async function ensureOfflineSession(shop: string, sessionToken: string): Promise<InstallOutcome> {
    const inFlight = running.get(shop);
    if (inFlight) return inFlight;
    const current = await deps.sessions.loadSession(deps.shopify.session.getOfflineId(shop));
    if (isUsableOfflineSession(current)) return { ok: true, installed: false };
    let pending = running.get(shop);
    if (!pending) {
      pending = exchange(shop, sessionToken).finally(() => running.delete(shop));
      running.set(shop, pending);
    }
    return pending;
  };
}

export type EnsureOfflineSession = ReturnType<typeof createEmbeddedInstall>;

/** Shopify's refusals, as @shopify/shopify-app-express answers them; nothing repeats the token. */
function refused(error: unknown, shop: string, logger: Logger): InstallOutcome {
  if (error instanceof InvalidJwtError) return { ok: false, status: 401, error: 'invalid session token', retry: true };
  if (error instanceof HttpResponseError) {
    const body = error.response.body as { error?: unknown } | undefined;
    logger.warn({ shop, status: error.response.code, error: body?.error }, 'token exchange refused by Shopify');
    if (error.response.code === 400 && body?.error === 'invalid_subject_token')
      return { ok: false, status: 401, error: 'invalid session token: Shopify refused it', retry: true };
    if (error.response.code === 401) return { ok: false, status: 401, error: 'Shopify refused the app credentials', retry: false };
    return { ok: false, status: 502, error: 'Shopify did not complete the install; try again in a moment', retry: false };
  }
  throw error;
}
