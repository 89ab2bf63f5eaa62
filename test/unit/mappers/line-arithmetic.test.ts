import { describe, expect, it } from 'vitest';
import { type ArithmeticLine, feasibleTaxes, lineItems, planTaxes, splitUnits } from '../../../mappers/fiscal/line-arithmetic.ts';
import { cents } from '../../../mappers/fiscal/money.ts';

const SEVEN = { num: 7, den: 100 };
const ZERO = { num: 0, den: 1 };

function netLine(net: number, quantity: number, listUnit: number, chargedTax: number, rate = SEVEN): ArithmeticLine {
  return {
    quantity,
    listUnit: cents(listUnit),
    rate,
    pricing: { kind: 'net', net: cents(net) },
    chargedTax: cents(chargedTax),
    pooled: true,
  };
}

function grossLine(gross: number, quantity: number, listUnit: number, chargedTax: number, rate = SEVEN): ArithmeticLine {
  return {
    quantity,
    listUnit: cents(listUnit),
    rate,
    pricing: { kind: 'gross', gross: cents(gross) },
    chargedTax: cents(chargedTax),
    pooled: true,
  };
}

describe('splitUnits', () => {
  it('keeps one group when the net divides by the quantity', () => {
    expect(splitUnits(8997, 3)).toEqual([{ amount: 3, unitValue: 2999 }]);
  });

  it('gives the remainder one cent each to the first units: at most two groups', () => {
    expect(splitUnits(802, 7)).toEqual([
      { amount: 4, unitValue: 115 },
      { amount: 3, unitValue: 114 },
    ]);
    expect(splitUnits(2, 3)).toEqual([
      { amount: 2, unitValue: 1 },
      { amount: 1, unitValue: 0 },
    ]);
  });
});

describe('feasibleTaxes', () => {
  it('net line: the floor and ceiling of net × rate, only the exact value when it is whole', () => {
    expect(feasibleTaxes(netLine(5250, 10, 525, 368))).toEqual([367, 368]); // 3.675
    expect(feasibleTaxes(netLine(4900, 2, 2450, 343))).toEqual([343]); // 3.43 exactly
    expect(feasibleTaxes(netLine(850, 2, 425, 0, ZERO))).toEqual([0]);
  });

  it('split net line: each item may round its own way', () => {
    // 8.02 over 7 units: 4.60 (0.322) + 3.42 (0.2394) → 0.55 … 0.57 at 7 %.
    expect(feasibleTaxes(netLine(802, 7, 125, 56))).toEqual([55, 56, 57]);
  });

  it('gross line: every tax whose carved-out net keeps the items within ±0.01', () => {
    // 10.80 paid at 7 % included: ideal 0.7065. Tax 0.70 → net 10.10 → 0.707 (ok); 0.71 → 10.09 → 0.7063 (ok).
    expect(feasibleTaxes(grossLine(1080, 1, 1121, 71))).toEqual([70, 71]);
  });
});

describe('planTaxes', () => {
  it("keeps Shopify's line taxes when they add up and are within the rules", () => {
    expect(planTaxes([netLine(5250, 10, 525, 368), netLine(1000, 1, 1000, 70)], 438)).toEqual([368, 70]);
  });

  it('moves single cents to the lines furthest from their ideal to reach the charged total', () => {
    // Shopify rounded on the order: 3.675 + 0.245 + 1.345 = 5.265 → 5.27 charged, allocated 3.68 / 0.24 / 1.35.
    // 0.24 is allowed (0.245 ± 0.01) and the sum already matches.
    expect(planTaxes([netLine(5250, 1, 5250, 368), netLine(350, 1, 350, 24), netLine(1922, 1, 1922, 135)], 527)).toEqual([368, 24, 135]);
    // A charged total one cent lower: the line most over its ideal gives a cent (3.68 vs 3.675 → 3.67).
    expect(planTaxes([netLine(5250, 1, 5250, 368), netLine(350, 1, 350, 25), netLine(1922, 1, 1922, 135)], 527)).toEqual([367, 25, 135]);
  });

  it('replaces a charged line tax that is out of tolerance by the closest allowed one', () => {
    // Shopify allocated 7.81 to a 129.99 line at 6 % (7.7994): more than 0.01 away.
    expect(planTaxes([netLine(12999, 1, 12999, 781, { num: 3, den: 50 }), netLine(3998, 2, 1999, 239, { num: 3, den: 50 })], 1020)).toEqual(
      [780, 240],
    );
  });

  it('gives up when the charged total is out of reach', () => {
    expect(planTaxes([netLine(1000, 1, 1000, 70)], 72)).toBeUndefined();
    expect(planTaxes([netLine(850, 2, 425, 0, ZERO)], 1)).toBeUndefined();
    expect(planTaxes([netLine(-5, 1, 0, 0)], 0)).toBeUndefined();
  });

  it('lines at a recomputed rate keep their own ideal and are not moved', () => {
    const mapped: ArithmeticLine = { ...grossLine(5399, 1, 5046, 400), pooled: false };
    expect(planTaxes([mapped, netLine(1798, 2, 899, 126)], 126)).toEqual([353, 126]);
  });
});

describe('lineItems', () => {
  it('one item when nothing needs splitting', () => {
    expect(lineItems(netLine(4900, 2, 2450, 343), 343)).toEqual([
      { amount: 2, priceUnit: 2450, priceUnitDiscount: 0, priceItem: 4900, valueITBMS: 343, totalValue: 5243 },
    ]);
  });

  it('a split line shows the list price and each group its per-unit discount', () => {
    // 3 × 18.99 gross with 5.70 off = 51.27 paid; tax 3.35 → net 47.92 = 15.98 + 2 × 15.97.
    expect(lineItems(grossLine(5127, 3, 1775, 335), 335)).toEqual([
      { amount: 1, priceUnit: 1775, priceUnitDiscount: 177, priceItem: 1598, valueITBMS: 112, totalValue: 1710 },
      { amount: 2, priceUnit: 1775, priceUnitDiscount: 178, priceItem: 3194, valueITBMS: 223, totalValue: 3417 },
    ]);
  });

  it('a unit worth nothing carries no price and no discount', () => {
    expect(lineItems(netLine(0, 1, 300, 0), 0)).toEqual([
      { amount: 1, priceUnit: 0, priceUnitDiscount: 0, priceItem: 0, valueITBMS: 0, totalValue: 0 },
    ]);
  });

  it('never shows a unit price below the unit value (rounded list price of a tax-inclusive line)', () => {
    // 1.07 paid for one unit at 7 % included: list 1.00, tax 0.07, net 1.00.
    expect(lineItems(grossLine(107, 1, 100, 7), 7)).toEqual([
      { amount: 1, priceUnit: 100, priceUnitDiscount: 0, priceItem: 100, valueITBMS: 7, totalValue: 107 },
    ]);
    expect(lineItems(grossLine(108, 1, 100, 7), 7)[0]).toMatchObject({ priceUnit: 101, priceUnitDiscount: 0, priceItem: 101 });
  });

  it('refuses a tax outside the feasible ones', () => {
    expect(() => lineItems(netLine(1000, 1, 1000, 70), 72)).toThrow(RangeError);
  });
});
