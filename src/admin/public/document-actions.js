// What may be done with a document, as the server decided (DocumentDetail.actions): the actions withheld, each with its
// reason in the page's language; the re-issue links both ways ("reemplazada por …", "reemplaza a …"); and the
// confirmation every action that issues fiscal documents asks first, naming what will be issued.
import { button, card, h } from './dom.js';
import { formatMoney } from './format.js';
import { t } from './i18n.js';
import { localized } from './document-status.js';
import { detailHref } from './credit-notes.js';

/** @typedef {import('./page-types').DocumentDetail} DocumentDetail */

const ACTIONS = /** @type {const} */ (['retry', 'correct_client', 'reissue', 'resend_email']);

/** The actions the server withholds from this document, and why. @param {DocumentDetail} inv */
export function withheldActionsCard(inv) {
  const withheld = ACTIONS.filter((a) => inv.actions[a] && !inv.actions[a].allowed);
  if (withheld.length === 0) return null;
  return card({
    title: t('actions.withheld'),
    id: 'withheld-actions',
    children: h(
      'ul',
      { class: 'withheld' },
      withheld.map((a) =>
        h(
          'li',
          { dataset: { action: a } },
          h('span', { class: 'strong' }, t(`actions.${a}`)),
          ': ',
          h('span', { class: 'withheld__reason' }, inv.actions[a].reason ? localized(inv.actions[a].reason) : ''),
        ),
      ),
    ),
  });
}

/** "Reemplazada por la factura …" / "Reemplaza a la factura …", each a link to the other invoice. @param {DocumentDetail} inv */
export function replacementLinks(inv) {
  /** @param {string} id @param {string} key @param {import('./page-types').DocumentSummary} other */
  const link = (id, key, other) =>
    h('p', { id, class: 'replacement' }, t(key), ' ', h('a', { href: detailHref(other) }, other.fiscalNumber ?? t('notes.unnumbered')));
  const lines = [
    inv.replacedBy ? link('replaced-by', 'replacement.replacedBy', inv.replacedBy) : null,
    inv.replaces ? link('replaces', 'replacement.replaces', inv.replaces) : null,
  ].filter(Boolean);
  if (lines.length === 0) return null;
  return card({ title: t('replacement.title'), id: 'replacement-card', children: lines });
}

/** The client a re-issue names: "RUC 155596713-2-2015 DV 59 (Ferretería Central, S.A.)", or a final consumer. @param {Record<string, string>} client */
function clientWords(client) {
  if (client.type === 'taxpayer') return t('reissue.toTaxpayer', { ruc: client.ruc ?? '', dv: client.dv ?? '', name: client.name ?? '' });
  return client.name ? t('reissue.toConsumerNamed', { name: client.name }) : t('reissue.toConsumer');
}

/** What a re-issue will issue, in words. @param {DocumentDetail} inv @param {Record<string, string>} client */
export function reissueConfirmText(inv, client) {
  return t('reissue.confirmText', {
    amount: formatMoney(inv.totalCents, inv.currency),
    number: inv.fiscalNumber ?? '',
    client: clientWords(client),
  });
}

/**
 * A modal question; resolves true when the merchant confirms, false when they cancel (or press Escape).
 * @param {{ id: string, title: string, text: string, confirm: string }} o
 * @returns {Promise<boolean>}
 */
export function confirmDialog(o) {
  return new Promise((resolve) => {
    const ok = button(o.confirm, { variant: 'primary', id: `${o.id}-confirm` });
    const cancel = button(t('confirm.cancel'), { id: `${o.id}-cancel` });
    const dialog = /** @type {HTMLDialogElement} */ (
      h(
        'dialog',
        { id: o.id, class: 'dialog', 'aria-labelledby': `${o.id}-title` },
        h('h2', { class: 'dialog__title', id: `${o.id}-title` }, o.title),
        h('p', { id: `${o.id}-text` }, o.text),
        h('div', { class: 'inline-actions dialog__actions' }, cancel, ok),
      )
    );
    /** @param {boolean} answer */
    const close = (answer) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    ok.addEventListener('click', () => close(true));
    cancel.addEventListener('click', () => close(false));
    dialog.addEventListener('cancel', (e) => (e.preventDefault(), close(false)));
    document.body.append(dialog);
    dialog.showModal();
  });
}
