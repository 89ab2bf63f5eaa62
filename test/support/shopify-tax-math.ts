// Shopify's money arithmetic for the order builder: exact tax at a rate (added on top or carved out of an
// inclusive price), rounding per line or per order, and largest-remainder allocation of cents over lines.
import { formatCents } from '../../mappers/fiscal/money.ts';
import type { Discount } from './shopify-order-builder.ts';

/** Shop and presentment money of one amount in the order's currency. */
export const bag = (c: number, currency: string) => ({
  shop_money: { amount: formatCents(c), currency_code: currency },
  presentment_money: { amount: formatCents(c), currency_code: currency },
});

/** Rate text "0.07" → exact num/den (BigInt). */
function rateOf(text: string): { num: bigint; den: bigint } {
  const [whole = '0', frac = ''] = text.split('.');
  const den = 10n ** BigInt(frac.length);
  return { num: BigInt(whole) * den + BigInt(frac || '0'), den };
}

/** round(num / den) half up, non-negative. */
function roundDiv(num: bigint, den: bigint): number {
  return Number((2n * num + den) / (2n * den));
}

/** Split `total` over `weights` proportionally: floors, then one cent each by largest remainder. */
export function allocate(total: number, weights: (number | bigint)[]): number[] {
  const w = weights.map((x) => BigInt(x));
  const S = w.reduce((a, b) => a + b, 0n);
  if (S === 0n) return weights.map(() => 0);
  const T = BigInt(total);
  const floors = w.map((x) => (T * x) / S);
  const remainders = w.map((x, i) => T * x - floors[i]! * S);
  let left = total - floors.reduce((a, b) => a + Number(b), 0);
  const order = remainders.map((r, i) => ({ r, i })).sort((a, b) => (b.r > a.r ? 1 : b.r < a.r ? -1 : a.i - b.i));
  const out = floors.map(Number);
  for (const { i } of order) {
    if (left <= 0) break;
    out[i]!++;
    left--;
  }
  return out;
}

export function discountAmount(d: Discount, base: number, units: number, unitPrice: number): number {
  if (d.kind === 'fixed') return Math.min(d.amount, unitPrice) * units;
  const r = rateOf(d.percent);
  return Math.min(base, roundDiv(BigInt(base) * r.num, r.den * 100n));
}

export interface Taxable {
  /** After discounts; tax-inclusive when the order includes taxes. */
  base: number;
  rates: string[];
  /** Filled in: one amount per rate. */
  taxes: number[];
}

/** Shopify's tax of a base at a rate: added on top, or carved out of an inclusive price. */
function exactTax(base: number, rate: string, allRates: string[], included: boolean): { num: bigint; den: bigint } {
  const r = rateOf(rate);
  if (!included) return { num: BigInt(base) * r.num, den: r.den };
  // Carved out with the line's combined rate R: base × r / (1 + R).
  const total = allRates
    .map(rateOf)
    .reduce((acc, x) => ({ num: acc.num * x.den + x.num * acc.den, den: acc.den * x.den }), { num: 0n, den: 1n });
  return { num: BigInt(base) * r.num * total.den, den: r.den * (total.den + total.num) };
}

export function computeTaxes(items: Taxable[], included: boolean, rounding: 'line' | 'order'): void {
  for (const it of items) it.taxes = it.rates.map(() => 0);
  if (rounding === 'line') {
    for (const it of items)
      it.taxes = it.rates.map((r) => {
        const e = exactTax(it.base, r, it.rates, included);
        return roundDiv(e.num, e.den);
      });
    return;
  }
  // Per rate over the whole order, then allocated to the lines in proportion to their exact tax.
  const rates = [...new Set(items.flatMap((it) => it.rates))];
  for (const rate of rates) {
    const holders = items.flatMap((it) => it.rates.map((r, j) => ({ it, j, r })).filter((x) => x.r === rate));
    const exact = holders.map((h) => exactTax(h.it.base, rate, h.it.rates, included));
    const den = exact.reduce((acc, e) => (acc % e.den === 0n ? acc : acc * e.den), 1n);
    const scaled = exact.map((e) => (e.num * den) / e.den);
    const total = roundDiv(
      scaled.reduce((a, b) => a + b, 0n),
      den,
    );
    const shares = allocate(total, scaled.every((w) => w === 0n) ? holders.map(() => 1) : scaled);
    holders.forEach((h, k) => {
      h.it.taxes[h.j] = shares[k]!;
    });
  }
}
