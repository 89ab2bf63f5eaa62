// What every webhook that becomes a fiscal document does: verify, read what the body is about, record the delivery of a
// shop that does not invoice (answered 200, so Shopify does not retry for hours), or store the document with its
// delivery, grouped with concurrent deliveries, and answer. Nothing slow happens here: the gateway and Shopify are the
// runner's business. A topic differs only in how its body reads (src/documents/intake-document.ts).
import { isUtf8 } from 'node:buffer';
import type { RequestHandler } from 'express';
import type { IntakeBatcher } from '../src/documents/intake-batcher.ts';
import { type DocumentReading, intakeDocument } from '../src/documents/intake-document.ts';
import { recordDelivery } from '../src/documents/store/index.ts';
import { answer, webhookBodyBytes } from '../src/http/webhook-body.ts';
import { readWebhookJson } from '../src/http/webhook-json.ts';
import type { ShopRepository } from '../src/shops/shop-repository.ts';
import { type WebhookDeps, deliveryOf, verifyWebhook } from './verify-webhook.ts';

export interface DocumentWebhookDeps extends WebhookDeps {
  shops: Pick<ShopRepository, 'intakeStatus'>;
  /** Writes the document and the delivery together, grouped with concurrent deliveries. */
  intake: Pick<IntakeBatcher, 'enqueue'>;
  /** Tell the runner there is work (same process). */
  onStored: () => void;
}

export function documentWebhook(
  deps: DocumentWebhookDeps,
  topic: string,
  read: (value: unknown, text: string) => DocumentReading,
): RequestHandler {
  return async (req, res) => {
    const verified = verifyWebhook(deps.shopify, req, [topic]);
    if (!verified.ok) return answer(res, verified.status, { error: verified.error });
    const { webhook } = verified;
    const body = readWebhookJson(webhook.rawBody);
    if (!body.ok) return answer(res, 400, { error: body.error });
    const reading = read(body.value, body.text);
    if (!reading.ok) return answer(res, 400, { error: reading.error });
    const { source } = reading;

    const delivery = deliveryOf(webhook);
    const shop = await deps.shops.intakeStatus(webhook.shop);
    if (!shop || !shop.installed || !shop.enabled) {
      const outcome = !shop || !shop.installed ? 'shop_not_installed' : 'shop_not_enabled';
      await recordDelivery(deps.db, webhook.shop, delivery, outcome, source.orderGid);
      deps.logger.info({ shop: webhook.shop, ...reading.about, outcome }, `${topic} not processed`);
      return answer(res, 200, { outcome });
    }
    // Stored as the bytes that came when they are the text read (valid UTF-8, no escape replaced): no second encoding.
    const bytes = webhookBodyBytes(req);
    const rawSnapshot = bytes && body.text === webhook.rawBody && isUtf8(bytes) ? bytes : body.text;
    const outcome = await deps.intake.enqueue(intakeDocument(webhook.shop, source, rawSnapshot), delivery);
    if (outcome === 'stored') deps.onStored();
    answer(res, 200, { outcome });
  };
}
