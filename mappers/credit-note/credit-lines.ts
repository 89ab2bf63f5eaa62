// A credit note's lines → its items. Each line is a part of one invoice group whose gross (what went back) is fixed,
// with the tax it prefers (preferredTax: what stays on the invoice line keeps its ideal tax). When the note takes all
// that is left at a rate, the lines of that rate are planned together so they carry exactly the rate's remaining
// ITBMS; otherwise each line takes the tax nearest its preference that its items can carry, one that leaves the rest
// of its invoice line creditable when there is a choice. A line with a tax from Shopify stays within a cent of it or
// of its preference (the caps then judge the note). Pure.
import type { Amounts, CreditedLine } from './credit-balance.ts';
import { type GrossLine, creditItems } from './credit-items.ts';
import type { GatewayItem } from '../gateway/gateway-document.ts';
import type { InvoiceGroup } from '../invoice/invoice-layout.ts';
import { toGatewayItem } from '../invoice/invoice-lines.ts';
import type { ItemAmounts } from '../fiscal/line-arithmetic.ts';
import { type Fraction, cents, divRoundHalfUp } from '../fiscal/money.ts';

export interface CreditLine {
  group: InvoiceGroup;
  description: string;
  /** Money only (an allowance on the group): credits no units and carries no GTIN. */
  money: boolean;
  /** Units credited (1 for shipping, tips and money-only lines) and what went back for them. */
  line: GrossLine;
  preferred: number;
  /** What is left of the invoice line before this line takes its part. */
  left: Amounts;
  /** The tax Shopify refunded on the line, when Shopify gave one at this rate. */
  shopifyTax?: number;
}

export interface RenderedNote {
  items: GatewayItem[];
  amounts: ItemAmounts[];
  credited: CreditedLine[];
}

/**
 * The items of `lines`. `rateTargets` (rate code → cents) is the ITBMS of each rate the note takes entirely.
 * Undefined when a line has no tax the rules allow.
 */
export function renderCreditLines(lines: readonly CreditLine[], rateTargets: ReadonlyMap<string, number>): RenderedNote | undefined {
  const taxes = new Map<CreditLine, number | undefined>();
  for (const rateCode of new Set(lines.map((l) => l.group.rateCode))) {
    const same = lines.filter((l) => l.group.rateCode === rateCode);
    const target = rateTargets.get(rateCode);
    const planned = target === undefined ? undefined : planRate(same, target);
    for (const l of same) taxes.set(l, planned?.get(l) ?? nearest(l));
  }
  const note: RenderedNote = { items: [], amounts: [], credited: [] };
  for (const line of lines) {
    const tax = taxes.get(line);
    const amounts = tax === undefined ? undefined : creditItems(line.line, tax);
    if (tax === undefined || amounts === undefined) return undefined;
    const { group } = line;
    const shape = { description: line.description, code: group.code, rateCode: group.rateCode, gtin: line.money ? undefined : group.gtin };
    for (const a of amounts) {
      note.amounts.push(a);
      note.items.push(toGatewayItem(shape, a));
    }
    note.credited.push({ group, units: creditedUnits(line), net: amounts.reduce((s, a) => s + a.priceItem, 0), tax });
  }
  return note;
}

function creditedUnits(line: CreditLine): number {
  return line.money || line.group.kind !== 'line' ? 0 : line.line.quantity;
}

/** The taxes the line may carry: its items allow them, and they are near its preference (or Shopify's tax). */
function candidates(line: CreditLine): number[] {
  const around = (c: number, width: number) => Array.from({ length: 2 * width + 1 }, (_, i) => c - width + i);
  const near =
    line.shopifyTax === undefined
      ? [...around(line.preferred, 2), ...around(idealTax(line.line), 3)]
      : [...around(line.preferred, 1), ...around(line.shopifyTax, 1)];
  return [...new Set(near)].sort((a, b) => a - b).filter((t) => creditItems(line.line, t) !== undefined);
}

/** The allowed tax nearest the preference, one that leaves the rest of the invoice line creditable if any does. */
function nearest(line: CreditLine): number | undefined {
  const allowed = candidates(line);
  const healthy = allowed.filter((t) => restCreditable(line, t));
  return closestTo(healthy.length > 0 ? healthy : allowed, line.preferred);
}

/** Taxes for the lines of one rate adding up to `target`, each from its candidates, as near its preference as can be. */
function planRate(lines: CreditLine[], target: number): Map<CreditLine, number> | undefined {
  const options = lines.map(candidates);
  if (options.some((o) => o.length === 0)) return undefined;
  const chosen = lines.map((l, i) => closestTo(options[i]!, l.preferred)!);
  for (let step = 0; step < 100; step++) {
    const delta = target - chosen.reduce((a, b) => a + b, 0);
    if (delta === 0) return new Map(lines.map((l, i) => [l, chosen[i]!]));
    // Move the line whose next option toward the target costs least against its preference.
    let best = -1;
    let bestNext = 0;
    let bestCost = Infinity;
    lines.forEach((l, i) => {
      const next = delta > 0 ? options[i]!.find((t) => t > chosen[i]!) : options[i]!.findLast((t) => t < chosen[i]!);
      if (next === undefined || Math.abs(next - chosen[i]!) > Math.abs(delta)) return;
      const cost = Math.abs(next - l.preferred) - Math.abs(chosen[i]! - l.preferred);
      if (cost < bestCost) [best, bestNext, bestCost] = [i, next, cost];
    });
    if (best < 0) return undefined;
    chosen[best] = bestNext;
  }
  return undefined;
}

function closestTo(options: number[], wanted: number): number | undefined {
  let best: number | undefined;
  for (const t of options) if (best === undefined || Math.abs(t - wanted) < Math.abs(best - wanted)) best = t;
  return best;
}

/** Whether what stays on the line's invoice line, once it takes `tax`, is itself creditable by a later note. */
function restCreditable(line: CreditLine, tax: number): boolean {
  const { left, group } = line;
  const gross = left.net + left.tax - line.line.gross;
  if (gross <= 0) return true;
  const quantity = group.kind === 'line' ? Math.max(1, left.units - creditedUnits(line)) : 1;
  return creditItems({ ...line.line, quantity, gross }, left.tax - tax) !== undefined;
}

function idealTax(line: GrossLine): number {
  return divRoundHalfUp(line.gross * line.rate.num, line.rate.den + line.rate.num);
}

/**
 * The tax a line of `gross` prefers against what is left of its invoice line: what is left of the tax, less the ideal
 * tax of what will still be left after it. What stays on the invoice line keeps its ideal tax, so the note that takes
 * it last can always carry it exactly; the line that takes all that is left takes all of the tax.
 */
export function preferredTax(left: Amounts, gross: number, rate: Fraction): number {
  return left.tax - idealTax({ quantity: 1, listUnit: cents(0), rate, gross: Math.max(0, left.net + left.tax - gross) });
}
