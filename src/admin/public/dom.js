// Small DOM helpers shaped after Polaris components. Text always goes in as text (never as HTML).

/** @typedef {Node | string | number | null | undefined | false | readonly any[]} Child */

/**
 * h('div', { class: 'card', onclick: fn, dataset: { id } }, child, [children], 'text')
 * @template {string} K
 * @param {K} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...Child} children
 * @returns {K extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[K] : HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = /** @type {any} */ (document.createElement(tag));
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') el.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : value;
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (name === 'value') /** @type {HTMLInputElement} */ (el).value = value;
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

/** @param {HTMLElement} el @param {Child[]} children */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** @template {HTMLElement} E @param {E} el @returns {E} */
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/**
 * A table inside a sideways-scrolling box, its rows stacked at phone width (each cell names its column in
 * `data-label`): the headings as [label, numeric] pairs, then the rows.
 * @param {{ id?: string, class: string, columns: readonly (readonly [string, boolean?])[], rows: Child }} o
 */
export function dataTable(o) {
  const headings = o.columns.map(([label, numeric]) => h('th', { scope: 'col', class: numeric ? 'num' : null }, label));
  return h(
    'div',
    { class: 'table-scroll' },
    h('table', { class: o.class, id: o.id }, h('thead', null, h('tr', null, headings)), h('tbody', null, o.rows)),
  );
}

/** @typedef {'info'|'success'|'warning'|'critical'|'attention'|'neutral'} Tone */

/** @param {string} text @param {Tone} tone @param {Child} [extra] */
export function badge(text, tone = 'neutral', extra) {
  return h('span', { class: `badge badge--${tone}` }, h('span', { class: 'badge__dot', 'aria-hidden': 'true' }), text, extra ?? null);
}

/**
 * @param {{ tone: 'info'|'success'|'warning'|'critical', title: string, body?: Child, actions?: Child, id?: string }} o
 */
export function banner(o) {
  return h(
    'div',
    { class: `banner banner--${o.tone}`, role: o.tone === 'critical' ? 'alert' : 'status', id: o.id },
    h('span', { class: 'banner__icon', 'aria-hidden': 'true' }, ICONS[o.tone] ?? 'i'),
    h(
      'div',
      { class: 'banner__content' },
      h('p', { class: 'banner__title' }, o.title),
      o.body ? h('div', { class: 'banner__body' }, o.body) : null,
      o.actions ? h('div', { class: 'banner__actions' }, o.actions) : null,
    ),
  );
}

/** @type {Record<string, string>} */
const ICONS = { info: 'i', success: '✓', warning: '!', critical: '!' };

/** @param {{ title?: Child, actions?: Child, children: Child, flush?: boolean, id?: string }} o */
export function card(o) {
  return h(
    'section',
    { class: ['card', o.flush ? 'card--flush' : ''], id: o.id },
    o.title || o.actions
      ? h(
          'div',
          { class: 'card__header' },
          o.title ? h('h2', { class: 'card__title' }, o.title) : null,
          o.actions ? h('div', { class: 'card__actions' }, o.actions) : null,
        )
      : null,
    h('div', { class: 'card__body' }, o.children),
  );
}

/** @typedef {{ variant?: 'primary'|'secondary'|'plain'|'critical', id?: string, size?: 'slim' }} ButtonLook */

/** @param {ButtonLook} o */
const buttonClass = (o) => ['btn', `btn--${o.variant ?? 'secondary'}`, o.size === 'slim' ? 'btn--slim' : ''];

/**
 * @param {string} label
 * @param {ButtonLook & { onClick?: (e: Event) => unknown, disabled?: boolean, type?: string }} [o]
 */
export function button(label, o = {}) {
  return h('button', { class: buttonClass(o), type: o.type ?? 'button', disabled: o.disabled, onclick: o.onClick, id: o.id }, label);
}

/** A link that looks like a button. @param {string} label @param {string} href @param {ButtonLook & { newTab?: boolean }} [o] */
export function linkButton(label, href, o = {}) {
  const target = o.newTab ? '_blank' : undefined;
  return h('a', { class: buttonClass(o), href, target, rel: target ? 'noopener' : undefined, id: o.id }, label);
}

/**
 * Put a button in its busy state while `work` runs.
 * @template T
 * @param {HTMLButtonElement} btn @param {string} text @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function busy(btn, text, work) {
  const label = btn.textContent;
  btn.disabled = true;
  btn.classList.add('btn--loading');
  btn.textContent = text;
  try {
    return await work();
  } finally {
    btn.disabled = false;
    btn.classList.remove('btn--loading');
    btn.textContent = label;
  }
}

let toastTimer = 0;
/** Polaris toast: a short confirmation at the bottom of the page. @param {string} message */
export function toast(message) {
  const host =
    document.getElementById('toast') ??
    document.body.appendChild(h('div', { id: 'toast', class: 'toast', role: 'status', 'aria-live': 'polite' }));
  host.textContent = message;
  host.className = 'toast toast--visible';
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => {
    host.className = 'toast';
  }, 4000);
}

/** A definition list row for summary cards. @param {string} label @param {Child} value */
export function field(label, value) {
  return h('div', { class: 'summary__row' }, h('dt', null, label), h('dd', null, value ?? '—'));
}
