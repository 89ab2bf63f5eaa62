// The three mandatory privacy webhooks' bodies (customers/data_request, customers/redact, shop/redact).
// Shopify's ids can exceed 2^53, which JSON.parse would round: ids are read from the source text.
import { z } from 'zod';

/** JSON.parse, but an integer too large for a double stays the exact digit string Shopify sent. */
export function parseJsonKeepingBigIds(text: string): unknown {
  // The reviver's third argument (source text access) is in Node ≥ 21; TypeScript's lib does not know it yet.
  const reviver = (_key: string, value: unknown, context?: { source?: string }): unknown =>
    typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) && context?.source !== undefined
      ? context.source
      : value;
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
}

const numericId = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)]).transform((v) => String(v));

const customerSchema = z.object({
  id: numericId.nullish(),
  email: z.string().nullish(),
  phone: z.string().nullish(),
});

const shopDomain = z.string().trim().toLowerCase().min(1);

export const dataRequestPayloadSchema = z.object({
  shop_id: numericId.nullish(),
  shop_domain: shopDomain,
  customer: customerSchema,
  orders_requested: z
    .array(numericId)
    .nullish()
    .transform((v) => v ?? []),
  data_request: z.object({ id: numericId.nullish() }).nullish(),
});

export const customerRedactPayloadSchema = z.object({
  shop_id: numericId.nullish(),
  shop_domain: shopDomain,
  customer: customerSchema,
  orders_to_redact: z
    .array(numericId)
    .nullish()
    .transform((v) => v ?? []),
});

export const shopRedactPayloadSchema = z.object({
  shop_id: numericId.nullish(),
  shop_domain: shopDomain,
});

/** Who a customer request is about: the listed orders, the customer id, the e-mail address. */
export interface DataSubject {
  customerId: string | undefined;
  email: string | undefined;
  orderGids: string[];
}

export function dataSubjectOf(customer: z.infer<typeof customerSchema>, orderIds: readonly string[]): DataSubject {
  const email = customer.email?.trim().toLowerCase();
  return {
    customerId: customer.id ?? undefined,
    email: email ? email : undefined,
    orderGids: orderIds.map((id) => `gid://shopify/Order/${id}`),
  };
}
