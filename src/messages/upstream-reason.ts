// An upstream failure's raw reason ("HTTP 503 with a body that is not JSON", "network error (ECONNREFUSED)", "Shopify,
// reading the order: HTTP 503") sorted into what a person can be told in their language. The raw text stays in the
// stored message (`reason`) for operators (CLI, logs); the catalogue words `why` and `status` in Spanish. Pure.
import type { MessageParams } from './message.ts';

const PATTERNS: [RegExp, string][] = [
  [/^HTTP (\d{3}) without a gateway answer$/, 'http_no_answer'],
  [/^HTTP (\d{3}) with a body that is not JSON$/, 'http_not_json'],
  [/^HTTP (\d{3}): the gateway refused the platform Authorization token/, 'platform_token'],
  [/^HTTP (\d{3}): answer is not the documented JSON$/, 'not_documented'],
  [/^HTTP (\d{3})$/, 'http'],
  [/^(?:no answer within|timeout after)/, 'timeout'],
  [/^network error(?: \((E[A-Z_]+)\))?$/, 'network'],
  [/^(E[A-Z_]{3,})$/, 'network'],
  [/^DownloadPDF answered 200 but the document is not a PDF$/, 'not_pdf'],
  [/^Shopify\b/, 'shopify'],
  [/^internal error at step/, 'internal'],
  [/^too many fiscal numbers in a row/, 'skips'],
];

/** `why` (one of the catalogue's cases, `other` when unknown) and its HTTP status or network code. */
export function upstreamReason(reason: string): { why: string; status: string; code: string } {
  for (const [pattern, why] of PATTERNS) {
    const match = pattern.exec(reason);
    if (!match) continue;
    const value = match[1] ?? '';
    return why === 'network' ? { why, status: '', code: value } : { why, status: value, code: '' };
  }
  return { why: 'other', status: '', code: '' };
}

/** The message's parameters with `why`, `status` and `code` worked out from its `reason` (given ones win). */
export function withUpstreamReason(params: MessageParams): MessageParams {
  return typeof params.reason === 'string' ? { ...upstreamReason(params.reason), ...params } : params;
}
