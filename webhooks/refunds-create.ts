// refunds/create: verify, read which refund of which order, store the credit-note document with the refund as it
// arrived, answer. Whether and when a note is issued (after its invoice, never beyond it) is the runner's business.
import type { Shopify } from '@shopify/shopify-api';
import type { RequestHandler } from 'express';
import { refundIdentity } from '../mappers/refund-identity.ts';
import type { Db } from '../src/db/database.ts';
import { DGI_DOCUMENT_TYPE } from '../src/documents/document-state.ts';
import type { IntakeBatcher } from '../src/documents/intake-batcher.ts';
import { recordDelivery } from '../src/documents/store/index.ts';
import { answer } from '../src/http/webhook-body.ts';
import { readWebhookJson } from '../src/http/webhook-json.ts';
import type { Logger } from '../src/logger.ts';
import type { ShopRepository } from '../src/shops/shop-repository.ts';
import { verifyWebhook } from './verify-webhook.ts';

export interface RefundsCreateDeps {
  shopify: Shopify;
  db: Db;
  shops: Pick<ShopRepository, 'intakeStatus'>;
  intake: Pick<IntakeBatcher, 'enqueue'>;
  logger: Logger;
  onStored: () => void;
}

export function refundsCreateWebhook(deps: RefundsCreateDeps): RequestHandler {
  return async (req, res) => {
    const verified = await verifyWebhook(deps.shopify, req, res, ['refunds/create']);
    if (!verified.ok) return answer(res, verified.status, { error: verified.error });
    const { webhook } = verified;
    const body = readWebhookJson(webhook.rawBody);
    if (!body.ok) return answer(res, 400, { error: body.error });
    const identity = refundIdentity(body.value, body.text);
    if (!identity.ok) return answer(res, 400, { error: `not a refund: ${identity.path} ${identity.problem}` });
    const refund = identity.identity;

    const delivery = { webhookId: webhook.webhookId, eventId: webhook.eventId, topic: webhook.topic, triggeredAt: webhook.triggeredAt };
    const shop = await deps.shops.intakeStatus(webhook.shop);
    if (!shop || !shop.installed || !shop.enabled) {
      const outcome = !shop || !shop.installed ? 'shop_not_installed' : 'shop_not_enabled';
      await recordDelivery(deps.db, webhook.shop, delivery, outcome, refund.orderGid);
      deps.logger.info({ shop: webhook.shop, refund: refund.refundGid, outcome }, 'refunds/create not processed');
      return answer(res, 200, { outcome });
    }
    const outcome = await deps.intake.enqueue(
      {
        shop: webhook.shop,
        kind: 'credit_note',
        sourceKey: refund.refundGid,
        documentType: DGI_DOCUMENT_TYPE.credit_note,
        orderGid: refund.orderGid,
        orderName: undefined,
        totalCents: refund.refundedCents,
        currency: refund.currency ?? 'USD',
        test: refund.test,
        rawSnapshot: body.text,
      },
      delivery,
    );
    if (outcome === 'stored') deps.onStored();
    answer(res, 200, { outcome });
  };
}
