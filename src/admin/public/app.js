// The admin page: its frame (chrome.js), the environment banner (always on top) and the current page,
// chosen by the address hash: #/facturas, #/facturas/<id>, #/informes, #/facturar-pedidos-anteriores, #/configuracion.
import { ApiError, api, config } from './api.js';
import { renderBackfill } from './backfill-page.js';
import { adminFooter, adminFrame, plainHeader, refreshHeader, renderBanners } from './chrome.js';
import { renderDetail } from './detail-page.js';
import { banner, button, clear, h } from './dom.js';
import { followAdminLocale, t } from './i18n.js';
import { renderInvoices } from './invoices-page.js';
import { renderReports } from './reports-page.js';
import { renderSettings } from './settings-page.js';

/** @typedef {import('./page-types').ShopView} ShopView */
/** @typedef {import('./chrome.js').PageName} PageName */

const root = /** @type {HTMLElement} */ (document.getElementById('app'));
/** @type {{ shop: ShopView | null, cleanup: null | (() => void) }} */
const state = { shop: null, cleanup: null };

// App Bridge is the head's first, synchronous script: its config is there before this module runs.
followAdminLocale(window.shopify?.config?.locale ?? config.locale);
// The first embedded load carries the session token in the address: keep it out of history and bookmarks.
if (new URLSearchParams(location.search).has('id_token')) {
  const url = new URL(location.href);
  url.searchParams.delete('id_token');
  history.replaceState(null, '', url);
}

/** @returns {{ page: PageName, id?: string, params: URLSearchParams }} */
function currentRoute() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [pathPart, query = ''] = hash.split('?');
  const params = new URLSearchParams(query);
  const parts = (pathPart ?? '/').split('/').filter(Boolean);
  if (parts[0] === 'configuracion') return { page: 'settings', params };
  if (parts[0] === 'informes') return { page: 'reports', params };
  if (parts[0] === 'facturar-pedidos-anteriores') return { page: 'backfill', params };
  if (parts[0] === 'facturas' && parts[1]) return { page: 'detail', id: decodeURIComponent(parts[1]), params };
  if (parts[0] === 'facturas') return { page: 'invoices', params };
  return { page: 'home', params };
}

/** @param {string} hash */
function navigate(hash) {
  if (location.hash === hash) void render();
  else location.hash = hash;
}

function showShopState() {
  const host = document.getElementById('shop-banners');
  if (!host || !state.shop) return;
  const page = currentRoute().page;
  renderBanners(host, state.shop, page === 'settings');
  if (!config.embedded) refreshHeader(page, state.shop);
}

async function refreshShop() {
  const shop = /** @type {ShopView} */ (await api('GET', '/api/shop'));
  state.shop = shop;
  showShopState();
  return shop;
}

/** @param {ShopView} shop */
function setShop(shop) {
  state.shop = shop;
  showShopState();
}

/**
 * The page's frame around `content`: nothing of its own inside the admin, a plain header outside it.
 * @param {string} title @param {PageName | undefined} page @param {...Node} content
 */
function frame(title, page, ...content) {
  document.title = title;
  if (config.embedded) {
    adminFrame(title);
    clear(root).append(
      ...content,
      adminFooter(() => void render()),
    );
  } else {
    clear(root).append(plainHeader({ page, shop: state.shop, rerender: () => void render() }), ...content);
  }
}

/** @param {string} title @param {string | null} body @param {Node} [actions] */
function fatal(title, body, actions) {
  frame(t('app.title'), undefined, h('main', { class: 'page' }, banner({ tone: 'critical', title, body, actions })));
}

function shopPicker() {
  const list = config.shops.length
    ? h(
        'ul',
        { class: 'picker' },
        config.shops.map((s) => h('li', null, h('a', { href: `/admin?shop=${encodeURIComponent(s)}` }, s))),
      )
    : h('p', null, t('app.noShops'));
  frame(
    t('app.pickShop'),
    undefined,
    h(
      'main',
      { class: 'page' },
      h('h1', { class: 'page__title' }, t('app.pickShop')),
      h('section', { class: 'card' }, h('div', { class: 'card__body' }, list)),
    ),
  );
}

/** @type {Record<Exclude<PageName, 'home'>, string>} */
const TITLES = {
  invoices: 'nav.invoices',
  detail: 'nav.invoices',
  reports: 'nav.reports',
  backfill: 'nav.backfill',
  settings: 'nav.settings',
};
/** @type {Record<Exclude<PageName, 'home'>, (container: HTMLElement, ctx: import('./page-types').PageContext, id: string) => Promise<(() => void) | void>>} */
const PAGES = {
  invoices: renderInvoices,
  detail: renderDetail,
  reports: renderReports,
  backfill: renderBackfill,
  settings: renderSettings,
};

let renders = 0;

/** @returns {Promise<void>} */
async function render() {
  const run = ++renders;
  state.cleanup?.();
  state.cleanup = null;
  if (!config.shop && !config.embedded) {
    if (config.devSessionTokens) return shopPicker();
    return fatal(t('app.noSession'), t('app.noSessionDetail'));
  }
  if (!state.shop) {
    frame(t('app.title'), undefined, h('main', { class: 'page' }, h('p', { class: 'loading', role: 'status' }, t('app.loading'))));
    try {
      await refreshShop();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return fatal(t('app.noSession'), t('app.noSessionDetail'));
      if (error instanceof ApiError && error.status === 404) return fatal(t('app.notInstalled'), null);
      return fatal(
        t('app.loadFailed'),
        error instanceof ApiError && error.status === 0 ? t('error.network') : String(error instanceof Error ? error.message : error),
        button(t('app.retryLoad'), { onClick: () => render() }),
      );
    }
  }
  const shop = /** @type {ShopView} */ (state.shop);
  let route = currentRoute();
  if (route.page === 'home') {
    history.replaceState(null, '', shop.complete ? '#/facturas' : '#/configuracion');
    route = currentRoute();
  }
  const page = /** @type {Exclude<PageName, 'home'>} */ (route.page);
  const main = h('main', { class: 'page', id: 'page' });
  frame(t(TITLES[page]), page, h('div', { class: 'page page--chrome' }, h('div', { id: 'shop-banners', class: 'stack' })), main);
  showShopState();
  const ctx = { shop, params: route.params, navigate, refreshShop, setShop, rerender: render };
  const cleanup = (await PAGES[page](main, ctx, route.id ?? '')) ?? null;
  // Another render started while this page loaded: stop this one's timers at once.
  if (run !== renders) cleanup?.();
  else state.cleanup = cleanup;
}

window.addEventListener('hashchange', () => void render());
void render();
