// The admin page: header, navigation, the environment banner (always on top) and the current page,
// chosen by the address hash: #/facturas, #/facturas/<id>, #/configuracion.
import { ApiError, api, config } from './api.js';
import { banner, button, clear, h } from './dom.js';
import { language, setLanguage, t } from './i18n.js';
import { renderDetail } from './detail-page.js';
import { renderInvoices } from './invoices-page.js';
import { renderSettings } from './settings-page.js';

const root = /** @type {HTMLElement} */ (document.getElementById('app'));
const state = { shop: /** @type {any} */ (null), cleanup: /** @type {null | (() => void)} */ (null) };

/** @returns {{ page: 'invoices' | 'detail' | 'settings' | 'home', id?: string, params: URLSearchParams }} */
function currentRoute() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [pathPart, query = ''] = hash.split('?');
  const params = new URLSearchParams(query);
  const parts = (pathPart ?? '/').split('/').filter(Boolean);
  if (parts[0] === 'configuracion') return { page: 'settings', params };
  if (parts[0] === 'facturas' && parts[1]) return { page: 'detail', id: decodeURIComponent(parts[1]), params };
  if (parts[0] === 'facturas') return { page: 'invoices', params };
  return { page: 'home', params };
}

function navigate(hash) {
  if (location.hash === hash) render();
  else location.hash = hash;
}

async function refreshShop() {
  state.shop = await api('GET', '/api/shop');
  renderBanners();
  return state.shop;
}

function setShop(shop) {
  state.shop = shop;
  renderBanners();
}

function header(route) {
  const toggle = button(t('app.language'), {
    variant: 'plain',
    id: 'language-toggle',
    onClick: () => {
      setLanguage(language() === 'es' ? 'en' : 'es');
      render();
    },
  });
  toggle.setAttribute('aria-label', t('app.languageLabel'));
  return h(
    'header',
    { class: 'topbar' },
    h(
      'div',
      { class: 'topbar__inner' },
      h(
        'div',
        { class: 'topbar__brand' },
        h('span', { class: 'topbar__logo', 'aria-hidden': 'true' }, 'FE'),
        h(
          'div',
          null,
          h('p', { class: 'topbar__title' }, t('app.title')),
          h('p', { class: 'topbar__shop' }, state.shop?.shop ?? config.shop ?? ''),
        ),
      ),
      route ? nav(route) : null,
      h('div', { class: 'topbar__end' }, environmentPill(), toggle),
    ),
  );
}

/** The environment in the sticky top bar, so it stays in sight while scrolling. */
function environmentPill() {
  if (!state.shop) return null;
  const env = state.shop.environment === 'produccion' ? 'produccion' : 'pruebas';
  return h('span', { class: `env-pill env-pill--${env}`, id: 'environment-pill' }, t(`env.name.${env}`).toUpperCase());
}

function nav(route) {
  const link = (hash, label, active) =>
    h('a', { class: ['tab', active ? 'tab--active' : ''], href: hash, 'aria-current': active ? 'page' : undefined }, label);
  const counts = state.shop?.counts;
  const attention = counts ? counts.needs_attention + counts.failed : 0;
  return h(
    'nav',
    { class: 'tabs', 'aria-label': t('nav.main') },
    link(
      '#/facturas',
      [t('nav.invoices'), attention > 0 ? h('span', { class: 'tab__count tab__count--warning' }, String(attention)) : null],
      route.page === 'invoices' || route.page === 'detail',
    ),
    link('#/configuracion', t('nav.settings'), route.page === 'settings'),
  );
}

/** Environment banner first, always; then whatever stops invoices from flowing. */
function renderBanners() {
  const host = document.getElementById('shop-banners');
  if (!host || !state.shop) return;
  clear(host);
  const shop = state.shop;
  const production = shop.environment === 'produccion';
  host.append(
    banner({
      id: 'environment-banner',
      tone: production ? 'success' : 'warning',
      title: t(production ? 'env.produccion' : 'env.pruebas'),
      body: t(production ? 'env.produccionDetail' : 'env.pruebasDetail'),
    }),
  );
  const onSettings = currentRoute().page === 'settings';
  const goToSettings = onSettings ? null : button(t('shop.goToSettings'), { href: '#/configuracion', size: 'slim' });
  if (shop.pausedReason) {
    host.append(
      banner({
        id: 'paused-banner',
        tone: 'critical',
        title: t('shop.paused'),
        body: [h('p', null, t('shop.pausedDetail')), h('p', { class: 'subdued' }, shop.pausedReason)],
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
  const tabs = document.querySelector('nav.tabs');
  if (tabs) tabs.replaceWith(nav(currentRoute()));
  const pill = document.getElementById('environment-pill');
  if (pill) pill.replaceWith(environmentPill());
}

function fatal(title, body, actions) {
  clear(root).append(header(), h('main', { class: 'page' }, banner({ tone: 'critical', title, body, actions })));
}

function shopPicker() {
  const list = config.shops.length
    ? h(
        'ul',
        { class: 'picker' },
        config.shops.map((s) => h('li', null, h('a', { href: `/admin?shop=${encodeURIComponent(s)}` }, s))),
      )
    : h('p', null, t('app.noShops'));
  clear(root).append(
    header(),
    h(
      'main',
      { class: 'page' },
      h('h1', { class: 'page__title' }, t('app.pickShop')),
      h('section', { class: 'card' }, h('div', { class: 'card__body' }, list)),
    ),
  );
}

let renders = 0;

async function render() {
  const run = ++renders;
  document.title = t('app.title');
  state.cleanup?.();
  state.cleanup = null;
  if (!config.shop && !config.embedded) {
    if (config.devSessionTokens) return shopPicker();
    return fatal(t('app.noSession'), t('app.noSessionDetail'));
  }
  if (!state.shop) {
    clear(root).append(header(), h('main', { class: 'page' }, h('p', { class: 'loading', role: 'status' }, t('app.loading'))));
    try {
      await refreshShop();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return fatal(t('app.noSession'), t('app.noSessionDetail'));
      if (error instanceof ApiError && error.status === 404) return fatal(t('app.notInstalled'), null);
      return fatal(
        t('app.loadFailed'),
        error instanceof ApiError && error.status === 0 ? t('error.network') : String(error.message ?? error),
        button(t('app.retryLoad'), { onClick: () => render() }),
      );
    }
  }
  let route = currentRoute();
  if (route.page === 'home') {
    history.replaceState(null, '', state.shop.complete ? '#/facturas' : '#/configuracion');
    route = currentRoute();
  }
  const page = h('main', { class: 'page', id: 'page' });
  clear(root).append(header(route), h('div', { class: 'page page--chrome' }, h('div', { id: 'shop-banners', class: 'stack' })), page);
  renderBanners();
  const ctx = { shop: state.shop, params: route.params, navigate, refreshShop, setShop, rerender: render };
  const pages = { invoices: renderInvoices, detail: renderDetail, settings: renderSettings };
  const cleanup = (await pages[route.page](page, ctx, route.id)) ?? null;
  // Another render started while this page loaded: stop this one's timers at once.
  if (run !== renders) cleanup?.();
  else state.cleanup = cleanup;
}

window.addEventListener('hashchange', () => void render());
void render();
