// A document's buyer page link (docs/buyer-page.md): the app's public origin and the document's buyer token (made by
// the database, ≥ 128 random bits), the link's only credential. Written onto the order (metafield `buyer_url`), put
// in the buyer's e-mail, served by src/buyer-page/. `<link>.json` is the page as JSON, `<link>/request` the request.

/** The route prefix: a link is `/d/<token>`. */
export const BUYER_PATH = '/d';

/** A buyer token as the database makes it: 43 base64url characters. */
export const BUYER_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function buyerUrl(appUrl: string, token: string): string {
  return `${appUrl}${BUYER_PATH}/${token}`;
}
