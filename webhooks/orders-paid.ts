// orders/paid: verify, parse the order's identity, store the invoice job with the order snapshot, answer.
// Nothing slow happens here: the gateway and Shopify are the worker's business.
import type { Shopify } from '@shopify/shopify-api';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { parseCents } from '../mappers/money.ts';
import type { Db } from '../src/db/database.ts';
import type { IntakeBatcher } from '../src/invoices/intake-batcher.ts';
import { type NewInvoice, recordDelivery } from '../src/invoices/invoice-repository.ts';
import type { Logger } from '../src/logger.ts';
import type { ShopRepository } from '../src/shops/shop-repository.ts';
import { answer } from '../src/http/webhook-body.ts';
import { verifyWebhook } from './verify-webhook.ts';

export interface OrdersPaidDeps {
  shopify: Shopify;
  db: Db;
  shops: Pick<ShopRepository, 'intakeStatus'>;
  /** Writes the invoice job and the delivery together, grouped with concurrent deliveries. */
  intake: Pick<IntakeBatcher, 'enqueue'>;
  logger: Logger;
  /** Tell the worker there is work (same process). */
  onStored: () => void;
}

const money = z.object({ shop_money: z.object({ amount: z.string(), currency_code: z.string() }) });

/** Just what the intake needs; the worker parses the whole order from the snapshot. */
const orderIdentity = z.object({
  admin_graphql_api_id: z
    .string()
    .regex(/^gid:\/\/shopify\/Order\/\d+$/)
    .optional(),
  id: z.number().optional(),
  name: z.string().min(1),
  currency: z.string().min(3),
  test: z.boolean().optional(),
  total_price: z.string().optional(),
  current_total_price: z.string().optional(),
  current_total_price_set: money.optional(),
});

/** The order's identity and total, or a sentence saying what is missing. */
export function orderIdentityFrom(body: unknown, shop: string, rawOrder: string): NewInvoice | string {
  const parsed = orderIdentity.safeParse(body);
  if (!parsed.success) return `not an order: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'} ${i.message}`).join('; ')}`;
  const o = parsed.data;
  // Numeric ids can exceed 2^53 and JSON.parse rounds them: only a safe integer may stand in for the GID.
  const orderGid = o.admin_graphql_api_id ?? (o.id !== undefined && Number.isSafeInteger(o.id) ? `gid://shopify/Order/${o.id}` : undefined);
  if (!orderGid) return 'not an order: admin_graphql_api_id is missing';
  const totalText = o.current_total_price_set?.shop_money.amount ?? o.current_total_price ?? o.total_price;
  const total = totalText === undefined ? undefined : parseCents(totalText);
  if (total === undefined) return 'not an order: current_total_price is missing or not an amount';
  return {
    shop,
    orderGid,
    orderName: o.name,
    totalCents: total,
    currency: o.current_total_price_set?.shop_money.currency_code ?? o.currency,
    test: o.test ?? false,
    rawOrder,
  };
}

export function ordersPaidWebhook(deps: OrdersPaidDeps): RequestHandler {
  return async (req, res) => {
    const verified = await verifyWebhook(deps.shopify, req, res, ['orders/paid']);
    if (!verified.ok) {
      answer(res, verified.status, { error: verified.error });
      return;
    }
    const { webhook } = verified;
    let body: unknown;
    try {
      body = JSON.parse(webhook.rawBody);
    } catch {
      answer(res, 400, { error: 'body is not valid JSON' });
      return;
    }
    const invoice = orderIdentityFrom(body, webhook.shop, webhook.rawBody);
    if (typeof invoice === 'string') {
      answer(res, 400, { error: invoice });
      return;
    }
    const delivery = { webhookId: webhook.webhookId, eventId: webhook.eventId, topic: webhook.topic, triggeredAt: webhook.triggeredAt };
    const shop = await deps.shops.intakeStatus(webhook.shop);
    if (!shop || !shop.installed || !shop.enabled) {
      // Answer 200 so Shopify does not retry for hours; the delivery stays on record.
      const outcome = !shop || !shop.installed ? 'shop_not_installed' : 'shop_not_enabled';
      await recordDelivery(deps.db, webhook.shop, delivery, outcome, invoice.orderGid);
      deps.logger.info({ shop: webhook.shop, order: invoice.orderName, outcome }, 'orders/paid not processed');
      answer(res, 200, { outcome });
      return;
    }
    const outcome = await deps.intake.enqueue(invoice, delivery);
    if (outcome === 'stored') deps.onStored();
    answer(res, 200, { outcome });
  };
}
