// Secrets echoed by upstream text are taken out in every encoding (src/secret-scrub.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, scrubSecrets } from '../../../src/secret-scrub.ts';

/** Every form in which `secret` may be read back out of `text`: as it is, URL-decoded, JSON-decoded, base64-decoded. */
function leaks(text: string, secret: string): boolean {
  const readings = [text];
  try {
    readings.push(decodeURIComponent(text.replaceAll('+', ' ')));
  } catch {
    // not URL-encoded
  }
  for (const run of text.match(/[A-Za-z0-9+/_-]{4,}={0,2}/g) ?? []) {
    for (const shift of ['', 'A', 'AA', 'AAA']) {
      readings.push(Buffer.from(shift + run.replaceAll('-', '+').replaceAll('_', '/'), 'base64').toString('latin1'));
    }
  }
  const json = text.match(/"(?:[^"\\]|\\.)*"/g) ?? [];
  for (const quoted of json) {
    try {
      readings.push(JSON.parse(quoted) as string);
    } catch {
      // not JSON
    }
  }
  return readings.some((r) => r.includes(secret) || r.includes(Buffer.from(secret).toString('latin1')));
}

describe('scrubSecrets', () => {
  const secret = 'p@ss w/+"rd%ñ';
  it.each([
    ['raw', `Token=${secret}.`],
    ['URL-encoded', `Token=${encodeURIComponent(secret)}&x=1`],
    ['URL-encoded, lower-case escapes', `t=${encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())}`],
    ['form-encoded', new URLSearchParams({ t: secret }).toString()],
    ['HTTP Basic', `Authorization: Basic ${Buffer.from(`usuario:${secret}`).toString('base64')}`],
    ['AUTH PLAIN', `AUTH PLAIN ${Buffer.from(`\0user\0${secret}`).toString('base64')} refused`],
    ['base64url', Buffer.from(`x${secret}yz`).toString('base64url')],
    ['JSON-escaped', `body=${JSON.stringify({ Token: secret })}`],
  ])('%s', (_name, text) => {
    const out = scrubSecrets(text, [secret]);
    expect(out).toContain(REDACTED);
    expect(leaks(out, secret)).toBe(false);
  });

  it('any secret of 8+ characters, at any place inside a base64 string, does not survive', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 8, maxLength: 30 }),
        fc.string({ maxLength: 7 }),
        fc.string({ maxLength: 7 }),
        (s, before, after) => {
          const text = `x ${Buffer.from(before + s + after).toString('base64')} y`;
          const out = scrubSecrets(text, [s]);
          expect(
            Buffer.from(out.split(' ')[1] ?? '', 'base64')
              .toString('utf8')
              .includes(s) && out.includes(REDACTED) === false,
          ).toBe(false);
          expect(out.includes(Buffer.from(before + s + after).toString('base64'))).toBe(false);
        },
      ),
    );
  });

  it('leaves text without secrets alone, and ignores secrets too short to search for', () => {
    expect(scrubSecrets('Documento autorizado', ['clave-larga', 'ab', undefined])).toBe('Documento autorizado');
  });
});
