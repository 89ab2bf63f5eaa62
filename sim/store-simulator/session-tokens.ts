// App Bridge session tokens (OpenID id_tokens, HS256 with the app's secret) as the Shopify admin mints them
// for the app's page, and Shopify's check of one presented for token exchange. jose does the JWT work.

import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { SHOP_DOMAIN } from './rest-values.ts';

export interface AppCredentials {
  apiKey: string;
  apiSecret: string;
}

/** Clock skew Shopify and @shopify/shopify-api allow on `exp` and `nbf`. */
const CLOCK_TOLERANCE_SECONDS = 10;

function key(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function mintSessionToken(
  app: AppCredentials,
  shop: string,
  options: { userId?: number; expiresInSeconds?: number } = {},
): Promise<string> {
  const issued = Math.floor(Date.now() / 1000);
  return new SignJWT({ dest: `https://${shop}`, sid: randomUUID() })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(`https://${shop}/admin`)
    .setAudience(app.apiKey)
    .setSubject(String(options.userId ?? 1))
    .setExpirationTime(issued + (options.expiresInSeconds ?? 60))
    .setNotBefore(issued - 5)
    .setIssuedAt(issued)
    .setJti(randomUUID())
    .sign(key(app.apiSecret));
}

export type SubjectTokenCheck = { ok: true; shop: string; userId: number } | { ok: false; reason: string };

/**
 * Token exchange's check of the subject token: signed with the app's secret, `aud` the app's key, not
 * expired, and `dest` exactly `https://<shop>.myshopify.com` (the shop is its host).
 */
export async function verifySessionToken(app: AppCredentials, token: string): Promise<SubjectTokenCheck> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, key(app.apiSecret), {
      algorithms: ['HS256'],
      audience: app.apiKey,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['exp', 'dest'],
    }));
  } catch (e) {
    const expired = e instanceof Error && 'code' in e && e.code === 'ERR_JWT_EXPIRED';
    return { ok: false, reason: expired ? 'Session token has expired.' : 'Session token is invalid.' };
  }
  const dest = typeof payload['dest'] === 'string' && URL.canParse(payload['dest']) ? new URL(payload['dest']) : undefined;
  if (!dest || dest.protocol !== 'https:' || !SHOP_DOMAIN.test(dest.hostname) || dest.href !== `https://${dest.hostname}/`) {
    return { ok: false, reason: 'Session token names no shop.' };
  }
  return { ok: true, shop: dest.hostname, userId: Number(payload['sub']) || 1 };
}
