// Pedidos anteriores in real Chromium, against the app on loopback with 33 past orders in the store simulator (29 paid:
// 4 invoiced already, 4 that cannot be invoiced, 21 to invoice; 4 refunded, not listed). At 1280 px: the dry run's
// figures and reasons exactly, the confirmation naming what will be issued, the progress bar to the end, one invoice
// per order in the database, a reversed range refused in Spanish. At 390 px: no sideways scroll, the dry run and the
// latest backfill's result. Screenshots go to test-artifacts/.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents } from '../../../mappers/fiscal/money.ts';
import { inMemoryPglite } from '../../../sim/harness/databases.ts';
import { backfills, documents } from '../../../src/db/schema.ts';
import { render } from '../../../src/messages/catalogue.ts';
import { message } from '../../../src/messages/message.ts';
import { panamaDate } from '../../../src/reports/report-month.ts';
import { type BackfillOrder, backfillOrders, gidOf } from '../../support/backfill-orders.ts';
import { chromiumForBlock, offlinePage } from '../../support/browser-page.ts';
import { CHROMIUM, hasChromium } from '../../support/chromium.ts';
import { harnessFor } from '../../support/harness-blocks.ts';
import { ARTIFACTS } from '../../support/paths.ts';

const SHOP = 'tienda-anteriores.myshopify.com';
const WAIT = { timeout: 20_000 };
const DAY = 86_400_000;

if (!hasChromium) console.warn(`backfill-browser.test.ts: SKIPPED — ${CHROMIUM} not found`);

describe.skipIf(!hasChromium)('Pedidos anteriores in the admin page', () => {
  const run = harnessFor(inMemoryPglite);
  const chromium = chromiumForBlock();
  const now = Date.now();
  const orders = backfillOrders(now, 33);
  const of = (...kinds: BackfillOrder['kind'][]) => orders.filter((o) => kinds.includes(o.kind));
  const from = panamaDate(new Date(now - 40 * DAY));
  const to = panamaDate(new Date(now));
  /** Shopify's listing order, oldest first: the order of the cannot-invoice list. */
  const cannot = of('currency', 'tax_rate').sort(
    (a, b) => Date.parse(String(a.body['created_at'])) - Date.parse(String(b.body['created_at'])),
  );
  const reasonEs = (o: BackfillOrder) =>
    o.kind === 'currency'
      ? render(message('unsupported_currency', { currency: 'EUR' }), 'es')
      : render(message('unsupported_tax_rate', { rate: '8', what: 'Camisa importada' }), 'es');

  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await run.h.installShop(SHOP);
    for (const o of orders) run.h.simulator.setOrder(SHOP, o.body);
    for (const o of of('invoiced')) {
      const sent = await run.h.simulator.sendWebhook({ address: run.h.webhookAddress, topic: 'orders/paid', shop: SHOP, payload: o.body });
      expect(sent.status).toBe(200);
    }
    // Their invoices settle before the page counts them.
    const invoiced = of('invoiced').map((o) => gidOf(o.id));
    for (let i = 0; i < 200; i++) {
      const rows = await run.database.db.select().from(documents).where(eq(documents.shop, SHOP));
      if (rows.length === invoiced.length && rows.every((r) => r.status === 'completed')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);

  describe('at 1280 px', () => {
    let page: Page;
    const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `backfill-1280-${name}.png`), fullPage: true });

    beforeAll(async () => {
      page = await offlinePage(chromium.browser, { viewport: { width: 1280, height: 900 } });
      await page.goto(`${run.h.app.url}/admin?shop=${SHOP}#/facturas`);
      await page.click('nav.app-nav a[href="#/facturar-pedidos-anteriores"]');
      await page.locator('#backfill-form').waitFor(WAIT);
    });
    afterAll(async () => page?.context().close());

    it('refuses a reversed range in Spanish and shows nothing else', async () => {
      expect(await page.locator('h1.page__title').textContent()).toBe('Facturar pedidos anteriores');
      expect(await page.locator('#backfill-to').inputValue()).toBe(to);
      await page.fill('#backfill-from', to);
      await page.fill('#backfill-to', from);
      await page.click('#backfill-review');
      await page.locator('#backfill-error').waitFor(WAIT);
      expect(await page.locator('#backfill-error .banner__body').textContent()).toBe(
        render(message('backfill_reversed', { from: to, to: from }), 'es'),
      );
      expect(await page.locator('#backfill-summary').count()).toBe(0);
      await shot('reversed');
    });

    it('shows the dry run exactly', async () => {
      await page.fill('#backfill-from', from);
      await page.fill('#backfill-to', to);
      await page.click('#backfill-review');
      await page.locator('#backfill-summary').waitFor(WAIT);
      expect(await page.locator('#backfill-error').count()).toBe(0);
      expect(await page.locator('#backfill-summary .card__title').textContent()).toBe(`Pedidos pagados del ${from} al ${to}`);
      const usd = of('invoice', 'invoiced', 'tax_rate').reduce((a, o) => a + o.totalCents, 0);
      expect(await page.locator('#backfill-orders').textContent()).toBe('29');
      expect(await page.locator('#backfill-total').textContent()).toBe(`USD ${formatCents(usd).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`);
      expect(await page.locator('#backfill-already').textContent()).toBe('4');
      expect(await page.locator('#backfill-to-invoice').textContent()).toBe('21');
      expect(await page.locator('#backfill-cannot h3').textContent()).toBe('No se pueden facturar (4)');
      const items = await page.locator('#backfill-cannot-list li').allTextContents();
      expect(items).toHaveLength(4);
      expect(items).toEqual(cannot.map((o) => `#${o.id % 100000} — ${reasonEs(o)}`));
      expect(await page.locator('#backfill-start').textContent()).toBe('Emitir 21 facturas');
      await shot('dry-run');
    });

    it('asks first naming what will be issued, then runs to the end: one invoice per order', async () => {
      await page.click('#backfill-start');
      await page.locator('#backfill-confirm').waitFor(WAIT);
      expect(await page.locator('#backfill-confirm-title').textContent()).toBe('¿Emitir 21 facturas?');
      expect(await page.locator('#backfill-confirm-text').textContent()).toBe(
        `Se emitirán 21 facturas con la fecha de hoy (${panamaDate(new Date())}): cada factura lleva la fecha en que se envía, ` +
          'nunca la del pedido. 4 pedidos que no se pueden facturar quedarán con atención requerida. Los pedidos nuevos se facturan primero.',
      );
      await shot('confirm');
      // A slow gateway keeps it running long enough to see: the bar, the count of the dry run's 25, the time left, cancel.
      run.h.sandbox.gateway.setFaults({ latencyMs: 400 });
      await page.click('#backfill-confirm-confirm');
      await page.locator('#backfill-progress').waitFor(WAIT);
      expect(await page.locator('#backfill-progress #backfill-count').textContent()).toMatch(/^\d+ de 25$/);
      expect(await page.locator('#backfill-time-left').textContent()).toMatch(/^Tiempo restante: (calculando…|\d+ s|\d+ min \d\d s)$/);
      expect(await page.locator('#backfill-cancel').isVisible()).toBe(true);
      expect(await page.locator('#backfill-summary').count()).toBe(0);
      await shot('running');
      run.h.sandbox.gateway.setFaults({});
      await page.locator('#backfill-latest').waitFor({ timeout: 60_000 });
      expect(await page.locator('#backfill-count').textContent()).toBe('25 de 25');
      expect(
        await page.locator('#backfill-bar').evaluate((e) => [(e as HTMLProgressElement).value, (e as HTMLProgressElement).max]),
      ).toEqual([25, 25]);
      expect(await page.locator('#backfill-completed').textContent()).toBe('21');
      expect(await page.locator('#backfill-needs-attention').textContent()).toBe('4');
      expect(await page.locator('#backfill-failed').textContent()).toBe('0');
      expect(await page.locator('#backfill-latest .badge').textContent()).toBe('Terminada');
      await shot('done');

      const rows = await run.database.db.select().from(documents).where(eq(documents.shop, SHOP));
      expect(rows).toHaveLength(29);
      expect(new Set(rows.map((r) => r.orderGid)).size).toBe(29);
      expect(
        rows
          .filter((r) => r.status === 'completed')
          .map((r) => r.orderGid)
          .sort(),
      ).toEqual(
        of('invoice', 'invoiced')
          .map((o) => gidOf(o.id))
          .sort(),
      );
      expect(
        rows
          .filter((r) => r.status === 'needs_attention')
          .map((r) => r.orderGid)
          .sort(),
      ).toEqual(cannot.map((o) => gidOf(o.id)).sort());
      expect(rows.filter((r) => r.backfillId !== null)).toHaveLength(25);
      expect(run.h.sandbox.gateway.documents()).toHaveLength(25);
      const [row] = await run.database.db.select().from(backfills);
      expect(row).toMatchObject({ status: 'done', fromDay: from, toDay: to, expected: 25, ordersRead: 29, alreadyInvoiced: 4 });
    }, 90_000);
  });

  describe('at 390 px', () => {
    let page: Page;
    const noSidewaysScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

    beforeAll(async () => {
      page = await offlinePage(chromium.browser, { viewport: { width: 390, height: 844 } });
      await page.goto(`${run.h.app.url}/admin?shop=${SHOP}#/facturar-pedidos-anteriores`);
      await page.locator('#backfill-latest').waitFor(WAIT);
    });
    afterAll(async () => page?.context().close());

    it('fits the phone: the latest result and the dry run, with everything invoiced now', async () => {
      expect(await page.locator('#backfill-count').textContent()).toBe('25 de 25');
      expect(await noSidewaysScroll()).toBe(true);
      await page.fill('#backfill-from', from);
      await page.click('#backfill-review');
      await page.locator('#backfill-summary').waitFor(WAIT);
      expect(await page.locator('#backfill-orders').textContent()).toBe('29');
      expect(await page.locator('#backfill-already').textContent()).toBe('29');
      expect(await page.locator('#backfill-to-invoice').textContent()).toBe('0');
      expect(await page.locator('#backfill-nothing').textContent()).toBe('No hay pedidos por facturar en este rango.');
      expect(await page.locator('#backfill-start').isDisabled()).toBe(true);
      expect(await noSidewaysScroll()).toBe(true);
      await page.screenshot({ path: path.join(ARTIFACTS, 'backfill-390-dry-run.png'), fullPage: true });
    });
  });

  describe('inside the Shopify admin (App Bridge stand-in)', () => {
    let page: Page;
    const old = panamaDate(new Date(now - 90 * DAY));
    const earliest = panamaDate(new Date(now - 59 * DAY));

    beforeAll(async () => {
      // App Bridge is Shopify's script, out of reach here: a stand-in with session tokens and scopes.request, recorded.
      page = await offlinePage(chromium.browser, {
        viewport: { width: 1280, height: 900 },
        offMachine: (route) =>
          route.request().url() === 'https://cdn.shopify.com/shopifycloud/app-bridge.js'
            ? route.fulfill({
                contentType: 'text/javascript',
                body:
                  `window.__requested = []; window.shopify = { config: { locale: 'es', shop: '${SHOP}' }, ` +
                  'idToken: () => window.__simulatorSessionToken(), ' +
                  'scopes: { request: async (s) => { window.__requested.push(s); return { result: "granted-all" }; } } };',
              })
            : route.abort('internetdisconnected'),
      });
      await page.context().exposeBinding('__simulatorSessionToken', () => run.h.simulator.sessionToken(SHOP));
    });
    afterAll(async () => page?.context().close());

    it('offers read_all_orders through App Bridge for a range older than 60 days; outside the admin only says so', async () => {
      const host = Buffer.from(`admin.shopify.com/store/${SHOP.replace('.myshopify.com', '')}`).toString('base64url');
      const token = await run.h.simulator.sessionToken(SHOP);
      await page.goto(`${run.h.app.url}/?embedded=1&host=${host}&shop=${SHOP}&locale=es&id_token=${token}#/facturar-pedidos-anteriores`);
      await page.locator('#backfill-form').waitFor(WAIT);
      await page.fill('#backfill-from', old);
      await page.click('#backfill-review');
      await page.locator('#backfill-error').waitFor(WAIT);
      expect(await page.locator('#backfill-error .banner__body').textContent()).toBe(
        render(message('backfill_needs_all_orders', { earliest }), 'es'),
      );
      await page.click('#backfill-grant-scope');
      await page.waitForFunction(() => (window as unknown as { __requested: unknown[] }).__requested.length === 1);
      expect(await page.evaluate(() => (window as unknown as { __requested: unknown[] }).__requested)).toEqual([['read_all_orders']]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'backfill-embedded-scope.png'), fullPage: true });

      const outside = await page.context().newPage();
      await outside.goto(`${run.h.app.url}/admin?shop=${SHOP}#/facturar-pedidos-anteriores`);
      await outside.locator('#backfill-form').waitFor(WAIT);
      await outside.fill('#backfill-from', old);
      await outside.click('#backfill-review');
      await outside.locator('#backfill-error').waitFor(WAIT);
      expect(await outside.locator('#backfill-grant-scope').count()).toBe(0);
      expect(await outside.locator('#backfill-scope-outside').textContent()).toBe(
        'Conceda el permiso desde la app dentro del administrador de Shopify.',
      );
    });
  });
});
