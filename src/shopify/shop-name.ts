// Who a shop's buyer e-mails come from: the shop's name as the merchant set it in Shopify (the From name) and its
// contact address (the Reply-To, so a buyer's answer reaches the shop, not the operator's MAIL_FROM), read through Admin
// GraphQL and kept for an hour per shop, so a batch of e-mails asks once.
import type { AdminResult, ShopifyAdmin } from './admin-client.ts';

export const SHOP_NAME_QUERY = `query ShopName {
  shop {
    name
    contactEmail
    email
  }
}`;

const KEEP_MS = 60 * 60_000;
const EMAIL = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;

export interface ShopSender {
  name: string;
  /** The shop's contact e-mail (else the shop's e-mail), when Shopify gives a usable one. */
  replyTo: string | undefined;
}

export type ShopNames = (shop: string) => Promise<AdminResult<ShopSender>>;

interface ShopAnswer {
  shop: { name: string | null; contactEmail?: string | null; email?: string | null } | null;
}

export function shopNames(admin: ShopifyAdmin, now: () => number = Date.now): ShopNames {
  const known = new Map<string, { sender: ShopSender; at: number }>();
  return async (shop) => {
    const kept = known.get(shop);
    if (kept && now() - kept.at < KEEP_MS) return { ok: true, data: kept.sender };
    const answer = await admin.graphql<ShopAnswer>(shop, SHOP_NAME_QUERY);
    if (!answer.ok) return answer;
    const name = answer.data.shop?.name?.trim();
    if (!name) return { ok: false, retryable: true, message: 'Shopify answered without a shop name' };
    const replyTo = [answer.data.shop?.contactEmail, answer.data.shop?.email].map((e) => e?.trim()).find((e) => e && EMAIL.test(e));
    const sender = { name, replyTo };
    known.set(shop, { sender, at: now() });
    return { ok: true, data: sender };
  };
}
