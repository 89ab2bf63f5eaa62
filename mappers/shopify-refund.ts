// The fields of a `refunds/create` body (the bare REST Refund, API 2026-x) that credit notes use, read once into
// typed values, the same way shopify-order.ts reads orders: ids as GID strings, amounts as integer cents of shop
// money from the `*_set` strings (reference/shopify-refunds.md §1). Unknown fields are ignored. A body that cannot be
// read yields problems, never an exception.
import { z } from 'zod';
import { type MappingProblem, problems } from './mapping-problems.ts';
import { type Cents, cents, parseCents, sumCents } from './money.ts';
import {
  centsText,
  discountAllocationSchema,
  dropUndefined,
  idText,
  issuePath,
  list,
  moneyBag,
  quantity,
  requireMoney,
  taxLineSchema,
  text,
} from './shopify-order.ts';

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
const floatMoney = z
  .number()
  .nullish()
  .transform((n) => (n === null || n === undefined ? undefined : parseCents(String(n))));

/**
 * A numeric id as exact digits. JSON.parse rounds numbers beyond 2^53, so only a safe integer, a digit string or a
 * bigint (from a lossless parser) is exact; anything else is refused rather than guessed.
 */
const exactDigits = z.union([z.number(), z.string(), z.bigint()], { error: 'must be the numeric id' }).transform((v, ctx) => {
  if (typeof v === 'bigint' && v >= 0n) return v.toString();
  if (typeof v === 'string' && /^\d+$/.test(v.trim())) return v.trim();
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  ctx.addIssue({ code: 'custom', message: `${String(v)} is not an exact id (numbers beyond 2^53 lose digits in JSON.parse)` });
  return z.NEVER;
});

const refundLineSchema = z
  .object({
    line_item_id: idText,
    quantity,
    restock_type: text,
    subtotal: floatMoney,
    total_tax: floatMoney,
    subtotal_set: moneyBag,
    total_tax_set: moneyBag,
    line_item: z.object({ admin_graphql_api_id: text, name: text, title: text, tip_payment_gateway: text }).nullish(),
  })
  .transform((l, ctx): ShopifyRefundLine => {
    const lineItemGid =
      l.line_item?.admin_graphql_api_id ?? (l.line_item_id === undefined ? undefined : `gid://shopify/LineItem/${l.line_item_id}`);
    if (lineItemGid === undefined) ctx.addIssue({ code: 'custom', path: ['line_item_id'], message: 'the refunded line has no usable id' });
    return dropUndefined({
      lineItemGid: lineItemGid ?? '',
      quantity: l.quantity,
      subtotal: requireMoney(ctx, 'subtotal_set', l.subtotal_set, l.subtotal),
      tax: requireMoney(ctx, 'total_tax_set', l.total_tax_set, l.total_tax),
      restockType: l.restock_type,
      name: l.line_item?.name ?? l.line_item?.title ?? lineItemGid ?? '',
      tip: l.line_item?.tip_payment_gateway !== undefined,
    });
  });

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

const refundShippingLineSchema = z
  .object({
    shipping_line_id: idText,
    subtotal_amount_set: moneyBag,
    tax_amount_set: moneyBag,
    shipping_line: shippingSnapshotSchema.nullish(),
  })
  .transform((s, ctx): ShopifyRefundShippingLine => {
    const subtotal = requireMoney(ctx, 'subtotal_amount_set', s.subtotal_amount_set, undefined);
    const line = s.shipping_line ?? undefined;
    const price = line?.price_set?.shop_money.amount ?? line?.price ?? undefined;
    return dropUndefined({
      shippingLineId: s.shipping_line_id,
      title: line?.title ?? line?.code ?? '',
      price,
      subtotal,
      tax: s.tax_amount_set?.shop_money.amount ?? fullShippingTax(line, price, subtotal),
    });
  });

/** The REST body has no tax for refunded shipping; when the whole line is refunded it is the line's own tax (§1.5). */
function fullShippingTax(
  line: z.infer<typeof shippingSnapshotSchema> | undefined,
  price: Cents | undefined,
  subtotal: Cents,
): Cents | undefined {
  if (line === undefined || price === undefined) return undefined;
  const discounted =
    line.discounted_price_set?.shop_money.amount ??
    line.discounted_price ??
    price - sumCents(line.discount_allocations.map((d) => d.amount));
  if (subtotal !== discounted) return undefined;
  return sumCents(line.tax_lines.map((t) => t.amount));
}

const adjustmentSchema = z
  .object({
    kind: text,
    reason: text,
    amount: centsText.nullish(),
    amount_set: moneyBag,
    tax_amount: centsText.nullish(),
    tax_amount_set: moneyBag,
  })
  .transform((a, ctx): ShopifyOrderAdjustment =>
    dropUndefined({
      amount: requireMoney(ctx, 'amount_set', a.amount_set, a.amount),
      tax: a.tax_amount_set?.shop_money.amount ?? a.tax_amount ?? cents(0),
      kind: a.kind?.toLowerCase(),
      reason: a.reason,
    }),
  );

const transactionSchema = z
  .object({ kind: z.string().trim().min(1), status: z.string().trim().min(1), gateway: text, amount: centsText, currency: text })
  .transform((t): ShopifyRefundTransaction =>
    dropUndefined({
      kind: t.kind.toLowerCase(),
      status: t.status.toLowerCase(),
      gateway: t.gateway ?? '',
      amount: t.amount,
      currency: t.currency?.toUpperCase(),
    }),
  );

const refundSchema = z
  .object({
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
  })
  .transform((r, ctx): ShopifyRefund => {
    const gid = r.admin_graphql_api_id ?? (r.id === undefined ? undefined : `gid://shopify/Refund/${r.id}`);
    if (gid === undefined || !/^gid:\/\/shopify\/Refund\/\d+$/.test(gid)) {
      ctx.addIssue({ code: 'custom', path: ['admin_graphql_api_id'], message: 'the refund has no usable id' });
    }
    const dutyList = sumCents(r.duties.map((d) => d.amount_set?.shop_money.amount ?? 0));
    return dropUndefined({
      refundGid: gid ?? '',
      orderGid: `gid://shopify/Order/${r.order_id}`,
      createdAt: r.created_at,
      processedAt: r.processed_at,
      note: r.note,
      lines: r.refund_line_items,
      shippingLines: r.refund_shipping_lines,
      adjustments: r.order_adjustments,
      transactions: r.transactions,
      duties: r.total_duties_set?.shop_money.amount ?? dutyList,
    });
  });

/** Read a `refunds/create` body (already JSON-parsed; a lossless parse may give ids as bigints). Never throws. */
export function parseShopifyRefund(json: unknown): ParseRefundResult {
  const result = refundSchema.safeParse(json);
  if (result.success) return { ok: true, refund: result.data };
  return { ok: false, problems: result.error.issues.map((i) => problems.refundUnreadable(issuePath(i.path), i.message)) };
}
