// A webhook body read as JSON for storage: what we store must stay valid for the database's JSON functions, and one
// poisoned delivery must fail alone. NUL characters and lone surrogates (written as \u escapes; JSON forbids them
// raw) become U+FFFD in the stored text; a body nested deeper than any Shopify payload is refused.
export const MAX_JSON_DEPTH = 64;

export type WebhookJson = { ok: true; value: unknown; text: string } | { ok: false; error: string };

// An escape is real only after an even number of backslashes (`\\u0000` is a backslash and the text "u0000").
const NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;
const LONE_HIGH = /(?<!\\)((?:\\\\)*)\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})/g;
const LONE_LOW = /(?<!(?:^|[^\\])(?:\\\\)*\\u[dD][89abAB][0-9a-fA-F]{2})((?<!\\)(?:\\\\)*)\\u[dD][c-fC-F][0-9a-fA-F]{2}/g;

export function readWebhookJson(raw: string): WebhookJson {
  const depth = nestingDepth(raw);
  if (depth > MAX_JSON_DEPTH) return { ok: false, error: `body is nested ${depth} levels deep (at most ${MAX_JSON_DEPTH})` };
  const text = raw.includes('\\u') ? cleanEscapes(raw) : raw;
  try {
    return { ok: true, value: JSON.parse(text), text };
  } catch {
    return { ok: false, error: 'body is not valid JSON' };
  }
}

/** NUL and lone surrogate escapes → U+FFFD; everything else byte for byte. */
export function cleanEscapes(text: string): string {
  return text.replace(NUL, '$1\\ufffd').replace(LONE_HIGH, '$1\\ufffd').replace(LONE_LOW, '$1\\ufffd');
}

/** The deepest nesting of objects and arrays, outside strings; stops counting past the limit. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = closingQuote(text, i);
    else if (c === 123 || c === 91) {
      if (++depth > deepest) deepest = depth;
      if (deepest > MAX_JSON_DEPTH) return deepest;
    } else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}

/**
 * Where the string opened at `open` ends (the text's length when it does not): found with indexOf, which is many
 * times faster than reading each character, and most of a body is strings.
 */
function closingQuote(text: string, open: number): number {
  for (let quote = text.indexOf('"', open + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    // Escaped only after an odd number of backslashes.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return text.length;
}
