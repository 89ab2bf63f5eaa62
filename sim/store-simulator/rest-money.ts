// Money out of Shopify's REST JSON (money sets, an order's totals and currency) and as Admin GraphQL prints it
// (Decimal, MoneyV2, MoneyBag); an order's default transactions. Pure: no state, no I/O.

import { centsOf, decimalText } from './cents.ts';
import { isRecord, records, str } from './rest-values.ts';
import type { RestOrder, RestRefund, SimTransaction } from './types.ts';

/** GraphQL Decimal as Shopify prints it: "199.0", "12.5", "12.34". */
export function graphqlDecimal(cents: number): string {
  return decimalText(cents).replace(/(\.\d)0$/, '$1');
}

export interface Money {
  cents: number;
  currency: string;
}

/** A REST money set's shop money (`{shop_money: {amount, currency_code}}`), else `amount` in `currency`. */
export function shopMoneyOf(set: unknown, amount?: unknown, currency?: string): Money | undefined {
  const money = isRecord(set) && isRecord(set['shop_money']) ? set['shop_money'] : undefined;
  const text = str(money?.['amount']) ?? str(amount);
  const cents = text === undefined ? undefined : centsOf(text);
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
    amount: decimalText(i === 0 ? share + remainder : share),
    currencyCode: currency,
  }));
}

/** Money actually given back by a refund: its successful refund transactions, in cents. */
export function refundedCents(refund: RestRefund): number {
  return records(refund['transactions'])
    .filter((t) => str(t['kind'])?.toLowerCase() === 'refund' && str(t['status'])?.toLowerCase() === 'success')
    .reduce((sum, t) => sum + (centsOf(str(t['amount']) ?? '') ?? 0), 0);
}
