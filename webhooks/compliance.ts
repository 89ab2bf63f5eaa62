// The mandatory privacy topics at one address: customers/data_request, customers/redact, shop/redact.
// Each request and what we did about it is recorded in compliance_requests (without the data it erased).
import type { Request, RequestHandler } from 'express';
import type { z } from 'zod';
import type { Db } from '../src/db/database.ts';
import { complianceRequests } from '../src/db/schema.ts';
import {
  customerRedactPayloadSchema,
  dataRequestPayloadSchema,
  dataSubjectOf,
  parseJsonKeepingBigIds,
  shopRedactPayloadSchema,
} from '../src/privacy/compliance-payloads.ts';
import { customerDataReport } from '../src/privacy/customer-data-report.ts';
import { redactCustomer } from '../src/privacy/customer-redaction.ts';
import { redactShop } from '../src/privacy/shop-redaction.ts';
import { answer } from '../src/http/webhook-body.ts';
import { type WebhookDeps, hmacMatches, verifyWebhook } from './verify-webhook.ts';

export const COMPLIANCE_TOPICS = ['customers/data_request', 'customers/redact', 'shop/redact'] as const;

export type ComplianceDeps = WebhookDeps;

/** What was done, for the response and the log: counts only, never the personal data itself. */
type Handled = { outcome: string; summary: Record<string, unknown>; payload: unknown; result: unknown };

export function complianceWebhook(deps: ComplianceDeps): RequestHandler {
  return async (req, res) => {
    const verified = verifyWebhook(deps.shopify, req, COMPLIANCE_TOPICS);
    if (!verified.ok) {
      // Shopify's review check wants 401 for anything not signed with the app secret, whatever else is wrong.
      const status = signatureMatches(req, deps.shopify.config.apiSecretKey) ? verified.status : 401;
      answer(res, status, { error: status === 401 && verified.status !== 401 ? 'invalid HMAC signature' : verified.error });
      return;
    }
    const { webhook } = verified;
    let body: unknown;
    try {
      body = parseJsonKeepingBigIds(webhook.rawBody);
    } catch {
      answer(res, 400, { error: 'body is not valid JSON' });
      return;
    }

    const handled = await handle(deps.db, webhook.topic, webhook.shop, body);
    if ('error' in handled) {
      answer(res, 400, { error: handled.error });
      return;
    }
    await deps.db
      .insert(complianceRequests)
      .values({ topic: webhook.topic, shop: webhook.shop, payload: handled.payload, result: handled.result });
    deps.logger.info({ topic: webhook.topic, shop: webhook.shop, ...handled.summary }, 'privacy request handled');
    answer(res, 200, { outcome: handled.outcome, ...handled.summary });
  };
}

async function handle(db: Db, topic: string, shop: string, body: unknown): Promise<Handled | { error: string }> {
  switch (topic) {
    case 'customers/data_request': {
      const p = parse(dataRequestPayloadSchema, body, shop);
      if ('error' in p) return p;
      const report = await customerDataReport(db, shop, dataSubjectOf(p.customer, p.orders_requested));
      return { outcome: 'recorded', summary: { invoices: report.invoices.length }, payload: p, result: report };
    }
    case 'customers/redact': {
      const p = parse(customerRedactPayloadSchema, body, shop);
      if ('error' in p) return p;
      const result = await redactCustomer(db, shop, dataSubjectOf(p.customer, p.orders_to_redact));
      const { invoiceIds: _ids, ...counts } = result;
      // The record keeps who asked by id only: the e-mail and phone were what we were asked to forget.
      const payload = {
        shop_id: p.shop_id,
        shop_domain: p.shop_domain,
        customer: { id: p.customer.id ?? null },
        orders_to_redact: p.orders_to_redact,
      };
      return { outcome: 'redacted', summary: counts, payload, result };
    }
    default: {
      const p = parse(shopRedactPayloadSchema, body, shop);
      if ('error' in p) return p;
      const result = await redactShop(db, shop);
      const outcome = 'skipped' in result ? 'skipped' : 'deleted';
      return { outcome, summary: 'skipped' in result ? { reason: result.skipped } : { ...result }, payload: p, result };
    }
  }
}

/** Parse a body and check it is about the shop that sent it (the domain header is not covered by the HMAC). */
function parse<S extends z.ZodType<{ shop_domain: string }>>(schema: S, body: unknown, shop: string): z.infer<S> | { error: string } {
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    return { error: `not a privacy request: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'} ${i.message}`).join('; ')}` };
  if (parsed.data.shop_domain !== shop) return { error: 'shop_domain in the body does not match the X-Shopify-Shop-Domain header' };
  return parsed.data;
}

function signatureMatches(req: Request, secret: string): boolean {
  const header = req.get('x-shopify-hmac-sha256');
  return header !== undefined && hmacMatches(typeof req.body === 'string' ? req.body : '', header, secret);
}
