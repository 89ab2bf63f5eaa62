// The fields of a `refunds/create` body (the bare REST Refund, API 2026-x) that credit notes use, read once into
// typed values, the same way shopify-order.ts reads orders: ids as GID strings, amounts as integer cents of shop
// money from the `*_set` strings (docs/reference/shopify-refunds.md §1). Unknown fields are ignored. A body that cannot be
// read yields problems, never an exception.
import { z } from 'zod';
import { type MappingProblem, problems } from '../mapping-problems.ts';
import { type Cents, cents, parseCents, sumCents } from '../fiscal/money.ts';
import { discountAllocationSchema, taxLineSchema } from './shopify-fields.ts';
import { amount, centsText, idText, list, moneyBag, quantity, shopMoney, text } from './shopify-fields.ts';
import { addProblem, clean, dropUndefined, idDigits, issuePath, reading, requireMoney } from './shopify-fields.ts';

export interface ShopifyRefundLine {
  /** `gid://shopify/LineItem/…` of the order line refunded. */
  lineItemGid: string;
  /** Units refunded by this refund (not cumulative). */
  quantity: number;
  /** After the units' share of discounts; tax-inclusive when the shop includes tax (§1.4). */
  subtotal: Cents;
  tax: Cents;
  restockType?: string;
  /** The line's name in the refund's snapshot, for messages. */
  name: string;
  /** The snapshot is a tip (REST line items of tips carry `tip_payment_gateway`). */
  tip: boolean;
}

export interface ShopifyRefundShippingLine {
  shippingLineId?: string;
  /** The refunded shipping line's title and price before discounts, from the snapshot: how it is found on the order. */
  title: string;
  price?: Cents;
  subtotal: Cents;
  /** Undefined when the body does not say: a partial shipping refund without `tax_amount_set` (§1.5). */
  tax?: Cents;
}

export interface ShopifyOrderAdjustment {
  /** Negative when more money went back than the lines explain (an amount-only refund). */
  amount: Cents;
  tax: Cents;
  /** Deprecated by Shopify and absent from webhooks since 2024-10; `shipping_refund` duplicates refunded shipping. */
  kind?: string;
  reason?: string;
}

export interface ShopifyRefundTransaction {
  /** Lower case: `refund`, … */
  kind: string;
  /** Lower case: `success`, `pending`, `failure`, `error`. */
  status: string;
  gateway: string;
  /** In `currency` (the presentment currency). */
  amount: Cents;
  currency?: string;
}

export interface ShopifyRefund {
  refundGid: string;
  orderGid: string;
  createdAt?: string;
  processedAt?: string;
  note?: string;
  lines: ShopifyRefundLine[];
  shippingLines: ShopifyRefundShippingLine[];
  adjustments: ShopifyOrderAdjustment[];
  transactions: ShopifyRefundTransaction[];
  /** Refunded duties, shop money. */
  duties: Cents;
}

export type ParseRefundResult = { ok: true; refund: ShopifyRefund } | { ok: false; problems: MappingProblem[] };

/**
 * `subtotal` / `total_tax` are JSON numbers (floats): only their shortest decimal text, only when it is a whole number
 * of cents, and only when the `*_set` strings are missing (requireMoney then names the set).
 */
const floatMoney = z.number().nullish();
const floatCents = (n: number | null | undefined): Cents | undefined => (n === null || n === undefined ? undefined : parseCents(String(n)));

/**
 * A numeric id as exact digits. JSON.parse rounds numbers beyond 2^53, so only a safe integer, a digit string or a
 * bigint (from a lossless parser) is exact; anything else is refused rather than guessed.
 */
const exactDigits = z.union([z.number(), z.string(), z.bigint()], { error: 'must be the numeric id' }).check((ctx) => {
  if (exactDigitsText(ctx.value) === undefined) {
    const message = `${String(ctx.value)} is not an exact id (numbers beyond 2^53 lose digits in JSON.parse)`;
    ctx.issues.push({ code: 'custom', input: ctx.value, message });
  }
});

function exactDigitsText(v: number | string | bigint): string | undefined {
  if (typeof v === 'bigint') return v >= 0n ? v.toString() : undefined;
  if (typeof v === 'string') return /^\d+$/.test(v.trim()) ? v.trim() : undefined;
  return Number.isSafeInteger(v) && v >= 0 ? String(v) : undefined;
}

const refundLineSchema = reading(
  z.object({
    line_item_id: idText,
    quantity,
    restock_type: text,
    subtotal: floatMoney,
    total_tax: floatMoney,
    subtotal_set: moneyBag,
    total_tax_set: moneyBag,
    line_item: z.object({ admin_graphql_api_id: text, name: text, title: text, tip_payment_gateway: text }).nullish(),
  }),
  (l, ctx): ShopifyRefundLine => {
    const lineItemId = idDigits(l.line_item_id);
    const lineItemGid =
      clean(l.line_item?.admin_graphql_api_id) ?? (lineItemId === undefined ? undefined : `gid://shopify/LineItem/${lineItemId}`);
    if (lineItemGid === undefined) addProblem(ctx, 'line_item_id', 'the refunded line has no usable id');
    return dropUndefined({
      lineItemGid: lineItemGid ?? '',
      quantity: l.quantity,
      subtotal: requireMoney(ctx, 'subtotal_set', l.subtotal_set, floatCents(l.subtotal)),
      tax: requireMoney(ctx, 'total_tax_set', l.total_tax_set, floatCents(l.total_tax)),
      restockType: clean(l.restock_type),
      name: clean(l.line_item?.name) ?? clean(l.line_item?.title) ?? lineItemGid ?? '',
      tip: clean(l.line_item?.tip_payment_gateway) !== undefined,
    });
  },
);

const shippingSnapshotSchema = z.object({
  title: text,
  code: text,
  price: centsText.nullish(),
  price_set: moneyBag,
  discounted_price: centsText.nullish(),
  discounted_price_set: moneyBag,
  tax_lines: list(taxLineSchema),
  discount_allocations: list(discountAllocationSchema),
});

const refundShippingLineSchema = reading(
  z.object({
    shipping_line_id: idText,
    subtotal_amount_set: moneyBag,
    tax_amount_set: moneyBag,
    shipping_line: shippingSnapshotSchema.nullish(),
  }),
  (s, ctx): ShopifyRefundShippingLine => {
    const subtotal = requireMoney(ctx, 'subtotal_amount_set', s.subtotal_amount_set, undefined);
    const line = s.shipping_line ?? undefined;
    const price = line ? shopMoney(line.price_set, amount(line.price)) : undefined;
    return dropUndefined({
      shippingLineId: idDigits(s.shipping_line_id),
      title: clean(line?.title) ?? clean(line?.code) ?? '',
      price,
      subtotal,
      tax: shopMoney(s.tax_amount_set, undefined) ?? fullShippingTax(line, price, subtotal),
    });
  },
);

/** The REST body has no tax for refunded shipping; when the whole line is refunded it is the line's own tax (§1.5). */
function fullShippingTax(
  line: z.infer<typeof shippingSnapshotSchema> | undefined,
  price: Cents | undefined,
  subtotal: Cents,
): Cents | undefined {
  if (line === undefined || price === undefined) return undefined;
  const discounted =
    shopMoney(line.discounted_price_set, amount(line.discounted_price)) ??
    price - sumCents((line.discount_allocations ?? []).map((d) => d.amount));
  if (subtotal !== discounted) return undefined;
  return sumCents((line.tax_lines ?? []).map((t) => t.amount));
}

const adjustmentSchema = reading(
  z.object({
    kind: text,
    reason: text,
    amount: centsText.nullish(),
    amount_set: moneyBag,
    tax_amount: centsText.nullish(),
    tax_amount_set: moneyBag,
  }),
  (a, ctx): ShopifyOrderAdjustment =>
    dropUndefined({
      amount: requireMoney(ctx, 'amount_set', a.amount_set, amount(a.amount)),
      tax: shopMoney(a.tax_amount_set, amount(a.tax_amount)) ?? cents(0),
      kind: clean(a.kind)?.toLowerCase(),
      reason: clean(a.reason),
    }),
);

const transactionSchema = z.object({
  kind: z.string().trim().min(1),
  status: z.string().trim().min(1),
  gateway: text,
  amount: centsText,
  currency: text,
});

function readTransaction(t: z.infer<typeof transactionSchema>): ShopifyRefundTransaction {
  return dropUndefined({
    kind: t.kind.toLowerCase(),
    status: t.status.toLowerCase(),
    gateway: clean(t.gateway) ?? '',
    amount: amount(t.amount),
    currency: clean(t.currency)?.toUpperCase(),
  });
}

const refundSchema = reading(
  z.object({
    id: idText,
    admin_graphql_api_id: text,
    order_id: exactDigits,
    created_at: text,
    processed_at: text,
    note: text,
    refund_line_items: list(refundLineSchema),
    refund_shipping_lines: list(refundShippingLineSchema),
    order_adjustments: list(adjustmentSchema),
    transactions: list(transactionSchema),
    duties: list(z.object({ amount_set: moneyBag })),
    total_duties_set: moneyBag,
  }),
  (r, ctx): ShopifyRefund => {
    const id = idDigits(r.id);
    const gid = clean(r.admin_graphql_api_id) ?? (id === undefined ? undefined : `gid://shopify/Refund/${id}`);
    if (gid === undefined || !/^gid:\/\/shopify\/Refund\/\d+$/.test(gid)) {
      addProblem(ctx, 'admin_graphql_api_id', 'the refund has no usable id');
    }
    const dutyList = sumCents((r.duties ?? []).map((d) => shopMoney(d.amount_set, undefined) ?? 0));
    return dropUndefined({
      refundGid: gid ?? '',
      orderGid: `gid://shopify/Order/${exactDigitsText(r.order_id) ?? ''}`,
      createdAt: clean(r.created_at),
      processedAt: clean(r.processed_at),
      note: clean(r.note),
      lines: r.refund_line_items ?? [],
      shippingLines: r.refund_shipping_lines ?? [],
      adjustments: r.order_adjustments ?? [],
      transactions: (r.transactions ?? []).map(readTransaction),
      duties: shopMoney(r.total_duties_set, undefined) ?? dutyList,
    });
  },
);

/** Read a `refunds/create` body (already JSON-parsed; a lossless parse may give ids as bigints). Never throws. */
export function parseShopifyRefund(json: unknown): ParseRefundResult {
  const result = refundSchema.safeParse(json);
  if (result.success) return { ok: true, refund: result.data };
  return { ok: false, problems: result.error.issues.map((i) => problems.refundUnreadable(issuePath(i.path), i.message)) };
}
