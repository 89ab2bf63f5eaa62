// Calls to the app's /api with a Shopify session token on every request.
// Inside Shopify the token comes from App Bridge (window.shopify.idToken()); in the demo and the tests,
// from /admin/dev-session-token, which exists only there.

/** @typedef {{ shop: string | null, embedded: boolean, devSessionTokens: boolean, shops: string[] }} PageConfig */

/** @type {PageConfig} */
export const config = JSON.parse(document.getElementById('app-config')?.textContent ?? '{}');

export class ApiError extends Error {
  /** @param {number} status @param {any} body */
  constructor(status, body) {
    super(typeof body?.error === 'string' ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

let cached = /** @type {{ token: string, expiresAt: number } | undefined} */ (undefined);

/** App Bridge is loaded by the shell's first script; give it a moment when the page is embedded. */
async function appBridge(waitMs) {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    if (window.shopify && typeof window.shopify.idToken === 'function') return window.shopify;
    await new Promise((r) => setTimeout(r, 50));
  }
  return window.shopify && typeof window.shopify.idToken === 'function' ? window.shopify : undefined;
}

async function sessionToken(fresh = false) {
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
 * @param {'GET'|'POST'|'PUT'} method
 * @param {string} path e.g. '/api/invoices?status=failed'
 * @param {unknown} [body]
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
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
      });
    } catch {
      throw new ApiError(0, { error: 'network' });
    }
    const data = await response.json().catch(() => ({}));
    // A token that expired on the way: fetch a fresh one once.
    if (response.status === 401 && attempt === 0) continue;
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }
}
