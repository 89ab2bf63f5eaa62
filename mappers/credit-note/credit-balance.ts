// How much of an invoice the credit notes already issued (or in flight) have credited, and whether one more note
// stays within the invoice: in total, per ITBMS rate (base and tax) and per invoice line (units and money). Notes
// are attributed to the invoice's lines by their items' code and rate, which every note copies from the invoice. Pure.
import type { GatewayDocument } from '../gateway/gateway-document.ts';
import type { InvoiceGroup, InvoiceLayout, InvoiceLayoutResult } from '../invoice/invoice-layout.ts';
import { type MappingProblem, problems } from '../mapping-problems.ts';
import { parseCents } from '../fiscal/money.ts';

/** Items of money-only lines (amount-only refunds) start with this: they credit money, not units. */
export const ALLOWANCE_PREFIX = 'Bonificación sobre ';

/** A money-only line's description: the prefix and the line's own, within the DGI's 500 characters. */
export function allowanceDescription(description: string): string {
  return [...`${ALLOWANCE_PREFIX}${description}`].slice(0, 500).join('');
}

/** A note already issued or in flight against the invoice: a document or a draft. */
export type CreditedDocument = Pick<GatewayDocument, 'listItems'>;

export interface Amounts {
  units: number;
  net: number;
  tax: number;
}

export interface CreditBalance {
  groups: Map<InvoiceGroup, Amounts>;
  /** Money-only credits per group (amount-only shares), tax included. */
  allowances: Map<InvoiceGroup, number>;
  total: number;
}

/** One line of a note, as far as the caps are concerned. */
export interface CreditedLine {
  group: InvoiceGroup;
  /** Units of goods credited (0 for money-only lines and for shipping and tips, which have no units to count). */
  units: number;
  net: number;
  tax: number;
}

const zero = (): Amounts => ({ units: 0, net: 0, tax: 0 });

export function creditBalance(
  layout: InvoiceLayout,
  credited: readonly CreditedDocument[],
): { ok: true; balance: CreditBalance } | { ok: false; problems: MappingProblem[] } {
  const byKey = new Map(layout.groups.map((g) => [`${g.code}\u0000${g.rateCode}`, g]));
  const balance: CreditBalance = { groups: new Map(layout.groups.map((g) => [g, zero()])), allowances: new Map(), total: 0 };
  for (const [n, doc] of credited.entries()) {
    for (const item of doc.listItems) {
      const group = byKey.get(`${item.code}\u0000${item.rateITBMS}`);
      const amount = parseCents(item.amount);
      const net = parseCents(item.priceItem);
      const tax = parseCents(item.valueITBMS);
      if (group === undefined || amount === undefined || net === undefined || tax === undefined) {
        return {
          ok: false,
          problems: [problems.invoiceNotReadable(`credit note ${n + 1} has an item "${item.description}" that is not on the invoice`)],
        };
      }
      const allowance = item.description.startsWith(ALLOWANCE_PREFIX);
      if (allowance) balance.allowances.set(group, (balance.allowances.get(group) ?? 0) + net + tax);
      const money = allowance || group.kind !== 'line';
      add(balance.groups.get(group)!, { units: money ? 0 : Math.round(amount / 100), net, tax });
      balance.total += net + tax;
    }
  }
  return { ok: true, balance };
}

export type CreditState =
  { ok: true; layout: InvoiceLayout; balance: CreditBalance; left: Map<InvoiceGroup, Amounts> } | { ok: false; problems: MappingProblem[] };

/** The invoice as read, the notes before attributed to its lines, and what is left of each line (settledRemaining). */
export function creditState(layoutRead: InvoiceLayoutResult, credited: readonly CreditedDocument[]): CreditState {
  if (!layoutRead.ok) return layoutRead;
  const { layout } = layoutRead;
  const balanceRead = creditBalance(layout, credited);
  if (!balanceRead.ok) return balanceRead;
  const { balance } = balanceRead;
  const left = settledRemaining(layout, balance);
  if (left === undefined) return { ok: false, problems: capProblems(layout, balance, []) };
  return { ok: true, layout, balance, left };
}

/** What is left to credit of a group. */
export function remaining(balance: CreditBalance, group: InvoiceGroup): Amounts {
  const done = balance.groups.get(group) ?? zero();
  return { units: group.units - done.units, net: group.net - done.net, tax: group.tax - done.tax };
}

/**
 * What is left of every group, with the cents the notes moved between lines of one rate (Shopify's amounts for a line
 * can differ from the invoice's by a cent the invoice moved) settled within the rate: a line over by a cent takes it
 * from another line of its rate. Undefined when a rate itself is over-credited.
 */
export function settledRemaining(layout: InvoiceLayout, balance: CreditBalance): Map<InvoiceGroup, Amounts> | undefined {
  const left = new Map(layout.groups.map((g) => [g, remaining(balance, g)]));
  for (const rateCode of new Set(layout.groups.map((g) => g.rateCode))) {
    const same = layout.groups.filter((g) => g.rateCode === rateCode).map((g) => left.get(g)!);
    for (const key of ['net', 'tax'] as const) {
      let over = 0;
      for (const l of same) if (l[key] < 0) [over, l[key]] = [over - l[key], 0];
      for (const l of same) {
        const take = Math.min(l[key], over);
        l[key] -= take;
        over -= take;
      }
      if (over > 0) return undefined;
    }
  }
  return left;
}

/**
 * The caps a note must keep, as problems: units per invoice line, base and ITBMS per rate, and the total. Money is
 * not capped per line: an amount-only refund is spread over the lines by the app's own choice, and Shopify's amounts
 * for a line may differ from the invoice's by a cent the invoice moved to another line of the same rate.
 */
export function capProblems(layout: InvoiceLayout, balance: CreditBalance, note: readonly CreditedLine[]): MappingProblem[] {
  const found: MappingProblem[] = [];
  const units = new Map<InvoiceGroup, number>();
  for (const line of note) units.set(line.group, (units.get(line.group) ?? balance.groups.get(line.group)?.units ?? 0) + line.units);
  for (const [group, sum] of units) {
    if (group.kind === 'line' && sum > group.units)
      found.push(problems.creditExceedsInvoice({ kind: 'units', line: group.description }, sum, group.units));
  }
  for (const rateCode of new Set(layout.groups.map((g) => g.rateCode))) {
    const groups = layout.groups.filter((g) => g.rateCode === rateCode);
    const mine = note.filter((l) => l.group.rateCode === rateCode);
    const sum = (pick: (a: Amounts | CreditedLine) => number, invoiced: (g: InvoiceGroup) => number) => ({
      credited: groups.reduce((a, g) => a + pick(balance.groups.get(g)!), 0) + mine.reduce((a, l) => a + pick(l), 0),
      invoiced: groups.reduce((a, g) => a + invoiced(g), 0),
    });
    const net = sum(
      (a) => a.net,
      (g) => g.net,
    );
    const tax = sum(
      (a) => a.tax,
      (g) => g.tax,
    );
    if (net.credited > net.invoiced) found.push(problems.creditExceedsInvoice({ kind: 'base', rateCode }, net.credited, net.invoiced));
    if (tax.credited > tax.invoiced) found.push(problems.creditExceedsInvoice({ kind: 'itbms', rateCode }, tax.credited, tax.invoiced));
  }
  const total = balance.total + note.reduce((a, l) => a + l.net + l.tax, 0);
  if (total > layout.total) found.push(problems.creditExceedsInvoice({ kind: 'total' }, total, layout.total));
  return found;
}

function add(sum: Amounts, more: Amounts): void {
  sum.units += more.units;
  sum.net += more.net;
  sum.tax += more.tax;
}
