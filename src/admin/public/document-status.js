// How an invoice's state and reason read: one badge per state, and for anything not authorized a
// headline and what to do, in the merchant's language.
import { badge, h } from './dom.js';
import { language, t } from './i18n.js';

/** @typedef {import('./page-types').DocumentSummary} DocumentSummary */

/** The page's words for a state: the reference the CLI and docs/merchants.md follow. @param {DocumentSummary} inv */
export function statusBadge(inv) {
  switch (inv.status) {
    case 'completed':
      return badge(t('status.completed'), 'success');
    case 'needs_attention':
      return badge(t('status.needs_attention'), 'warning');
    case 'failed':
      return badge(t('status.failed'), 'critical');
    case 'skipped':
      return badge(t('status.skipped'), 'neutral');
    // A credit note waiting for its invoice (or its refund): it goes on by itself.
    case 'waiting':
      return badge(t('status.waiting'), 'attention');
    case 'pending':
      if (inv.authorized)
        return badge(t('status.authorizedFinishing'), 'success', h('span', { class: 'badge__note' }, ` · ${t('status.finishing')}`));
      // Waiting for the merchant (settings), not for the gateway: on hold, not retrying.
      if (['paused', 'disabled', 'credentials'].includes(inv.reason?.kind ?? '')) return badge(t('status.onHold'), 'attention');
      if (inv.reason) return badge(t('status.retrying'), 'attention');
      return badge(t('status.pending'), 'info');
    default:
      return badge(inv.status, 'neutral');
  }
}

/** Text the server sent in both languages (its message catalogue), in the page's. @param {import('./page-types').Localized} text */
export function localized(text) {
  return text[language()];
}

/** The reason's headline. @param {import('./page-types').DocumentReason} reason */
export function reasonTitle(reason) {
  return localized(reason.title);
}

/** What the merchant can do about it. @param {DocumentSummary} inv */
export function reasonAction(inv) {
  return inv.reason ? localized(inv.reason.action) : '';
}

/** A mapping problem in the page's language. @param {import('./page-types').ReasonProblem} p */
export function problemText(p) {
  return localized(p.text);
}

/** One or two lines for the list. @param {DocumentSummary} inv */
export function reasonSummary(inv) {
  if (!inv.reason) return null;
  const first = inv.reason.problems?.[0];
  const more = (inv.reason.problems?.length ?? 0) - 1;
  const detail = first ? problemText(first) + (more > 0 ? ` (+${more})` : '') : reasonAction(inv);
  return h(
    'div',
    { class: 'reason', title: localized(inv.reason.text) },
    h(
      'span',
      { class: 'reason__title' },
      reasonTitle(inv.reason),
      inv.reason.code ? h('span', { class: 'reason__code' }, ` · ${t('reason.code', { code: inv.reason.code })}`) : null,
    ),
    h('span', { class: 'reason__detail' }, detail),
  );
}
