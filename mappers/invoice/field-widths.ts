// The DGI's widths for a document's numbers (docs/reference/panama-fe.md §3.12): an item's amounts (montoTipo06)
// and quantity (montoTipo31) have at most 9 integer digits, the totals (montoTipo01) at most 11. A document past
// them is refused by the DGI after its number is reserved, so the mappers refuse it first.
import type { ItemAmounts } from '../fiscal/line-arithmetic.ts';
import { type MappingProblem, problems } from '../mapping-problems.ts';

/** 999,999,999.99: the largest item amount (9 integer digits), in cents. */
export const MAX_ITEM_CENTS = 99_999_999_999;
/** 999,999,999 units: the largest quantity (9 integer digits). */
export const MAX_QUANTITY = 999_999_999;
/** 99,999,999,999.99: the largest total (11 integer digits), in cents. */
export const MAX_TOTAL_CENTS = 9_999_999_999_999;

const ITEM_CENTS: readonly (keyof ItemAmounts)[] = ['priceUnit', 'priceUnitDiscount', 'priceItem', 'valueITBMS', 'totalValue'];

/** At most one problem: the first item (or the total) past its width. `path`: where the items are in the order. */
export function fieldWidthProblems(amounts: readonly ItemAmounts[], path: string): MappingProblem[] {
  const wide = amounts.findIndex((a) => a.amount > MAX_QUANTITY || ITEM_CENTS.some((k) => Math.abs(a[k]) > MAX_ITEM_CENTS));
  if (wide >= 0) return [problems.amountTooLarge(path)];
  const total = amounts.reduce((sum, a) => sum + a.totalValue, 0);
  return total > MAX_TOTAL_CENTS ? [problems.amountTooLarge(path)] : [];
}
