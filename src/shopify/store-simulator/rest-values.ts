// Reading values out of Shopify's REST JSON (orders, refunds) and writing them the way Admin GraphQL prints
// them. Pure: no state, no I/O.

import { formatCents, parseCents } from '../../../mappers/money.ts';
import type { RestOrder, SimTransaction } from './types.ts';

export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** First value of a query/body field that may be repeated. */
export function str(value: unknown): string | undefined {
  if (Array.isArray(value)) return str(value[0]);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

export function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** GraphQL Decimal as Shopify prints it: "199.0", "12.5", "12.34". */
export function graphqlDecimal(cents: number): string {
  return formatCents(cents).replace(/(\.\d)0$/, '$1');
}

/** GraphQL DateTime in UTC without milliseconds, from a REST timestamp with offset. */
export function graphqlDateTime(value: unknown): string | null {
  const s = str(value);
  if (!s) return null;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `ms` as a REST timestamp with the same UTC offset as `like` (e.g. "-05:00"), else in UTC. */
export function restTimestamp(ms: number, like?: unknown): string {
  const offset = /([+-])(\d\d):(\d\d)$/.exec(str(like) ?? '');
  if (!offset) return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const minutes = (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
  return `${new Date(ms + minutes * 60_000).toISOString().slice(0, 19)}${offset[0]}`;
}

/** A numeric REST id (a safe integer or a digit string) as text, or undefined. */
export function numericId(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return value;
  return undefined;
}

export function gidOf(type: string, value: unknown): string | undefined {
  const id = numericId(value);
  return id === undefined ? undefined : `gid://shopify/${type}/${id}`;
}

/** The digits of a GID of the given type, or undefined. */
export function legacyId(gid: string, type: string): string | undefined {
  const m = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)$/.exec(gid);
  return m && m[1] === type ? m[2] : undefined;
}

/** `admin_graphql_api_id` when it is a GID of that type, else one built from the numeric `id`. */
export function restGid(type: string, resource: Record<string, unknown>): string | undefined {
  const given = resource['admin_graphql_api_id'];
  if (typeof given === 'string' && legacyId(given, type) !== undefined) return given;
  return gidOf(type, resource['id']);
}

export function orderGidOf(order: RestOrder): string {
  const gid = restGid('Order', order);
  if (!gid) throw new Error('order needs admin_graphql_api_id or a numeric id');
  return gid;
}

export interface Money {
  cents: number;
  currency: string;
}

/** A REST money set's shop money (`{shop_money: {amount, currency_code}}`), else `amount` in `currency`. */
export function shopMoneyOf(set: unknown, amount?: unknown, currency?: string): Money | undefined {
  const money = isRecord(set) && isRecord(set['shop_money']) ? set['shop_money'] : undefined;
  const text = str(money?.['amount']) ?? str(amount);
  const cents = text === undefined ? undefined : parseCents(text);
  if (cents === undefined) return undefined;
  return { cents, currency: str(money?.['currency_code']) ?? currency ?? 'USD' };
}

export interface MoneyV2 {
  amount: string;
  currencyCode: string;
}

export interface MoneyBag {
  shopMoney: MoneyV2;
  presentmentMoney: MoneyV2;
}

export function moneyV2(money: Money): MoneyV2 {
  return { amount: graphqlDecimal(money.cents), currencyCode: money.currency };
}

/** GraphQL MoneyBag of a REST money set; presentment money falls back to shop money. */
export function moneyBagOf(set: unknown, amount?: unknown, currency?: string): MoneyBag | null {
  const shop = shopMoneyOf(set, amount, currency);
  if (!shop) return null;
  const presentment = isRecord(set) ? shopMoneyOf({ shop_money: set['presentment_money'] }) : undefined;
  return { shopMoney: moneyV2(shop), presentmentMoney: moneyV2(presentment ?? shop) };
}

/** A MoneyBag of one amount in one currency (the simulator keeps shop and presentment money equal). */
export function moneyBag(cents: number, currency: string): MoneyBag {
  const money = moneyV2({ cents, currency });
  return { shopMoney: money, presentmentMoney: money };
}

export function orderCurrency(order: RestOrder): string {
  return shopMoneyOf(order['total_price_set'])?.currency ?? str(order['currency']) ?? 'USD';
}

/** The order's current total in shop money (falls back to total_price), or undefined when it has none. */
export function currentTotal(order: RestOrder): Money | undefined {
  const currency = str(order['currency']);
  return (
    shopMoneyOf(order['current_total_price_set'], order['current_total_price'], currency) ??
    shopMoneyOf(undefined, order['total_price'], currency)
  );
}

/** The order's total at payment in shop money, or undefined. */
export function originalTotal(order: RestOrder): Money | undefined {
  return shopMoneyOf(order['total_price_set'], order['total_price'], str(order['currency']));
}

/** One SUCCESS SALE per gateway; equal split in cents, the first gateway takes the remainder. */
export function defaultTransactions(order: RestOrder): SimTransaction[] {
  const total = currentTotal(order);
  if (!total) throw new Error('order has no decimal current_total_price / total_price to split into transactions');
  const { cents, currency } = total;
  const names = Array.isArray(order['payment_gateway_names'])
    ? order['payment_gateway_names'].filter((n): n is string => typeof n === 'string')
    : [];
  const gateways = names.length > 0 ? names : ['manual'];
  const share = Math.floor(cents / gateways.length);
  const remainder = cents - share * gateways.length;
  return gateways.map((gateway, i) => ({
    gateway,
    kind: 'SALE',
    status: 'SUCCESS',
    amount: formatCents(i === 0 ? share + remainder : share),
    currencyCode: currency,
  }));
}
