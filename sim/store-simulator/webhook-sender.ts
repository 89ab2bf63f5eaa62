// Sends webhooks as Shopify does: the raw body signed with the app's secret (base64 HMAC-SHA256), Shopify's
// headers, no redirects followed, and optional retries with the same ids. Every attempt is logged.

import { createHmac, randomUUID } from 'node:crypto';
import { isRecord } from './rest-values.ts';
import type { DeliveryOutcome, RetryPolicy, WebhookAttempt, WebhookOptions, WebhookResult } from './types.ts';

/** Base64 HMAC-SHA256 of the raw body bytes: the `X-Shopify-Hmac-Sha256` header. */
export function webhookHmac(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
}

interface DeliveryIds {
  webhookId: string;
  eventId: string;
  triggeredAt: string;
}

export class WebhookSender {
  readonly log: WebhookAttempt[] = [];
  readonly #secret: string;
  readonly #apiVersion: string;

  constructor(secret: string, apiVersion: string) {
    this.#secret = secret;
    this.#apiVersion = apiVersion;
  }

  async send(opts: WebhookOptions): Promise<WebhookResult> {
    return resultOf(await this.#deliver(opts, 1, deliveryIds(opts), opts.timeoutMs));
  }

  async deliverWithRetries(opts: WebhookOptions, policy: RetryPolicy = {}): Promise<DeliveryOutcome> {
    const retries = policy.retries ?? 8;
    const timeoutMs = policy.timeoutMs ?? 5000;
    const backoff = policy.backoffMs ?? 0;
    // Retries carry the original payload and ids (what Shopify documents for the payload).
    const ids = deliveryIds(opts);
    const attempts: WebhookAttempt[] = [];
    for (let attempt = 1; attempt <= retries + 1; attempt++) {
      if (attempt > 1) {
        const wait = typeof backoff === 'number' ? backoff : (backoff[Math.min(attempt - 2, backoff.length - 1)] ?? 0);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      const a = await this.#deliver(opts, attempt, ids, timeoutMs);
      attempts.push(a);
      if (a.status >= 200 && a.status < 300) return { delivered: true, attempts };
    }
    return { delivered: false, attempts };
  }

  async #deliver(opts: WebhookOptions, attempt: number, ids: DeliveryIds, timeoutMs?: number): Promise<WebhookAttempt> {
    const body = typeof opts.payload === 'string' ? opts.payload : JSON.stringify(opts.payload);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-Shopify-Topic': opts.topic,
      'X-Shopify-Hmac-Sha256': webhookHmac(body, opts.secret ?? this.#secret),
      'X-Shopify-Shop-Domain': opts.shop,
      'X-Shopify-API-Version': opts.apiVersion ?? this.#apiVersion,
      'X-Shopify-Webhook-Id': ids.webhookId,
      'X-Shopify-Event-Id': ids.eventId,
      'X-Shopify-Triggered-At': ids.triggeredAt,
    };
    const omit = new Set((opts.omitHeaders ?? []).map((h) => h.toLowerCase()));
    for (const name of Object.keys(headers)) if (omit.has(name.toLowerCase())) delete headers[name];

    const started = performance.now();
    let result: WebhookResult;
    try {
      const response = await fetch(opts.address, {
        method: 'POST',
        headers,
        body,
        // Shopify counts a redirect as a failed delivery.
        redirect: 'manual',
        ...(timeoutMs !== undefined ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
      });
      const text = await response.text();
      result = { status: response.status, body: text, durationMs: performance.now() - started, timedOut: false };
    } catch (e) {
      const name = isRecord(e) ? e['name'] : undefined;
      result = {
        status: 0,
        body: '',
        durationMs: performance.now() - started,
        timedOut: name === 'TimeoutError' || name === 'AbortError',
        error: e instanceof Error ? e.message : String(e),
      };
    }
    const entry: WebhookAttempt = {
      ...result,
      address: opts.address,
      topic: opts.topic,
      shop: opts.shop,
      webhookId: ids.webhookId,
      eventId: ids.eventId,
      attempt,
      at: new Date().toISOString(),
    };
    this.log.push(entry);
    return entry;
  }
}

function deliveryIds(opts: WebhookOptions): DeliveryIds {
  return {
    webhookId: opts.webhookId ?? randomUUID(),
    eventId: opts.eventId ?? randomUUID(),
    triggeredAt: opts.triggeredAt ?? new Date().toISOString(),
  };
}

function resultOf(a: WebhookAttempt): WebhookResult {
  return {
    status: a.status,
    body: a.body,
    durationMs: a.durationMs,
    timedOut: a.timedOut,
    ...(a.error !== undefined ? { error: a.error } : {}),
  };
}
