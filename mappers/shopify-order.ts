// The fields of an `orders/paid` body (REST Order, API 2026-x) that invoicing uses, read once into
// typed values: ids as GID strings, amounts as integer cents (shop money), rates as exact fractions.
// Unknown fields are ignored. A body that cannot be read yields problems, never an exception.
import { z } from 'zod';
import { type Cents, type Fraction, cents, parseCents, parseFraction } from './money.ts';
import { type MappingProblem, problems } from './mapping-problems.ts';
import { orderIdentity } from './order-identity.ts';

export interface ShopifyTaxLine {
  title: string;
  rate: Fraction;
  amount: Cents;
}

export interface ShopifyDiscountAllocation {
  amount: Cents;
  discountApplicationIndex?: number;
}

export interface ShopifyLineItem {
  /** `gid://shopify/LineItem/…`, or undefined when the body has no usable id. */
  gid?: string;
  name: string;
  title: string;
  variantTitle?: string;
  sku?: string;
  /** Not in Shopify's webhook body; present when the pipeline adds the variant's barcode. */
  barcode?: string;
  /** Decimal text of `variant_id` / `product_id` when it is exact (safe integer or string). */
  variantId?: string;
  productId?: string;
  /** Unit price before discounts (tax-inclusive when the order's taxes are included). */
  price: Cents;
  quantity: number;
  /** Units left after edits and removals (`current_quantity`, else `quantity`). */
  currentQuantity: number;
  taxable: boolean;
  giftCard: boolean;
  taxLines: ShopifyTaxLine[];
  discountAllocations: ShopifyDiscountAllocation[];
}

export interface ShopifyShippingLine {
  title: string;
  code?: string;
  /** Price before discounts. */
  price: Cents;
  isRemoved: boolean;
  taxLines: ShopifyTaxLine[];
  discountAllocations: ShopifyDiscountAllocation[];
}

export interface ShopifyAddress {
  name?: string;
  firstName?: string;
  lastName?: string;
  company?: string;
  address1?: string;
  address2?: string;
  city?: string;
  province?: string;
  provinceCode?: string;
  countryCode?: string;
  zip?: string;
  phone?: string;
}

export interface ShopifyCustomer {
  gid?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
}

/** B2B company. The webhook carries only ids; name and tax id are there when the pipeline adds them. */
export interface ShopifyCompany {
  id?: string;
  locationId?: string;
  name?: string;
  taxRegistrationId?: string;
}

export interface ShopifyOrder {
  orderGid: string;
  name: string;
  test: boolean;
  /** Shop currency: every amount here is in it. */
  currency: string;
  presentmentCurrency?: string;
  taxesIncluded: boolean;
  taxExempt: boolean;
  financialStatus?: string;
  createdAt?: string;
  processedAt?: string;
  email?: string;
  phone?: string;
  /** What the customer owes after edits (`current_total_price`), tips and everything included. */
  totalPrice: Cents;
  /** Tax charged after edits (`current_total_tax`). */
  totalTax: Cents;
  totalTip: Cents;
  totalDuties: Cents;
  totalAdditionalFees: Cents;
  cashRoundingAdjustment: Cents;
  lineItems: ShopifyLineItem[];
  shippingLines: ShopifyShippingLine[];
  noteAttributes: { name: string; value: string }[];
  customer?: ShopifyCustomer;
  billingAddress?: ShopifyAddress;
  shippingAddress?: ShopifyAddress;
  company?: ShopifyCompany;
  paymentGatewayNames: string[];
}

export type ParseOrderResult = { ok: true; order: ShopifyOrder } | { ok: false; problems: MappingProblem[] };

// ---------------------------------------------------------------------------------------------
// Building blocks (shared with shopify-refund.ts, which reads refunds the same way)

export const text = z
  .string()
  .nullish()
  .transform((v) => (v === null || v === undefined || v.trim() === '' ? undefined : v.trim()));

export const centsText = z.string().transform((v, ctx) => {
  const c = parseCents(v);
  if (c === undefined) {
    ctx.addIssue({ code: 'custom', message: `"${v}" is not an amount with at most 2 decimals` });
    return z.NEVER;
  }
  return c;
});

export const moneyBag = z.object({ shop_money: z.object({ amount: centsText, currency_code: z.string().nullish() }) }).nullish();

/** Shopify writes rates as JSON numbers (0.07); read the decimal digits, never the binary value. */
const rate = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const f = parseFraction(v);
  if (f === undefined || f.num < 0) {
    ctx.addIssue({ code: 'custom', message: `${String(v)} is not a tax rate` });
    return z.NEVER;
  }
  return f;
});

/** Numeric ids are exact only up to 2^53 after JSON.parse; keep them as text only when exact. */
export const idText = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((v) => {
    if (typeof v === 'string') return /^\d+$/.test(v.trim()) ? v.trim() : undefined;
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
    return undefined;
  });

/** The `_set.shop_money` amount when present (the shop's currency), else the plain field. */
function shopMoney(set: { shop_money: { amount: Cents } } | null | undefined, plain: Cents | null | undefined): Cents | undefined {
  return set?.shop_money.amount ?? plain ?? undefined;
}

export function requireMoney(
  ctx: z.RefinementCtx,
  field: string,
  set: { shop_money: { amount: Cents } } | null | undefined,
  plain: Cents | null | undefined,
): Cents {
  const value = shopMoney(set, plain);
  if (value === undefined) {
    ctx.addIssue({ code: 'custom', path: [field], message: `${field} is missing` });
    return cents(0);
  }
  return value;
}

export const taxLineSchema = z
  .object({ title: text, rate, price: centsText.nullish(), price_set: moneyBag })
  .transform((t, ctx): ShopifyTaxLine => ({
    title: t.title ?? '',
    rate: t.rate,
    amount: requireMoney(ctx, 'price', t.price_set, t.price),
  }));

export const discountAllocationSchema = z
  .object({
    amount: centsText.nullish(),
    amount_set: moneyBag,
    discount_application_index: z.number().int().nonnegative().nullish(),
  })
  .transform((d, ctx): ShopifyDiscountAllocation => {
    const amount = requireMoney(ctx, 'amount', d.amount_set, d.amount);
    return d.discount_application_index === null || d.discount_application_index === undefined
      ? { amount }
      : { amount, discountApplicationIndex: d.discount_application_index };
  });

export const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((v) => v ?? []);

export const quantity = z.number().int('must be a whole number').nonnegative('cannot be negative');

const lineItemSchema = z
  .object({
    admin_graphql_api_id: text,
    id: idText,
    name: text,
    title: text,
    variant_title: text,
    sku: text,
    barcode: text,
    variant_id: idText,
    product_id: idText,
    price: centsText.nullish(),
    price_set: moneyBag,
    quantity,
    current_quantity: quantity.nullish(),
    taxable: z.boolean().nullish(),
    gift_card: z.boolean().nullish(),
    tax_lines: list(taxLineSchema),
    discount_allocations: list(discountAllocationSchema),
  })
  .transform((l, ctx): ShopifyLineItem => {
    const gid = l.admin_graphql_api_id ?? (l.id === undefined ? undefined : `gid://shopify/LineItem/${l.id}`);
    return dropUndefined({
      gid,
      name: l.name ?? l.title ?? '',
      title: l.title ?? l.name ?? '',
      variantTitle: l.variant_title,
      sku: l.sku,
      barcode: l.barcode,
      variantId: l.variant_id,
      productId: l.product_id,
      price: requireMoney(ctx, 'price', l.price_set, l.price),
      quantity: l.quantity,
      currentQuantity: l.current_quantity ?? l.quantity,
      taxable: l.taxable ?? true,
      giftCard: l.gift_card ?? false,
      taxLines: l.tax_lines,
      discountAllocations: l.discount_allocations,
    });
  });

const shippingLineSchema = z
  .object({
    title: text,
    code: text,
    price: centsText.nullish(),
    price_set: moneyBag,
    is_removed: z.boolean().nullish(),
    tax_lines: list(taxLineSchema),
    discount_allocations: list(discountAllocationSchema),
  })
  .transform((s, ctx): ShopifyShippingLine =>
    dropUndefined({
      title: s.title ?? s.code ?? '',
      code: s.code,
      price: requireMoney(ctx, 'price', s.price_set, s.price),
      isRemoved: s.is_removed ?? false,
      taxLines: s.tax_lines,
      discountAllocations: s.discount_allocations,
    }),
  );

const addressSchema = z
  .object({
    name: text,
    first_name: text,
    last_name: text,
    company: text,
    address1: text,
    address2: text,
    city: text,
    province: text,
    province_code: text,
    country_code: text,
    zip: text,
    phone: text,
  })
  .nullish()
  .transform((a): ShopifyAddress | undefined =>
    a
      ? dropUndefined({
          name: a.name,
          firstName: a.first_name,
          lastName: a.last_name,
          company: a.company,
          address1: a.address1,
          address2: a.address2,
          city: a.city,
          province: a.province,
          provinceCode: a.province_code,
          countryCode: a.country_code?.toUpperCase(),
          zip: a.zip,
          phone: a.phone,
        })
      : undefined,
  );

const customerSchema = z
  .object({ admin_graphql_api_id: text, first_name: text, last_name: text, email: text, phone: text })
  .nullish()
  .transform((c): ShopifyCustomer | undefined =>
    c
      ? dropUndefined({
          gid: c.admin_graphql_api_id,
          firstName: c.first_name,
          lastName: c.last_name,
          email: c.email,
          phone: c.phone,
        })
      : undefined,
  );

const companySchema = z
  .object({ id: idText, location_id: idText, name: text, tax_registration_id: text })
  .nullish()
  .transform((c): ShopifyCompany | undefined =>
    c
      ? dropUndefined({
          id: c.id,
          locationId: c.location_id,
          name: c.name,
          taxRegistrationId: c.tax_registration_id,
        })
      : undefined,
  );

const noteAttributeSchema = z.object({
  name: z.string(),
  value: z
    .union([z.string(), z.number(), z.boolean()])
    .nullish()
    .transform((v) => (v === null || v === undefined ? '' : String(v))),
});

const orderSchema = z
  .object({
    presentment_currency: text,
    taxes_included: z.boolean().nullish(),
    tax_exempt: z.boolean().nullish(),
    financial_status: text,
    created_at: text,
    processed_at: text,
    email: text,
    contact_email: text,
    phone: text,
    current_total_tax: centsText.nullish(),
    current_total_tax_set: moneyBag,
    total_tax: centsText.nullish(),
    total_tax_set: moneyBag,
    total_tip_received: centsText.nullish(),
    current_total_duties_set: moneyBag,
    current_total_additional_fees_set: moneyBag,
    total_cash_rounding_payment_adjustment_set: moneyBag,
    line_items: z.array(lineItemSchema),
    shipping_lines: list(shippingLineSchema),
    note_attributes: list(noteAttributeSchema),
    customer: customerSchema,
    billing_address: addressSchema,
    shipping_address: addressSchema,
    company: companySchema,
    payment_gateway_names: list(z.string()),
  })
  .transform((o): OrderDetails => {
    const totalTax = shopMoney(o.current_total_tax_set, o.current_total_tax) ?? shopMoney(o.total_tax_set, o.total_tax);
    return dropUndefined({
      presentmentCurrency: o.presentment_currency?.toUpperCase(),
      taxesIncluded: o.taxes_included ?? false,
      taxExempt: o.tax_exempt ?? false,
      financialStatus: o.financial_status,
      createdAt: o.created_at,
      processedAt: o.processed_at,
      email: o.email ?? o.contact_email ?? o.customer?.email,
      phone: o.phone,
      totalTax: totalTax ?? cents(0),
      totalTip: o.total_tip_received ?? cents(0),
      totalDuties: shopMoney(o.current_total_duties_set, undefined) ?? cents(0),
      totalAdditionalFees: shopMoney(o.current_total_additional_fees_set, undefined) ?? cents(0),
      cashRoundingAdjustment: shopMoney(o.total_cash_rounding_payment_adjustment_set, undefined) ?? cents(0),
      lineItems: o.line_items,
      shippingLines: o.shipping_lines,
      noteAttributes: o.note_attributes.map((a) => ({ name: a.name, value: a.value })),
      customer: o.customer,
      billingAddress: o.billing_address,
      shippingAddress: o.shipping_address,
      company: o.company,
      paymentGatewayNames: o.payment_gateway_names.map((g) => g.trim()).filter((g) => g !== ''),
    });
  });

/** What the order body says beyond its identity (mappers/order-identity.ts reads that). */
type OrderDetails = Omit<ShopifyOrder, 'orderGid' | 'name' | 'test' | 'currency' | 'totalPrice'>;

/** Read an `orders/paid` body (already JSON-parsed). Never throws. */
export function parseShopifyOrder(json: unknown): ParseOrderResult {
  const identity = orderIdentity(json);
  const result = orderSchema.safeParse(json);
  // A body that is not an object at all: the schema's one problem says so.
  const identityProblem = identity.ok || identity.path === 'body' ? [] : [problems.orderUnreadable(identity.path, identity.problem)];
  const found = [
    ...identityProblem,
    ...(result.success ? [] : result.error.issues.map((i) => problems.orderUnreadable(issuePath(i.path), i.message))),
  ];
  if (!identity.ok || !result.success) return { ok: false, problems: found };
  const { orderGid, name, test, currency, totalCents } = identity.identity;
  return { ok: true, order: { orderGid, name, test, currency, totalPrice: totalCents, ...result.data } };
}

/** `line_items[0].price_set.shop_money.amount`, the way the other problems name places. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc === '' ? String(p) : `${acc}.${String(p)}`), '');
}

/** Copy without the keys whose value is undefined (exactOptionalPropertyTypes-friendly, and toEqual-stable). */
export function dropUndefined<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const k in source) if (source[k] !== undefined) out[k] = source[k];
  return out as T;
}
