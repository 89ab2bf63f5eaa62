// The QR address of an authorized document (docs/reference/panama-fe.md §4.3): the DGI query page of its environment with its CUFE,
// the digest of what was sent and a jwt over both, HS256 as in a real test QR. jose signs it.
import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';

const QR_PAGE: Readonly<Record<'1' | '2', string>> = {
  '1': 'https://dgi-fep.mef.gob.pa/Consultas/FacturasPorQR',
  '2': 'https://dgi-fep-test.mef.gob.pa:40001/Consultas/FacturasPorQR',
};

/** The HS256 key of the QR's jwt; imported once, it signs in half the time of raw bytes. */
export function qrSigningKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** `environment` is the iAmb digit: '1' producción, '2' pruebas. `document` is the request's document as sent. */
export async function signedQrUrl(cufe: string, environment: '1' | '2', document: unknown, key: CryptoKey): Promise<string> {
  const digestValue = createHash('sha256').update(sortedKeyJson(document)).digest('base64');
  const jwt = await new SignJWT({ chFE: cufe, iAmb: environment, digestValue }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
  // URLSearchParams percent-encodes the digest's base64 '+', '/' and '=' (a bare '+' would read as a space).
  const query = new URLSearchParams({ chFE: cufe, iAmb: environment, digestValue, jwt }).toString();
  return `${QR_PAGE[environment]}?${query}`;
}

/** JSON with every object's keys sorted (members left undefined dropped, as JSON.stringify drops them). */
function sortedKeyJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedKeyJson).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const members = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${sortedKeyJson((value as Record<string, unknown>)[k])}`);
  return `{${members.join(',')}}`;
}
