// The values Shopify's REST bodies (orders, refunds) share, in two jobs kept apart for speed: zod schemas that only
// CHECK a value (and word the refusal), and readers that turn a checked value into a domain value (trimmed text,
// cents, exact fractions, decimal ids). Zod runs a plain type with checks in its object fast path; a `.transform` per
// field costs a pipe each (bench/RESULTS.md, "Reading an order"), so each object is read once (`reading`), calling
// these readers.
import { z } from 'zod';
import { type Cents, type Fraction, cents, parseCents, parseFraction } from '../fiscal/money.ts';

/** Free text: any string, or absent. Read by `clean`: trimmed, blank as absent. */
export const text = z.string().nullish();

type CamelCase<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;

/**
 * An object's text fields by their Shopify (snake_case) names: their schema, and a reader that trims them into
 * camelCase fields, leaving out the empty ones.
 */
export function textFieldsOf<const K extends string>(keys: readonly K[]) {
  const schema = z.object(Object.fromEntries(keys.map((k) => [k, text])) as Record<K, typeof text>);
  const names = keys.map((k) => [k, k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] as const);
  function read(o: Readonly<Partial<Record<K, string | null>>>): { [P in K as CamelCase<P>]?: string } {
    const out: Record<string, string> = {};
    for (const [k, name] of names) {
      const v = clean(o[k]);
      if (v !== undefined) out[name] = v;
    }
    return out;
  }
  return { schema, read };
}

export function clean(v: string | null | undefined): string | undefined {
  if (v === null || v === undefined) return undefined;
  const t = v.trim();
  return t === '' ? undefined : t;
}

/** A decimal amount as Shopify writes money ("12.50"); read by `amount`. */
export const centsText = z.string().check((ctx) => {
  if (parseCents(ctx.value) === undefined) {
    ctx.issues.push({ code: 'custom', input: ctx.value, message: `"${ctx.value}" is not an amount with at most 2 decimals` });
  }
});

/** The cents of a text that `centsText` checked (so the fallback is never taken). */
export function amount(v: string): Cents;
export function amount(v: string | null | undefined): Cents | undefined;
export function amount(v: string | null | undefined): Cents | undefined {
  return v === null || v === undefined ? undefined : (parseCents(v) ?? cents(0));
}

export const moneyBag = z.object({ shop_money: z.object({ amount: centsText, currency_code: z.string().nullish() }) }).nullish();
export type MoneyBag = z.infer<typeof moneyBag>;

/** Shopify writes rates as JSON numbers (0.07); read the decimal digits, never the binary value. */
export const rate = z.union([z.number(), z.string()]).check((ctx) => {
  const f = parseFraction(ctx.value);
  if (f === undefined || f.num < 0)
    ctx.issues.push({ code: 'custom', input: ctx.value, message: `${String(ctx.value)} is not a tax rate` });
});

/** The fraction of a rate that `rate` checked (so the fallback is never taken). */
export const fraction = (v: number | string): Fraction => parseFraction(v) ?? { num: 0, den: 1 };

/** A numeric id, or absent; read by `idDigits`. */
export const idText = z.union([z.number(), z.string()]).nullish();

/** Numeric ids are exact only up to 2^53 after JSON.parse; keep them as text only when exact. */
export function idDigits(v: number | string | null | undefined): string | undefined {
  if (typeof v === 'string') return /^\d+$/.test(v.trim()) ? v.trim() : undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  return undefined;
}

/** The `_set.shop_money` amount when present (the shop's currency), else the plain field's cents. */
export function shopMoney(set: MoneyBag, plain: Cents | undefined): Cents | undefined {
  return set ? amount(set.shop_money.amount) : plain;
}

/** Where a reader reports what it cannot read: the zod payload of the object it reads. */
export type ReadContext = z.core.ParsePayload<unknown>;

/** A problem at `field` of the object being read. */
export function addProblem(ctx: ReadContext, field: string, message: string): void {
  ctx.issues.push({ code: 'custom', path: [field], message, input: ctx.value });
}

/**
 * `schema.transform(read)` as a check that replaces the value. Same outcome: nothing is read from a value with
 * problems, and a problem the reader adds is the object's. Zod's pipe allocates at one site shared by every
 * transform, which V8 pretenures in the app's process: reading then cost twice as much (bench/RESULTS.md,
 * "Reading an order").
 */
export function reading<S extends z.ZodType, Out>(
  schema: S,
  read: (value: z.output<S>, ctx: ReadContext) => Out,
): z.ZodType<Out, z.input<S>> {
  return schema.check((payload) => {
    if (payload.issues.length === 0) (payload as ReadContext).value = read(payload.value, payload as ReadContext);
  }) as unknown as z.ZodType<Out, z.input<S>>;
}

export function requireMoney(ctx: ReadContext, field: string, set: MoneyBag, plain: Cents | undefined): Cents {
  const value = shopMoney(set, plain);
  if (value === undefined) {
    addProblem(ctx, field, `${field} is missing`);
    return cents(0);
  }
  return value;
}

export interface ShopifyTaxLine {
  title: string;
  rate: Fraction;
  amount: Cents;
}

export const taxLineSchema = reading(
  z.object({ title: text, rate, price: centsText.nullish(), price_set: moneyBag }),
  (t, ctx): ShopifyTaxLine => ({
    title: clean(t.title) ?? '',
    rate: fraction(t.rate),
    amount: requireMoney(ctx, 'price', t.price_set, amount(t.price)),
  }),
);

export interface ShopifyDiscountAllocation {
  amount: Cents;
  discountApplicationIndex?: number;
}

export const discountAllocationSchema = reading(
  z.object({
    amount: centsText.nullish(),
    amount_set: moneyBag,
    discount_application_index: z.number().int().nonnegative().nullish(),
  }),
  (d, ctx): ShopifyDiscountAllocation => {
    const value = requireMoney(ctx, 'amount', d.amount_set, amount(d.amount));
    return d.discount_application_index === null || d.discount_application_index === undefined
      ? { amount: value }
      : { amount: value, discountApplicationIndex: d.discount_application_index };
  },
);

/** A list that may be absent; read as `v ?? []`. */
export const list = <T extends z.ZodType>(item: T) => z.array(item).nullish();

export const quantity = z.number().int('must be a whole number').nonnegative('cannot be negative');

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
