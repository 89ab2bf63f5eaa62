// Correo al comprador: a document's e-mails to its buyer (to whom, why, sent when, or why not yet) and Reenviar.
import { ApiError, api, errorText } from './api.js';
import { badge, busy, button, card, h, toast } from './dom.js';
import { formatDateTime } from './format.js';
import { t } from './i18n.js';
import { localized } from './document-status.js';

/** @typedef {import('./page-types').EmailsView} EmailsView */

/** The document's e-mails, or null when they cannot be read (the card is left out). @param {string} id */
export async function loadEmails(id) {
  return /** @type {Promise<EmailsView | null>} */ (api('GET', `/api/invoices/${encodeURIComponent(id)}/emails`).catch(() => null));
}

/**
 * @param {import('./page-types').DocumentDetail} inv
 * @param {EmailsView | null} view
 * @param {() => Promise<void>} reload
 */
export function emailCard(inv, view, reload) {
  if (!view || inv.status !== 'completed') return null;
  const resend = button(t('email.resend'), { id: 'resend-email', disabled: !view.configured });
  resend.addEventListener('click', () =>
    busy(resend, t('email.resending'), async () => {
      try {
        const answer = await api('POST', `/api/invoices/${encodeURIComponent(inv.id)}/resend`);
        toast(answer.queued ? t('email.queued') : t('email.alreadyQueued'));
      } catch (error) {
        const code = error instanceof ApiError ? error.body?.code : undefined;
        toast(code ? t(`email.refused.${code}`) : errorText(error));
      }
    }).then(reload),
  );
  const rows = view.emails.map((e) =>
    h(
      'li',
      { class: 'email', dataset: { status: e.status, reason: e.reason } },
      h(
        'p',
        null,
        badge(t(`email.status.${e.status}`), e.status === 'sent' ? 'success' : e.status === 'failed' ? 'critical' : 'attention'),
        ' ',
        h('span', { class: 'mono' }, e.recipient || '—'),
        ' · ',
        t(`email.reason.${e.reason}`),
      ),
      h(
        'p',
        { class: 'subdued' },
        e.sentAt ? t('email.sentAt', { time: formatDateTime(e.sentAt) }) : t('email.attempts', { count: e.attempts }),
        e.lastError ? ` · ${localized(e.lastError)}` : '',
      ),
    ),
  );
  return card({
    title: t('email.title'),
    id: 'email-card',
    actions: resend,
    children: [
      view.configured ? null : h('p', { class: 'subdued', id: 'email-off' }, t('email.notConfigured')),
      rows.length ? h('ul', { class: 'emails', id: 'emails' }, rows) : h('p', { class: 'subdued', id: 'emails-none' }, t('email.none')),
    ],
  });
}
