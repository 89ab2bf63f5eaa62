// The fields of an `orders/paid` body (REST Order, API 2026-x) that invoicing uses, read once into
// typed values: ids as GID strings, amounts as integer cents (shop money), rates as exact fractions.
// Unknown fields are ignored. A body that cannot be read yields problems, never an exception.
import { z } from 'zod';
import { type Cents, cents } from '../fiscal/money.ts';
import { type MappingProblem, problems } from '../mapping-problems.ts';
import { orderIdentity } from './order-identity.ts';
import type { ShopifyDiscountAllocation, ShopifyTaxLine } from './shopify-fields.ts';
import { discountAllocationSchema, taxLineSchema } from './shopify-fields.ts';
import { amount, centsText, idText, list, moneyBag, quantity, shopMoney, text } from './shopify-fields.ts';
import { clean, dropUndefined, idDigits, issuePath, reading, requireMoney, textFieldsOf } from './shopify-fields.ts';

export type { ShopifyDiscountAllocation, ShopifyTaxLine };

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

const lineItemSchema = reading(
  z.object({
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
  }),
  (l, ctx): ShopifyLineItem => {
    const id = idDigits(l.id);
    const name = clean(l.name);
    const title = clean(l.title);
    return dropUndefined({
      gid: clean(l.admin_graphql_api_id) ?? (id === undefined ? undefined : `gid://shopify/LineItem/${id}`),
      name: name ?? title ?? '',
      title: title ?? name ?? '',
      variantTitle: clean(l.variant_title),
      sku: clean(l.sku),
      barcode: clean(l.barcode),
      variantId: idDigits(l.variant_id),
      productId: idDigits(l.product_id),
      price: requireMoney(ctx, 'price', l.price_set, amount(l.price)),
      quantity: l.quantity,
      currentQuantity: l.current_quantity ?? l.quantity,
      taxable: l.taxable ?? true,
      giftCard: l.gift_card ?? false,
      taxLines: l.tax_lines ?? [],
      discountAllocations: l.discount_allocations ?? [],
    });
  },
);

const shippingLineSchema = reading(
  z.object({
    title: text,
    code: text,
    price: centsText.nullish(),
    price_set: moneyBag,
    is_removed: z.boolean().nullish(),
    tax_lines: list(taxLineSchema),
    discount_allocations: list(discountAllocationSchema),
  }),
  (s, ctx): ShopifyShippingLine => {
    const code = clean(s.code);
    return dropUndefined({
      title: clean(s.title) ?? code ?? '',
      code,
      price: requireMoney(ctx, 'price', s.price_set, amount(s.price)),
      isRemoved: s.is_removed ?? false,
      taxLines: s.tax_lines ?? [],
      discountAllocations: s.discount_allocations ?? [],
    });
  },
);

const ADDRESS_WHO = ['name', 'first_name', 'last_name', 'company', 'address1', 'address2'] as const;
const ADDRESS_WHERE = ['city', 'province', 'province_code', 'country_code', 'zip', 'phone'] as const;
const addressTexts = textFieldsOf([...ADDRESS_WHO, ...ADDRESS_WHERE]);
const addressSchema = addressTexts.schema.nullish();

function readAddress(a: z.infer<typeof addressSchema>): ShopifyAddress | undefined {
  if (!a) return undefined;
  const address = addressTexts.read(a);
  return address.countryCode ? { ...address, countryCode: address.countryCode.toUpperCase() } : address;
}

const customerTexts = textFieldsOf(['first_name', 'last_name', 'email', 'phone']);
const customerSchema = customerTexts.schema.extend({ admin_graphql_api_id: text }).nullish();

function readCustomer(c: z.infer<typeof customerSchema>): ShopifyCustomer | undefined {
  if (!c) return undefined;
  const gid = clean(c.admin_graphql_api_id);
  const texts = customerTexts.read(c);
  return gid === undefined ? texts : { gid, ...texts };
}

const companySchema = z.object({ id: idText, location_id: idText, name: text, tax_registration_id: text }).nullish();

function readCompany(c: z.infer<typeof companySchema>): ShopifyCompany | undefined {
  if (!c) return undefined;
  return dropUndefined({
    id: idDigits(c.id),
    locationId: idDigits(c.location_id),
    name: clean(c.name),
    taxRegistrationId: clean(c.tax_registration_id),
  });
}

const noteAttributeSchema = z.object({ name: z.string(), value: z.union([z.string(), z.number(), z.boolean()]).nullish() });

const orderSchema = reading(
  z.object({
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
  }),
  (o): OrderDetails => {
    const totalTax = shopMoney(o.current_total_tax_set, amount(o.current_total_tax)) ?? shopMoney(o.total_tax_set, amount(o.total_tax));
    const customer = readCustomer(o.customer);
    return dropUndefined({
      presentmentCurrency: clean(o.presentment_currency)?.toUpperCase(),
      taxesIncluded: o.taxes_included ?? false,
      taxExempt: o.tax_exempt ?? false,
      financialStatus: clean(o.financial_status),
      createdAt: clean(o.created_at),
      processedAt: clean(o.processed_at),
      email: clean(o.email) ?? clean(o.contact_email) ?? customer?.email,
      phone: clean(o.phone),
      totalTax: totalTax ?? cents(0),
      totalTip: amount(o.total_tip_received) ?? cents(0),
      totalDuties: shopMoney(o.current_total_duties_set, undefined) ?? cents(0),
      totalAdditionalFees: shopMoney(o.current_total_additional_fees_set, undefined) ?? cents(0),
      cashRoundingAdjustment: shopMoney(o.total_cash_rounding_payment_adjustment_set, undefined) ?? cents(0),
      lineItems: o.line_items,
      shippingLines: o.shipping_lines ?? [],
      noteAttributes: (o.note_attributes ?? []).map((a) => ({
        name: a.name,
        value: a.value === null || a.value === undefined ? '' : String(a.value),
      })),
      customer,
      billingAddress: readAddress(o.billing_address),
      shippingAddress: readAddress(o.shipping_address),
      company: readCompany(o.company),
      paymentGatewayNames: (o.payment_gateway_names ?? []).map((g) => g.trim()).filter((g) => g !== ''),
    });
  },
);

/** What the order body says beyond its identity (mappers/shopify/order-identity.ts reads that). */
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
