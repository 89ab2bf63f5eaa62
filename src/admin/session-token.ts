// Every /api call carries an App Bridge session token (`Authorization: Bearer <jwt>`). The token is the
// only source of the shop: handlers read `res.locals.shop`, never a query or body parameter, so no
// request can reach another shop's data.
import { createHmac, randomUUID } from 'node:crypto';
import type { Shopify } from '@shopify/shopify-api';
import type { RequestHandler, Response } from 'express';

export interface SessionTokenDeps {
  shopify: Pick<Shopify, 'session' | 'utils'>;
}

/** The verified shop of the request, e.g. "tienda.myshopify.com". Set only by `requireSessionToken`. */
export function shopOf(res: Response): string {
  const shop: unknown = res.locals.shop;
  if (typeof shop !== 'string') throw new Error('shopOf called on a route without requireSessionToken');
  return shop;
}

export function requireSessionToken(deps: SessionTokenDeps): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req.get('authorization'));
    if (!token) {
      refuse(res, 'missing session token: send Authorization: Bearer <App Bridge session token>');
      return;
    }
    let payload: Record<string, unknown>;
    try {
      // HS256 with the app secret, aud = the app's API key, exp and nbf (with Shopify's 10 s tolerance).
      payload = (await deps.shopify.session.decodeSessionToken(token)) as unknown as Record<string, unknown>;
    } catch {
      // The library's message repeats the token; the answer names only the reason.
      refuse(res, 'invalid session token');
      return;
    }
    const shop = shopFromClaims(payload, (s) => deps.shopify.utils.sanitizeShop(s));
    if (!shop) {
      refuse(res, 'invalid session token: no shop in it');
      return;
    }
    res.locals.shop = shop;
    next();
  };
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** `dest` is https://<shop>; `iss` (https://<shop>/admin) must name the same shop. */
export function shopFromClaims(payload: Record<string, unknown>, sanitize: (shop: string) => string | null): string | undefined {
  const dest = hostOf(payload.dest);
  const iss = hostOf(payload.iss);
  if (!dest || dest !== iss) return undefined;
  return sanitize(dest) ?? undefined;
}

function hostOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return new URL(value).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function refuse(res: Response, error: string): void {
  res.status(401).set('WWW-Authenticate', 'Bearer').json({ error });
}

/**
 * A session token shaped like App Bridge's, for the demo and tests only (the route that serves it is
 * mounted only there). Signed with the app secret, so it passes the same check as a real one.
 */
export function mintSessionToken(o: { shop: string; apiKey: string; apiSecret: string; ttlSeconds: number; now?: Date }): {
  token: string;
  expiresAt: string;
} {
  const issued = Math.floor((o.now ?? new Date()).getTime() / 1000);
  const exp = issued + o.ttlSeconds;
  const claims = {
    iss: `https://${o.shop}/admin`,
    dest: `https://${o.shop}`,
    aud: o.apiKey,
    sub: '1',
    exp,
    nbf: issued - 5,
    iat: issued,
    jti: randomUUID(),
    sid: randomUUID(),
  };
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
  const signature = createHmac('sha256', o.apiSecret).update(body).digest('base64url');
  return { token: `${body}.${signature}`, expiresAt: new Date(exp * 1000).toISOString() };
}
