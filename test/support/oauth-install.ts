// A browser's part of the OAuth install, over HTTP: app /api/auth → simulator authorize → app callback.
// Cookies are carried by hand, as a browser would (fetch keeps none).

/** A desktop browser: the Shopify library answers 410 to requests that look like bots (Node's fetch does). */
export const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export interface BegunInstall {
  /** The Cookie header the browser would send back to the callback. */
  cookies: string;
  /** Where the app sent the browser (Shopify's authorize page, rewritten to the simulator). */
  authorizeUrl: URL;
}

export async function beginInstall(appUrl: string, shop: string): Promise<BegunInstall> {
  const begin = await fetch(`${appUrl}/api/auth?shop=${shop}`, { redirect: 'manual', headers: { 'User-Agent': BROWSER_UA } });
  if (begin.status !== 302) throw new Error(`begin answered ${begin.status}`);
  const cookies = begin.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookies, authorizeUrl: new URL(begin.headers.get('location') ?? '') };
}

/** The merchant approves on Shopify's page: the simulator redirects back to the app's callback. */
export async function approveAtShopify(authorizeUrl: URL): Promise<URL> {
  const granted = await fetch(authorizeUrl, { redirect: 'manual', headers: { 'User-Agent': BROWSER_UA } });
  if (granted.status !== 302) throw new Error(`authorize answered ${granted.status}: ${await granted.text()}`);
  return new URL(granted.headers.get('location') ?? '');
}

export async function openCallback(callbackUrl: URL, cookies: string): Promise<Response> {
  return fetch(callbackUrl, { redirect: 'manual', headers: { 'User-Agent': BROWSER_UA, ...(cookies ? { Cookie: cookies } : {}) } });
}

/** The whole install; returns the callback's answer. */
export async function installViaOAuth(appUrl: string, shop: string): Promise<Response> {
  const { cookies, authorizeUrl } = await beginInstall(appUrl, shop);
  return openCallback(await approveAtShopify(authorizeUrl), cookies);
}
