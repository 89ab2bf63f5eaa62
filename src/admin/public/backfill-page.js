// Pedidos anteriores: invoice the paid orders of a range of days (docs/backfill.md). The range, the dry run's summary
// (paid orders, total, already invoiced, to invoice, what cannot be invoiced and why), a start that asks first naming
// what will be issued, the running backfill's progress (polled) with its cancel, and the latest one's result.
import { ApiError, api, config, errorText } from './api.js';
import { badge, banner, busy, button, card, clear, h, toast } from './dom.js';
import { confirmDialog } from './document-actions.js';
import { formatDateTime, formatDecimalText } from './format.js';
import { t } from './i18n.js';

/** @typedef {import('./page-types').BackfillProgress} BackfillProgress */
/** @typedef {import('./page-types').BackfillDryRun} BackfillDryRun */

const DAY = 86_400_000;
const POLL_MS = 1500;

/** A day in Panamá (UTC−5, no daylight saving), `YYYY-MM-DD`. @param {number} ms */
export function panamaDay(ms) {
  return new Date(ms - 5 * 3600_000).toISOString().slice(0, 10);
}

/** 65 → "1 min 05 s"; 42 → "42 s". @param {number} seconds */
export function durationText(seconds) {
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** @type {Record<string, 'info'|'success'|'attention'|'critical'>} */
const STATUS_TONE = { running: 'info', done: 'success', cancelled: 'attention', failed: 'critical' };

/**
 * A refusal of the API, in the reader's language (the API answers in it). Missing read_all_orders offers the optional
 * scope through App Bridge inside the admin; outside it the text says where to grant it.
 * @param {unknown} error
 */
function errorBanner(error) {
  const code = error instanceof ApiError ? error.body?.code : undefined;
  /** @type {import('./dom.js').Child} */
  let actions = null;
  if (code === 'needs_read_all_orders') {
    const bridge = window.shopify;
    if (config.embedded && typeof bridge?.scopes?.request === 'function') {
      const grant = button(t('backfill.grantScope'), { id: 'backfill-grant-scope', size: 'slim' });
      grant.addEventListener('click', () =>
        busy(grant, t('app.loading'), async () => {
          await bridge.scopes?.request(['read_all_orders']).catch((/** @type {unknown} */ e) => toast(errorText(e)));
        }),
      );
      actions = grant;
    } else actions = h('p', { class: 'subdued', id: 'backfill-scope-outside' }, t('backfill.scopeOutside'));
  }
  return banner({ id: 'backfill-error', tone: 'critical', title: t('backfill.error'), body: errorText(error), actions });
}

/** @param {string} id @param {string} label @param {import('./dom.js').Child} value */
const figure = (id, label, value) => h('div', { class: 'summary__row' }, h('dt', null, label), h('dd', { id }, value));

/** @param {HTMLElement} container @param {import('./page-types').PageContext} _ctx */
export async function renderBackfill(container, _ctx) {
  const today = panamaDay(Date.now());
  const from = h('input', { type: 'date', class: 'input', id: 'backfill-from', value: panamaDay(Date.now() - 30 * DAY), max: today });
  const to = h('input', { type: 'date', class: 'input', id: 'backfill-to', value: today, max: today });
  const messages = h('div', { id: 'backfill-messages', class: 'stack' });
  const summary = h('div', { id: 'backfill-summary-host' });
  const progress = h('div', { id: 'backfill-progress-host' });
  let timer = 0;
  let stopped = false;

  /** @param {BackfillProgress | null} b */
  function showBackfill(b) {
    clear(progress);
    if (!b) return;
    const running = b.status === 'running';
    /** @type {import('./dom.js').Child[]} */
    const rows = [
      h('p', null, badge(t(`backfill.status.${b.status}`), STATUS_TONE[b.status] ?? 'neutral')),
      h('progress', { id: 'backfill-bar', class: 'progress', max: String(Math.max(b.total, 1)), value: String(b.done) }),
      h('p', { id: 'backfill-count' }, t('backfill.count', { done: b.done, total: b.total })),
    ];
    if (running) {
      if (!b.read) rows.push(h('p', { class: 'subdued', id: 'backfill-reading' }, t('backfill.reading', { count: b.ordersRead })));
      rows.push(
        h(
          'p',
          { id: 'backfill-time-left' },
          b.secondsLeft === null ? t('backfill.timeUnknown') : t('backfill.timeLeft', { time: durationText(b.secondsLeft) }),
        ),
      );
      const cancel = button(t('backfill.cancel'), { id: 'backfill-cancel', variant: 'critical' });
      cancel.addEventListener('click', async () => {
        const confirmed = await confirmDialog({
          id: 'backfill-cancel-dialog',
          title: t('backfill.cancelTitle'),
          text: t('backfill.cancelText'),
          confirm: t('backfill.cancelConfirm'),
        });
        if (!confirmed) return;
        await busy(cancel, t('backfill.cancelling'), async () => {
          try {
            const answer = await api('POST', '/api/backfill/cancel', {});
            toast(t('backfill.cancelled', { count: answer.removed }));
            showBackfill(answer.backfill);
          } catch (error) {
            clear(messages).append(errorBanner(error));
          }
        });
      });
      rows.push(h('div', { class: 'button-row' }, cancel));
    } else {
      rows.push(
        h(
          'dl',
          { class: 'summary', id: 'backfill-result' },
          figure('backfill-completed', t('backfill.completed'), String(b.byStatus.completed ?? 0)),
          figure('backfill-needs-attention', t('backfill.needsAttention'), String(b.byStatus.needs_attention ?? 0)),
          figure('backfill-failed', t('backfill.failedCount'), String(b.byStatus.failed ?? 0)),
        ),
        b.error ? h('p', { class: 'field__error', role: 'alert' }, b.error) : null,
        h('p', { class: 'subdued', id: 'backfill-finished-at' }, t('backfill.finishedAt', { time: formatDateTime(b.finishedAt) })),
      );
    }
    const title = t(running ? 'backfill.progressTitle' : 'backfill.resultTitle', { from: b.from, to: b.to });
    progress.append(card({ title, id: running ? 'backfill-progress' : 'backfill-latest', children: h('div', { class: 'stack' }, rows) }));
    if (running) schedule();
  }

  function schedule() {
    clearTimeout(timer);
    if (stopped) return;
    timer = window.setTimeout(() => void poll(), POLL_MS);
  }

  async function poll() {
    try {
      const answer = await api('GET', '/api/backfill');
      if (!stopped) showBackfill(answer.backfill);
    } catch {
      // A lost answer (network, a deploy): ask again on the next tick.
      schedule();
    }
  }

  /** @param {BackfillDryRun} dry */
  function showSummary(dry) {
    const cannot = dry.cannotInvoice;
    const expected = dry.toInvoice + cannot.length;
    const start = button(t('backfill.start', { count: dry.toInvoice }), {
      id: 'backfill-start',
      variant: 'primary',
      disabled: expected === 0,
    });
    start.addEventListener('click', async () => {
      const confirmed = await confirmDialog({
        id: 'backfill-confirm',
        title: t('backfill.confirmTitle', { count: dry.toInvoice }),
        text: t('backfill.confirmText', { count: dry.toInvoice, today: panamaDay(Date.now()), cannot: cannot.length }),
        confirm: t('backfill.confirm'),
      });
      if (!confirmed) return;
      await busy(start, t('backfill.starting'), async () => {
        try {
          const answer = await api('POST', '/api/backfill', { from: dry.from, to: dry.to, expected });
          clear(summary);
          showBackfill(answer.backfill);
        } catch (error) {
          clear(messages).append(errorBanner(error));
          if (error instanceof ApiError && error.body?.code === 'backfill_running') await poll();
        }
      });
    });
    clear(summary).append(
      card({
        title: t('backfill.summaryTitle', { from: dry.from, to: dry.to }),
        id: 'backfill-summary',
        children: h(
          'div',
          { class: 'stack' },
          h(
            'dl',
            { class: 'summary' },
            figure('backfill-orders', t('backfill.orders'), String(dry.orders)),
            figure('backfill-total', t('backfill.total'), formatDecimalText(dry.total, 'USD')),
            figure('backfill-already', t('backfill.alreadyInvoiced'), String(dry.alreadyInvoiced)),
            figure('backfill-to-invoice', t('backfill.toInvoice'), String(dry.toInvoice)),
          ),
          cannot.length
            ? h(
                'div',
                { id: 'backfill-cannot' },
                h('h3', { class: 'card__subtitle' }, t('backfill.cannotTitle', { count: cannot.length })),
                h('p', { class: 'subdued' }, t('backfill.cannotHelp')),
                h(
                  'ul',
                  { class: 'gaps', id: 'backfill-cannot-list' },
                  cannot.map((c) => h('li', null, h('strong', null, c.order), ' — ', c.reason)),
                ),
              )
            : null,
          expected === 0 ? h('p', { class: 'subdued', id: 'backfill-nothing' }, t('backfill.nothing')) : null,
          h('div', { class: 'button-row' }, start),
        ),
      }),
    );
  }

  const review = button(t('backfill.review'), { variant: 'primary', id: 'backfill-review', type: 'submit' });
  const form = h(
    'form',
    { class: 'filters', id: 'backfill-form' },
    h('label', { class: 'field' }, h('span', { class: 'field__label' }, t('backfill.from')), from),
    h('label', { class: 'field' }, h('span', { class: 'field__label' }, t('backfill.to')), to),
    review,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(review, t('backfill.reviewing'), async () => {
      clear(messages);
      clear(summary);
      try {
        showSummary(/** @type {BackfillDryRun} */ (await api('POST', '/api/backfill/dry-run', { from: from.value, to: to.value })));
      } catch (error) {
        messages.append(errorBanner(error));
      }
    });
  });
  container.append(
    h('h1', { class: 'page__title' }, t('backfill.title')),
    h('p', { class: 'subdued', id: 'backfill-intro' }, t('backfill.intro')),
    form,
    messages,
    progress,
    summary,
  );
  await poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
