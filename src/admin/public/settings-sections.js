// Pieces of the settings form: an annotated section (title and help beside a card), the banner of its problems, and
// the deliveryCAFE code, asked once beside the delivery to the buyer ("as delivered" by default, or a fixed code), and
// the Shopify Flow triggers.
import { banner, h } from './dom.js';
import { t } from './i18n.js';

/** @param {string} title @param {string} help @param {import('./dom.js').Child[]} content */
export function section(title, help, ...content) {
  return h(
    'div',
    { class: 'annotated' },
    h('div', { class: 'annotated__text' }, h('h2', { class: 'annotated__title' }, title), h('p', { class: 'subdued' }, help)),
    h('section', { class: 'card' }, h('div', { class: 'card__body stack' }, content)),
  );
}

/**
 * deliveryCAFE: what the delivery to the buyer says (the default), or a fixed code.
 * @param {ReturnType<typeof import('./settings-fields.js').createFields>} fields
 * @param {import('./page-types').Mapping} mapping
 * @param {Record<string, string>} choices
 */
export function deliveryCodeSelect(fields, mapping, choices) {
  const path = 'mapping.transactionDefaults.deliveryCAFE';
  const current = mapping.transactionDefaults.deliveryCAFE;
  const select = fields.select(path, t('settings.td.deliveryCAFE'), current ?? '', choices, 'deliveryCAFE');
  fields.input(path).prepend(h('option', { value: '', selected: current === undefined }, t('settings.td.auto')));
  return select;
}

/**
 * Shopify Flow triggers (docs/flow.md): on or off, and the language of the reason a *needs attention* trigger carries.
 * @param {ReturnType<typeof import('./settings-fields.js').createFields>} fields
 * @param {{ enabled: boolean; language: 'es' | 'en' }} flow
 */
export function flowSection(fields, flow) {
  return section(
    t('settings.flow'),
    t('settings.flowHelp'),
    fields.checkbox('flowTriggers.enabled', t('settings.flowEnabled'), flow.enabled),
    fields.choice(
      'flowTriggers.language',
      t('settings.flowLanguage'),
      ['es', 'en'].map((v) => [v, t(`settings.flowLanguage.${v}`)]),
      flow.language,
    ),
  );
}

/**
 * The form's problems: how many, and those no field shows beside it.
 * @param {import('./settings-fields.js').Problem[]} problems @param {import('./settings-fields.js').Problem[]} unplaced
 */
export function problemsBanner(problems, unplaced) {
  return banner({
    id: 'settings-errors',
    tone: 'critical',
    title: t('settings.invalid'),
    body: [
      h('p', null, problems.length === 1 ? t('settings.invalidOne') : t('settings.invalidCount', { count: problems.length })),
      unplaced.length
        ? h(
            'ul',
            null,
            unplaced.map((p) => h('li', null, `${p.path}: ${p.message}`)),
          )
        : null,
    ],
  });
}
