// Facturas: counts per status as tabs, type, search and date filters, a data table paged by cursor, retry-all.
// Filters live in the address (#/facturas?status=…&kind=…&q=…&from=…&to=…&page=…) so back and forward work.
// At phone width each row stacks into a block, its cells labelled (styles/phone.css, .data-table--stack).
import { api, errorText } from './api.js';
import { busy, button, clear, dataTable, h, toast } from './dom.js';
import { t } from './i18n.js';
import { detailHref, kindLabel } from './credit-notes.js';
import { confirmDialog } from './document-actions.js';
import { bulkActions } from './bulk-actions.js';
import { formatDateTime, formatMoney, shortCufe } from './format.js';
import { reasonSummary, statusBadge } from './document-status.js';

/** @typedef {import('./page-types').DocumentSummary} DocumentSummary */
/** @typedef {{ status: string, kind: string, q: string, from: string, to: string, page: number }} Filters */

const TABS = ['all', 'needs_attention', 'failed', 'pending', 'waiting', 'completed', 'skipped'];
/** The document types ('' is both). */
const KINDS = ['', 'invoice', 'credit_note'];
const PAGE_SIZE = 50;
const REFRESH_MS = 2000;

/** Cursors of the pages seen, per filter: page n starts after cursors[n - 1]. @type {Map<string, (string | null)[]>} */
const cursorsByFilter = new Map();

/** @param {Filters} f */
function filterKey(f) {
  return JSON.stringify([f.status, f.kind, f.q, f.from, f.to]);
}

/** @param {URLSearchParams} params @returns {Filters} */
function readFilters(params) {
  const status = params.get('status') ?? '';
  const kind = params.get('kind') ?? '';
  return {
    status: TABS.includes(status) ? status : 'all',
    kind: KINDS.includes(kind) ? kind : '',
    q: params.get('q') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    page: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
  };
}

/** @param {Filters} f */
function filtersHash(f) {
  const p = new URLSearchParams();
  if (f.status && f.status !== 'all') p.set('status', f.status);
  if (f.kind) p.set('kind', f.kind);
  if (f.q) p.set('q', f.q);
  if (f.from) p.set('from', f.from);
  if (f.to) p.set('to', f.to);
  if (f.page > 1) p.set('page', String(f.page));
  const query = p.toString();
  return `#/facturas${query ? `?${query}` : ''}`;
}

/** @param {HTMLElement} container @param {import('./page-types').PageContext} ctx */
export async function renderInvoices(container, ctx) {
  const filters = readFilters(ctx.params);
  const key = filterKey(filters);
  const cursors = cursorsByFilter.get(key) ?? [null];
  cursorsByFilter.set(key, cursors);
  // A reload loses the cursors: start again at the first page.
  if (filters.page > cursors.length) filters.page = 1;

  let counts = ctx.shop.counts;
  let timer = 0;
  let disposed = false;

  const retryAllButton = button('', { id: 'retry-all' });
  const updateRetryAll = () => {
    const n = counts.failed + counts.needs_attention;
    retryAllButton.textContent = t('invoices.retryAll', { count: n });
    retryAllButton.disabled = n === 0;
  };
  retryAllButton.addEventListener('click', async () => {
    // Sending documents again may issue them: asked first, with how many.
    const count = counts.failed + counts.needs_attention;
    const confirmed = await confirmDialog({
      id: 'retry-all-dialog',
      title: t('retryAll.confirmTitle'),
      text: t('retryAll.confirmText', { count }),
      confirm: t('retryAll.confirm', { count }),
    });
    if (!confirmed) return;
    await busy(retryAllButton, t('settings.saving'), async () => {
      const result = await api('POST', '/api/invoices/retry', { statuses: ['failed', 'needs_attention'] });
      toast(result.retried > 0 ? t('invoices.retryAllDone', { count: result.retried }) : t('invoices.retryAllNone'));
      counts = result.counts;
      await load();
    });
    updateRetryAll();
  });
  const refreshButton = button(t('invoices.refresh'), { id: 'refresh', onClick: () => load() });

  const tabs = h('div', { class: 'filter-tabs', role: 'tablist', 'aria-label': t('tabs.label') });
  const renderTabs = () => {
    clear(tabs).append(
      ...TABS.map((status) =>
        h(
          'a',
          {
            class: ['filter-tab', filters.status === status ? 'filter-tab--active' : ''],
            role: 'tab',
            'aria-selected': filters.status === status ? 'true' : 'false',
            href: filtersHash({ ...filters, status, page: 1 }),
            dataset: { status },
          },
          t(`tabs.${status}`),
          h(
            'span',
            { class: 'filter-tab__count', dataset: { count: status } },
            String(counts[/** @type {keyof typeof counts} */ (status)] ?? 0),
          ),
        ),
      ),
    );
  };

  const search = h('input', {
    type: 'search',
    id: 'search',
    class: 'input',
    value: filters.q,
    placeholder: t('invoices.searchPlaceholder'),
    'aria-label': t('invoices.searchLabel'),
    maxlength: '100',
  });
  const from = h('input', { type: 'date', id: 'from', class: 'input', value: filters.from, 'aria-label': t('invoices.from') });
  const to = h('input', { type: 'date', id: 'to', class: 'input', value: filters.to, 'aria-label': t('invoices.to') });
  const kind = h(
    'select',
    { id: 'kind-filter', class: 'input select', 'aria-label': t('kinds.label') },
    KINDS.map((k) => h('option', { value: k, selected: k === filters.kind }, t(`kinds.${k || 'all'}`))),
  );
  const apply = () =>
    ctx.navigate(
      filtersHash({ status: filters.status, kind: kind.value, q: search.value.trim(), from: from.value, to: to.value, page: 1 }),
    );
  kind.addEventListener('change', apply);
  const filterBar = h(
    'form',
    { class: 'filters', onsubmit: (/** @type {Event} */ e) => (e.preventDefault(), apply()) },
    h(
      'label',
      { class: 'filters__search' },
      h('span', { class: 'visually-hidden' }, t('invoices.searchLabel')),
      h('span', { class: 'filters__icon', 'aria-hidden': 'true' }, '⌕'),
      search,
    ),
    h('label', { class: 'filters__kind' }, h('span', { class: 'visually-hidden' }, t('kinds.label')), kind),
    h('label', { class: 'filters__date' }, h('span', { class: 'filters__label' }, t('invoices.from')), from),
    h('label', { class: 'filters__date' }, h('span', { class: 'filters__label' }, t('invoices.to')), to),
    button(t('invoices.apply'), { type: 'submit', id: 'apply-filters' }),
    filters.q || filters.from || filters.to
      ? button(t('invoices.clear'), {
          variant: 'plain',
          onClick: () => ctx.navigate(filtersHash({ status: filters.status, kind: filters.kind, q: '', from: '', to: '', page: 1 })),
        })
      : null,
  );

  const bulk = bulkActions({
    key,
    filters: {
      status: filters.status === 'all' ? '' : filters.status,
      kind: filters.kind,
      q: filters.q,
      from: filters.from,
      to: filters.to,
    },
    reload: () => load(),
  });
  const body = h('div', { class: 'table-host', id: 'invoice-table', 'aria-live': 'polite' });
  const pager = h('nav', { class: 'pager', 'aria-label': t('invoices.pagination') });
  const hint = h('p', { class: 'footnote', hidden: true }, t('invoices.autoRefresh'));

  container.append(
    h(
      'div',
      { class: 'page__header' },
      h('h1', { class: 'page__title' }, t('invoices.title')),
      h('div', { class: 'page__actions' }, refreshButton, retryAllButton),
    ),
    h('section', { class: 'card card--flush' }, tabs, filterBar, bulk.bar, bulk.result, body, pager),
    hint,
  );
  renderTabs();
  updateRetryAll();

  async function load() {
    clearTimeout(timer);
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (filters.status !== 'all') query.set('status', filters.status);
    if (filters.kind) query.set('kind', filters.kind);
    if (filters.q) query.set('q', filters.q);
    if (filters.from) query.set('from', filters.from);
    if (filters.to) query.set('to', filters.to);
    const cursor = cursors[filters.page - 1];
    if (cursor) query.set('cursor', cursor);
    /** @type {{ invoices: DocumentSummary[], nextCursor: string | null }} */
    let list;
    try {
      [list, counts] = await Promise.all([api('GET', `/api/invoices?${query}`), api('GET', '/api/invoices/counts').then((r) => r.counts)]);
    } catch (error) {
      if (disposed) return;
      clear(body).append(
        h(
          'div',
          { class: 'empty' },
          h('p', { class: 'empty__title' }, t('app.loadFailed')),
          h('p', { class: 'subdued' }, errorText(error)),
        ),
      );
      return;
    }
    if (disposed) return;
    cursors.length = filters.page;
    if (list.nextCursor) cursors.push(list.nextCursor);
    renderTabs();
    updateRetryAll();
    renderTable(list.invoices);
    bulk.setPage(list.invoices, Boolean(list.nextCursor) || filters.page > 1);
    renderPager(Boolean(list.nextCursor));
    const inProgress = list.invoices.some((i) => i.status === 'pending');
    hint.hidden = !inProgress;
    if (inProgress) {
      timer = window.setTimeout(async () => {
        await ctx.refreshShop().catch(() => undefined);
        if (!disposed) await load();
      }, REFRESH_MS);
    }
  }

  /** @param {DocumentSummary[]} invoices */
  function renderTable(invoices) {
    if (invoices.length === 0) {
      const filtered = filters.status !== 'all' || filters.kind || filters.q || filters.from || filters.to;
      clear(body).append(
        h(
          'div',
          { class: 'empty' },
          h('div', { class: 'empty__art', 'aria-hidden': 'true' }, '🧾'),
          h('p', { class: 'empty__title' }, filtered ? t('invoices.emptyFiltered') : t('invoices.empty')),
          filtered ? null : h('p', { class: 'subdued' }, t('invoices.emptyDetail')),
        ),
      );
      return;
    }
    const columns = [
      /** @type {const} */ ([t('bulk.column'), false]),
      ...['order', 'type', 'number', 'amount', 'status', 'cufe', 'time', 'reason'].map(
        (c) => /** @type {const} */ ([t(`invoices.col.${c}`), c === 'amount']),
      ),
    ];
    // Each cell names its column, for the stacked rows at phone width.
    const cell = (/** @type {string} */ column, /** @type {string} */ cls, /** @type {import('./dom.js').Child} */ content) =>
      h('td', { class: cls, 'data-label': t(`invoices.col.${column}`) }, content);
    // Test and production number apart (docs/series.md): where the list mixes them, each number says which it is.
    const mixed = new Set(invoices.map((i) => i.environment).filter(Boolean)).size > 1;
    const environmentBadge = (/** @type {string} */ env) =>
      h(
        'span',
        { class: `badge badge--small badge--${env === 'produccion' ? 'success' : 'info'}`, dataset: { environment: env } },
        t(`env.name.${env}`),
      );
    const rows = invoices.map((inv) => {
      const href = detailHref(inv);
      return h(
        'tr',
        {
          class: 'row-link',
          dataset: { id: inv.id, order: inv.orderName, status: inv.status, kind: inv.kind },
          onclick: (/** @type {MouseEvent} */ e) => (e.target instanceof Element && e.target.closest('a') ? undefined : ctx.navigate(href)),
        },
        bulk.cell(inv),
        h(
          'td',
          { class: 'strong row-title' },
          h('a', { href, class: 'row-link__anchor' }, inv.orderName),
          inv.test ? h('span', { class: 'badge badge--neutral badge--small' }, t('invoices.test')) : null,
          inv.buyerRequested ? h('span', { class: 'badge badge--info badge--small' }, t('invoices.buyerRequested')) : null,
        ),
        cell('type', '', kindLabel(inv)),
        cell('number', 'mono', [inv.fiscalNumber ?? '—', mixed && inv.environment ? [' ', environmentBadge(inv.environment)] : null]),
        cell('amount', 'num', formatMoney(inv.totalCents, inv.currency)),
        cell('status', 'status-cell', statusBadge(inv)),
        h('td', { class: 'mono subdued', 'data-label': t('invoices.col.cufe'), title: inv.cufe ?? '' }, shortCufe(inv.cufe)),
        cell('time', 'nowrap', formatDateTime(inv.createdAt)),
        cell('reason', 'reason-cell', reasonSummary(inv) ?? h('span', { class: 'subdued' }, '—')),
      );
    });
    clear(body).append(dataTable({ class: 'data-table data-table--stack', columns, rows }));
  }

  /** @param {boolean} hasNext */
  function renderPager(hasNext) {
    clear(pager);
    if (filters.page === 1 && !hasNext) return;
    pager.append(
      button(`‹ ${t('invoices.previous')}`, {
        id: 'previous-page',
        disabled: filters.page === 1,
        onClick: () => ctx.navigate(filtersHash({ ...filters, page: filters.page - 1 })),
      }),
      h('span', { class: 'pager__label' }, t('invoices.page', { page: filters.page })),
      button(`${t('invoices.next')} ›`, {
        id: 'next-page',
        disabled: !hasNext,
        onClick: () => ctx.navigate(filtersHash({ ...filters, page: filters.page + 1 })),
      }),
    );
  }

  await load();
  return () => {
    disposed = true;
    clearTimeout(timer);
  };
}
