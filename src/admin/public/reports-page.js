// Informes: the accountant's month (docs/reports.md). A month and an environment, the figures as Form 430 asks for
// them (sales by ITBMS rate, exempt sales, credit notes netted), each series' numbers and gaps, the downloads (CSV,
// XLSX, ZIP of the PDFs) and the monthly e-mail to the accountant with its resend.
import { ApiError, api, download, errorText } from './api.js';
import { badge, busy, button, card, clear, dataTable, h, toast } from './dom.js';
import { formatDateTime, formatMoney } from './format.js';
import { t } from './i18n.js';

/** @typedef {import('./page-types').MonthFigures} MonthFigures */
/** @typedef {import('./page-types').ReportEmailsView} ReportEmailsView */

/** The month before today's in Panamá (UTC−5), `YYYY-MM`: the one the accountant files. */
export function previousMonth(now = new Date()) {
  const panama = new Date(now.getTime() - 5 * 3600_000);
  const year = panama.getUTCFullYear();
  const month = panama.getUTCMonth(); // 0-based: this is already the previous month's number
  return month === 0 ? `${year - 1}-12` : `${year}-${String(month).padStart(2, '0')}`;
}

/** @param {number} cents */
const money = (cents) => formatMoney(cents, 'USD');

/** @param {MonthFigures} f */
function summaryTable(f) {
  const columns = /** @type {const} */ ([
    [t('reports.col.line'), false],
    [t('reports.col.invoicesBase'), true],
    [t('reports.col.invoicesItbms'), true],
    [t('reports.col.notesBase'), true],
    [t('reports.col.notesItbms'), true],
    [t('reports.col.netBase'), true],
    [t('reports.col.netItbms'), true],
  ]);
  /** @param {string} label @param {{ baseCents: number, itbmsCents: number }[]} parts @param {string} id */
  const row = (label, parts, id) =>
    h(
      'tr',
      { id },
      h('th', { scope: 'row', 'data-label': columns[0][0] }, label),
      parts.flatMap((p, i) => [
        h('td', { class: 'num', 'data-label': columns[1 + 2 * i]?.[0] }, money(p.baseCents)),
        h('td', { class: 'num', 'data-label': columns[2 + 2 * i]?.[0] }, money(p.itbmsCents)),
      ]),
    );
  const rows = [
    ...f.rates.map((r) => row(t(`reports.rate.${r.rate}`), [r.invoices, r.creditNotes, r.net], `rate-${r.rate}`)),
    row(t('reports.total'), [f.invoices, f.creditNotes, f.net], 'rate-total'),
  ];
  return dataTable({ id: 'report-summary', class: 'data-table data-table--stack', columns, rows });
}

/** @param {MonthFigures} f */
function totals(f) {
  return h(
    'dl',
    { class: 'summary', id: 'report-totals' },
    h(
      'div',
      { class: 'summary__row' },
      h('dt', null, t('reports.invoices', { count: f.invoices.count })),
      h('dd', { id: 'total-invoices' }, money(f.invoices.totalCents)),
    ),
    h(
      'div',
      { class: 'summary__row' },
      h('dt', null, t('reports.notes', { count: f.creditNotes.count })),
      h('dd', { id: 'total-notes' }, money(-f.creditNotes.totalCents)),
    ),
    h('div', { class: 'summary__row' }, h('dt', null, t('reports.net')), h('dd', { id: 'total-net' }, money(f.net.totalCents))),
  );
}

/** @param {import('./page-types').SeriesFigures['gaps'][number]['reason']} r */
function gapText(r) {
  if (r.kind === 'skipped') return t('reports.gap.skipped');
  if (r.kind === 'other_month') return t('reports.gap.other_month', { month: r.month });
  if (r.kind === 'other_environment') return t('reports.gap.other_environment', { environment: t(`env.name.${r.environment}`) });
  if (r.kind === 'not_authorized') return t('reports.gap.not_authorized', { status: t(`status.${r.status}`) });
  return t('reports.gap.unrecorded');
}

/** @param {MonthFigures} f */
function seriesList(f) {
  if (f.series.length === 0) return h('p', { class: 'subdued', id: 'series-none' }, t('reports.empty'));
  return h(
    'ul',
    { class: 'series', id: 'report-series' },
    f.series.map((s) =>
      h(
        'li',
        { class: 'series__item', dataset: { type: s.documentType } },
        h(
          'p',
          null,
          h('strong', null, t(`reports.type.${s.documentType === '04' ? 'notes' : 'invoices'}`)),
          ' · ',
          t('reports.seriesCount', { count: s.count }),
        ),
        h('p', { class: 'mono' }, `${s.first} → ${s.last}`),
        s.gaps.length === 0
          ? h('p', { class: 'subdued' }, t('reports.noGaps'))
          : h(
              'ul',
              { class: 'gaps' },
              s.gaps.map((g) =>
                h('li', null, badge(g.from === g.to ? String(g.from) : `${g.from}–${g.to}`, 'attention'), ' ', gapText(g.reason)),
              ),
              s.moreGaps ? h('li', null, t('reports.moreGaps')) : null,
            ),
      ),
    ),
  );
}

/** @param {ReportEmailsView | null} view @param {string} month @param {() => void} reload */
function emailPart(view, month, reload) {
  if (!view) return null;
  const resend = button(t('reports.email.resend'), {
    id: 'report-resend',
    disabled: !view.configured || !view.accountantEmail,
    size: 'slim',
  });
  resend.addEventListener('click', () =>
    busy(resend, t('email.resending'), async () => {
      try {
        await api('POST', `/api/reports/month/email?month=${encodeURIComponent(month)}`);
        toast(t('reports.email.queued'));
      } catch (error) {
        toast(error instanceof ApiError && error.body?.code ? t(`reports.email.refused.${error.body.code}`) : errorText(error));
      }
    }).then(reload),
  );
  const last = view.emails[0];
  return h(
    'div',
    { id: 'report-email', class: 'stack' },
    h('p', null, view.accountantEmail ? t('reports.email.to', { address: view.accountantEmail }) : t('reports.email.noAddress')),
    last
      ? h(
          'p',
          { class: 'subdued', id: 'report-email-last' },
          badge(t(`email.status.${last.status}`), last.status === 'sent' ? 'success' : last.status === 'failed' ? 'critical' : 'attention'),
          ' ',
          last.sentAt ? t('email.sentAt', { time: formatDateTime(last.sentAt) }) : t('email.attempts', { count: last.attempts }),
        )
      : null,
    h('div', null, resend),
  );
}

/** @param {HTMLElement} container @param {import('./page-types').PageContext} ctx */
export async function renderReports(container, ctx) {
  const month = h('input', {
    type: 'month',
    class: 'input',
    id: 'report-month',
    value: ctx.params.get('mes') ?? previousMonth(),
    required: true,
  });
  const environment = h(
    'select',
    { id: 'report-environment', class: 'input select' },
    ['produccion', 'pruebas'].map((env) =>
      h('option', { value: env, selected: (ctx.params.get('ambiente') ?? 'produccion') === env }, t(`env.name.${env}`)),
    ),
  );
  const body = h('div', { id: 'report-body', class: 'stack' });
  const query = () => `month=${encodeURIComponent(month.value)}&environment=${encodeURIComponent(environment.value)}`;

  async function load() {
    clear(body).append(h('p', { class: 'loading', role: 'status' }, t('app.loading')));
    let figures;
    try {
      figures = /** @type {MonthFigures} */ (await api('GET', `/api/reports/month?${query()}`));
    } catch (error) {
      clear(body).append(h('p', { class: 'field__error', role: 'alert', id: 'report-error' }, errorText(error)));
      return;
    }
    const emails = /** @type {ReportEmailsView | null} */ (
      await api('GET', `/api/reports/month/email?month=${encodeURIComponent(month.value)}`).catch(() => null)
    );
    const downloads = ['csv', 'xlsx', 'zip'].map((format) => {
      const b = button(t(`reports.download.${format}`), { id: `download-${format}`, size: 'slim' });
      b.addEventListener('click', () =>
        busy(b, t('reports.downloading'), () =>
          download(`/api/reports/month?${query()}&format=${format}`).catch((error) => toast(errorText(error))),
        ),
      );
      return b;
    });
    clear(body).append(
      card({
        title: t('reports.summaryTitle', { month: figures.month }),
        id: 'report-summary-card',
        children: [summaryTable(figures), totals(figures)],
      }),
      card({
        title: t('reports.downloads'),
        id: 'report-downloads',
        children: h(
          'div',
          { class: 'stack' },
          h('p', { class: 'subdued' }, t('reports.downloadsHelp')),
          h('div', { class: 'button-row' }, downloads),
          emailPart(emails, month.value, () => void load()),
        ),
      }),
      card({ title: t('reports.seriesTitle'), id: 'report-series-card', children: seriesList(figures) }),
    );
  }

  const show = button(t('reports.show'), { variant: 'primary', id: 'report-show', type: 'submit' });
  const form = h(
    'form',
    { class: 'filters', id: 'report-form' },
    h('label', { class: 'field' }, h('span', { class: 'field__label' }, t('reports.month')), month),
    h('label', { class: 'field' }, h('span', { class: 'field__label' }, t('reports.environment')), environment),
    show,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void load();
  });
  container.append(h('h1', { class: 'page__title' }, t('reports.title')), h('p', { class: 'subdued' }, t('reports.intro')), form, body);
  await load();
}
