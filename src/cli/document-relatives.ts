// What `invoices show` says of a document's relatives: an invoice's credit notes; a note's invoice, the reference it
// carries (the invoice's CUFE and date, docs/design.md §9) and its refund. As JSON, and as lines for people.
import { formatCents } from '../../mappers/fiscal/money.ts';
import type { GatewayDocument } from '../../mappers/gateway/gateway-document.ts';
import { type ShopState, noteReference, reasonFor, refundOf } from '../admin/document-view.ts';
import { type DocumentRow, type RelatedDocument, type Relatives, formatFiscalNumber } from '../documents/store/index.ts';
import { DOCUMENT_ACTIONS, type DocumentActions } from '../documents/document-actions.ts';
import { render } from '../messages/catalogue.ts';
import { formatTable } from './cli-context.ts';
import { PANAMA_LABEL, panamaTime, statusWord } from './document-words.ts';

const numberOf = (r: RelatedDocument) => (r.fiscalNumber === null ? null : formatFiscalNumber(r));

/** The relatives in `--json`: a note's refund, invoice and reference; an invoice's notes. */
export function relativesJson(row: DocumentRow, related: Relatives) {
  const brief = (r: RelatedDocument) => ({
    id: r.id,
    status: r.status,
    fiscalNumber: numberOf(r),
    total: formatCents(r.totalCents),
    cufe: r.cufe,
  });
  const links = {
    replacedBy: related.replacedBy ? brief(related.replacedBy) : null,
    replaces: related.replaces ? brief(related.replaces) : null,
  };
  if (row.kind === 'invoice') return { creditNotes: related.notes.map(brief), ...links };
  return {
    refundId: refundOf(row),
    invoice: related.invoice ? brief(related.invoice) : null,
    reference: noteReference(row.document as GatewayDocument | null),
  };
}

/** The same for people: the page's status words, Panama times, a table of an invoice's notes. */
export function relativesLines(row: DocumentRow, related: Relatives, shop: ShopState): string[] {
  const word = (r: RelatedDocument) => statusWord({ ...r, reason: reasonFor(r, shop) });
  const line = (key: string, value: string) => `${`${key}:`.padEnd(19)}${value}`;
  // Which invoice replaced which (a re-issue to another client), both ways.
  const links = [
    ...(related.replacedBy
      ? [line('replacedBy', `invoice ${related.replacedBy.id}  ${numberOf(related.replacedBy) ?? '-'}  ${word(related.replacedBy)}`)]
      : []),
    ...(related.replaces
      ? [line('replaces', `invoice ${related.replaces.id}  ${numberOf(related.replaces) ?? '-'}  ${word(related.replaces)}`)]
      : []),
  ];
  if (row.kind === 'invoice') return [...links, ...invoiceNotes(related, word, line)];
  const { invoice } = related;
  const reference = noteReference(row.document as GatewayDocument | null);
  return [
    line('refundId', refundOf(row) ?? 'none (it replaces the invoice whole: re-invoicing)'),
    line('invoice', invoice ? `${invoice.id}  ${numberOf(invoice) ?? '-'}  ${word(invoice)}` : 'none yet (the order has no invoice)'),
    ...(reference ? [line('reference', `CUFE ${reference.cufe} of ${panamaTime(new Date(reference.date))} (${PANAMA_LABEL})`)] : []),
  ];
}

function invoiceNotes(related: Relatives, word: (r: RelatedDocument) => string, line: (key: string, value: string) => string): string[] {
  if (related.notes.length === 0) return [line('creditNotes', 'none')];
  const table = formatTable(
    ['ID', 'NUMBER', 'STATUS', 'TOTAL', 'CUFE'],
    related.notes.map((n) => [n.id, numberOf(n) ?? '-', word(n), `${formatCents(n.totalCents)} ${n.currency}`, n.cufe ?? '-']),
  );
  return ['creditNotes:', ...table.map((l) => `  ${l}`)];
}

/** What may be done with the document and why not, as the page says it (document-actions.ts), in English. */
export function actionsJson(actions: DocumentActions) {
  return Object.fromEntries(
    DOCUMENT_ACTIONS.map((a) => [a, { allowed: actions[a].allowed, reason: actions[a].reason ? render(actions[a].reason, 'en') : null }]),
  );
}

export function actionsLines(actions: DocumentActions): string[] {
  return [
    'actions:',
    ...DOCUMENT_ACTIONS.map(
      (a) => `  ${a.padEnd(15)} ${actions[a].allowed ? 'yes' : `no: ${actions[a].reason ? render(actions[a].reason, 'en') : ''}`}`,
    ),
  ];
}
