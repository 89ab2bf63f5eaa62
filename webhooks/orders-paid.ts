// orders/paid: verify, read the order's identity, store the invoice document with the order snapshot, answer.
// Nothing slow happens here: the gateway and Shopify are the runner's business.
import type { Shopify } from '@shopify/shopify-api';
import type { RequestHandler } from 'express';
import { orderIdentity } from '../mappers/order-identity.ts';
import type { Db } from '../src/db/database.ts';
import { DGI_DOCUMENT_TYPE } from '../src/documents/document-state.ts';
import type { IntakeBatcher } from '../src/documents/intake-batcher.ts';
import { recordDelivery } from '../src/documents/store/index.ts';
import { answer } from '../src/http/webhook-body.ts';
import { readWebhookJson } from '../src/http/webhook-json.ts';
import type { Logger } from '../src/logger.ts';
import type { ShopRepository } from '../src/shops/shop-repository.ts';
import { verifyWebhook } from './verify-webhook.ts';

export interface OrdersPaidDeps {
  shopify: Shopify;
  db: Db;
  shops: Pick<ShopRepository, 'intakeStatus'>;
  /** Writes the document and the delivery together, grouped with concurrent deliveries. */
  intake: Pick<IntakeBatcher, 'enqueue'>;
  logger: Logger;
  /** Tell the runner there is work (same process). */
  onStored: () => void;
}

export function ordersPaidWebhook(deps: OrdersPaidDeps): RequestHandler {
  return async (req, res) => {
    const verified = await verifyWebhook(deps.shopify, req, res, ['orders/paid']);
    if (!verified.ok) return answer(res, verified.status, { error: verified.error });
    const { webhook } = verified;
    const body = readWebhookJson(webhook.rawBody);
    if (!body.ok) return answer(res, 400, { error: body.error });
    const identity = orderIdentity(body.value);
    if (!identity.ok) return answer(res, 400, { error: `not an order: ${identity.path} ${identity.problem}` });
    const order = identity.identity;

    const delivery = { webhookId: webhook.webhookId, eventId: webhook.eventId, topic: webhook.topic, triggeredAt: webhook.triggeredAt };
    const shop = await deps.shops.intakeStatus(webhook.shop);
    if (!shop || !shop.installed || !shop.enabled) {
      // Answer 200 so Shopify does not retry for hours; the delivery stays on record.
      const outcome = !shop || !shop.installed ? 'shop_not_installed' : 'shop_not_enabled';
      await recordDelivery(deps.db, webhook.shop, delivery, outcome, order.orderGid);
      deps.logger.info({ shop: webhook.shop, order: order.name, outcome }, 'orders/paid not processed');
      return answer(res, 200, { outcome });
    }
    const outcome = await deps.intake.enqueue(
      {
        shop: webhook.shop,
        kind: 'invoice',
        sourceKey: order.orderGid,
        documentType: DGI_DOCUMENT_TYPE.invoice,
        orderGid: order.orderGid,
        orderName: order.name,
        totalCents: order.totalCents,
        currency: order.currency,
        test: order.test,
        rawSnapshot: body.text,
      },
      delivery,
    );
    if (outcome === 'stored') deps.onStored();
    answer(res, 200, { outcome });
  };
}
