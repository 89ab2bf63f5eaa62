// The frame around each page. Inside the Shopify admin the admin draws it: App Bridge's title bar
// (`ui-title-bar`) and the app's navigation menu (`s-app-nav`), so the page adds no header of its own.
// Outside it (the demo, a standalone run, the tests) a plain header carries the same sections, the shop, the
// environment and the language switch. Under both: the environment banner and whatever stops invoicing.
import { config } from './api.js';
import { banner, button, clear, h, linkButton } from './dom.js';
import { language, setLanguage, t } from './i18n.js';

/** @typedef {import('./page-types').ShopView} ShopView */
/** @typedef {'invoices' | 'detail' | 'reports' | 'backfill' | 'settings' | 'home'} PageName */

/** The sections, as hash routes of the one page. */
const SECTIONS = /** @type {const} */ ([
  ['#/facturas', 'nav.invoices', ['invoices', 'detail']],
  ['#/informes', 'nav.reports', ['reports']],
  ['#/facturar-pedidos-anteriores', 'nav.backfill', ['backfill']],
  ['#/configuracion', 'nav.settings', ['settings']],
]);

/** @param {() => void} onChange */
export function languageSwitch(onChange) {
  const toggle = button(t('app.language'), {
    variant: 'plain',
    id: 'language-toggle',
    onClick: () => {
      setLanguage(language() === 'es' ? 'en' : 'es');
      onChange();
    },
  });
  toggle.setAttribute('aria-label', t('app.languageLabel'));
  return toggle;
}

/** The environment, always in sight outside the admin (inside it, the banner under the title bar says it). @param {ShopView | null} shop */
export function environmentPill(shop) {
  if (!shop) return null;
  const env = shop.environment === 'produccion' ? 'produccion' : 'pruebas';
  return h('span', { class: `env-pill env-pill--${env}`, id: 'environment-pill' }, t(`env.name.${env}`).toUpperCase());
}

/** @param {PageName | undefined} page @param {ShopView | null} shop */
function sectionLinks(page, shop) {
  const attention = shop ? shop.counts.needs_attention + shop.counts.failed : 0;
  return SECTIONS.map(([hash, key, pages]) => {
    const active = page !== undefined && /** @type {readonly string[]} */ (pages).includes(page);
    const count =
      hash === '#/facturas' && attention > 0
        ? h('span', { class: 'filter-tab__count filter-tab__count--warning', 'aria-label': `(${attention})` }, String(attention))
        : null;
    return h(
      'a',
      // Drawn like the list's status tabs.
      { class: ['filter-tab', active ? 'filter-tab--active' : ''], href: hash, 'aria-current': active ? 'page' : undefined },
      t(key),
      count,
    );
  });
}

/**
 * The plain header outside the admin: it wraps onto two lines at phone width rather than overflow.
 * @param {{ page?: PageName, shop: ShopView | null, rerender: () => void }} o
 */
export function plainHeader(o) {
  return h(
    'header',
    { class: 'app-header' },
    h(
      'div',
      { class: 'app-header__inner' },
      h(
        'div',
        { class: 'app-header__brand' },
        h('p', { class: 'app-header__title' }, t('app.title')),
        h('p', { class: 'app-header__shop' }, o.shop?.shop ?? config.shop ?? ''),
      ),
      o.page ? h('nav', { class: 'app-nav', 'aria-label': t('nav.main') }, sectionLinks(o.page, o.shop)) : null,
      h('div', { class: 'app-header__end' }, environmentPill(o.shop), languageSwitch(o.rerender)),
    ),
  );
}

/**
 * App Bridge's navigation menu and title bar, kept in the document once (App Bridge watches them) and
 * relabelled on each render. Their links keep the page's address (Shopify's `host`, `shop`, …) and add the
 * section's hash, so whether App Bridge follows a link or hands the click to the page, the section opens.
 * @param {string} title
 */
export function adminFrame(title) {
  let nav = document.querySelector('s-app-nav');
  if (!nav) {
    nav = document.createElement('s-app-nav');
    document.body.prepend(nav);
    // App Bridge tells a one-page app which menu link the merchant chose.
    document.addEventListener('shopify:navigate', (event) => {
      const href = event.target instanceof Element ? event.target.getAttribute('href') : null;
      if (href?.includes('#')) location.hash = href.slice(href.indexOf('#'));
    });
  }
  const here = `${location.pathname}${location.search}`;
  clear(/** @type {HTMLElement} */ (nav)).append(
    h('s-link', { href: here, rel: 'home' }, t('app.title')),
    ...SECTIONS.map(([hash, key]) => h('s-link', { href: `${here}${hash}` }, t(key))),
  );
  let bar = document.querySelector('ui-title-bar');
  if (!bar) {
    bar = document.createElement('ui-title-bar');
    document.body.prepend(bar);
  }
  bar.setAttribute('title', title);
}

/** The language switch inside the admin, at the foot of the page (the admin's title bar is Shopify's). @param {() => void} rerender */
export function adminFooter(rerender) {
  return h('footer', { class: 'page-footer' }, h('span', { class: 'subdued' }, t('app.title')), languageSwitch(rerender));
}

/**
 * Environment banner first, always; then whatever stops invoices from flowing.
 * @param {HTMLElement} host @param {ShopView} shop @param {boolean} onSettings
 */
export function renderBanners(host, shop, onSettings) {
  clear(host);
  const production = shop.environment === 'produccion';
  host.append(
    banner({
      id: 'environment-banner',
      tone: production ? 'success' : 'warning',
      title: t(production ? 'env.produccion' : 'env.pruebas'),
      body: t(production ? 'env.produccionDetail' : 'env.pruebasDetail'),
    }),
  );
  const goToSettings = onSettings ? null : linkButton(t('shop.goToSettings'), '#/configuracion', { size: 'slim' });
  if (shop.paused) {
    host.append(
      banner({
        id: 'paused-banner',
        tone: 'critical',
        title: t('shop.paused'),
        body: [h('p', null, t('shop.pausedDetail')), h('p', { class: 'subdued' }, shop.paused[language()])],
        actions: goToSettings,
      }),
    );
  } else if (!shop.complete) {
    host.append(
      banner({
        id: 'incomplete-banner',
        tone: 'info',
        title: t('shop.incomplete'),
        body: t('shop.incompleteDetail'),
        actions: goToSettings,
      }),
    );
  } else if (!shop.enabled) {
    host.append(
      banner({ id: 'disabled-banner', tone: 'warning', title: t('shop.disabled'), body: t('shop.disabledDetail'), actions: goToSettings }),
    );
  }
}

/** The section links and the pill follow the shop's counts and environment between renders. @param {PageName} page @param {ShopView} shop */
export function refreshHeader(page, shop) {
  const nav = document.querySelector('nav.app-nav');
  if (nav) clear(/** @type {HTMLElement} */ (nav)).append(...sectionLinks(page, shop));
  document.getElementById('environment-pill')?.replaceWith(environmentPill(shop) ?? '');
}
