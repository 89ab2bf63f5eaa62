// The part every webhook shares: the HMAC over the raw body (401), the required headers (400), the topic.
// Same rules and answers as @shopify/shopify-api's `webhooks.validate` (test/unit/webhooks/verify-webhook.test.ts holds
// them side by side), done synchronously with a key made once: the library imports a WebCrypto key and
// canonicalizes every header name for every lookup on each delivery, too much CPU for a path that every
// delivery of a flash sale takes (bench/RESULTS.md).
import { type KeyObject, createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Shopify } from '@shopify/shopify-api';
import type { Request } from 'express';
import type { Db } from '../src/db/database.ts';
import type { DeliveryFacts } from '../src/documents/store/index.ts';
import type { Logger } from '../src/logger.ts';

/** What every webhook handler is given. */
export interface WebhookDeps {
  shopify: Shopify;
  db: Db;
  logger: Logger;
}

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

/** The library's `topicForStorage`: "orders/paid" → "ORDERS_PAID". */
function topicForStorage(topic: string): string {
  return topic.toUpperCase().replace(/\/|\./g, '_');
}

/** Header names as the library spells them (its "missing headers" list uses these spellings). */
const HEADERS = {
  webhooks: {
    hmac: 'X-Shopify-Hmac-Sha256',
    topic: 'X-Shopify-Topic',
    domain: 'X-Shopify-Shop-Domain',
    apiVersion: 'X-Shopify-API-Version',
    webhookId: 'X-Shopify-Webhook-Id',
    triggeredAt: 'X-Shopify-Triggered-At',
    eventId: 'X-Shopify-Event-Id',
  },
  events: {
    hmac: 'shopify-hmac-sha256',
    topic: 'shopify-topic',
    domain: 'shopify-shop-domain',
    apiVersion: 'shopify-api-version',
    webhookId: 'shopify-webhook-id',
    triggeredAt: 'shopify-triggered-at',
    eventId: undefined,
  },
} as const;

/** A header's value, any case; empty counts as absent (as in the library). Node has joined repeats already. */
function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  return first ? first : undefined;
}

const keys = new Map<string, KeyObject>();

/** The HMAC key for the app secret, made once: keyed by a KeyObject, Node's HMAC is several times faster. */
function keyFor(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

/** Base64 HMAC-SHA256 of the body compared in constant time with the header, as text like the library does. */
export function hmacMatches(rawBody: string, given: string, secret: string): boolean {
  const expected = Buffer.from(createHmac('sha256', keyFor(secret)).update(rawBody, 'utf8').digest('base64'), 'utf8');
  const actual = Buffer.from(given, 'utf8');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Verify a delivery against an app secret. */
export function verifyDelivery(
  secret: string,
  headers: IncomingHttpHeaders,
  rawBody: string,
  expectedTopics: readonly string[],
): Verification {
  if (rawBody === '') return { ok: false, status: 400, error: 'empty body' };
  // Events-style deliveries (no X- prefix) are told apart by their own HMAC header, as the library does.
  const type = header(headers, HEADERS.events.hmac) ? 'events' : 'webhooks';
  const names = HEADERS[type];
  const hmac = header(headers, names.hmac);
  if (!hmac) return { ok: false, status: 401, error: 'missing HMAC signature' };
  if (!hmacMatches(rawBody, hmac, secret)) return { ok: false, status: 401, error: 'invalid HMAC signature' };

  const topicHeader = header(headers, names.topic);
  const domain = header(headers, names.domain);
  const apiVersion = header(headers, names.apiVersion);
  const webhookId = header(headers, names.webhookId);
  const missing = (
    [
      [names.hmac, hmac],
      [names.topic, topicHeader],
      [names.domain, domain],
      [names.apiVersion, apiVersion],
      [names.webhookId, webhookId],
    ] as const
  )
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  if (missing.length > 0 || !topicHeader || !domain || !apiVersion || !webhookId) {
    return { ok: false, status: 400, error: `missing headers: ${missing.join(', ')}` };
  }

  const topic = normalizeTopic(topicForStorage(topicHeader));
  if (!expectedTopics.includes(topic)) return { ok: false, status: 400, error: `topic ${topic} is not handled at this address` };
  return {
    ok: true,
    webhook: {
      topic,
      shop: domain,
      webhookId,
      eventId: names.eventId ? header(headers, names.eventId) : undefined,
      triggeredAt: header(headers, names.triggeredAt),
      apiVersion,
      rawBody,
    },
  };
}

export function verifyWebhook(shopify: Shopify, req: Request, expectedTopics: readonly string[]): Verification {
  const rawBody = typeof req.body === 'string' ? req.body : '';
  return verifyDelivery(shopify.config.apiSecretKey, req.headers, rawBody, expectedTopics);
}

/** What the deliveries table records of a delivery. */
export function deliveryOf(webhook: VerifiedWebhook): DeliveryFacts {
  return { webhookId: webhook.webhookId, eventId: webhook.eventId, topic: webhook.topic, triggeredAt: webhook.triggeredAt };
}
