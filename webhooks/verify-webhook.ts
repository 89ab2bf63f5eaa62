// The part every webhook shares: the HMAC over the raw body (401), the required headers (400), the topic.
import type { Shopify } from '@shopify/shopify-api';
import type { Request, Response } from 'express';

export interface VerifiedWebhook {
  topic: string;
  shop: string;
  webhookId: string;
  eventId: string | undefined;
  triggeredAt: string | undefined;
  apiVersion: string;
  rawBody: string;
}

export type Verification = { ok: true; webhook: VerifiedWebhook } | { ok: false; status: 400 | 401; error: string };

/** Topic as Shopify's library reports it ("ORDERS_PAID") → as the headers and TOML write it ("orders/paid"). */
export function normalizeTopic(topic: string): string {
  return topic.includes('/') ? topic.toLowerCase() : topic.toLowerCase().replace('_', '/');
}

export async function verifyWebhook(shopify: Shopify, req: Request, res: Response, expectedTopics: readonly string[]): Promise<Verification> {
  const rawBody = typeof req.body === 'string' ? req.body : '';
  if (rawBody === '') return { ok: false, status: 400, error: 'empty body' };
  const check = await shopify.webhooks.validate({ rawBody, rawRequest: req, rawResponse: res });
  if (!check.valid) {
    if (check.reason === 'invalid_hmac') return { ok: false, status: 401, error: 'invalid HMAC signature' };
    if (check.reason === 'missing_hmac') return { ok: false, status: 401, error: 'missing HMAC signature' };
    const missing = 'missingHeaders' in check ? `: ${check.missingHeaders.join(', ')}` : '';
    return { ok: false, status: 400, error: `${check.reason.replace('_', ' ')}${missing}` };
  }
  const topic = normalizeTopic(check.topic);
  if (!expectedTopics.includes(topic)) return { ok: false, status: 400, error: `topic ${topic} is not handled at this address` };
  return {
    ok: true,
    webhook: {
      topic,
      shop: check.domain,
      webhookId: check.webhookId,
      eventId: check.webhookType === 'webhooks' ? check.eventId : undefined,
      triggeredAt: check.triggeredAt,
      apiVersion: check.apiVersion,
      rawBody,
    },
  };
}
