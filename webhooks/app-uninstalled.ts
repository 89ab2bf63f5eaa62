// app/uninstalled: the shop's access is gone, so its sessions go too, and the shop stops invoicing.
// Its invoices stay (the operator can still read them) until shop/redact.
import type { RequestHandler } from 'express';
import { recordDelivery } from '../src/documents/store/index.ts';
import type { EncryptedSessionStorage } from '../src/shopify/session-storage.ts';
import type { ShopRepository } from '../src/shops/shop-repository.ts';
import { answer } from '../src/http/webhook-body.ts';
import { type WebhookDeps, deliveryOf, verifyWebhook } from './verify-webhook.ts';

export interface AppUninstalledDeps extends WebhookDeps {
  sessions: Pick<EncryptedSessionStorage, 'deleteShopSessions'>;
  shops: Pick<ShopRepository, 'markUninstalled'>;
}

export function appUninstalledWebhook(deps: AppUninstalledDeps): RequestHandler {
  return async (req, res) => {
    const verified = verifyWebhook(deps.shopify, req, ['app/uninstalled']);
    if (!verified.ok) return answer(res, verified.status, { error: verified.error });
    const { webhook } = verified;
    // The domain header is not covered by the HMAC: only a signed body naming this very shop uninstalls it
    // (Shopify's app/uninstalled body is the Shop resource, which always names its myshopify domain).
    const bodyShop = myshopifyDomainOf(webhook.rawBody);
    if (bodyShop !== webhook.shop) {
      const error =
        bodyShop === undefined
          ? 'the body names no myshopify_domain: not an app/uninstalled body'
          : 'myshopify_domain in the body does not match the X-Shopify-Shop-Domain header';
      answer(res, 400, { error });
      return;
    }
    const sessionsDeleted = await deps.sessions.deleteShopSessions(webhook.shop);
    await deps.shops.markUninstalled(webhook.shop);
    await recordDelivery(deps.db, webhook.shop, deliveryOf(webhook), 'uninstalled');
    deps.logger.info({ shop: webhook.shop, sessionsDeleted }, 'app uninstalled: sessions deleted, shop disabled');
    answer(res, 200, { outcome: 'uninstalled' });
  };
}

/** The shop the body (Shopify's Shop resource) is about, when it says. */
function myshopifyDomainOf(rawBody: string): string | undefined {
  try {
    const body: unknown = JSON.parse(rawBody);
    const domain = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['myshopify_domain'] : undefined;
    return typeof domain === 'string' ? domain.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}
