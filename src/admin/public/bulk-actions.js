// Bulk actions on the list (docs/merchants.md, "Acciones en lote"): a checkbox per row, "select this page", "select
// all N that match the filters", and a bar that retries, resends the e-mails or downloads the PDFs as one ZIP, then
// says what was done and what was refused, and why (the server's words, in the page's language). Retry may issue
// fiscal documents, so it asks first, saying how many. The selection is kept per filter while paging.
import { api, download, errorText } from './api.js';
import { busy, button, clear, h, toast } from './dom.js';
import { t } from './i18n.js';
import { confirmDialog } from './document-actions.js';

/** @typedef {import('./page-types').DocumentSummary} DocumentSummary */
/** @typedef {{ status?: string, kind?: string, q?: string, from?: string, to?: string }} ListFilters */
/** @typedef {{ ids: Set<string>, allMatching: number | null }} Selection */
/** @typedef {{ id: string, order: string | null, fiscalNumber: string | null, reason: string }} Refusal */

/** Selections per filter key: paging keeps what was ticked. @type {Map<string, Selection>} */
const selections = new Map();

/**
 * @param {{ key: string, filters: ListFilters, reload: () => Promise<void> }} o
 */
export function bulkActions(o) {
  const selection = selections.get(o.key) ?? { ids: new Set(), allMatching: null };
  selections.set(o.key, selection);
  /** @type {DocumentSummary[]} */
  let pageRows = [];
  let hasMore = false;
  /** @type {{ count: number, more: boolean, max: number } | null} */
  let matching = null;

  const pageBox = h('input', { type: 'checkbox', id: 'bulk-select-page', class: 'bulk-check' });
  const countText = h('span', { id: 'bulk-count', class: 'bulk-bar__count', 'aria-live': 'polite' });
  const retryButton = button('', { id: 'bulk-retry', size: 'slim' });
  const resendButton = button('', { id: 'bulk-resend', size: 'slim' });
  const zipButton = button('', { id: 'bulk-zip', size: 'slim' });
  const offer = h('p', { id: 'bulk-all-matching', class: 'bulk-bar__offer', hidden: true });
  const result = h('div', { id: 'bulk-result', class: 'bulk-result', hidden: true, 'aria-live': 'polite' });
  const bar = h(
    'div',
    { id: 'bulk-bar', class: 'bulk-bar', role: 'region', 'aria-label': t('bulk.label') },
    h(
      'div',
      { class: 'bulk-bar__row' },
      h('label', { class: 'bulk-bar__page' }, pageBox, h('span', null, t('bulk.selectPage'))),
      countText,
      h('div', { class: 'bulk-bar__actions' }, retryButton, resendButton, zipButton),
    ),
    offer,
  );

  const count = () => selection.allMatching ?? selection.ids.size;
  /** What the server is asked to act on. */
  const body = () =>
    selection.allMatching !== null
      ? { filters: Object.fromEntries(Object.entries(o.filters).filter(([, v]) => v)) }
      : { ids: [...selection.ids] };

  function update() {
    const n = count();
    countText.textContent = t('bulk.selected', { count: n });
    retryButton.textContent = t('bulk.retry', { count: n });
    resendButton.textContent = t('bulk.resend', { count: n });
    zipButton.textContent = t('bulk.zip', { count: n });
    for (const b of [retryButton, resendButton, zipButton]) b.disabled = n === 0;
    const onPage = pageRows.filter((r) => selection.ids.has(r.id)).length;
    pageBox.checked = pageRows.length > 0 && onPage === pageRows.length;
    pageBox.indeterminate = onPage > 0 && onPage < pageRows.length;
    for (const box of document.querySelectorAll('#invoice-table input.bulk-row')) {
      const input = /** @type {HTMLInputElement} */ (box);
      input.checked = selection.allMatching !== null || selection.ids.has(input.value);
    }
    renderOffer();
  }

  function renderOffer() {
    clear(offer);
    offer.hidden = true;
    if (selection.allMatching !== null) {
      offer.hidden = false;
      offer.append(
        t('bulk.allMatchingSelected', { count: selection.allMatching }),
        ' ',
        button(t('bulk.clear'), { id: 'bulk-clear', variant: 'plain', onClick: clearSelection }),
      );
      return;
    }
    if (!pageBox.checked || !hasMore || !matching) return;
    offer.hidden = false;
    offer.append(t('bulk.pageSelected', { count: pageRows.length }), ' ');
    if (matching.more) offer.append(h('span', { id: 'bulk-too-many' }, t('bulk.tooMany', { max: matching.max })));
    else {
      const all = /** @type {number} */ (matching.count);
      offer.append(
        button(t('bulk.selectAllMatching', { count: all }), {
          id: 'bulk-select-all',
          variant: 'plain',
          onClick: () => ((selection.allMatching = all), update()),
        }),
      );
    }
  }

  function clearSelection() {
    selection.ids.clear();
    selection.allMatching = null;
    update();
  }

  pageBox.addEventListener('change', async () => {
    selection.allMatching = null;
    for (const r of pageRows) {
      if (pageBox.checked) selection.ids.add(r.id);
      else selection.ids.delete(r.id);
    }
    update();
    if (pageBox.checked && hasMore && !matching) {
      const query = new URLSearchParams(Object.entries(o.filters).filter(([, v]) => v));
      matching = await api('GET', `/api/invoices/bulk/count?${query}`).catch(() => null);
    }
    update();
  });

  /** @param {string} title @param {{ done: number, refused: Refusal[] }} answer */
  function showResult(title, answer) {
    clear(result);
    result.append(
      h(
        'div',
        { class: 'bulk-result__head' },
        h('p', { class: 'strong', id: 'bulk-result-title' }, title),
        button(t('bulk.dismiss'), { variant: 'plain', onClick: () => (result.hidden = true) }),
      ),
    );
    if (answer.refused.length > 0)
      result.append(
        h(
          'div',
          null,
          h('p', { id: 'bulk-result-refused' }, t('bulk.refused', { count: answer.refused.length })),
          h(
            'ul',
            { class: 'bulk-result__list' },
            answer.refused.map((r) =>
              h(
                'li',
                { dataset: { id: r.id } },
                h('span', { class: 'strong' }, [r.order ?? r.id, r.fiscalNumber ? ` (${r.fiscalNumber})` : ''].join('')),
                ': ',
                h('span', { class: 'bulk-result__reason' }, r.reason),
              ),
            ),
          ),
        ),
      );
    result.hidden = false;
  }
  /** @param {unknown} error */
  const failed = (error) => {
    clear(result).append(h('p', { class: 'critical', id: 'bulk-result-title' }, `${t('bulk.failed')}: ${errorText(error)}`));
    result.hidden = false;
  };

  retryButton.addEventListener('click', async () => {
    const n = count();
    const confirmed = await confirmDialog({
      id: 'bulk-retry-dialog',
      title: t('bulk.retryConfirmTitle', { count: n }),
      text: t('bulk.retryConfirmText', { count: n }),
      confirm: t('bulk.retry', { count: n }),
    });
    if (!confirmed) return;
    await busy(retryButton, t('bulk.working'), async () => {
      try {
        const answer = await api('POST', '/api/invoices/bulk/retry', body());
        showResult(t('bulk.retried', { count: answer.done }), answer);
        await o.reload();
      } catch (error) {
        failed(error);
      }
    });
    update();
  });

  resendButton.addEventListener('click', async () => {
    await busy(resendButton, t('bulk.working'), async () => {
      try {
        const answer = await api('POST', '/api/invoices/bulk/resend', body());
        showResult(t('bulk.resent', { count: answer.done }), answer);
      } catch (error) {
        failed(error);
      }
    });
    update();
  });

  zipButton.addEventListener('click', async () => {
    await busy(zipButton, t('bulk.working'), async () => {
      try {
        const saved = await download('/api/invoices/bulk/pdfs.zip', body());
        const leftOut = Number(saved.headers.get('X-Documents-Left-Out') ?? '0');
        const zipped = Number(saved.headers.get('X-Documents-Zipped') ?? '0');
        toast(t('bulk.zipped', { count: zipped }));
        if (leftOut > 0) showResult(t('bulk.zippedLeftOut', { count: zipped, left: leftOut }), { done: zipped, refused: [] });
      } catch (error) {
        failed(error);
      }
    });
    update();
  });

  return {
    bar,
    result,
    /** The checkbox cell of a row; a click on it selects, never opens the document. @param {DocumentSummary} inv */
    cell(inv) {
      const box = h('input', {
        type: 'checkbox',
        class: 'bulk-check bulk-row',
        value: inv.id,
        'aria-label': t('bulk.selectRow', { order: inv.orderName }),
      });
      box.checked = selection.allMatching !== null || selection.ids.has(inv.id);
      box.addEventListener('change', () => {
        if (selection.allMatching !== null) {
          // Unticking one of "all that match" goes back to the page's ticks.
          selection.allMatching = null;
          for (const r of pageRows) selection.ids.add(r.id);
        }
        if (box.checked) selection.ids.add(inv.id);
        else selection.ids.delete(inv.id);
        update();
      });
      return h('td', { class: 'bulk-cell', onclick: (/** @type {Event} */ e) => e.stopPropagation() }, box);
    },
    /** After each load: the rows shown and whether more match than this page. @param {DocumentSummary[]} rows @param {boolean} more */
    setPage(rows, more) {
      pageRows = rows;
      hasMore = more;
      bar.hidden = rows.length === 0;
      update();
    },
  };
}
