// Which order a Shopify order body is, and what it comes to: read once, by this one function, for the webhook
// intake, the reconciliation sweep and the mapper alike. Pure; never throws.
import { type Cents, parseCents } from '../fiscal/money.ts';

export interface OrderIdentity {
  /** `gid://shopify/Order/<id>`. */
  orderGid: string;
  /** "#1001". */
  name: string;
  /** The shop's currency (upper case): every amount of the order is in it. */
  currency: string;
  test: boolean;
  /** What the customer owes after edits (`current_total_price`), in the shop's currency. */
  totalCents: Cents;
}

export type OrderIdentityResult = { ok: true; identity: OrderIdentity } | { ok: false; path: string; problem: string };

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** The shop-money amount of a `*_set` field, else the plain decimal field; undefined when neither reads. */
function shopAmount(order: Json, field: string): Cents | undefined {
  const set = order[`${field}_set`];
  const money = isObject(set) && isObject(set.shop_money) ? set.shop_money : undefined;
  const amount = text(money?.amount) ?? text(order[field]);
  return amount === undefined ? undefined : parseCents(amount);
}

export function orderIdentity(body: unknown): OrderIdentityResult {
  if (!isObject(body)) return { ok: false, path: 'body', problem: 'not an order (not a JSON object)' };
  const gid = text(body.admin_graphql_api_id);
  // Numeric ids can exceed 2^53 and JSON.parse rounds them: only a safe integer (or digits as text) stands in.
  const id = body.id;
  const numeric =
    typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? String(id) : typeof id === 'string' && /^\d+$/.test(id) ? id : undefined;
  const orderGid =
    gid !== undefined && /^gid:\/\/shopify\/Order\/\d+$/.test(gid)
      ? gid
      : numeric !== undefined
        ? `gid://shopify/Order/${numeric}`
        : undefined;
  if (orderGid === undefined) return { ok: false, path: 'admin_graphql_api_id', problem: 'the order has no usable id' };
  const name = text(body.name);
  if (name === undefined) return { ok: false, path: 'name', problem: 'the order has no name' };
  const currency = text(body.currency)?.toUpperCase();
  if (currency === undefined || currency.length < 3) return { ok: false, path: 'currency', problem: 'the order has no currency' };
  const total = shopAmount(body, 'current_total_price') ?? shopAmount(body, 'total_price');
  if (total === undefined) return { ok: false, path: 'current_total_price', problem: 'the order total is missing or not an amount' };
  return { ok: true, identity: { orderGid, name, currency, test: body.test === true, totalCents: total } };
}
