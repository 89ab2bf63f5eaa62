import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, cleanEscapes, nestingDepth, readWebhookJson } from '../../../src/http/webhook-json.ts';

describe('webhook bodies as stored JSON', () => {
  it('turns NUL and lone surrogate escapes into U+FFFD, leaving pairs, escaped backslashes and everything else byte for byte', () => {
    expect(cleanEscapes('{"a":"x\\u0000y"}')).toBe('{"a":"x\\ufffdy"}');
    expect(cleanEscapes('{"a":"\\udc00"}')).toBe('{"a":"\\ufffd"}');
    expect(cleanEscapes('{"a":"\\ud800x"}')).toBe('{"a":"\\ufffdx"}');
    // A real pair (😀) stays; so does an escaped backslash before u0000 (the text "\u0000", not a NUL).
    expect(cleanEscapes('{"a":"\\ud83d\\ude00"}')).toBe('{"a":"\\ud83d\\ude00"}');
    expect(cleanEscapes('{"a":"\\\\u0000"}')).toBe('{"a":"\\\\u0000"}');
    expect(cleanEscapes('{"a":"\\\\\\u0000"}')).toBe('{"a":"\\\\\\ufffd"}');
    const read = readWebhookJson('{"name":"#1\\u0000","id":12345678901234567890}');
    expect(read).toEqual({
      ok: true,
      value: { name: '#1\ufffd', id: 12345678901234567000 },
      text: '{"name":"#1\\ufffd","id":12345678901234567890}',
    });
  });

  it('refuses a body nested deeper than any Shopify payload, counting only outside strings', () => {
    expect(nestingDepth('{"a":[{"b":"[[[[{{{{"}]}')).toBe(3);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(readWebhookJson(deep)).toEqual({
      ok: false,
      error: `body is nested ${MAX_JSON_DEPTH + 1} levels deep (at most ${MAX_JSON_DEPTH})`,
    });
    expect(readWebhookJson(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`).ok).toBe(true);
    expect(readWebhookJson('{"a":')).toEqual({ ok: false, error: 'body is not valid JSON' });
  });
});
