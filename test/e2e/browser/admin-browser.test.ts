// The admin page in real Chromium (playwright-core, /usr/bin/chromium), against the whole product on
// loopback: configure a shop, send an order through the store simulator, watch it become authorized,
// open its PDF; an invoice stopped by a bad setting shows its reason, the setting is fixed, retry →
// authorized; bad credentials pause the shop and saving good ones lets it go on. Outside Shopify the page
// makes no request beyond the app; embedded, it still renders when Shopify's CDN cannot be reached.
// Screenshots of each page go to test-artifacts/.
import fs from 'node:fs';
import path from 'node:path';
import { Session } from '@shopify/shopify-api';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumForBlock, offlinePage } from '../../support/browser-page.ts';
import { inMemoryPglite } from '../../../sim/harness/databases.ts';
import { credentialsFor } from '../../../sim/harness/harness.ts';
import { harnessFor } from '../../support/harness-blocks.ts';
import { CHROMIUM, hasChromium } from '../../support/chromium.ts';
import { makePaidOrder } from '../../support/order-factory.ts';
import { ARTIFACTS } from '../../support/paths.ts';

const SHOP = 'tienda-navegador.myshopify.com';
const WAIT = { timeout: 20_000 };

if (!hasChromium)
  console.warn(`admin-browser.test.ts: SKIPPED — ${CHROMIUM} not found (install Debian's chromium to run the browser tests)`);

describe.skipIf(!hasChromium)('the admin page in Chromium', () => {
  const run = harnessFor(inMemoryPglite);
  const chromium = chromiumForBlock();
  let page: Page;
  /** Requests that tried to leave the machine (all are refused). */
  const external: string[] = [];

  /** Full-page screenshot from the top (the sticky top bar would otherwise be drawn mid-page). */
  async function shot(name: string) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  }
  const hash = (h: string) => page.evaluate((target) => (location.hash = target), h);
  const row = (order: string, status?: string) => page.locator(`tr[data-order="${order}"]${status ? `[data-status="${status}"]` : ''}`);
  const credentials = credentialsFor(SHOP);

  async function fillCredentials(values: Partial<Record<keyof typeof credentials, string>>) {
    for (const [name, value] of Object.entries(values)) await page.fill(`#field-credentials-${name.replaceAll('_', '-')}`, value);
  }
  /** Save the form and wait for the server's answer (an earlier toast may still be showing). */
  async function save() {
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PUT');
    await page.click('#save-settings');
    expect((await saved).status()).toBe(200);
    await expect.poll(() => page.locator('#toast').textContent(), WAIT).toBe('Configuración guardada');
  }

  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    // Installed (OAuth done) but never configured: the merchant does that in the page.
    const { accessToken } = run.h.simulator.addShop(SHOP);
    await run.h.app.sessions.storeSession(
      new Session({
        id: run.h.app.shopify.session.getOfflineId(SHOP),
        shop: SHOP,
        state: 'test',
        isOnline: false,
        accessToken,
        scope: 'read_orders,write_orders',
      }),
    );
    await run.h.app.shops.ensureInstalled(SHOP);

    page = await offlinePage(chromium.browser, {
      viewport: { width: 1280, height: 900 },
      // Nothing may come from outside the machine: no CDN, no font, no analytics.
      offMachine: (route) => {
        external.push(route.request().url());
        return route.abort('internetdisconnected');
      },
    });
  }, 60_000);

  it('configures the shop: inline errors, test connection, the switch refused until complete', async () => {
    await page.goto(`${run.h.app.url}/admin?shop=${SHOP}`);
    // An unconfigured shop opens on its settings, with the environment banner on top.
    await page.locator('#save-settings').waitFor(WAIT);
    expect(await page.locator('#environment-banner .banner__title').textContent()).toBe('Las facturas se envían a PRUEBAS');
    expect(await page.locator('#environment-pill').textContent()).toBe('PRUEBAS');
    await page.locator('#incomplete-banner').waitFor(WAIT);
    await shot('admin-settings-new');

    // The switch is refused while the credentials are missing.
    await page.click('label.switch');
    await expect.poll(() => page.locator('#enabled-message').textContent(), WAIT).toContain('Complete y guarde las seis credenciales');
    expect(await page.locator('#enabled-switch').isChecked()).toBe(false);

    // Inline errors: one the page catches, one only the server knows (a location not in the catalogue).
    await fillCredentials(credentials);
    await page.fill('#field-branchCode', 'AB');
    await page.click('#save-settings');
    expect(await page.locator('#field-branchCode-error').textContent()).toBe('Escriba 4 letras o dígitos (0000 es la casa matriz).');
    await page.fill('#field-branchCode', '0000');
    await page.fill('#field-mapping-defaultLocationCode', '99-99-99');
    await page.click('#save-settings');
    await page.locator('#field-mapping-defaultLocationCode-error').waitFor({ state: 'visible', ...WAIT });
    expect(await page.locator('#field-mapping-defaultLocationCode-error').textContent()).toBe(
      'No es un código provincia-distrito-corregimiento del catálogo de la DGI (p. ej. 8-8-7).',
    );
    expect(await page.locator('#field-branchCode-error').isHidden()).toBe(true);
    expect(await page.locator('#settings-errors .banner__title').textContent()).toBe('Revise los campos marcados');
    await shot('admin-settings-errors');
    expect((await run.h.app.shops.get(SHOP))!.credentials).toBeUndefined();

    await page.fill('#field-mapping-defaultLocationCode', '8-8-7');
    await save();
    expect((await run.h.app.shops.get(SHOP))!.credentials).toEqual(credentials);
    // Saved credentials are never shown back: the fields are empty again.
    expect(await page.inputValue('#field-credentials-Token')).toBe('');
    expect(await page.getAttribute('#field-credentials-Token', 'placeholder')).toBe('Guardado · escriba para reemplazar');

    await page.click('#test-connection');
    await expect
      .poll(
        () =>
          page
            .locator('#connection-result .banner__title')
            .textContent()
            .catch(() => null),
        WAIT,
      )
      .toBe('Conexión correcta: el proveedor aceptó las credenciales (Pruebas).');

    await page.click('label.switch');
    await expect.poll(() => page.locator('#enabled-state').textContent(), WAIT).toBe('Activada');
    expect(await page.locator('#enabled-switch').isChecked()).toBe(true);
    expect((await run.h.app.shops.get(SHOP))!.enabled).toBe(true);
    expect(await page.locator('#incomplete-banner, #disabled-banner').count()).toBe(0);
    await shot('admin-settings');
  });

  it('shows a paid order become authorized in the list, and its detail with the PDF, QR and order link', async () => {
    const order = makePaidOrder({ id: 5_920_000_011_001, shippingCents: 500 });
    expect((await run.h.simulator.orderPaid(SHOP, order, run.h.webhookAddress)).status).toBe(200);

    await hash('#/facturas');
    await row('#11001', 'completed').waitFor(WAIT);
    const cells = await row('#11001').locator('td').allTextContents();
    // The first cell is the row's selection box (bulk actions).
    expect(cells.slice(1, 6)).toEqual(['#11001', 'Factura', '0000-001-0000000001', 'USD 75.78', 'Autorizada']);
    expect(cells[8]).toBe('—');
    expect(await page.locator('.filter-tab[data-status="completed"] .filter-tab__count').textContent()).toBe('1');
    await shot('admin-invoices');

    await row('#11001').locator('a').click();
    await page.locator('#cufe').waitFor(WAIT);
    expect(await page.locator('#fiscal-number').textContent()).toBe('0000-001-0000000001');
    expect((await page.locator('#cufe').textContent())!).toHaveLength(66);
    expect(await page.locator('#document-total').textContent()).toBe('USD 75.78');
    expect(
      await page
        .locator('#gateway-calls tbody tr')
        .evaluateAll((rows) => rows.map((r) => `${(r as HTMLElement).dataset.operation}:${(r as HTMLElement).dataset.code}`)),
    ).toEqual(['SendDocument:200', 'DownloadPDF:200']);
    expect(await page.getAttribute('#order-link', 'href')).toBe('https://admin.shopify.com/store/tienda-navegador/orders/5920000011001');
    expect(await page.locator('a[href^="https://dgi-fep-test.mef.gob.pa:40001/Consultas/FacturasPorQR?chFE=FE01"]').count()).toBe(1);
    // No credential reaches the page, not even in the calls' details.
    const html = await page.content();
    for (const secret of [credentials.Token, credentials.GW_Token]) expect(html).not.toContain(secret);
    await shot('admin-invoice-detail');

    // Open the PDF the way the link does.
    const pdfUrl = (await page.getAttribute('#pdf-link', 'href'))!;
    expect(pdfUrl).toMatch(new RegExp(`^${run.h.app.url}/invoices/[A-Za-z0-9_-]{32}\\.pdf$`));
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.click('#pdf-link')]);
    expect(popup.url()).toBe(pdfUrl);
    await popup.close();
    const pdf = await page.request.get(pdfUrl);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('shows why an invoice stopped on a bad setting; after fixing the setting, retry authorizes it', async () => {
    // 8.5 % is not an ITBMS rate: the shop must say which ITBMS code it means.
    const order = makePaidOrder({
      id: 5_920_000_012_002,
      lines: [{ title: 'Vino importado', sku: 'VIN-01', price: 2000, quantity: 1, ratePercent: 8.5 }],
    });
    await run.h.simulator.orderPaid(SHOP, order, run.h.webhookAddress);

    await hash('#/facturas');
    await row('#12002', 'needs_attention').waitFor(WAIT);
    const reason = row('#12002').locator('.reason');
    expect(await reason.locator('.reason__title').textContent()).toBe('El pedido no se puede facturar tal como está');
    expect(await reason.locator('.reason__detail').textContent()).toContain('A "Vino importado" se le cobró una tasa de impuesto de 8.5 %');
    expect(await row('#12002').locator('.badge').first().textContent()).toBe('Requiere atención');
    expect(await page.locator('#retry-all').textContent()).toBe('Reintentar fallidas y con atención (1)');
    await shot('admin-invoices-attention');

    await row('#12002').locator('a').click();
    await page.locator('#reason-banner').waitFor(WAIT);
    expect(await page.locator('#reason-banner .banner__title').textContent()).toBe('El pedido no se puede facturar tal como está');
    expect(await page.locator('#reason-banner').textContent()).toContain(
      'indique en la configuración de la app qué tasa de ITBMS usar para 8.5 %',
    );
    const detailHash = await page.evaluate(() => location.hash);
    await shot('admin-invoice-attention');

    // Fix the setting…
    await page.click('nav.app-nav a[href="#/configuracion"]');
    await page.locator('#field-mapping-taxRateCodes').waitFor(WAIT);
    await page.fill('#field-mapping-taxRateCodes', '0.085 = 01');
    await save();
    expect((await run.h.app.shops.get(SHOP))!.settings.mapping.taxRateCodes).toEqual({ '0.085': '01' });

    // …then retry: authorized, with the next fiscal number.
    await hash(detailHash);
    await page.locator('#retry-invoice').waitFor(WAIT);
    await page.click('#retry-invoice');
    await expect
      .poll(
        () =>
          page
            .locator('#fiscal-number')
            .textContent()
            .catch(() => null),
        WAIT,
      )
      .toBe('0000-001-0000000002');
    await expect.poll(() => page.locator('.page__title .badge').textContent(), WAIT).toBe('Autorizada');
    expect(await page.locator('#reason-banner').count()).toBe(0);
    await shot('admin-invoice-retried');
  });

  it('pauses on refused credentials with the reason on screen, and goes on once they are corrected', async () => {
    await hash('#/configuracion');
    await page.locator('#field-credentials-Token').waitFor(WAIT);
    await fillCredentials({ Token: 'bad-token-typo' });
    await save();

    await run.h.simulator.orderPaid(SHOP, makePaidOrder({ id: 5_920_000_013_003 }), run.h.webhookAddress);
    await hash('#/facturas');
    await page.locator('#paused-banner').waitFor(WAIT);
    expect(await page.locator('#paused-banner .banner__title').textContent()).toBe('La facturación está en pausa');
    await expect
      .poll(
        () =>
          row('#13003')
            .locator('.reason__title')
            .textContent()
            .catch(() => null),
        WAIT,
      )
      .toBe('El proveedor rechazó las credenciales de la tienda · código 101');
    expect(await row('#13003').locator('.badge').first().textContent()).toBe('En espera');
    await shot('admin-invoices-paused');

    await hash('#/configuracion');
    await page.locator('#field-credentials-Token').waitFor(WAIT);
    await fillCredentials({ Token: credentials.Token });
    await save();
    expect((await run.h.app.shops.get(SHOP))!.pausedReason).toBeNull();

    await hash('#/facturas');
    await row('#13003', 'completed').waitFor(WAIT);
    expect(await row('#13003').locator('td[data-label="Número fiscal"]').textContent()).toBe('0000-001-0000000003');
    await page.locator('#paused-banner').waitFor({ state: 'detached', ...WAIT });
  });

  it('searches, filters by status and says so when nothing matches', async () => {
    await hash('#/facturas?status=completed');
    await row('#13003').waitFor(WAIT);
    expect(await page.locator('tbody tr').count()).toBe(3);
    await page.fill('#search', '12002');
    await page.click('#apply-filters');
    await expect
      .poll(() => page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.order)), WAIT)
      .toEqual(['#12002']);
    await page.fill('#search', '0000-001-0000000003');
    await page.click('#apply-filters');
    await expect
      .poll(() => page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.order)), WAIT)
      .toEqual(['#13003']);
    await hash('#/facturas?status=failed');
    await expect
      .poll(
        () =>
          page
            .locator('.empty__title')
            .textContent()
            .catch(() => null),
        WAIT,
      )
      .toBe('Ninguna factura coincide con los filtros.');
  });

  it('shows the production banner once production is chosen', async () => {
    await hash('#/configuracion');
    await page.locator('#field-environment').waitFor(WAIT);
    await page.selectOption('#field-environment', 'produccion');
    // The switch asks first (docs/series.md; test/e2e/browser/series-browser.test.ts).
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PUT');
    await page.click('#save-settings');
    await page.click('#production-go');
    expect((await saved).status()).toBe(200);
    await expect
      .poll(() => page.locator('#environment-banner .banner__title').textContent(), WAIT)
      .toBe('Las facturas se envían a PRODUCCIÓN');
    expect(await page.locator('#environment-pill').textContent()).toBe('PRODUCCIÓN');
    await shot('admin-settings-production');
  });

  it('speaks English on request and remembers it', async () => {
    await hash('#/facturas');
    await page.locator('#language-toggle').waitFor(WAIT);
    await page.click('#language-toggle');
    await expect.poll(() => page.locator('h1.page__title').textContent(), WAIT).toBe('Invoices');
    await page.reload();
    await expect
      .poll(
        () =>
          page
            .locator('h1.page__title')
            .textContent()
            .catch(() => null),
        WAIT,
      )
      .toBe('Invoices');
    expect(await page.locator('#environment-banner .banner__title').textContent()).toBe('Invoices go to PRODUCTION (producción)');
    expect(await row('#11001').locator('.badge').first().textContent()).toBe('Authorized');
    await shot('admin-invoices-en');
    await page.click('#language-toggle');
    await expect.poll(() => page.locator('h1.page__title').textContent(), WAIT).toBe('Facturas');
  });

  it('made no request outside the machine', () => {
    expect(external).toEqual([]);
  });

  it('renders fully when embedded and Shopify’s CDN cannot be reached', async () => {
    const embedded = await page.context().newPage();
    const errors: string[] = [];
    embedded.on('pageerror', (e) => errors.push(e.message));
    await embedded.goto(
      `${run.h.app.url}/admin?shop=${SHOP}&host=YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvdGllbmRhLW5hdmVnYWRvcg&embedded=1#/facturas`,
    );
    await embedded.locator('#environment-banner').waitFor(WAIT);
    await embedded.locator('tr[data-order="#11001"]').waitFor(WAIT);
    expect(external).toEqual(['https://cdn.shopify.com/shopifycloud/app-bridge.js']);
    expect(errors).toEqual([]);
    await embedded.screenshot({ path: path.join(ARTIFACTS, 'admin-embedded-without-cdn.png'), fullPage: true });
    await embedded.close();
  });
});

describe.skipIf(hasChromium)('the admin page in Chromium', () => {
  it(`is skipped: ${CHROMIUM} not found`, () => {
    expect(hasChromium).toBe(false);
  });
});
