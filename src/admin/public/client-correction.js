// Corregir cliente: on an invoice that needs attention or failed, the client block the invoice will carry
// (taxpayer or final consumer; RUC, DV, name, address, location code, e-mail), prefilled from the stored
// correction or the client as the invoice or its order has it. The server validates it whole (a wrong DV is
// refused with the reason, shown under its field) and, saved, sends the invoice back to the queue.
import { ApiError, api, errorText } from './api.js';
import { banner, busy, button, card, clear, h, toast } from './dom.js';
import { t } from './i18n.js';
import { confirmDialog, reissueConfirmText } from './document-actions.js';
import { createFields } from './settings-fields.js';

/** @typedef {import('./page-types').DocumentDetail} DocumentDetail */
/** @typedef {import('./page-types').ClientForm} ClientForm */

const TEXT_FIELDS = /** @type {const} */ (['ruc', 'dv', 'name', 'address', 'locationCode', 'email']);
/** The server's limits, so the form never takes more. */
const LIMITS = { ruc: 20, dv: 2, name: 100, address: 100, locationCode: 12, email: 100 };
/** Only a taxpayer has these. */
const TAXPAYER_ONLY = new Set(['ruc', 'dv']);

/**
 * The form's values, when the invoice can take a correction (stopped for a person) or be re-issued to another buyer
 * (authorized). @param {DocumentDetail} inv @returns {Promise<ClientForm | null>}
 */
export async function loadClientForm(inv) {
  if (!inv.actions.correct_client.allowed && !inv.actions.reissue.allowed) return null;
  return api('GET', `/api/invoices/${encodeURIComponent(inv.id)}/client`).catch(() => null);
}

/**
 * Reemitir a otro cliente: an authorized invoice issued to the wrong buyer is replaced by a credit note for all of it
 * and a new invoice to the client in the form (POST /reinvoice); the page then opens the new invoice.
 * @param {DocumentDetail} inv
 * @param {ClientForm} form
 * @param {(invoiceId: string) => void} onReissued the new invoice's id
 */
export function clientReissueCard(inv, form, onReissued) {
  return clientFormCard(inv, form, {
    id: 'reissue',
    title: t('reissue.title'),
    help: t('reissue.help'),
    save: t('reissue.save'),
    async send(body) {
      // Two fiscal documents: asked first, naming both.
      const confirmed = await confirmDialog({
        id: 'reissue-dialog',
        title: t('reissue.confirmTitle'),
        text: reissueConfirmText(inv, body),
        confirm: t('reissue.confirm'),
      });
      if (!confirmed) return;
      const answer = await api('POST', `/api/invoices/${encodeURIComponent(inv.id)}/reinvoice`, body);
      toast(t('reissue.done'));
      onReissued(answer.invoiceId);
    },
  });
}

/**
 * @param {DocumentDetail} inv
 * @param {ClientForm} form
 * @param {(invoice: DocumentDetail) => void} onSaved the invoice as the server answered (back in the queue)
 */
export function clientCorrectionCard(inv, form, onSaved) {
  return clientFormCard(inv, form, {
    id: 'client',
    title: t('correct.title'),
    help: t(form.correction ? 'correct.helpStored' : 'correct.help'),
    save: t('correct.save'),
    async send(body) {
      const { invoice } = await api('PUT', `/api/invoices/${encodeURIComponent(inv.id)}/client`, body);
      toast(t('correct.saved'));
      onSaved(invoice);
    },
    remove: form.correction
      ? async () => {
          const { invoice } = await api('DELETE', `/api/invoices/${encodeURIComponent(inv.id)}/client`);
          toast(t('correct.removed'));
          onSaved(invoice);
        }
      : undefined,
  });
}

/**
 * The client form, sent by `o.send`; the server's field errors shown under the fields.
 * @param {DocumentDetail} _inv
 * @param {ClientForm} form
 * @param {{ id: string, title: string, help: string, save: string, send: (body: Record<string, string>) => Promise<void>, remove?: () => Promise<void> }} o
 */
function clientFormCard(_inv, form, o) {
  const fields = createFields();
  const path = (/** @type {string} */ name) => `client.${name}`;
  const value = (/** @type {string} */ name) => fields.value(path(name)).trim();
  // Hidden while empty, so it takes no room in the form.
  const formBanner = h('div', { id: `${o.id}-banner`, 'aria-live': 'polite', hidden: true });
  const { fields: current } = form;

  const type = fields.choice(
    path('type'),
    t('correct.type'),
    [
      ['taxpayer', t('correct.type.taxpayer')],
      ['final_consumer', t('correct.type.final_consumer')],
    ],
    current.type,
  );
  const rows = TEXT_FIELDS.map((name) =>
    fields.text(path(name), t(`correct.${name}`), current[name], {
      maxlength: LIMITS[name],
      type: name === 'email' ? 'email' : 'text',
      autocomplete: name === 'email' ? 'email' : 'off',
      help: name === 'locationCode' ? t('correct.locationCodeHelp') : undefined,
    }),
  );
  const showTaxpayerFields = () => {
    const taxpayer = fields.value(path('type')) === 'taxpayer';
    TEXT_FIELDS.forEach((name, i) => {
      if (TAXPAYER_ONLY.has(name)) rows[i].hidden = !taxpayer;
    });
  };
  fields.input(path('type')).addEventListener('change', showTaxpayerFields);
  showTaxpayerFields();

  /** What the server reads: a final consumer's empty fields are left out (the order's values apply). */
  function body() {
    const taxpayer = value('type') === 'taxpayer';
    /** @type {Record<string, string>} */
    const out = { type: value('type') };
    for (const name of TEXT_FIELDS) {
      const v = value(name);
      if (TAXPAYER_ONLY.has(name) && !taxpayer) continue;
      // A taxpayer's fields are required: sent even when empty, so the server names the missing one.
      if (v !== '' || (taxpayer && name !== 'email')) out[name] = v;
    }
    return out;
  }

  const save = button(o.save, { variant: 'primary', type: 'submit', id: `${o.id}-save` });
  async function submit() {
    fields.clearErrors();
    clear(formBanner).hidden = true;
    try {
      await o.send(body());
    } catch (error) {
      failed(error);
    }
  }

  /** @param {unknown} error */
  function failed(error) {
    formBanner.hidden = false;
    const problems = error instanceof ApiError && Array.isArray(error.body?.problems) ? error.body.problems : null;
    if (!problems) {
      formBanner.append(
        banner({ tone: 'critical', title: t(o.id === 'reissue' ? 'reissue.failed' : 'correct.failed'), body: errorText(error) }),
      );
      return;
    }
    const unplaced = fields.placeProblems(
      problems.map((/** @type {{ path: string, message: string }} */ p) => ({ ...p, path: path(p.path) })),
    );
    formBanner.append(
      banner({
        id: `${o.id}-errors`,
        tone: 'critical',
        title: t('settings.invalid'),
        body: unplaced.length
          ? h(
              'ul',
              null,
              unplaced.map((p) => h('li', null, p.message)),
            )
          : null,
      }),
    );
  }

  /** @type {HTMLElement[]} */
  const actions = [save];
  const removeForm = o.remove;
  if (removeForm) {
    const remove = button(t('correct.remove'), { variant: 'plain', id: `${o.id}-remove` });
    remove.addEventListener('click', () => busy(remove, t('settings.saving'), () => removeForm().catch(failed)));
    actions.push(remove);
  }

  return card({
    title: o.title,
    id: `${o.id}-card`,
    children: h(
      'form',
      {
        id: `${o.id}-form`,
        class: 'stack',
        novalidate: true,
        onsubmit: (/** @type {Event} */ e) => (e.preventDefault(), busy(save, t('settings.saving'), submit)),
      },
      h('p', { class: 'subdued' }, o.help),
      formBanner,
      type,
      h('div', { class: 'grid grid--2' }, rows),
      h('div', { class: 'inline-actions' }, actions),
    ),
  });
}
