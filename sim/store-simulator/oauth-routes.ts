// Shopify's OAuth endpoints: the authorize page (redirects back with a signed code), and the token endpoint
// with its grants: authorization code, refresh, token exchange (an App Bridge session token becomes an
// access token; Shopify-managed installation) and client credentials.

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { SHOP_DOMAIN, isRecord, str } from './rest-values.ts';
import { type AppCredentials, verifySessionToken } from './session-tokens.ts';
import type { SimState } from './shop-state.ts';
import { OAuthError, type TokenAnswer, type TokenStore, shopFromHeader } from './tokens.ts';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
const OFFLINE_TOKEN_TYPE = 'urn:shopify:params:oauth:token-type:offline-access-token';
const ONLINE_TOKEN_TYPE = 'urn:shopify:params:oauth:token-type:online-access-token';

export interface OAuthOptions extends AppCredentials {
  /** The app's declared scopes: what token exchange grants. */
  scopes: string;
  redirectUrls?: readonly string[];
}

interface CodeRecord {
  shop: string;
  scope: string;
  online: boolean;
  expiresAt: number;
  used: boolean;
}

/**
 * The OAuth redirect HMAC exactly as @shopify/shopify-api verifies it (lib/utils/hmac-validator.ts):
 * keys sorted with localeCompare, URLSearchParams-encoded with '+' → '%20', hex HMAC-SHA256.
 */
export function oauthQueryHmac(params: Record<string, string>, secret: string): string {
  const query = new URLSearchParams();
  for (const key of Object.keys(params).sort((a, b) => a.localeCompare(b))) {
    if (key === 'hmac' || key === 'signature') continue;
    query.append(key, params[key] ?? '');
  }
  return createHmac('sha256', secret).update(query.toString().replace(/\+/g, '%20')).digest('hex');
}

function isTruthyFlag(value: unknown): boolean {
  const s = str(value);
  return s === '1' || s === 'true';
}

export function oauthRoutes(options: OAuthOptions, state: SimState, tokens: TokenStore): express.Router {
  const router = express.Router();
  const codes = new Map<string, CodeRecord>();

  router.get('/admin/oauth/authorize', (req: Request, res: Response) => {
    const q = req.query as Record<string, unknown>;
    const shop = shopFromHeader(req) ?? str(q['shop'])?.toLowerCase();
    const redirectUri = str(q['redirect_uri']);
    const fail = (description: string): void => {
      res.status(400).json({ error: 'invalid_request', error_description: description });
    };
    if (!shop || !SHOP_DOMAIN.test(shop)) return fail('Unknown shop domain.');
    if (str(q['client_id']) !== options.apiKey) return fail('Invalid client_id.');
    if (!redirectUri || !/^https?:\/\//.test(redirectUri) || (options.redirectUrls && !options.redirectUrls.includes(redirectUri))) {
      return fail('The redirect_uri is missing or not whitelisted.');
    }
    state.shop(shop);
    const code = randomBytes(16).toString('hex');
    const scope = str(q['scope']) ?? '';
    codes.set(code, { shop, scope, online: str(q['grant_options[]']) === 'per-user', expiresAt: state.now() + 10 * 60_000, used: false });

    const params: Record<string, string> = {
      code,
      host: Buffer.from(`admin.shopify.com/store/${shop.replace(/\.myshopify\.com$/, '')}`).toString('base64'),
      shop,
      timestamp: String(Math.floor(Date.now() / 1000)),
    };
    const oauthState = str(q['state']);
    if (oauthState !== undefined) params['state'] = oauthState;
    params['hmac'] = oauthQueryHmac(params, options.apiSecret);
    const target = new URL(redirectUri);
    for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
    res.redirect(302, target.href);
  });

  function exchangeCode(code: string | undefined, headerShop: string | undefined, expiring: boolean): TokenAnswer {
    const record = code ? codes.get(code) : undefined;
    if (!record || record.used || state.now() >= record.expiresAt || (headerShop && headerShop !== record.shop)) {
      throw new OAuthError(400, 'invalid_request', 'The authorization code was not found or was already used');
    }
    record.used = true;
    tokens.install(record.shop, record.scope);
    if (record.online) return tokens.onlineTokenResponse(record.shop, record.scope, 1);
    if (expiring) return tokens.issueExpiringPair(record.shop, record.scope);
    return { access_token: tokens.issueAccessToken(record.shop, record.scope), scope: record.scope };
  }

  async function tokenExchange(body: Record<string, unknown>, headerShop: string | undefined): Promise<TokenAnswer> {
    const subjectType = str(body['subject_token_type']);
    const subject = str(body['subject_token']) ?? '';
    if (subjectType === OFFLINE_TOKEN_TYPE) return tokens.migrateOffline(subject, headerShop);
    if (subjectType !== ID_TOKEN_TYPE) throw new OAuthError(400, 'invalid_subject_token', 'Unsupported subject_token_type.');
    const check = await verifySessionToken(options, subject);
    if (!check.ok) throw new OAuthError(400, 'invalid_subject_token', check.reason);
    if (headerShop && headerShop !== check.shop) throw new OAuthError(400, 'invalid_subject_token', 'Session token is for another shop.');
    const requested = str(body['requested_token_type']) ?? OFFLINE_TOKEN_TYPE;
    if (requested !== OFFLINE_TOKEN_TYPE && requested !== ONLINE_TOKEN_TYPE) {
      throw new OAuthError(400, 'invalid_request', 'Unsupported requested_token_type.');
    }
    // Shopify-managed installation: opening the app installs it with the scopes the app declares.
    tokens.install(check.shop, options.scopes);
    if (requested === ONLINE_TOKEN_TYPE) return tokens.onlineTokenResponse(check.shop, options.scopes, check.userId);
    if (isTruthyFlag(body['expiring'])) return tokens.issueExpiringPair(check.shop, options.scopes);
    return { access_token: tokens.issueAccessToken(check.shop, options.scopes), scope: options.scopes };
  }

  function clientCredentials(headerShop: string | undefined): TokenAnswer {
    if (!headerShop) throw new OAuthError(400, 'invalid_request', 'Unknown shop.');
    tokens.install(headerShop, options.scopes);
    const access = tokens.issueAccessToken(headerShop, options.scopes, 86_399_000, undefined, 'shpat_');
    return { access_token: access, scope: options.scopes, expires_in: 86_399 };
  }

  router.post('/admin/oauth/access_token', express.json(), express.urlencoded({ extended: false }), async (req: Request, res: Response) => {
    const body: Record<string, unknown> = isRecord(req.body) ? req.body : {};
    const headerShop = shopFromHeader(req);
    try {
      if (str(body['client_id']) !== options.apiKey || !sameSecret(str(body['client_secret']) ?? '', options.apiSecret)) {
        throw new OAuthError(
          401,
          'invalid_client',
          'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
        );
      }
      const grant = str(body['grant_type']) ?? 'authorization_code';
      let answer: TokenAnswer;
      if (grant === 'authorization_code') answer = exchangeCode(str(body['code']), headerShop, isTruthyFlag(body['expiring']));
      else if (grant === 'refresh_token') answer = tokens.refresh(str(body['refresh_token']) ?? '', headerShop);
      else if (grant === TOKEN_EXCHANGE_GRANT) answer = await tokenExchange(body, headerShop);
      else if (grant === 'client_credentials') answer = clientCredentials(headerShop);
      else throw new OAuthError(400, 'unsupported_grant_type', 'The authorization grant type is not supported.');
      res.status(200).json(answer);
    } catch (e) {
      if (!(e instanceof OAuthError)) throw e;
      res.status(e.status).json({ error: e.code, error_description: e.message });
    }
  });

  return router;
}

/** Constant-time comparison of a presented secret with the app's: digests compared, so lengths leak nothing. */
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
