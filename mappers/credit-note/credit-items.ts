// The items of one credit-note line: its units split so every item keeps the DGI's arithmetic with the tax the line
// must carry. An invoice line needs at most two items (line-arithmetic.ts); a refunded part of it may need more,
// because Shopify splits a line's money between refunds by its own rounding: with small unit values a tax that two
// items cannot carry within ±0.01 each is carried by peeling units off into items of their own (split, never
// fudged), up to four items per line. Pure.
import { type ItemAmounts, type UnitGroup, groupItems, splitUnits, taxRange } from '../fiscal/line-arithmetic.ts';
import type { Cents, Fraction } from '../fiscal/money.ts';

/** A line whose gross (tax included) is fixed: its tax decides its net. */
export interface GrossLine {
  quantity: number;
  listUnit: Cents;
  rate: Fraction;
  gross: number;
}

const MAX_ITEMS = 4;
/** How many units at most are peeled off at a time: a few always suffice to change the rounding. */
const MAX_PEEL = 12;

/** The items of `line` carrying `tax`; undefined when no split into at most four items allows it. */
export function creditItems(line: GrossLine, tax: number): ItemAmounts[] | undefined {
  const net = line.gross - tax;
  if (net < 0 || tax < 0) return undefined;
  const groups = finer(splitUnits(net, line.quantity), tax, line.rate);
  return groups && groupItems(groups, tax, line.listUnit, line.rate);
}

function finer(groups: UnitGroup[], tax: number, rate: Fraction): UnitGroup[] | undefined {
  const { lo, hi } = taxRange(groups, rate);
  if (tax >= lo && tax <= hi) return groups;
  if (groups.length >= MAX_ITEMS) return undefined;
  for (const [i, g] of groups.entries()) {
    for (let k = 1; k < Math.min(g.amount, MAX_PEEL + 1); k++) {
      const split = [
        ...groups.slice(0, i),
        { amount: g.amount - k, unitValue: g.unitValue },
        { amount: k, unitValue: g.unitValue },
        ...groups.slice(i + 1),
      ];
      const found = finer(split, tax, rate);
      if (found) return found;
    }
  }
  return undefined;
}
