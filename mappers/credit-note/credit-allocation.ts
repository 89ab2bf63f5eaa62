// Amount-only refunds (money back with no refunded line: a refund discrepancy). Shopify gives no tax split, so the
// amount is a price reduction that includes ITBMS (docs/design.md §9): it is allocated over what is left to credit of the
// invoice's lines, in proportion to it, and each share's base and ITBMS are back-computed at the line's own rate
// (12.00 on a 7 % line → 11.21 + 0.79), the share's items split by the DGI's arithmetic (credit-lines.ts). Never a
// 0 % line for money that was taxed. Pure.
import { type Amounts, allowanceDescription } from './credit-balance.ts';
import { type CreditLine, preferredTax } from './credit-lines.ts';
import type { InvoiceGroup } from '../invoice/invoice-layout.ts';
import { cents } from '../fiscal/money.ts';

/** Money-only lines for `amount` over the open groups; undefined when the amount is more than is left to credit. */
export function allowanceLines(amount: number, open: readonly { group: InvoiceGroup; left: Amounts }[]): CreditLine[] | undefined {
  const candidates = open.filter((o) => o.left.net + o.left.tax > 0);
  const weights = candidates.map((o) => o.left.net + o.left.tax);
  if (amount > weights.reduce((a, b) => a + b, 0)) return undefined;
  const shares = allocateProportionally(amount, weights);
  const lines: CreditLine[] = [];
  candidates.forEach(({ group, left }, i) => {
    const share = shares[i]!;
    if (share === 0) return;
    // The share's ITBMS keeps what stays on the line at its ideal tax (so about the share at the line's rate), all of
    // the line's ITBMS when the share takes all that is left: never more than the line has, and the notes add up.
    lines.push({
      group,
      description: allowanceDescription(group.description),
      money: true,
      line: { quantity: 1, listUnit: cents(0), rate: group.rate, gross: share },
      preferred: preferredTax(left, share, group.rate),
      left,
    });
  });
  return lines;
}

/** `total` split over `weights` in proportion: floors, then one cent each by largest remainder (first on ties). */
export function allocateProportionally(total: number, weights: readonly number[]): number[] {
  const w = weights.map(BigInt);
  const sum = w.reduce((a, b) => a + b, 0n);
  if (sum === 0n) return weights.map(() => 0);
  const t = BigInt(total);
  const floors = w.map((x) => (t * x) / sum);
  const order = w.map((x, i) => ({ i, r: t * x - floors[i]! * sum })).sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  const out = floors.map(Number);
  let left = total - out.reduce((a, b) => a + b, 0);
  for (const { i } of order) {
    if (left <= 0) break;
    out[i]!++;
    left--;
  }
  return out;
}
