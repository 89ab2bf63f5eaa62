// Detalle: one invoice or credit note — its state and reason, the PDF, the QR (an image the app draws, and its
// address) and the Shopify order, an invoice's notes or a note's invoice, the document sent, and each gateway call
// (credentials never reach the page). Dates are Panama's, and the summary says so.
import { ApiError, api, errorText } from './api.js';
import { clientCorrectionCard, clientReissueCard, loadClientForm } from './client-correction.js';
import { creditNotesCard, noteInvoiceCard } from './credit-notes.js';
import { replacementLinks, withheldActionsCard } from './document-actions.js';
import { buyerCard } from './buyer-card.js';
import { banner, busy, button, card, clear, dataTable, field, h, linkButton, toast } from './dom.js';
import { emailCard, loadEmails } from './email-card.js';
import { t } from './i18n.js';
import { formatDateTime, formatDecimalText, formatMoney } from './format.js';
import { localized, problemText, reasonAction, reasonTitle, statusBadge } from './document-status.js';

/** @typedef {import('./page-types').DocumentDetail} DocumentDetail */

const REFRESH_MS = 1500;

/** @param {HTMLElement} container @param {import('./page-types').PageContext} ctx @param {string} id */
export async function renderDetail(container, ctx, id) {
  let timer = 0;
  let disposed = false;
  /** The QR image of the address last drawn: a refresh of a pending invoice keeps it. @type {{ address: string, image: string } | null} */
  let qrImage = null;

  async function load() {
    clearTimeout(timer);
    /** @type {DocumentDetail} */
    let invoice;
    try {
      ({ invoice } = await api('GET', `/api/invoices/${encodeURIComponent(id)}`));
    } catch (error) {
      if (disposed) return;
      const notFound = error instanceof ApiError && (error.status === 404 || error.status === 400);
      clear(container).append(
        backLink(),
        banner({
          tone: 'critical',
          title: notFound ? t('detail.notFound') : t('app.loadFailed'),
          body: notFound ? null : errorText(error),
        }),
      );
      return;
    }
    if (disposed) return;
    const emails = invoice.status === 'completed' ? await loadEmails(id) : null;
    if (disposed) return;
    if (invoice.qr && qrImage?.address !== invoice.qr) {
      qrImage = await api('GET', `/api/invoices/${encodeURIComponent(id)}/qr`).catch(() => null);
      if (disposed) return;
    }
    const clientForm = await loadClientForm(invoice);
    if (disposed) return;
    show(invoice, emails, clientForm);
  }

  /**
   * @param {DocumentDetail} invoice @param {import('./page-types').EmailsView | null} emails
   * @param {import('./page-types').ClientForm | null} clientForm
   */
  function show(invoice, emails, clientForm) {
    clear(container).append(...view(invoice, emails, clientForm));
    if ([invoice, ...invoice.creditNotes].some((d) => d.status === 'pending')) {
      timer = window.setTimeout(async () => {
        await ctx.refreshShop().catch(() => undefined);
        if (!disposed) await load();
      }, REFRESH_MS);
    }
  }

  function backLink() {
    return h('a', { class: 'breadcrumb', href: '#/facturas' }, `‹ ${t('detail.back')}`);
  }

  /**
   * @param {DocumentDetail} inv @param {import('./page-types').EmailsView | null} emails
   * @param {import('./page-types').ClientForm | null} clientForm
   */
  function view(inv, emails, clientForm) {
    /** @type {HTMLElement[]} */
    const actions = [];
    if (inv.actions.retry.allowed) {
      const retry = button(t('detail.retry'), { variant: 'primary', id: 'retry-invoice' });
      retry.addEventListener('click', () =>
        busy(retry, t('settings.saving'), async () => {
          const result = await api('POST', `/api/invoices/${encodeURIComponent(inv.id)}/retry`);
          toast(result.retried > 0 ? t(`detail.retried.${inv.kind}`) : t('detail.retryNothing'));
          await ctx.refreshShop().catch(() => undefined);
        }).then(() => load()),
      );
      actions.push(retry);
    }
    actions.push(
      inv.pdfUrl
        ? linkButton(t('detail.pdf'), inv.pdfUrl, { newTab: true, id: 'pdf-link' })
        : button(t('detail.noPdf'), { disabled: true, id: 'pdf-link' }),
    );
    if (inv.orderAdminUrl) actions.push(linkButton(t('detail.order'), inv.orderAdminUrl, { newTab: true, id: 'order-link' }));

    const parts = [
      backLink(),
      h(
        'div',
        { class: 'page__header' },
        h('h1', { class: 'page__title' }, t(`detail.title.${inv.kind}`, { order: inv.orderName }), ' ', statusBadge(inv)),
        h('div', { class: 'page__actions' }, actions),
      ),
    ];
    if (inv.reason) parts.push(reasonBanner(inv));
    if (inv.notice) parts.push(banner({ tone: 'info', title: t('detail.notice'), body: localized(inv.notice) }));
    parts.push(
      h(
        'div',
        { class: 'layout' },
        h(
          'div',
          { class: 'layout__main' },
          noteInvoiceCard(inv),
          replacementLinks(inv),
          clientForm && inv.actions.correct_client.allowed ? clientCorrectionCard(inv, clientForm, corrected) : null,
          creditNotesCard(inv),
          documentCard(inv),
          emailCard(inv, emails, load),
          buyerCard(inv),
          callsCard(inv),
          clientForm && inv.actions.reissue.allowed ? clientReissueCard(inv, clientForm, (id) => ctx.navigate(`#/facturas/${id}`)) : null,
          withheldActionsCard(inv),
        ),
        h('div', { class: 'layout__side' }, summaryCard(inv), qrCard(inv)),
      ),
    );
    return parts;
  }

  /** Saved: the invoice as the server answered, back in the queue (the page follows it from there). @param {DocumentDetail} invoice */
  function corrected(invoice) {
    clearTimeout(timer);
    show(invoice, null, null);
    ctx.refreshShop().catch(() => undefined);
  }

  /** @param {DocumentDetail} inv */
  function reasonBanner(inv) {
    const reason = /** @type {import('./page-types').DocumentReason} */ (inv.reason);
    const tone =
      inv.status === 'failed'
        ? 'critical'
        : inv.status === 'skipped' || reason.kind === 'unavailable' || reason.kind === 'indeterminate'
          ? 'info'
          : 'warning';
    return banner({
      id: 'reason-banner',
      tone,
      title: reasonTitle(reason),
      body: [
        h('p', null, reasonAction(inv)),
        reason.problems.length
          ? h(
              'div',
              null,
              h('p', { class: 'strong' }, t('detail.problems')),
              h(
                'ul',
                { class: 'problems' },
                reason.problems.map((p) => h('li', null, problemText(p))),
              ),
            )
          : null,
        reason.problems.length ? null : h('p', { class: 'subdued reason-message' }, `${t('detail.technical')}: ${localized(reason.text)}`),
      ],
    });
  }

  /** @param {DocumentDetail} inv */
  function summaryCard(inv) {
    return card({
      title: t('detail.summary'),
      children: h(
        'dl',
        { class: 'summary' },
        field(t('detail.number'), inv.fiscalNumber ? h('span', { class: 'mono', id: 'fiscal-number' }, inv.fiscalNumber) : null),
        field(t('detail.amount'), formatMoney(inv.totalCents, inv.currency)),
        field(t('detail.status'), statusBadge(inv)),
        // Which environment the document went to: nothing to say before it went anywhere.
        inv.environment ? field(t('detail.environment'), t(`env.name.${inv.environment}`)) : null,
        inv.taxIdSource ? field(t('detail.taxIdSource'), h('span', { id: 'tax-id-source' }, t(`taxIdSource.${inv.taxIdSource}`))) : null,
        field(t('detail.cufe'), inv.cufe ? h('span', { class: 'mono break', id: 'cufe' }, inv.cufe) : null),
        field(t('detail.protocol'), inv.protocol ? h('span', { class: 'mono' }, inv.protocol) : null),
        inv.receptionDateDgi ? field(t('detail.received'), formatDateTime(inv.receptionDateDgi)) : null,
        field(t('detail.created'), formatDateTime(inv.createdAt)),
        field(t('detail.authorized'), inv.authorizedAt ? formatDateTime(inv.authorizedAt) : null),
        field(t('detail.writtenBack'), inv.writtenBackAt ? formatDateTime(inv.writtenBackAt) : null),
        field(t('detail.step'), t(`detail.step.${inv.step}`)),
        inv.status === 'pending' ? field(t('detail.nextAttempt'), formatDateTime(inv.nextAttemptAt)) : null,
        inv.status !== 'completed' ? field(t('detail.attempts'), String(inv.attempts)) : null,
        h('p', { class: 'subdued footnote--left', id: 'times-note' }, t('detail.times')),
      ),
    });
  }

  /** The QR a CAFE prints, drawn by the app, with its DGI address under it. @param {DocumentDetail} inv */
  function qrCard(inv) {
    if (!inv.qr) return null;
    return card({
      title: t('detail.qr'),
      id: 'qr-card',
      children: h(
        'div',
        { class: 'qr' },
        qrImage?.address === inv.qr
          ? h('img', { id: 'qr-image', class: 'qr__image', src: qrImage.image, alt: t('detail.qrImage'), width: 160, height: 160 })
          : null,
        h('a', { href: inv.qr, target: '_blank', rel: 'noopener', id: 'qr-link' }, t('detail.qrOpen')),
      ),
    });
  }

  /**
   * The document as mapped: "sent" once a SendDocument call was made; before that (a mapping problem, say)
   * there is nothing to show.
   * @param {DocumentDetail} inv
   */
  function documentCard(inv) {
    const doc = inv.document;
    if (!doc) return null;
    const sent = inv.calls.some((c) => c.operation === 'SendDocument');
    const money = (/** @type {unknown} */ v) => formatDecimalText(v, inv.currency);
    const items = Array.isArray(doc.listItems) ? doc.listItems : [];
    const totals = doc.totalsSubTotals ?? {};
    const client = doc.dataTransaction?.client ?? {};
    return card({
      title: sent ? t('detail.document') : t('detail.documentPrepared'),
      id: 'document-card',
      flush: true,
      children: [
        h(
          'div',
          { class: 'card__section' },
          h('p', { class: 'subdued' }, t('detail.doc.client')),
          h(
            'p',
            { class: 'strong' },
            [
              client.businessName,
              client.numberRUC ? `RUC ${client.numberRUC}${client.digitCheckRUC ? ` DV ${client.digitCheckRUC}` : ''}` : null,
            ]
              .filter(Boolean)
              .join(' · ') || '—',
          ),
        ),
        dataTable({
          class: 'data-table data-table--compact data-table--stack',
          id: 'document-items',
          columns: [
            [t('detail.doc.description')],
            ...['quantity', 'unitPrice', 'discount', 'itbms', 'total'].map((c) => /** @type {const} */ ([t(`detail.doc.${c}`), true])),
          ],
          rows: items.map((item) =>
            h(
              'tr',
              null,
              h('td', { class: 'row-title' }, item.description, h('span', { class: 'subdued block mono' }, item.code)),
              h('td', { class: 'num', 'data-label': t('detail.doc.quantity') }, item.amount),
              h('td', { class: 'num', 'data-label': t('detail.doc.unitPrice') }, money(item.priceUnit)),
              h('td', { class: 'num', 'data-label': t('detail.doc.discount') }, money(item.priceUnitDiscount)),
              h('td', { class: 'num', 'data-label': t('detail.doc.itbms') }, money(item.valueITBMS)),
              h('td', { class: 'num', 'data-label': t('detail.doc.total') }, money(item.totalValue)),
            ),
          ),
        }),
        h(
          'dl',
          { class: 'totals card__section' },
          field(t('detail.doc.net'), money(totals.totalPriceNet)),
          field(t('detail.doc.taxTotal'), money(totals.totalITBMS)),
          h(
            'div',
            { class: 'summary__row totals__grand' },
            h('dt', null, t(`detail.doc.total.${inv.kind}`)),
            h('dd', { id: 'document-total' }, money(totals.totalInvoice)),
          ),
        ),
        h(
          'details',
          { class: 'card__section disclosure' },
          h('summary', null, t('detail.doc.raw')),
          h('pre', { class: 'code' }, JSON.stringify(doc, null, 2)),
        ),
      ],
    });
  }

  /** @param {DocumentDetail} inv */
  function callsCard(inv) {
    if (inv.calls.length === 0) return card({ title: t('detail.calls'), children: h('p', { class: 'subdued' }, t('detail.callsEmpty')) });
    return card({
      title: t('detail.calls'),
      flush: true,
      children: dataTable({
        class: 'data-table data-table--compact data-table--stack',
        id: 'gateway-calls',
        columns: [
          ...['time', 'operation', 'code', 'message'].map((c) => /** @type {const} */ ([t(`detail.call.${c}`)])),
          [t('detail.call.duration'), true],
        ],
        rows: inv.calls.flatMap((c) => [
          h(
            'tr',
            { dataset: { operation: c.operation, code: c.code ?? '' } },
            h('td', { class: 'nowrap', 'data-label': t('detail.call.time') }, formatDateTime(c.at)),
            h('td', { class: 'mono', 'data-label': t('detail.call.operation') }, c.operation),
            h(
              'td',
              { 'data-label': t('detail.call.code') },
              h('span', { class: ['code-pill', c.code === '200' ? 'code-pill--ok' : 'code-pill--bad'] }, c.code ?? c.outcome),
            ),
            h(
              'td',
              { class: 'wrap', 'data-label': t('detail.call.message') },
              c.text ? localized(c.text) : c.outcome,
              h(
                'details',
                { class: 'disclosure' },
                h('summary', null, t('detail.call.show')),
                h('p', { class: 'subdued' }, t('detail.call.request')),
                h('pre', { class: 'code' }, JSON.stringify(c.request, null, 2)),
                h('p', { class: 'subdued' }, t('detail.call.response')),
                h('pre', { class: 'code' }, JSON.stringify(c.response, null, 2)),
              ),
            ),
            h('td', { class: 'num', 'data-label': t('detail.call.duration') }, t('detail.ms', { ms: c.durationMs })),
          ),
        ]),
      }),
    });
  }

  await load();
  return () => {
    disposed = true;
    clearTimeout(timer);
  };
}
