// Small DOM helpers shaped after Polaris components. Text always goes in as text (never as HTML).

/**
 * h('div', { class: 'card', onclick: fn, dataset: { id } }, child, [children], 'text')
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') el.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : value;
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (name === 'value') el.value = value;
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** @param {string} text @param {'info'|'success'|'warning'|'critical'|'attention'|'neutral'} tone */
export function badge(text, tone = 'neutral', extra) {
  return h('span', { class: `badge badge--${tone}` }, h('span', { class: 'badge__dot', 'aria-hidden': 'true' }), text, extra ?? null);
}

/**
 * @param {{ tone: 'info'|'success'|'warning'|'critical', title: string, body?: any, actions?: any, id?: string }} o
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

const ICONS = { info: 'i', success: '✓', warning: '!', critical: '!' };

/** @param {{ title?: any, actions?: any, children: any, flush?: boolean, id?: string }} o */
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

/**
 * @param {string} label
 * @param {{ variant?: 'primary'|'secondary'|'plain'|'critical', onClick?: Function, disabled?: boolean, href?: string, target?: string, type?: string, id?: string, size?: 'slim' }} [o]
 */
export function button(label, o = {}) {
  const cls = ['btn', `btn--${o.variant ?? 'secondary'}`, o.size === 'slim' ? 'btn--slim' : ''];
  if (o.href) {
    return h('a', { class: cls, href: o.href, target: o.target, rel: o.target === '_blank' ? 'noopener' : undefined, id: o.id }, label);
  }
  return h('button', { class: cls, type: o.type ?? 'button', disabled: o.disabled, onclick: o.onClick, id: o.id }, label);
}

/** Put a button in its busy state while `work` runs. */
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

let toastTimer;
/** Polaris toast: a short confirmation at the bottom of the page. */
export function toast(message, tone = 'default') {
  let host = document.getElementById('toast');
  if (!host) {
    host = h('div', { id: 'toast', class: 'toast', role: 'status', 'aria-live': 'polite' });
    document.body.append(host);
  }
  host.textContent = message;
  host.className = `toast toast--visible toast--${tone}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    host.className = 'toast';
  }, 4000);
}

/** A definition list row for summary cards. */
export function field(label, value) {
  return h('div', { class: 'summary__row' }, h('dt', null, label), h('dd', null, value ?? '—'));
}
