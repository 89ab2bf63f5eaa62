// Number series in *Configuración*, in Chromium (docs/series.md): the shop's locations listed by name to map each to a
// branch and point (an id the shop lacks kept and flagged), the series with their numbers, set-next refused with the
// reason in Spanish, and the switch to production asking first, naming what changes.
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../../src/db/schema.ts';
import { inMemoryPglite } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { chromiumForBlock, offlinePage } from '../../support/browser-page.ts';
import { hasChromium } from '../../support/chromium.ts';
import { harnessFor } from '../../support/harness-blocks.ts';
import { makePaidOrder } from '../../support/order-factory.ts';
import { ARTIFACTS } from '../../support/paths.ts';

const SHOP = 'tienda-series-pagina.myshopify.com';
const WAIT = { timeout: 20_000 };

describe.skipIf(!hasChromium)('number series in Configuración, in Chromium', () => {
  const run = harnessFor(inMemoryPglite);
  const chromium = chromiumForBlock();
  let page: Page;

  beforeAll(async () => {
    const { h } = run;
    await h.installShop(SHOP, {
      locations: { '71000000001': { branchCode: '0002', billingPoint: '001' }, '404': { branchCode: '0009', billingPoint: '001' } },
    });
    h.simulator.addLocation(SHOP, { id: 71_000_000_001, name: 'Tienda Colón' });
    h.simulator.addLocation(SHOP, { id: 71_000_000_002, name: 'Tienda David' });
    for (let i = 0; i < 2; i++) await h.simulator.orderPaid(SHOP, makePaidOrder({ id: 7_600_000_000_000 + i }), h.webhookAddress);
    await waitFor(async () => (await h.app.shops.get(SHOP)) && (await fetch(`${h.app.url}/healthz`)).ok, 10_000, 'the app');
    page = await offlinePage(chromium.browser, { viewport: { width: 1280, height: 900 } });
    await page.goto(`${h.app.url}/admin?shop=${SHOP}#/configuracion`);
    await page.locator('#locations-table').waitFor(WAIT);
  }, 60_000);

  it('lists the locations by name with their branch and point; an id the shop lacks is kept and flagged', async () => {
    const rows = page.locator('#locations-table tbody tr');
    await expect.poll(() => rows.count(), WAIT).toBe(3);
    expect(await page.locator('tr[data-location="71000000001"] td').first().textContent()).toBe('Tienda Colón Id 71000000001');
    expect(await page.inputValue('#location-71000000001-branch')).toBe('0002');
    expect(await page.inputValue('#location-71000000002-branch')).toBe('');
    expect(await page.locator('tr[data-location="404"] .badge').textContent()).toBe('No existe en la tienda');
    // Map David, and save: the settings keep the unknown id.
    await page.fill('#location-71000000002-branch', '0003');
    await page.fill('#location-71000000002-point', '002');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PUT');
    await page.click('#save-settings');
    expect((await saved).status()).toBe(200);
    expect((await run.h.app.shops.get(SHOP))!.settings.locations).toEqual({
      '71000000001': { branchCode: '0002', billingPoint: '001' },
      '71000000002': { branchCode: '0003', billingPoint: '002' },
      '404': { branchCode: '0009', billingPoint: '001' },
    });
    await page.screenshot({ path: path.join(ARTIFACTS, 'admin-settings-series.png'), fullPage: true });
  });

  it('shows the series; set-next below the last number used is refused with the reason in Spanish', async () => {
    await waitFor(async () => (await page.locator('#series-table tbody tr').count()) === 1 || undefined, 30_000, 'the series row');
    await page.fill('#set-next-number', '1');
    await page.selectOption('#set-next-environment', 'pruebas');
    await page.click('#set-next');
    await expect
      .poll(() => page.locator('#set-next-refused .banner__title').textContent(), WAIT)
      .toBe('Rechazado, nada cambió: 1 es igual o menor que 2, un número ya usado. La serie continúa en 3.');
    await page.selectOption('#set-next-environment', 'produccion');
    await page.fill('#set-next-number', '1001');
    await page.click('#set-next');
    await expect.poll(() => page.locator('#set-next-result .banner__title').textContent(), WAIT).toBe('La serie continúa en 1001.');
    expect(await page.locator('tr[data-series="produccion 0000-001 01"] td').nth(5).textContent()).toBe('1001');
  });

  it('asks before switching to production, naming what changes; cancelled, nothing is saved', async () => {
    await page.selectOption('#field-environment', 'produccion');
    await page.click('#save-settings');
    const dialog = page.locator('#production-confirm');
    await dialog.waitFor(WAIT);
    expect(await dialog.locator('h2').textContent()).toBe('¿Pasar a producción?');
    expect(await dialog.textContent()).toContain('serán documentos fiscales válidos ante la DGI');
    expect(await page.locator('#production-starts li').allTextContents()).toEqual([
      '0000-001 Factura: n.º 1001',
      '0000-001 Nota de crédito: n.º 1',
      '0002-001 Factura: n.º 1',
      '0002-001 Nota de crédito: n.º 1',
      '0003-002 Factura: n.º 1',
      '0003-002 Nota de crédito: n.º 1',
      '0009-001 Factura: n.º 1',
      '0009-001 Nota de crédito: n.º 1',
    ]);
    await page.click('#production-cancel');
    await expect.poll(() => page.locator('#toast').textContent(), WAIT).toBe('Sigue en pruebas: no se guardó nada.');
    expect((await run.h.app.shops.get(SHOP))!.settings.environment).toBe('pruebas');

    await page.click('#save-settings');
    await dialog.waitFor(WAIT);
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PUT');
    await page.click('#production-go');
    expect((await saved).status()).toBe(200);
    expect((await run.h.app.shops.get(SHOP))!.settings.environment).toBe('produccion');
  });

  it("the list names each number's environment once it mixes test and production", async () => {
    await run.h.simulator.orderPaid(SHOP, makePaidOrder({ id: 7_600_000_000_010 }), run.h.webhookAddress);
    await waitFor(
      async () => (await run.database.db.select().from(documents).where(eq(documents.status, 'completed'))).length === 3,
      30_000,
      'the production invoice',
    );
    await page.evaluate(() => (location.hash = '#/facturas'));
    const produced = page.locator('tr[data-order="#10"][data-status="completed"]');
    await expect.poll(() => produced.count(), WAIT).toBe(1);
    expect(await produced.locator('[data-environment]').textContent()).toBe('Producción');
    expect(await produced.locator('td.mono').first().textContent()).toBe('0000-001-0000001001 Producción');
    expect(await page.locator('[data-environment="pruebas"]').count()).toBe(2);
  });
});
