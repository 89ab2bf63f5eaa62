// Points the Shopify library's outgoing calls (Admin GraphQL, OAuth token endpoint) at another origin,
// e.g. the store simulator, outside production.
//
// How the app installs it (order matters: the node adapter captures `globalThis.fetch` when it is imported,
// and every GraphQL client captures the abstract fetch when it is constructed):
//
//   import '@shopify/shopify-api/adapters/node';                 // 1. sets abstractFetch = globalThis.fetch
//   import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
//   import { rewritingFetch } from './shopify/admin-api-origin.ts';
//   if (config.shopifyAdminApiOrigin) setAbstractFetchFunc(rewritingFetch(config.shopifyAdminApiOrigin)); // 2.
//   // 3. only now create `new shopify.clients.Graphql({ session })` instances.
//
// Browser redirects (auth.begin's 302 to /admin/oauth/authorize) do not go through fetch: rewrite their
// Location with `rewriteShopifyUrl(location, origin, { shopInQuery: true })`.

export const SHOP_DOMAIN_HEADER = 'x-shopify-shop-domain';

const SHOP_HOST = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

export interface RewrittenUrl {
  /** The same path and query on the other origin. */
  readonly url: string;
  /** The shop domain taken from the original host, e.g. `demo.myshopify.com`. */
  readonly shop: string;
}

/**
 * `https://<shop>.myshopify.com/<path>?<query>` → `<origin>/<path>?<query>`; undefined for any other URL.
 * With `shopInQuery`, `shop=<shop>` is added to the query (for browser redirects, which carry no custom header).
 */
export function rewriteShopifyUrl(url: string, origin: string, options: { shopInQuery?: boolean } = {}): RewrittenUrl | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' || !SHOP_HOST.test(parsed.hostname)) return undefined;
  const shop = parsed.hostname;
  if (options.shopInQuery && !parsed.searchParams.has('shop')) parsed.searchParams.set('shop', shop);
  return { url: `${origin.replace(/\/+$/, '')}${parsed.pathname}${parsed.search}`, shop };
}

/** A fetch that sends requests for `https://*.myshopify.com` to `origin` with the shop in a header. */
export function rewritingFetch(origin: string, baseFetch: typeof fetch = globalThis.fetch): typeof fetch {
  // Fail at install time, not on the first Shopify call.
  const base = new URL(origin);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('Admin API origin must be http(s)');

  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const rewritten = rewriteShopifyUrl(url, origin);
    if (!rewritten) return baseFetch(input, init);

    if (input instanceof Request) {
      const original = new Request(input, init);
      const headers = new Headers(original.headers);
      headers.set(SHOP_DOMAIN_HEADER, rewritten.shop);
      // `duplex` is required by Node's fetch for a streamed body; the DOM RequestInit type lacks it.
      const requestInit: RequestInit & { duplex: 'half' } = {
        method: original.method,
        headers,
        body: original.body,
        signal: original.signal,
        redirect: original.redirect,
        duplex: 'half',
      };
      return baseFetch(new Request(rewritten.url, requestInit));
    }

    const headers = new Headers(init?.headers);
    headers.set(SHOP_DOMAIN_HEADER, rewritten.shop);
    return baseFetch(rewritten.url, { ...init, headers });
  };
}
