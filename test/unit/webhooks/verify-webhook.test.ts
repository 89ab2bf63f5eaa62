// Our synchronous webhook verification gives the same answer as @shopify/shopify-api's `webhooks.validate`
// (mapped the way verify-webhook.ts used to map it) for every mix of headers, signatures and topics.
import '@shopify/shopify-api/adapters/node';
import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiVersion, LogSeverity, shopifyApi } from '@shopify/shopify-api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Verification, normalizeTopic, verifyDelivery } from '../../../webhooks/verify-webhook.ts';

const SECRET = 'verify-test-secret';
const shopify = shopifyApi({
  apiKey: 'k',
  apiSecretKey: SECRET,
  hostName: 'app.example.com',
  apiVersion: ApiVersion.October26,
  isEmbeddedApp: true,
  logger: { level: LogSeverity.Error, log: async () => {} },
});

/** What verify-webhook.ts answered when it called the library (the semantics to keep). */
async function libraryVerification(headers: IncomingHttpHeaders, rawBody: string, expected: readonly string[]): Promise<Verification> {
  if (rawBody === '') return { ok: false, status: 400, error: 'empty body' };
  const rawRequest = { headers, method: 'POST', url: '/webhooks' };
  const check = await shopify.webhooks.validate({ rawBody, rawRequest: rawRequest as never, rawResponse: {} as never });
  if (!check.valid) {
    if (check.reason === 'invalid_hmac') return { ok: false, status: 401, error: 'invalid HMAC signature' };
    if (check.reason === 'missing_hmac') return { ok: false, status: 401, error: 'missing HMAC signature' };
    const missing = 'missingHeaders' in check ? `: ${check.missingHeaders.join(', ')}` : '';
    return { ok: false, status: 400, error: `${check.reason.replace('_', ' ')}${missing}` };
  }
  const topic = normalizeTopic(check.topic);
  if (!expected.includes(topic)) return { ok: false, status: 400, error: `topic ${topic} is not handled at this address` };
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

const sign = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body, 'utf8').digest('base64');
const BODY = JSON.stringify({ id: 1, name: '#1', note: 'pagó en línea' });

/** Node gives header names in lower case. */
function deliveryHeaders(overrides: Record<string, string | undefined> = {}): IncomingHttpHeaders {
  const base: Record<string, string | undefined> = {
    'content-type': 'application/json',
    'x-shopify-hmac-sha256': sign(BODY),
    'x-shopify-topic': 'orders/paid',
    'x-shopify-shop-domain': 'tienda.myshopify.com',
    'x-shopify-api-version': '2026-10',
    'x-shopify-webhook-id': 'w-1',
    'x-shopify-event-id': 'e-1',
    'x-shopify-triggered-at': '2026-11-20T15:00:00Z',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined));
}

const same = async (headers: IncomingHttpHeaders, body = BODY, topics: readonly string[] = ['orders/paid']) => {
  const ours = verifyDelivery(SECRET, headers, body, topics);
  expect(ours).toEqual(await libraryVerification(headers, body, topics));
  return ours;
};

describe('webhook verification keeps the library semantics', () => {
  it('a good delivery: the same fields', async () => {
    const v = await same(deliveryHeaders());
    expect(v).toEqual({
      ok: true,
      webhook: {
        topic: 'orders/paid',
        shop: 'tienda.myshopify.com',
        webhookId: 'w-1',
        eventId: 'e-1',
        triggeredAt: '2026-11-20T15:00:00Z',
        apiVersion: '2026-10',
        rawBody: BODY,
      },
    });
  });

  it('401 for a wrong or missing signature; 400 for an empty body', async () => {
    expect(await same(deliveryHeaders({ 'x-shopify-hmac-sha256': sign(BODY, 'other') }))).toEqual({
      ok: false,
      status: 401,
      error: 'invalid HMAC signature',
    });
    expect(await same(deliveryHeaders({ 'x-shopify-hmac-sha256': undefined }))).toEqual({
      ok: false,
      status: 401,
      error: 'missing HMAC signature',
    });
    expect(await same(deliveryHeaders({ 'x-shopify-hmac-sha256': '' }))).toEqual({
      ok: false,
      status: 401,
      error: 'missing HMAC signature',
    });
    expect(await same(deliveryHeaders(), '')).toEqual({ ok: false, status: 400, error: 'empty body' });
  });

  it('400 naming every missing header, in the library spelling', async () => {
    expect(await same(deliveryHeaders({ 'x-shopify-webhook-id': undefined, 'x-shopify-api-version': '' }))).toEqual({
      ok: false,
      status: 400,
      error: 'missing headers: X-Shopify-API-Version, X-Shopify-Webhook-Id',
    });
  });

  it('another topic is refused; app/uninstalled and compliance topics normalize alike', async () => {
    expect(await same(deliveryHeaders({ 'x-shopify-topic': 'orders/create' }))).toEqual({
      ok: false,
      status: 400,
      error: 'topic orders/create is not handled at this address',
    });
    await same(deliveryHeaders({ 'x-shopify-topic': 'app/uninstalled' }), BODY, ['app/uninstalled']);
    const compliance = await same(deliveryHeaders({ 'x-shopify-topic': 'customers/data_request' }), BODY, ['customers/data_request']);
    expect(compliance.ok).toBe(true);
  });

  it('events-style headers (no X- prefix) are verified with their own names', async () => {
    const events: IncomingHttpHeaders = {
      'shopify-hmac-sha256': sign(BODY),
      'shopify-topic': 'orders/paid',
      'shopify-shop-domain': 'tienda.myshopify.com',
      'shopify-api-version': '2026-10',
      'shopify-webhook-id': 'w-9',
    };
    expect((await same(events)).ok).toBe(true);
    const { 'shopify-webhook-id': _omit, ...missingId } = events;
    expect(await same(missingId)).toEqual({ ok: false, status: 400, error: 'missing headers: shopify-webhook-id' });
  });

  it('any mix of present, empty and absent headers, right or wrong signatures and topics', async () => {
    const optional = fc.option(fc.constantFrom('', 'v', 'orders/paid', 'ORDERS_PAID', 'orders.paid', 'app/uninstalled'), {
      nil: undefined,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          body: fc.oneof(fc.constant(BODY), fc.string({ maxLength: 40 })),
          signedWith: fc.constantFrom(SECRET, 'other', ''),
          events: fc.boolean(),
          topic: optional,
          domain: optional,
          version: optional,
          id: optional,
          triggered: optional,
          eventId: optional,
        }),
        async (c) => {
          const prefix = c.events ? 'shopify-' : 'x-shopify-';
          const headers = Object.fromEntries(
            Object.entries({
              [`${prefix}hmac-sha256`]: c.signedWith === '' ? undefined : sign(c.body, c.signedWith),
              [`${prefix}topic`]: c.topic,
              [`${prefix}shop-domain`]: c.domain,
              [`${prefix}api-version`]: c.version,
              [`${prefix}webhook-id`]: c.id,
              [`${prefix}triggered-at`]: c.triggered,
              [`${prefix}event-id`]: c.eventId,
            }).filter(([, v]) => v !== undefined),
          ) as IncomingHttpHeaders;
          expect(verifyDelivery(SECRET, headers, c.body, ['orders/paid'])).toEqual(
            await libraryVerification(headers, c.body, ['orders/paid']),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
