// Credit notes on the page: a document's type (and a note's invoice) in the list, an invoice's notes on its page,
// and on a note's page its invoice, the reference the note carries (the invoice's CUFE and date) and its refund.
import { card, field, h, linkButton } from './dom.js';
import { formatDateTime, formatMoney, shortCufe } from './format.js';
import { t } from './i18n.js';
import { statusBadge } from './document-status.js';

/** @typedef {import('./page-types').DocumentSummary} DocumentSummary */
/** @typedef {import('./page-types').DocumentDetail} DocumentDetail */

/** @param {{ id: string }} doc */
export const detailHref = (doc) => `#/facturas/${encodeURIComponent(doc.id)}`;

/** Factura, or Nota de crédito with its invoice's number under it. @param {DocumentSummary} doc */
export function kindLabel(doc) {
  return h(
    'span',
    { class: 'kind' },
    t(`kind.${doc.kind}`),
    doc.invoiceNumber ? h('span', { class: 'subdued block kind__invoice' }, t('notes.ofInvoice', { number: doc.invoiceNumber })) : null,
    doc.replacesNumber
      ? h('span', { class: 'subdued block kind__replaces' }, t('replacement.replacesShort', { number: doc.replacesNumber }))
      : null,
  );
}

/** An invoice's credit notes: number, status, amount, CUFE and PDF; each opens its own page. @param {DocumentDetail} inv */
export function creditNotesCard(inv) {
  if (inv.kind !== 'invoice' || inv.creditNotes.length === 0) return null;
  const label = (/** @type {string} */ key) => t(`invoices.col.${key}`);
  return card({
    title: t('notes.title'),
    id: 'credit-notes',
    flush: true,
    children: h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'data-table data-table--compact data-table--stack' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['number', 'status', 'amount', 'cufe'].map((key) =>
              h('th', { scope: 'col', class: key === 'amount' ? 'num' : null }, label(key)),
            ),
            h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t('detail.pdf'))),
          ),
        ),
        h(
          'tbody',
          null,
          inv.creditNotes.map((note) =>
            h(
              'tr',
              { dataset: { id: note.id, status: note.status } },
              h('td', { class: 'row-title mono' }, h('a', { href: detailHref(note) }, note.fiscalNumber ?? t('notes.unnumbered'))),
              h('td', { 'data-label': label('status') }, statusBadge(note)),
              h('td', { class: 'num', 'data-label': label('amount') }, formatMoney(note.totalCents, note.currency)),
              h('td', { class: 'mono subdued', 'data-label': label('cufe'), title: note.cufe ?? '' }, shortCufe(note.cufe)),
              h(
                'td',
                { 'data-label': t('detail.pdf') },
                note.pdfUrl ? h('a', { href: note.pdfUrl, target: '_blank', rel: 'noopener' }, t('detail.pdf')) : '—',
              ),
            ),
          ),
        ),
      ),
    ),
  });
}

/** A note's invoice (or that the order has none yet), the reference it carries and its refund. @param {DocumentDetail} inv */
export function noteInvoiceCard(inv) {
  if (inv.kind !== 'credit_note') return null;
  const invoice = inv.invoice;
  return card({
    title: t('note.invoice'),
    id: 'note-invoice',
    actions: invoice ? linkButton(t('note.openInvoice'), detailHref(invoice), { id: 'invoice-link', size: 'slim' }) : null,
    children: h(
      'dl',
      { class: 'summary' },
      invoice
        ? [
            field(
              t('detail.number'),
              invoice.fiscalNumber ? h('span', { class: 'mono', id: 'invoice-number' }, invoice.fiscalNumber) : null,
            ),
            field(t('detail.status'), statusBadge(invoice)),
          ]
        : h('p', { class: 'subdued', id: 'no-invoice' }, t('note.noInvoice')),
      inv.reference
        ? [
            field(t('note.referenceCufe'), h('span', { class: 'mono break', id: 'reference-cufe' }, inv.reference.cufe)),
            field(t('note.referenceDate'), h('span', { id: 'reference-date' }, formatDateTime(inv.reference.date))),
          ]
        : null,
      inv.refundId
        ? field(t('note.refund'), h('span', { class: 'mono', id: 'refund-id', title: inv.refundId }, inv.refundId.split('/').pop()))
        : null,
    ),
  });
}
