import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addFractions,
  cents,
  divFloor,
  divRoundHalfUp,
  formatCents,
  formatFraction,
  fractionEquals,
  multiplyCents,
  parseCents,
  parseFraction,
  reduce,
  sumCents,
} from '../../../mappers/fiscal/money.ts';

describe('parseCents', () => {
  it.each([
    ['199.00', 19_900],
    ['12.5', 1250],
    ['0.07', 7],
    ['7', 700],
    ['-3.10', -310],
    [' 4.28 ', 428],
    ['10.0', 1000],
    ['1.230000', 123],
    ['100000.00', 10_000_000],
  ])('%s → %d cents', (text, expected) => {
    expect(parseCents(text)).toBe(expected);
  });

  it.each(['', 'abc', '1,00', '12.345', '1e3', '.5', '5.', '0x10', '99999999999999999999.00'])('%j is not an amount', (text) => {
    expect(parseCents(text)).toBeUndefined();
  });

  it('never goes through a float: 0.1 + 0.2 style amounts stay exact', () => {
    expect(parseCents('0.29')).toBe(29);
    expect(parseCents('1.15')).toBe(115);
    expect(parseCents('4.35')).toBe(435);
  });

  it('reads exactly the decimals its definition names (sign, digits, at most two non-zero decimals, a safe integer)', () => {
    // The definition as a regex; parseCents reads characters in one pass for speed and must agree on every text.
    const byDefinition = (text: string): number | undefined => {
      const m = /^(-)?(\d+)(?:\.(\d{1,2})0*)?$/.exec(text.trim());
      if (!m) return undefined;
      const value = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
      return Number.isSafeInteger(value) ? (m[1] ? -value : value) : undefined;
    };
    const decimalText = fc.string({ unit: fc.constantFrom(...'0123456789.-+ e\t\u00a0'.split('')), maxLength: 20 });
    fc.assert(
      fc.property(fc.oneof(decimalText, fc.string()), (text) => Object.is(parseCents(text), byDefinition(text))),
      { numRuns: 20_000 },
    );
    expect([parseCents('-'), parseCents('1.2.3'), parseCents('+1'), parseCents('-0.5'), parseCents('90071992547409.91')]).toEqual([
      undefined,
      undefined,
      undefined,
      -50,
      9_007_199_254_740_991,
    ]);
  });
});

describe('formatCents', () => {
  it.each([
    [0, '0.00'],
    [7, '0.07'],
    [1250, '12.50'],
    [20_410_631, '204106.31'],
    [-310, '-3.10'],
    [-5, '-0.05'],
  ])('%d → %s', (c, text) => {
    expect(formatCents(c)).toBe(text);
  });
});

describe('fractions', () => {
  it('reads the decimal digits of a rate, not its binary value', () => {
    expect(parseFraction(0.07)).toEqual({ num: 7, den: 100 });
    expect(parseFraction(0.025)).toEqual({ num: 1, den: 40 });
    expect(parseFraction('0.085')).toEqual({ num: 17, den: 200 });
    expect(parseFraction(0.15)).toEqual({ num: 3, den: 20 });
    expect(parseFraction(1e-7)).toEqual({ num: 1, den: 10_000_000 });
    expect(parseFraction('x')).toBeUndefined();
  });

  it('adds and compares exactly: 6 % + 2.5 % = 8.5 %', () => {
    const sum = addFractions(parseFraction(0.06)!, parseFraction(0.025)!);
    expect(sum).toEqual({ num: 17, den: 200 });
    expect(fractionEquals(sum, parseFraction('0.0850')!)).toBe(true);
    expect(fractionEquals(parseFraction(0.1)!, { num: 10, den: 100 })).toBe(true);
    expect(reduce(6, -8)).toEqual({ num: -3, den: 4 });
  });

  it.each([
    [{ num: 17, den: 200 }, '0.085'],
    [{ num: 7, den: 100 }, '0.07'],
    [{ num: 0, den: 1 }, '0'],
    [{ num: 3, den: 2 }, '1.5'],
    [{ num: -1, den: 4 }, '-0.25'],
    [{ num: 17, den: 2 }, '8.5'],
    [{ num: 1, den: 3 }, undefined],
  ])('formatFraction(%j) = %s', (f, text) => {
    expect(formatFraction(f)).toBe(text);
  });
});

describe('integer division', () => {
  it.each([
    [5, 2, 3],
    [-5, 2, -3],
    [4, 3, 1],
    [-4, 3, -1],
    [7, 7, 1],
    [0, 5, 0],
    [3675, 100, 37],
    [245, 10, 25],
  ])('divRoundHalfUp(%d, %d) = %d', (num, den, expected) => {
    expect(divRoundHalfUp(num, den)).toBe(expected);
  });

  it.each([
    [7, 2, 3],
    [-7, 2, -4],
    [6, 3, 2],
    [-6, 3, -2],
    [0, 9, 0],
    [802, 7, 114],
  ])('divFloor(%d, %d) = %d', (num, den, expected) => {
    expect(divFloor(num, den)).toBe(expected);
  });

  it('rejects a zero or negative denominator', () => {
    expect(() => divRoundHalfUp(1, 0)).toThrow(RangeError);
    expect(() => divFloor(1, -2)).toThrow(RangeError);
  });

  it('multiplies cents by a rate, half away from zero', () => {
    expect(multiplyCents(cents(5250), { num: 7, den: 100 })).toBe(368); // 3.675 → 3.68
    expect(multiplyCents(cents(350), { num: 7, den: 100 })).toBe(25); // 0.245 → 0.25
    expect(multiplyCents(cents(-350), { num: 7, den: 100 })).toBe(-25);
    expect(sumCents([1, 2, 3])).toBe(6);
    expect(() => cents(1.5)).toThrow(RangeError);
  });
});
