// App Bridge session tokens: every /api call carries one (`Authorization: Bearer <jwt>`), and the first
// embedded document load carries one as `id_token`. The token is the only source of the shop: handlers read
// `res.locals.shop`, never a query or body parameter, so no request can reach another shop's data.
// Signed and verified with jose (HS256 with the app secret), as Shopify signs them.
import { randomUUID } from 'node:crypto';
import type { Shopify } from '@shopify/shopify-api';
import type { RequestHandler, Response } from 'express';
import { SignJWT, decodeJwt, errors as joseErrors, jwtVerify } from 'jose';

export interface SessionTokenDeps {
  shopify: Pick<Shopify, 'config' | 'utils'>;
}

/** Shopify's clock tolerance for nbf and exp. */
export const CLOCK_TOLERANCE_SECONDS = 10;
/**
 * Longest lifetime (exp − iat) accepted. Shopify's tokens live 60 s; five minutes leaves room for clock
 * skew and refuses the year-long tokens a leaked app secret could mint for later use.
 */
export const MAX_TOKEN_LIFETIME_SECONDS = 300;
/** Fetches that may succeed with a fresh token say so, as @shopify/shopify-app-express does. */
export const RETRY_INVALID_SESSION_HEADER = 'X-Shopify-Retry-Invalid-Session-Request';

export type VerifiedToken = { ok: true; shop: string } | { ok: false; reason: string };

/** The verified shop of the request, e.g. "tienda.myshopify.com". Set only by `requireSessionToken`. */
export function shopOf(res: Response): string {
  const shop: unknown = res.locals.shop;
  if (typeof shop !== 'string') throw new Error('shopOf called on a route without requireSessionToken');
  return shop;
}

/** The staff member of the request's session token (Shopify's user id), when it names one. */
export function userOf(res: Response): string | undefined {
  const user: unknown = res.locals.user;
  return typeof user === 'string' ? user : undefined;
}

/**
 * Checks a session token as Shopify documents it, plus a bound on its lifetime. The reason never repeats
 * the token.
 */
export async function verifySessionToken(token: string, deps: SessionTokenDeps, now: Date = new Date()): Promise<VerifiedToken> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(deps.shopify.config.apiSecretKey), {
      algorithms: ['HS256'],
      audience: deps.shopify.config.apiKey,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['exp', 'iat', 'dest', 'iss'],
      currentDate: now,
    }));
  } catch (error) {
    return { ok: false, reason: refusal(error) };
  }
  const exp = payload.exp as number;
  const iat = payload.iat as number;
  if (exp - iat > MAX_TOKEN_LIFETIME_SECONDS) return { ok: false, reason: `lives longer than ${MAX_TOKEN_LIFETIME_SECONDS} s` };
  // A future iat would stretch the lifetime check; Shopify's clock and ours agree within the tolerance.
  if (iat > Math.floor(now.getTime() / 1000) + CLOCK_TOLERANCE_SECONDS) return { ok: false, reason: 'issued in the future' };
  const shop = shopFromClaims(payload, (s) => deps.shopify.utils.sanitizeShop(s));
  return shop ? { ok: true, shop } : { ok: false, reason: 'dest and iss do not name one shop' };
}

function refusal(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `${error.claim} claim not valid`;
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'signature not valid';
  return 'not a session token of this app';
}

/** 401 for fetches; the retry header tells App Bridge a fresh token may succeed. */
export function refuseSessionToken(res: Response, error: string, retry: boolean): void {
  if (retry) res.set(RETRY_INVALID_SESSION_HEADER, '1');
  res.status(401).set('WWW-Authenticate', 'Bearer').json({ error });
}

export function requireSessionToken(deps: SessionTokenDeps): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req.get('authorization'));
    if (!token) {
      refuseSessionToken(res, 'missing session token: send Authorization: Bearer <App Bridge session token>', false);
      return;
    }
    const verified = await verifySessionToken(token, deps);
    if (!verified.ok) {
      refuseSessionToken(res, `invalid session token: ${verified.reason}`, true);
      return;
    }
    res.locals.shop = verified.shop;
    // The merchant's staff member (Shopify's user id), for records of who changed what; verified above.
    const sub = decodeJwt(token).sub;
    if (typeof sub === 'string' && sub !== '') res.locals.user = sub;
    next();
  };
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** A shop's own domain. The library's sanitizeShop also takes hosts such as admin.shopify.com, which name no shop. */
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

/** `dest` is https://<shop>; `iss` (https://<shop>/admin) must name the same shop, a *.myshopify.com domain. */
export function shopFromClaims(payload: Record<string, unknown>, sanitize: (shop: string) => string | null): string | undefined {
  const dest = hostOf(payload.dest);
  const iss = hostOf(payload.iss);
  if (!dest || dest !== iss) return undefined;
  const shop = sanitize(dest);
  return shop && SHOP_DOMAIN.test(shop) ? shop : undefined;
}

function hostOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return new URL(value).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * A session token shaped like App Bridge's, for the demo, tests and bench only (the route that serves it is
 * mounted only there). Signed with the app secret, so it passes the same check as a real one.
 */
export async function mintSessionToken(o: {
  shop: string;
  apiKey: string;
  apiSecret: string;
  ttlSeconds: number;
  now?: Date;
}): Promise<{ token: string; expiresAt: string }> {
  const issued = Math.floor((o.now ?? new Date()).getTime() / 1000);
  const exp = issued + o.ttlSeconds;
  const token = await new SignJWT({ dest: `https://${o.shop}`, sid: randomUUID() })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(`https://${o.shop}/admin`)
    .setAudience(o.apiKey)
    .setSubject('1')
    .setIssuedAt(issued)
    .setNotBefore(issued - 5)
    .setExpirationTime(exp)
    .setJti(randomUUID())
    .sign(new TextEncoder().encode(o.apiSecret));
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}
