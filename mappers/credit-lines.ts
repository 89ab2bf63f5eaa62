// A credit note's lines → its items. Each line is an arithmetic line (line-arithmetic.ts) against one invoice group;
// the lines that keep Shopify's tax are planned together as an invoice's are (their tax total is kept to the cent,
// each as close as the DGI's tolerance allows to what Shopify refunded on it), the others take their own tax. Each
// line becomes one or two items split by units, never fudged. Pure.
import type { CreditedLine } from './credit-balance.ts';
import type { GatewayItem } from './gateway-document.ts';
import type { InvoiceGroup } from './invoice-layout.ts';
import { toGatewayItem } from './invoice-lines.ts';
import { type ArithmeticLine, type ItemAmounts, feasibleTaxes, lineItems, planTaxes } from './line-arithmetic.ts';
import { divRoundHalfUp } from './money.ts';

export interface CreditLine {
  group: InvoiceGroup;
  description: string;
  /** Money only (an allowance on the group): credits no units and carries no GTIN. */
  money: boolean;
  arithmetic: ArithmeticLine;
  /** For a line outside the pooled plan: the tax to keep when the rules allow (default: the ideal tax). */
  preferredTax?: number;
}

export interface RenderedNote {
  items: GatewayItem[];
  amounts: ItemAmounts[];
  credited: CreditedLine[];
}

/** The items of `lines`, the pooled ones carrying `pooledTarget` of tax together; undefined when the rules cannot hold. */
export function renderCreditLines(lines: readonly CreditLine[], pooledTarget: number): RenderedNote | undefined {
  const pooled = lines.filter((l) => l.arithmetic.pooled);
  const planned = planTaxes(
    pooled.map((l) => l.arithmetic),
    pooledTarget,
  );
  if (planned === undefined) return undefined;
  const taxes = new Map(pooled.map((l, i) => [l, planned[i]!]));
  const note: RenderedNote = { items: [], amounts: [], credited: [] };
  for (const line of lines) {
    const tax = taxes.get(line) ?? ownTax(line);
    if (tax === undefined) return undefined;
    const amounts = lineItems(line.arithmetic, tax);
    const { group } = line;
    const shape = { description: line.description, code: group.code, rateCode: group.rateCode, gtin: line.money ? undefined : group.gtin };
    for (const a of amounts) {
      note.amounts.push(a);
      note.items.push(toGatewayItem(shape, a));
    }
    note.credited.push({
      group,
      units: line.money || group.kind !== 'line' ? 0 : line.arithmetic.quantity,
      net: amounts.reduce((s, a) => s + a.priceItem, 0),
      tax,
    });
  }
  return note;
}

/** The preferred tax when the line's items can carry it, else the feasible tax nearest to the ideal. */
function ownTax(line: CreditLine): number | undefined {
  const candidates = feasibleTaxes(line.arithmetic);
  const ideal = idealTax(line.arithmetic);
  const preferred = line.preferredTax ?? ideal;
  if (candidates.includes(preferred)) return preferred;
  let best: number | undefined;
  for (const c of candidates) if (best === undefined || Math.abs(c - ideal) < Math.abs(best - ideal)) best = c;
  return best;
}

/** net × rate, or the tax included in a gross amount, rounded to the cent. */
export function idealTax(line: ArithmeticLine): number {
  const { num, den } = line.rate;
  return line.pricing.kind === 'net' ? divRoundHalfUp(line.pricing.net * num, den) : divRoundHalfUp(line.pricing.gross * num, den + num);
}
