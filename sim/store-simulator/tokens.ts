// Admin API access: who installed the app with which scopes, the access and refresh tokens Shopify hands
// out (static, expiring with rotation, online), and checking a presented token.

import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { SHOP_DOMAIN, str } from './rest-values.ts';
import type { SimState } from './shop-state.ts';

export class OAuthError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, description: string) {
    super(description);
    this.status = status;
    this.code = code;
  }
}

interface AccessTokenRecord {
  shop: string;
  scope: string;
  /** Simulator-clock ms; undefined = never expires. */
  expiresAt?: number;
  revoked: boolean;
  /** The refresh token this one replaced, retired when this one is first used (grace mode). */
  replacedRefreshToken?: string;
}

interface RefreshTokenRecord {
  shop: string;
  scope: string;
  expiresAt: number;
  state: 'active' | 'superseded' | 'revoked';
  accessToken: string;
  successor?: string;
}

export interface TokenPolicy {
  accessTtlMs: number;
  refreshTtlMs: number;
  refreshTokenGrace: boolean;
}

export type TokenAnswer = Record<string, unknown>;

/**
 * The header naming the shop a request is for. Shopify knows the shop from the host (`<shop>.myshopify.com`); the
 * simulator serves every shop on one loopback origin, so the app's Admin API origin rewrite sends the shop here.
 * A contract between the two: test/unit/sim/shop-domain-header.test.ts checks both sides name the same header.
 */
export const SHOP_DOMAIN_HEADER = 'x-shopify-shop-domain';

export function shopFromHeader(req: Request): string | undefined {
  const shop = req.get(SHOP_DOMAIN_HEADER)?.trim().toLowerCase();
  return shop && SHOP_DOMAIN.test(shop) ? shop : undefined;
}

export class TokenStore {
  readonly #state: SimState;
  readonly #policy: TokenPolicy;
  readonly #access = new Map<string, AccessTokenRecord>();
  readonly #refresh = new Map<string, RefreshTokenRecord>();
  /** shop → granted scopes, while installed. */
  readonly #installs = new Map<string, string>();

  constructor(state: SimState, policy: TokenPolicy) {
    this.#state = state;
    this.#policy = policy;
  }

  install(shop: string, scope: string): void {
    this.#state.shop(shop);
    this.#installs.set(shop, scope);
  }

  installation(shop: string): { scope: string } | undefined {
    const scope = this.#installs.get(shop);
    return scope === undefined ? undefined : { scope };
  }

  /** What uninstalling does: every token of the shop stops working. */
  uninstall(shop: string): void {
    this.#installs.delete(shop);
    for (const t of this.#access.values()) if (t.shop === shop) t.revoked = true;
    for (const r of this.#refresh.values()) if (r.shop === shop) r.state = 'revoked';
  }

  addStatic(shop: string, scope: string, accessToken = newToken('shpat_')): string {
    this.install(shop, scope);
    this.#access.set(accessToken, { shop, scope, revoked: false });
    return accessToken;
  }

  issueAccessToken(shop: string, scope: string, ttlMs?: number, replaced?: string, prefix = 'shpua_'): string {
    const t = newToken(prefix);
    this.#access.set(t, {
      shop,
      scope,
      ...(ttlMs !== undefined ? { expiresAt: this.#state.now() + ttlMs } : {}),
      revoked: false,
      ...(replaced ? { replacedRefreshToken: replaced } : {}),
    });
    return t;
  }

  issueExpiringPair(shop: string, scope: string, replaced?: string): TokenAnswer {
    const { accessTtlMs, refreshTtlMs } = this.#policy;
    const access = this.issueAccessToken(shop, scope, accessTtlMs, replaced);
    const refresh = newToken('shprt_');
    this.#refresh.set(refresh, { shop, scope, expiresAt: this.#state.now() + refreshTtlMs, state: 'active', accessToken: access });
    return {
      access_token: access,
      scope,
      expires_in: accessTtlMs / 1000,
      refresh_token: refresh,
      refresh_token_expires_in: refreshTtlMs / 1000,
    };
  }

  onlineTokenResponse(shop: string, scope: string, userId: number): TokenAnswer {
    const ttlSeconds = 86_399;
    return {
      access_token: this.issueAccessToken(shop, scope, ttlSeconds * 1000),
      scope,
      expires_in: ttlSeconds,
      associated_user_scope: scope,
      associated_user: {
        id: userId,
        first_name: 'Demo',
        last_name: 'Merchant',
        email: 'merchant@example.com',
        account_owner: true,
        locale: 'es',
        collaborator: false,
        email_verified: true,
      },
    };
  }

  /** The shop and scopes of the request's `X-Shopify-Access-Token`, or undefined when it does not grant access. */
  authenticate(req: Request): { shop: string; scope: string } | undefined {
    const presented = req.get('x-shopify-access-token');
    const record = presented ? this.#access.get(presented) : undefined;
    if (!record || record.revoked) return undefined;
    if (record.expiresAt !== undefined && this.#state.now() >= record.expiresAt) return undefined;
    const headerShop = shopFromHeader(req);
    if (headerShop && headerShop !== record.shop) return undefined;
    this.#retireReplaced(record);
    return { shop: record.shop, scope: record.scope };
  }

  refresh(presented: string, headerShop: string | undefined): TokenAnswer {
    const record = this.#refresh.get(presented);
    const invalid = (): OAuthError => new OAuthError(400, 'invalid_grant', 'Token has been expired or revoked.');
    if (!record || this.#state.now() >= record.expiresAt || (headerShop && headerShop !== record.shop)) throw invalid();
    if (record.state === 'revoked') throw invalid();
    const grace = this.#policy.refreshTokenGrace;
    if (record.state === 'superseded') {
      const successor = record.successor ? this.#refresh.get(record.successor) : undefined;
      if (!grace || !successor || successor.state !== 'active') throw invalid();
      // The replacement was never used: hand out a new pair instead and drop the lost one.
      successor.state = 'revoked';
      const lostAccess = this.#access.get(successor.accessToken);
      if (lostAccess) lostAccess.revoked = true;
    }
    const pair = this.issueExpiringPair(record.shop, record.scope, grace ? presented : undefined);
    record.state = grace ? 'superseded' : 'revoked';
    record.successor = str(pair['refresh_token']);
    // Using a refresh token also shows its own predecessor's replacement was received.
    const predecessorAccess = this.#access.get(record.accessToken);
    if (predecessorAccess) this.#retireReplaced(predecessorAccess);
    this.#state.shop(record.shop).refreshes++;
    return pair;
  }

  /** Migration of a non-expiring offline token to an expiring pair; the old token stops working. */
  migrateOffline(presented: string, headerShop: string | undefined): TokenAnswer {
    const old = this.#access.get(presented);
    if (!old || old.revoked || old.expiresAt !== undefined || (headerShop && headerShop !== old.shop)) {
      throw new OAuthError(400, 'invalid_subject_token', 'Subject token is not a valid non-expiring offline access token.');
    }
    old.revoked = true;
    return this.issueExpiringPair(old.shop, old.scope);
  }

  /** The first use of a replacement pair retires the refresh token it replaced (grace mode). */
  #retireReplaced(record: AccessTokenRecord): void {
    if (!record.replacedRefreshToken) return;
    const old = this.#refresh.get(record.replacedRefreshToken);
    if (old) old.state = 'revoked';
    delete record.replacedRefreshToken;
  }
}

export function newToken(prefix: string): string {
  return `${prefix}${randomBytes(16).toString('hex')}`;
}
