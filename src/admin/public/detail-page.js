// Detalle: one invoice — its state and reason, the PDF, the QR address and the Shopify order, the
// document sent, and each gateway call (credentials never reach the page).
import { ApiError, api } from './api.js';
import { banner, busy, button, card, clear, field, h, toast } from './dom.js';
import { t } from './i18n.js';
import { formatDateTime, formatDecimalText, formatMoney } from './format.js';
import { problemText, reasonAction, reasonTitle, statusBadge } from './invoice-status.js';

const REFRESH_MS = 1500;

export async function renderDetail(container, ctx, id) {
  let timer = 0;
  let disposed = false;

  async function load() {
    clearTimeout(timer);
    let invoice;
    try {
      ({ invoice } = await api('GET', `/api/invoices/${encodeURIComponent(id)}`));
    } catch (error) {
      if (disposed) return;
      const notFound = error instanceof ApiError && (error.status === 404 || error.status === 400);
      clear(container).append(
        backLink(),
        banner({ tone: 'critical', title: notFound ? t('detail.notFound') : t('app.loadFailed'), body: notFound ? null : error.message }),
      );
      return;
    }
    if (disposed) return;
    clear(container).append(...view(invoice));
    if (invoice.status === 'pending') {
      timer = window.setTimeout(async () => {
        await ctx.refreshShop().catch(() => undefined);
        if (!disposed) await load();
      }, REFRESH_MS);
    }
  }

  function backLink() {
    return h('a', { class: 'breadcrumb', href: '#/facturas' }, `‹ ${t('detail.back')}`);
  }

  function view(inv) {
    const actions = [];
    if (inv.retryable) {
      const retry = button(t('detail.retry'), { variant: 'primary', id: 'retry-invoice' });
      retry.addEventListener('click', () =>
        busy(retry, t('settings.saving'), async () => {
          const result = await api('POST', `/api/invoices/${encodeURIComponent(inv.id)}/retry`);
          toast(result.retried > 0 ? t('detail.retried') : t('detail.retryNothing'));
          await ctx.refreshShop().catch(() => undefined);
        }).then(() => load()),
      );
      actions.push(retry);
    }
    actions.push(
      inv.pdfUrl
        ? button(t('detail.pdf'), { href: inv.pdfUrl, target: '_blank', id: 'pdf-link' })
        : button(t('detail.noPdf'), { disabled: true, id: 'pdf-link' }),
    );
    if (inv.orderAdminUrl) actions.push(button(t('detail.order'), { href: inv.orderAdminUrl, target: '_blank', id: 'order-link' }));

    const parts = [
      backLink(),
      h(
        'div',
        { class: 'page__header' },
        h('h1', { class: 'page__title' }, t('detail.title', { order: inv.orderName }), ' ', statusBadge(inv)),
        h('div', { class: 'page__actions' }, actions),
      ),
    ];
    if (inv.reason) parts.push(reasonBanner(inv));
    if (inv.notice) parts.push(banner({ tone: 'info', title: t('detail.notice'), body: inv.notice }));
    parts.push(
      h(
        'div',
        { class: 'layout' },
        h('div', { class: 'layout__main' }, documentCard(inv), callsCard(inv)),
        h('div', { class: 'layout__side' }, summaryCard(inv)),
      ),
    );
    return parts;
  }

  function reasonBanner(inv) {
    const reason = inv.reason;
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
        reason.problems.length ? null : h('p', { class: 'subdued reason-message' }, `${t('detail.technical')}: ${reason.message}`),
      ],
    });
  }

  function summaryCard(inv) {
    const link = (url) => (url ? h('a', { href: url, target: '_blank', rel: 'noopener', class: 'break' }, url) : null);
    return card({
      title: t('detail.summary'),
      children: h(
        'dl',
        { class: 'summary' },
        field(t('detail.number'), inv.fiscalNumber ? h('span', { class: 'mono', id: 'fiscal-number' }, inv.fiscalNumber) : null),
        field(t('detail.amount'), formatMoney(inv.totalCents, inv.currency)),
        field(t('detail.status'), statusBadge(inv)),
        field(t('detail.environment'), inv.environment ? t(`env.name.${inv.environment}`) : null),
        field(t('detail.cufe'), inv.cufe ? h('span', { class: 'mono break', id: 'cufe' }, inv.cufe) : null),
        field(t('detail.qr'), link(inv.qr)),
        field(t('detail.protocol'), inv.protocol ? h('span', { class: 'mono' }, inv.protocol) : null),
        field(t('detail.received'), inv.receptionDateDgi),
        field(t('detail.created'), formatDateTime(inv.createdAt)),
        field(t('detail.authorized'), inv.authorizedAt ? formatDateTime(inv.authorizedAt) : null),
        field(t('detail.writtenBack'), inv.writtenBackAt ? formatDateTime(inv.writtenBackAt) : null),
        field(t('detail.step'), t(`detail.step.${inv.step}`)),
        inv.status === 'pending' ? field(t('detail.nextAttempt'), formatDateTime(inv.nextAttemptAt)) : null,
        inv.status !== 'completed' ? field(t('detail.attempts'), String(inv.attempts)) : null,
      ),
    });
  }

  function documentCard(inv) {
    const doc = inv.document;
    if (!doc) return card({ title: t('detail.document'), children: h('p', { class: 'subdued' }, t('detail.documentEmpty')) });
    const money = (v) => formatDecimalText(v, inv.currency);
    const items = Array.isArray(doc.listItems) ? doc.listItems : [];
    const totals = doc.totalsSubTotals ?? {};
    const client = doc.dataTransaction?.client ?? {};
    return card({
      title: t('detail.document'),
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
        h(
          'div',
          { class: 'table-scroll' },
          h(
            'table',
            { class: 'data-table data-table--compact', id: 'document-items' },
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                h('th', { scope: 'col' }, t('detail.doc.description')),
                h('th', { scope: 'col', class: 'num' }, t('detail.doc.quantity')),
                h('th', { scope: 'col', class: 'num' }, t('detail.doc.unitPrice')),
                h('th', { scope: 'col', class: 'num' }, t('detail.doc.discount')),
                h('th', { scope: 'col', class: 'num' }, t('detail.doc.itbms')),
                h('th', { scope: 'col', class: 'num' }, t('detail.doc.total')),
              ),
            ),
            h(
              'tbody',
              null,
              items.map((item) =>
                h(
                  'tr',
                  null,
                  h('td', null, item.description, h('span', { class: 'subdued block mono' }, item.code)),
                  h('td', { class: 'num' }, item.amount),
                  h('td', { class: 'num' }, money(item.priceUnit)),
                  h('td', { class: 'num' }, money(item.priceUnitDiscount)),
                  h('td', { class: 'num' }, money(item.valueITBMS)),
                  h('td', { class: 'num' }, money(item.totalValue)),
                ),
              ),
            ),
          ),
        ),
        h(
          'dl',
          { class: 'totals card__section' },
          field(t('detail.doc.net'), money(totals.totalPriceNet)),
          field(t('detail.doc.taxTotal'), money(totals.totalITBMS)),
          h(
            'div',
            { class: 'summary__row totals__grand' },
            h('dt', null, t('detail.doc.invoiceTotal')),
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

  function callsCard(inv) {
    if (inv.calls.length === 0) return card({ title: t('detail.calls'), children: h('p', { class: 'subdued' }, t('detail.callsEmpty')) });
    return card({
      title: t('detail.calls'),
      flush: true,
      children: h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'data-table data-table--compact', id: 'gateway-calls' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              h('th', { scope: 'col' }, t('detail.call.time')),
              h('th', { scope: 'col' }, t('detail.call.operation')),
              h('th', { scope: 'col' }, t('detail.call.code')),
              h('th', { scope: 'col' }, t('detail.call.message')),
              h('th', { scope: 'col', class: 'num' }, t('detail.call.duration')),
            ),
          ),
          h(
            'tbody',
            null,
            inv.calls.flatMap((c) => [
              h(
                'tr',
                { dataset: { operation: c.operation, code: c.code ?? '' } },
                h('td', { class: 'nowrap' }, formatDateTime(c.at)),
                h('td', { class: 'mono' }, c.operation),
                h(
                  'td',
                  null,
                  h('span', { class: ['code-pill', c.code === '200' ? 'code-pill--ok' : 'code-pill--bad'] }, c.code ?? c.outcome),
                ),
                h(
                  'td',
                  { class: 'wrap' },
                  c.message ?? c.outcome,
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
                h('td', { class: 'num' }, t('detail.ms', { ms: c.durationMs })),
              ),
            ]),
          ),
        ),
      ),
    });
  }

  await load();
  return () => {
    disposed = true;
    clearTimeout(timer);
  };
}
