// A credit note's lines → its items. Each line is an arithmetic line (line-arithmetic.ts) against one invoice group
// whose gross (what went back) is fixed, with the tax it prefers (Shopify's refunded tax, what is left of the invoice
// line, or the ideal tax of an amount-only share). The lines of one rate are planned together as an invoice's are,
// so their tax total is kept to the cent: the sum of their preferences, or, when the note takes all that is left at
// that rate, exactly the rate's remaining ITBMS. When the DGI's tolerance does not allow that, each line takes the
// feasible tax nearest its preference (the caps then judge the note). Each line becomes one or two items split by
// units. Pure.
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
  /** Gross pricing; `chargedTax` is the tax the line prefers. */
  arithmetic: ArithmeticLine;
}

export interface RenderedNote {
  items: GatewayItem[];
  amounts: ItemAmounts[];
  credited: CreditedLine[];
}

/** The items of `lines`; `rateTargets` fixes the tax total of a rate (code → cents). Undefined when a line has no feasible tax. */
export function renderCreditLines(
  lines: readonly CreditLine[],
  rateTargets: ReadonlyMap<string, number> = new Map(),
): RenderedNote | undefined {
  const taxes = new Map<CreditLine, number | undefined>();
  for (const rateCode of new Set(lines.map((l) => l.group.rateCode))) {
    const same = lines.filter((l) => l.group.rateCode === rateCode);
    const target = rateTargets.get(rateCode) ?? same.reduce((a, l) => a + l.arithmetic.chargedTax, 0);
    const planned = planTaxes(
      same.map((l) => ({ ...l.arithmetic, pooled: true })),
      target,
    );
    same.forEach((l, i) => taxes.set(l, planned?.[i] ?? nearest(l.arithmetic)));
  }
  const note: RenderedNote = { items: [], amounts: [], credited: [] };
  for (const line of lines) {
    const tax = taxes.get(line);
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

/** The feasible tax nearest to the line's preference (the lower on a tie); undefined when none is feasible. */
function nearest(line: ArithmeticLine): number | undefined {
  const wanted = line.chargedTax;
  let best: number | undefined;
  for (const c of feasibleTaxes(line)) if (best === undefined || Math.abs(c - wanted) < Math.abs(best - wanted)) best = c;
  return best;
}

/** net × rate, or the tax included in a gross amount, rounded to the cent. */
export function idealTax(line: ArithmeticLine): number {
  const { num, den } = line.rate;
  return line.pricing.kind === 'net' ? divRoundHalfUp(line.pricing.net * num, den) : divRoundHalfUp(line.pricing.gross * num, den + num);
}
