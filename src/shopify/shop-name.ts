// The shop's name as the merchant set it in Shopify (the From name of the buyer's e-mails), read through the Admin
// API and kept for an hour per shop, so a batch of e-mails asks once.
import type { AdminResult, ShopifyAdmin } from './admin-client.ts';

export const SHOP_NAME_QUERY = `query ShopName {
  shop {
    name
  }
}`;

const KEEP_MS = 60 * 60_000;

export type ShopNames = (shop: string) => Promise<AdminResult<string>>;

export function shopNames(admin: ShopifyAdmin, now: () => number = Date.now): ShopNames {
  const known = new Map<string, { name: string; at: number }>();
  return async (shop) => {
    const kept = known.get(shop);
    if (kept && now() - kept.at < KEEP_MS) return { ok: true, data: kept.name };
    const answer = await admin.graphql<{ shop: { name: string | null } | null }>(shop, SHOP_NAME_QUERY);
    if (!answer.ok) return answer;
    const name = answer.data.shop?.name?.trim();
    if (!name) return { ok: false, retryable: true, message: 'Shopify answered without a shop name' };
    known.set(shop, { name, at: now() });
    return { ok: true, data: name };
  };
}
