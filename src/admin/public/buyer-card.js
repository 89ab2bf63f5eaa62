// Página del comprador: the document's page for its buyer (its link, to send them) and, for an invoice, the buyer's
// request for an invoice with RUC: when, and what the app did (docs/buyer-page.md).
import { card, h } from './dom.js';
import { formatDateTime } from './format.js';
import { t } from './i18n.js';

/** @param {import('./page-types').DocumentDetail} inv */
export function buyerCard(inv) {
  const { url, request } = inv.buyer;
  const documentLink = (/** @type {string | null} */ id, /** @type {string} */ label) =>
    id ? h('a', { href: `#/facturas/${encodeURIComponent(id)}` }, label) : null;
  return card({
    title: t('buyer.title'),
    id: 'buyer-card',
    children: [
      h('p', { class: 'subdued' }, t(`buyer.help.${inv.kind}`)),
      h('p', null, h('a', { href: url, target: '_blank', rel: 'noopener noreferrer', class: 'mono break', id: 'buyer-link' }, url)),
      request
        ? h(
            'div',
            { id: 'buyer-request', dataset: { outcome: request.outcome } },
            h(
              'p',
              null,
              t('buyer.requested', { time: formatDateTime(request.requestedAt), language: t(`buyer.language.${request.language}`) }),
            ),
            h('p', null, t(`buyer.outcome.${request.outcome}`)),
            request.outcome === 'reissued'
              ? h(
                  'p',
                  null,
                  documentLink(request.creditNoteId, t('buyer.creditNote')),
                  ' · ',
                  documentLink(request.replacementId, t('buyer.replacement')),
                )
              : null,
          )
        : inv.kind === 'invoice'
          ? h('p', { class: 'subdued', id: 'buyer-request' }, t('buyer.notRequested'))
          : null,
    ],
  });
}
