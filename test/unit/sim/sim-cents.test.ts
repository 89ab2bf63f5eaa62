// The store simulator's own money arithmetic (sim/store-simulator/cents.ts): Shopify's decimal strings as cents and
// back, and proration rounded half up, as the refunds/create bodies it builds need them.
import { describe, expect, it } from 'vitest';
import { centsOf, centsOfValue, decimalText, prorate } from '../../../sim/store-simulator/cents.ts';

describe("the store simulator's cents", () => {
  it('reads decimal strings to the cent and refuses anything finer or not a number', () => {
    expect(['199.00', '12.5', '-3.10', '0.07', ' 4 ', '1.2300'].map(centsOf)).toEqual([19900, 1250, -310, 7, 400, 123]);
    expect(['1.001', '1.', '.5', '1,00', '', 'abc', '1e3'].map(centsOf)).toEqual(Array(7).fill(undefined));
  });

  it('reads JSON numbers by their decimal text, as Shopify writes refund subtotals', () => {
    expect([22.13, 0.3, 4, -0.05].map(centsOfValue)).toEqual([2213, 30, 400, -5]);
    expect([1e21, Number.NaN, null, true, 0.125].map(centsOfValue)).toEqual(Array(5).fill(undefined));
  });

  it('writes cents with two decimals and the sign', () => {
    expect([2213, 5, -5, 0, -19900, 100000].map(decimalText)).toEqual(['22.13', '0.05', '-0.05', '0.00', '-199.00', '1000.00']);
  });

  it('prorates and rounds halves away from zero', () => {
    // 66.38 × 1/3 = 22.126…; 4.65 × 1/3 = 1.55; 0.42 × 2.00/6.00 = 0.14; 0.35 × 1/2 = 0.175 → 0.18.
    expect([prorate(6638, 1, 3), prorate(465, 1, 3), prorate(42, 200, 600), prorate(35, 1, 2), prorate(-35, 1, 2)]).toEqual([
      2213, 155, 14, 18, -18,
    ]);
    expect(() => prorate(100, 1, 0)).toThrow(RangeError);
  });
});
