// The QR address of an authorized document (docs/reference/panama-fe.md §4.3): its CUFE, the digest of what was sent and a jwt over
// both, HS256 as in a real test QR. jose signs it.
import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import { canonicalJson } from '../../mappers/fiscal/canonical-json.ts';
import { qrUrl } from '../../mappers/fiscal/cufe.ts';

/** The HS256 key of the QR's jwt; imported once, it signs in half the time of raw bytes. */
export function qrSigningKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** `environment` is the iAmb digit: '1' producción, '2' pruebas. `document` is the request's document as sent. */
export async function signedQrUrl(cufe: string, environment: '1' | '2', document: unknown, key: CryptoKey): Promise<string> {
  const digestValue = createHash('sha256').update(canonicalJson(document)).digest('base64');
  const jwt = await new SignJWT({ chFE: cufe, iAmb: environment, digestValue }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
  return qrUrl(environment === '1' ? 'produccion' : 'pruebas', cufe, digestValue, jwt);
}
