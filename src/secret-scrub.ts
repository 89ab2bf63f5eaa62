// Text from upstream (a gateway's message, a mail server's reply) may repeat what it was sent: a password, a token,
// an Authorization header. Before such text is logged, stored or shown, every configured secret is taken out of it in
// every encoding it may come back in: as it is, URL-encoded (either escape case, spaces as + or %20), base64 and
// base64url at any alignment (inside "Basic …" or a longer encoded string), and JSON-escaped (docs/gateway-checks.md).

export const REDACTED = '[redacted]';

/** Shorter secrets are not searched for: they would blank ordinary words and numbers. */
const MIN_SECRET_LENGTH = 4;
/** A base64 fragment shorter than this is too likely to occur by chance. */
const MIN_BASE64_CORE = 6;

/** The forms one secret may take in upstream text, longest first. */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  const forms = new Set<string>([secret]);
  const component = encodeURIComponent(secret);
  for (const encoded of [component, encodeURI(secret), new URLSearchParams({ s: secret }).toString().slice(2), escapeAll(secret)]) {
    forms.add(encoded);
    forms.add(encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()));
  }
  const json = JSON.stringify(secret).slice(1, -1);
  forms.add(json);
  forms.add(json.replaceAll('/', '\\/'));
  forms.add([...secret].map((c) => (/[A-Za-z0-9]/.test(c) ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)).join(''));
  for (const core of base64Cores(Buffer.from(secret, 'utf8'))) {
    forms.add(core);
    forms.add(core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** Every byte percent-encoded, as some servers echo. */
function escapeAll(secret: string): string {
  return [...Buffer.from(secret, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/**
 * The base64 characters that encode only the secret's bytes, for each of the three alignments it can have inside a
 * longer encoded string: whatever surrounds it, these characters appear in the encoding.
 */
function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
    const encoded = padded.toString('base64').replace(/=+$/, '');
    // Characters mixing the padding's bits at the start, or the next bytes' bits at the end, are dropped.
    const first = offset === 0 ? 0 : offset + 1;
    const last = Math.floor((padded.length * 8) / 6);
    const core = encoded.slice(first, last);
    if (core.length >= MIN_BASE64_CORE) cores.push(core);
  }
  return cores;
}

/** A scrubber for a set of secrets, its forms computed once. */
export function secretScrubber(secrets: readonly (string | undefined)[]): (text: string) => string {
  const forms = [...new Set(secrets.flatMap((s) => (s ? secretForms(s) : [])))].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  };
}

/** The text with every form of every secret replaced. */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return secretScrubber(secrets)(text);
}

/** A JSON-like value with every string in it (keys too) scrubbed. */
export function scrubValue(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, scrub));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrub(k), scrubValue(v, scrub)]));
  }
  return value;
}
