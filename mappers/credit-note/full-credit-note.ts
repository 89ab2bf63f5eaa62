// The credit note that credits everything of an invoice not yet credited: how an invoice issued to the wrong buyer is
// replaced (docs/design.md §9: a full credit note plus a new invoice). With no note before it, it mirrors the invoice item
// for item; after partial notes it credits each line's remaining units, base and ITBMS exactly, so the notes add up
// to the invoice. Payment forms are the invoice's, less what the notes before it returned. Pure.
import { type CreditedDocument, allowanceDescription, capProblems, creditState } from './credit-balance.ts';
import { type CreditLine, renderCreditLines } from './credit-lines.ts';
import { type CreditedInvoice, creditNoteDraft } from './credit-note-draft.ts';
import { invoiceRemainingPayments } from './credit-note-payments.ts';
import { invoiceOnlyLayout } from '../invoice/invoice-layout.ts';
import type { MappingSettings } from '../invoice/mapping-settings.ts';
import { problems } from '../mapping-problems.ts';
import { cents } from '../fiscal/money.ts';
import type { CreditNoteResult } from './refund-to-credit-note.ts';

export interface FullCreditNoteInput {
  invoice: CreditedInvoice;
  /** The notes already issued or in flight against this invoice, in order. */
  credited: readonly CreditedDocument[];
  settings: MappingSettings;
}

export function fullCreditNote(input: FullCreditNoteInput): CreditNoteResult {
  const { invoice, credited, settings } = input;
  const state = creditState(invoiceOnlyLayout(invoice.document.listItems), credited);
  if (!state.ok) return { kind: 'problems', problems: state.problems };
  const { layout, balance, left: settled } = state;

  const lines: CreditLine[] = [];
  for (const [group, left] of settled) {
    if (left.units <= 0 && left.net === 0 && left.tax === 0) continue;
    // Units left: credit them at what is left of their value. None left but money: a money-only line.
    const money = left.units <= 0;
    lines.push({
      group,
      description: money ? allowanceDescription(group.description) : group.description,
      money,
      line: { quantity: money ? 1 : left.units, listUnit: money ? cents(0) : group.listUnit, rate: group.rate, gross: left.net + left.tax },
      preferred: left.tax,
      left,
    });
  }
  // Units of free items alone are not worth a note.
  if (lines.every((l) => l.line.gross === 0)) {
    return { kind: 'nothing', reason: 'everything_credited' };
  }

  // It takes all that is left at every rate: each rate carries exactly its remaining ITBMS.
  const targets = new Map<string, number>();
  for (const l of lines) targets.set(l.group.rateCode, (targets.get(l.group.rateCode) ?? 0) + l.left.tax);
  const note = renderCreditLines(lines, targets);
  if (note === undefined)
    return { kind: 'problems', problems: [problems.creditTaxNotDistributable(lines.reduce((a, l) => a + l.preferred, 0))] };
  const caps = capProblems(layout, balance, note.credited);
  if (caps.length > 0) return { kind: 'problems', problems: caps };
  const total = note.amounts.reduce((a, i) => a + i.totalValue, 0);
  const payments = invoiceRemainingPayments(invoice.document.totalsSubTotals.listFormPayment, balance.total, total);
  if (payments === undefined) {
    return { kind: 'problems', problems: [problems.invoiceNotReadable('its payment forms do not add up to what is left to credit')] };
  }
  return { kind: 'draft', ...creditNoteDraft(invoice, settings, note, payments) };
}
