// Calls to the app's /api with a Shopify session token on every request.
// Inside Shopify the token comes from App Bridge (window.shopify.idToken()); in the demo and the tests,
// from /admin/dev-session-token, which exists only there.
import { language, t } from './i18n.js';

/** @type {import('./page-types').PageConfig} */
export const config = JSON.parse(document.getElementById('app-config')?.textContent ?? '{}');

export class ApiError extends Error {
  /** @param {number} status @param {any} body */
  constructor(status, body) {
    super(typeof body?.error === 'string' ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** @type {{ token: string, expiresAt: number } | undefined} */
let cached;

/**
 * App Bridge is loaded by the shell's first script; give it a moment when the page is embedded.
 * @param {number} waitMs
 */
export async function appBridge(waitMs) {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    if (typeof window.shopify?.idToken === 'function') return window.shopify;
    await new Promise((r) => setTimeout(r, 50));
  }
  return typeof window.shopify?.idToken === 'function' ? window.shopify : undefined;
}

/** @param {boolean} fresh */
async function sessionToken(fresh) {
  const bridge = await appBridge(config.embedded ? 3000 : 0);
  // App Bridge keeps its own short-lived token fresh.
  if (bridge) return bridge.idToken();
  if (!config.devSessionTokens || !config.shop) throw new ApiError(401, { error: 'no_session' });
  if (!fresh && cached && cached.expiresAt - Date.now() > 10_000) return cached.token;
  const response = await fetch(`/admin/dev-session-token?shop=${encodeURIComponent(config.shop)}`, { cache: 'no-store' });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, body);
  cached = { token: body.token, expiresAt: Date.parse(body.expiresAt) };
  return cached.token;
}

/**
 * @param {'GET'|'POST'|'PUT'|'DELETE'} method
 * @param {string} path e.g. '/api/invoices?status=failed'
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  for (let attempt = 0; ; attempt++) {
    const token = await sessionToken(attempt > 0);
    let response;
    try {
      response = await fetch(path, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: 'application/json',
          // The server's words for people (refusals, field errors) in the page's language.
          'Accept-Language': language(),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
      });
    } catch {
      throw new ApiError(0, { error: 'network' });
    }
    const data = await response.json().catch(() => ({}));
    // A token that expired on the way: the app says a fresh one may do (as Shopify's libraries do), once.
    const retry = response.status === 401 && response.headers.get('X-Shopify-Retry-Invalid-Session-Request') === '1';
    if (retry && attempt === 0) continue;
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }
}

/**
 * Download a file the API streams (a report, the bulk ZIP): fetched with the session token (POSTed with `body` when
 * given), then saved under the name the answer gives (Content-Disposition). Resolves with the answer's headers.
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<{ headers: Headers }>}
 */
export async function download(path, body) {
  const token = await sessionToken(false);
  let response;
  try {
    response = await fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Accept-Language': language(),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, { error: 'network' });
  }
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => ({})));
  const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? 'informe';
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { headers: response.headers };
}

/** What to tell the merchant about a failed call. @param {unknown} error */
export function errorText(error) {
  if (error instanceof ApiError && error.status === 0) return t('error.network');
  return error instanceof Error ? error.message : String(error);
}
