// How much of an invoice the credit notes already issued (or in flight) have credited, and whether one more note
// stays within the invoice: in total, per ITBMS rate (base and tax) and per invoice line (units and money). Notes
// are attributed to the invoice's lines by their items' code and rate, which every note copies from the invoice. Pure.
import type { GatewayDocument } from './gateway-document.ts';
import type { InvoiceGroup, InvoiceLayout } from './invoice-layout.ts';
import { type MappingProblem, problems } from './mapping-problems.ts';
import { parseCents } from './money.ts';

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
  const balance: CreditBalance = { groups: new Map(layout.groups.map((g) => [g, zero()])), total: 0 };
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
      const money = item.description.startsWith(ALLOWANCE_PREFIX) || group.kind !== 'line';
      add(balance.groups.get(group)!, { units: money ? 0 : Math.round(amount / 100), net, tax });
      balance.total += net + tax;
    }
  }
  return { ok: true, balance };
}

/** What is left to credit of a group. */
export function remaining(balance: CreditBalance, group: InvoiceGroup): Amounts {
  const done = balance.groups.get(group) ?? zero();
  return { units: group.units - done.units, net: group.net - done.net, tax: group.tax - done.tax };
}

/**
 * The caps a note must keep, as problems. Per line, the money cap allows the cents by which Shopify's charge for the
 * line exceeds the invoice's (the invoice may have moved a tax cent to another line of the same rate; Shopify refunds
 * its own amounts). Per rate and in total the caps are exact.
 */
export function capProblems(layout: InvoiceLayout, balance: CreditBalance, note: readonly CreditedLine[]): MappingProblem[] {
  const found: MappingProblem[] = [];
  const after = new Map<InvoiceGroup, Amounts>();
  for (const line of note) {
    const sum = after.get(line.group) ?? { ...(balance.groups.get(line.group) ?? zero()) };
    add(sum, line);
    after.set(line.group, sum);
  }
  for (const [group, sum] of after) {
    const what = `"${group.description}"`;
    if (group.kind === 'line' && sum.units > group.units)
      found.push(problems.creditExceedsInvoice(`${what} (units)`, sum.units * 100, group.units * 100));
    const gross = group.net + group.tax;
    const allowed = Math.max(gross, group.shopifyGross);
    if (sum.net + sum.tax > allowed) found.push(problems.creditExceedsInvoice(what, sum.net + sum.tax, allowed));
  }
  for (const rateCode of new Set(note.map((l) => l.group.rateCode))) {
    const groups = layout.groups.filter((g) => g.rateCode === rateCode);
    const invoiced = groups.reduce((a, g) => ({ net: a.net + g.net, tax: a.tax + g.tax }), { net: 0, tax: 0 });
    const sum = groups.reduce(
      (a, g) => {
        const s = after.get(g) ?? balance.groups.get(g) ?? zero();
        return { net: a.net + s.net, tax: a.tax + s.tax };
      },
      { net: 0, tax: 0 },
    );
    const label = RATE_LABEL[rateCode] ?? rateCode;
    if (sum.net > invoiced.net) found.push(problems.creditExceedsInvoice(`the base taxed at ${label}`, sum.net, invoiced.net));
    if (sum.tax > invoiced.tax) found.push(problems.creditExceedsInvoice(`ITBMS at ${label}`, sum.tax, invoiced.tax));
  }
  const total = balance.total + note.reduce((a, l) => a + l.net + l.tax, 0);
  if (total > layout.total) found.push(problems.creditExceedsInvoice('the invoice total', total, layout.total));
  return found;
}

const RATE_LABEL: Record<string, string> = { '00': '0 %', '01': '7 %', '02': '10 %', '03': '15 %' };

function add(sum: Amounts, more: Amounts): void {
  sum.units += more.units;
  sum.net += more.net;
  sum.tax += more.tax;
}
