// Configuración's number series (docs/series.md): the shop's Shopify locations, each mapped to a branch and billing
// point (the `locations` setting, saved with the form); every series with its last number used, next number and gaps;
// moving a series forward (set-next); and the confirmation before switching to production, naming what changes.
import { ApiError, api, errorText } from './api.js';
import { badge, banner, busy, button, clear, dataTable, h, toast } from './dom.js';
import { t } from './i18n.js';
import { validateBillingPoint, validateBranch } from './settings-fields.js';

/** @typedef {{ branchCode: string, billingPoint: string }} Point */
/** @typedef {{ environment: string, branchCode: string, billingPoint: string, documentType: string, lastUsed: number | null, nextNumber: number, gaps: { from: number, to: number, reason: Record<string, any> & { kind: string } }[] }} Series */

const typeName = (/** @type {string} */ type) => (type === '01' || type === '04' ? t(`series.type.${type}`) : type);

/** @param {import('./page-types').ShopView} shop */
export function seriesSettings(shop) {
  /** @type {Record<string, Point>} */
  const mapped = { ...(shop.settings.locations ?? {}) };
  /** @type {Map<string, { branch: HTMLInputElement, point: HTMLInputElement, error: HTMLElement }>} */
  const rows = new Map();
  const locationsBody = h('div', { class: 'stack', id: 'locations' }, h('p', { class: 'subdued' }, t('app.loading')));
  const seriesBody = h('div', { class: 'stack', id: 'series' }, h('p', { class: 'subdued' }, t('app.loading')));
  /** @type {Series[]} */
  let series = [];

  /** One location's branch and point inputs. @param {string} id @param {import('./dom.js').Child} name @param {boolean} known */
  function locationRow(id, name, known) {
    const current = mapped[id];
    const branch = h('input', { class: 'input', id: `location-${id}-branch`, maxlength: 4, value: current?.branchCode ?? '' });
    const point = h('input', { class: 'input', id: `location-${id}-point`, maxlength: 3, value: current?.billingPoint ?? '' });
    branch.setAttribute('aria-label', `${t('settings.branchCode')} ${id}`);
    point.setAttribute('aria-label', `${t('settings.billingPoint')} ${id}`);
    const error = h('p', { class: 'field__error', hidden: true });
    rows.set(id, { branch, point, error });
    return h(
      'tr',
      { dataset: { location: id } },
      h('td', { 'data-label': t('series.location') }, name, known ? null : [' ', badge(t('series.unknown'), 'warning')]),
      h('td', { 'data-label': t('series.branch') }, branch),
      h('td', { 'data-label': t('series.point') }, point, error),
    );
  }

  async function loadLocations() {
    let answer;
    try {
      answer = await api('GET', '/api/locations');
    } catch (error) {
      answer = { available: false, error: errorText(error), locations: [], unknown: [] };
    }
    const known = /** @type {{ id: string, name: string, active: boolean }[]} */ (answer.locations);
    const knownIds = new Set(known.map((l) => l.id));
    // Mapped ids the shop lacks (or all of them when the shop's list could not be read) stay, flagged when known absent.
    const others = Object.keys(mapped).filter((id) => !knownIds.has(id));
    const table = dataTable({
      id: 'locations-table',
      class: 'table',
      columns: [[t('series.location')], [t('settings.branchCode')], [t('settings.billingPoint')]],
      rows: [
        ...known.map((l) =>
          locationRow(
            l.id,
            [
              h('strong', null, l.name),
              ' ',
              h('span', { class: 'subdued' }, t('series.locationId', { id: l.id })),
              l.active ? null : [' ', badge(t('series.inactive'))],
            ],
            true,
          ),
        ),
        ...others.map((id) => locationRow(id, t('series.locationId', { id }), !answer.available)),
      ],
    });
    clear(locationsBody).append(
      h(
        'div',
        { class: 'stack' },
        answer.available ? null : banner({ tone: 'warning', title: t('series.locationsUnavailable', { reason: answer.error ?? '' }) }),
        answer.unknown.length ? h('p', { class: 'subdued', id: 'locations-unknown' }, t('series.unknownHelp')) : null,
        known.length || others.length ? table : h('p', { class: 'subdued' }, t('series.noLocations')),
      ),
    );
  }

  /** The `locations` setting from the inputs; problems for the form's banner. */
  function collectLocations() {
    /** @type {Record<string, Point>} */
    const locations = {};
    /** @type {{ path: string, message: string }[]} */
    const problems = [];
    if (rows.size === 0) return { locations: mapped, problems };
    for (const [id, row] of rows) {
      const branchCode = row.branch.value.trim();
      const billingPoint = row.point.value.trim();
      row.error.hidden = true;
      if (!branchCode && !billingPoint) continue;
      const message =
        !branchCode || !billingPoint ? t('series.locationIncomplete') : (validateBranch(branchCode) ?? validateBillingPoint(billingPoint));
      if (message) {
        row.error.textContent = message;
        row.error.hidden = false;
        problems.push({ path: `locations.${id}`, message });
        continue;
      }
      locations[id] = { branchCode, billingPoint };
    }
    return { locations, problems };
  }

  /** @param {Series['gaps'][number]} g */
  function gapText(g) {
    const range = g.from === g.to ? String(g.from) : `${g.from}–${g.to}`;
    return `${range}: ${t(`series.gap.${g.reason.kind}`, g.reason)}`;
  }

  function renderSeries() {
    const table = dataTable({
      id: 'series-table',
      class: 'table',
      columns: [
        [t('series.environment')],
        [t('series.branch')],
        [t('series.point')],
        [t('series.type')],
        [t('series.lastUsed'), true],
        [t('series.next'), true],
        [t('series.gaps')],
      ],
      rows: series.map((s) =>
        h(
          'tr',
          { dataset: { series: `${s.environment} ${s.branchCode}-${s.billingPoint} ${s.documentType}` } },
          h(
            'td',
            { 'data-label': t('series.environment') },
            badge(t(`env.name.${s.environment}`), s.environment === 'produccion' ? 'success' : 'info'),
          ),
          h('td', { 'data-label': t('series.branch') }, s.branchCode),
          h('td', { 'data-label': t('series.point') }, s.billingPoint),
          h('td', { 'data-label': t('series.type') }, typeName(s.documentType)),
          h('td', { 'data-label': t('series.lastUsed'), class: 'num' }, s.lastUsed === null ? '—' : String(s.lastUsed)),
          h('td', { 'data-label': t('series.next'), class: 'num' }, String(s.nextNumber)),
          h(
            'td',
            { 'data-label': t('series.gaps') },
            s.gaps.length
              ? h(
                  'ul',
                  null,
                  s.gaps.map((g) => h('li', null, gapText(g))),
                )
              : t('series.noGaps'),
          ),
        ),
      ),
    });
    clear(seriesTable).append(series.length ? table : h('p', { class: 'subdued' }, t('series.none')));
  }

  async function loadSeries() {
    try {
      series = (await api('GET', '/api/series')).series;
      renderSeries();
    } catch (error) {
      clear(seriesTable).append(banner({ tone: 'critical', title: t('app.loadFailed'), body: errorText(error) }));
    }
  }

  // ── set-next ──────────────────────────────────────────────────────────────────
  const seriesTable = h('div', { id: 'series-list' });
  const input = (/** @type {string} */ id, /** @type {string} */ label, /** @type {string} */ value, /** @type {number} */ max) => {
    const el = h('input', { class: 'input', id, value, maxlength: max });
    return { el, field: h('div', { class: 'field' }, h('label', { class: 'field__label', for: id }, label), el) };
  };
  const envSelect = h(
    'select',
    { class: 'input select', id: 'set-next-environment' },
    ['produccion', 'pruebas'].map((e) => h('option', { value: e, selected: e === shop.settings.environment }, t(`env.name.${e}`))),
  );
  const typeSelect = h(
    'select',
    { class: 'input select', id: 'set-next-type' },
    ['01', '04'].map((v) => h('option', { value: v }, `${v} ${typeName(v)}`)),
  );
  const branch = input('set-next-branch', t('series.branch'), shop.settings.branchCode, 4);
  const point = input('set-next-point', t('series.point'), shop.settings.billingPoint, 3);
  const next = input('set-next-number', t('series.nextNumber'), '', 10);
  const result = h('div', { id: 'set-next-result', 'aria-live': 'polite' });
  const setButton = button(t('series.setNextButton'), { id: 'set-next' });
  setButton.addEventListener('click', () => busy(setButton, t('series.setNextSaving'), setNext));

  async function setNext() {
    clear(result);
    const number = next.el.value.trim();
    const problem = /^[1-9]\d{0,9}$/.test(number)
      ? (validateBranch(branch.el.value) ?? validateBillingPoint(point.el.value))
      : t('series.nextInvalid');
    if (problem) return void result.append(banner({ tone: 'critical', title: problem }));
    const body = {
      environment: envSelect.value,
      branchCode: branch.el.value.trim(),
      billingPoint: point.el.value.trim(),
      documentType: typeSelect.value,
      next: Number(number),
    };
    try {
      const answer = await api('POST', '/api/series/next', body);
      series = answer.series;
      renderSeries();
      const done =
        answer.outcome.kind === 'set' ? t('series.setNextDone', { next: answer.outcome.to }) : t('series.setNextSame', { next: body.next });
      result.append(banner({ tone: 'success', title: done }));
      toast(done);
    } catch (error) {
      const r = error instanceof ApiError ? error.body?.refusal : undefined;
      const title = r
        ? r.lastUsed !== null && r.next <= r.lastUsed
          ? t('series.refusedUsed', { ...r, continues: Math.max(r.nextNumber, r.lastUsed + 1) })
          : t('series.refusedReserved', { ...r, lastReserved: r.lastReserved ?? r.nextNumber - 1 })
        : errorText(error);
      result.append(banner({ tone: 'critical', title, id: 'set-next-refused' }));
    }
  }

  seriesBody.replaceChildren(
    seriesTable,
    h('h3', { class: 'annotated__title' }, t('series.setNext')),
    h('p', { class: 'subdued' }, t('series.setNextHelp')),
    h(
      'div',
      { class: 'grid grid--2' },
      h('div', { class: 'field' }, h('label', { class: 'field__label', for: 'set-next-environment' }, t('series.environment')), envSelect),
      h('div', { class: 'field' }, h('label', { class: 'field__label', for: 'set-next-type' }, t('series.type')), typeSelect),
      branch.field,
      point.field,
      next.field,
    ),
    h('div', { class: 'inline-actions' }, setButton),
    result,
  );

  // ── the switch to production ──────────────────────────────────────────────────
  /**
   * Ask before switching to production, naming what changes: documents fiscally valid, and where each production
   * series starts (the shop's point and every mapped location's, invoices and notes).
   * @param {Point} shopPoint @param {Record<string, Point>} locations
   * @returns {Promise<boolean>}
   */
  async function confirmProduction(shopPoint, locations) {
    await loadSeries();
    const points = new Map([[`${shopPoint.branchCode}-${shopPoint.billingPoint}`, shopPoint]]);
    const named = Object.values(locations).map((p) => /** @type {[string, Point]} */ ([`${p.branchCode}-${p.billingPoint}`, p]));
    for (const [name, p] of named.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) points.set(name, p);
    const starts = [...points.keys()].flatMap((name) =>
      ['01', '04'].map((type) => {
        const found = series.find(
          (s) => s.environment === 'produccion' && `${s.branchCode}-${s.billingPoint}` === name && s.documentType === type,
        );
        return h('li', null, t('series.switchSeries', { point: name, type: typeName(type), next: found?.nextNumber ?? 1 }));
      }),
    );
    const dialog = h(
      'dialog',
      { class: 'dialog', id: 'production-confirm', 'aria-labelledby': 'production-confirm-title' },
      h('h2', { class: 'annotated__title', id: 'production-confirm-title' }, t('series.switchTitle')),
      h('p', null, t('series.switchBody1')),
      h('p', null, t('series.switchBody2')),
      h('ul', { id: 'production-starts' }, starts),
      h('p', null, t('series.switchBody3')),
      h(
        'form',
        { method: 'dialog', class: 'inline-actions' },
        h('button', { class: 'btn btn--secondary', value: 'cancel', id: 'production-cancel' }, t('series.switchCancel')),
        h('button', { class: 'btn btn--primary', value: 'confirm', id: 'production-go' }, t('series.switchConfirm')),
      ),
    );
    document.body.append(dialog);
    const answer = new Promise((resolve) => dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm')));
    dialog.showModal();
    const confirmed = /** @type {boolean} */ (await answer);
    dialog.remove();
    if (!confirmed) toast(t('series.switchCancelled'));
    return confirmed;
  }

  void loadLocations();
  void loadSeries();
  return { locationsBody, seriesBody, collectLocations, confirmProduction };
}
