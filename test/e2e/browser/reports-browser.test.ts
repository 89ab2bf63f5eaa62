// Informes in real Chromium at desktop (1280 px) and phone (390 px) width, against the app on loopback with a month
// of authorized documents: the summary as Form 430 reads it, the series and their gaps, a download of the sales book,
// English on request, no sideways scroll; the accountant's e-mail field and the Flow choices in Configuración. Screenshots go to
// test-artifacts/.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumForBlock, offlinePage } from '../../support/browser-page.ts';
import { CHROMIUM, hasChromium } from '../../support/chromium.ts';
import { inMemoryPglite } from '../../../sim/harness/databases.ts';
import { harnessFor } from '../../support/harness-blocks.ts';
import { ARTIFACTS } from '../../support/paths.ts';
import { seedDocuments } from '../../support/report-seeds.ts';

const SHOP = 'tienda-informes.myshopify.com';
const WAIT = { timeout: 20_000 };

if (!hasChromium) console.warn(`reports-browser.test.ts: SKIPPED — ${CHROMIUM} not found`);

describe.skipIf(!hasChromium)('Informes in the admin page', () => {
  const run = harnessFor(inMemoryPglite);
  const chromium = chromiumForBlock();

  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await run.h.installShop(SHOP, { environment: 'produccion', accountantEmail: 'contador@example.com' });
    await seedDocuments(run.database.db, [
      {
        shop: SHOP,
        number: 1,
        authorizedAt: '2025-11-03T15:00:00Z',
        items: [
          ['00', 500, 0],
          ['01', 10_000, 700],
        ],
      },
      {
        shop: SHOP,
        number: 3,
        authorizedAt: '2025-11-04T15:00:00Z',
        items: [
          ['02', 2_000, 200],
          ['03', 1_000, 150],
        ],
      },
      { shop: SHOP, number: 1, type: '04', authorizedAt: '2025-11-05T15:00:00Z', items: [['01', 1_000, 70]] },
    ]);
  }, 60_000);

  describe.each([1280, 390])('at %i px', (width) => {
    let page: Page;
    const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `reports-${width}-${name}.png`), fullPage: true });
    const noSidewaysScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    const cells = (selector: string) => page.locator(selector).evaluateAll((els) => els.map((e) => e.textContent));

    beforeAll(async () => {
      page = await offlinePage(chromium.browser, { viewport: { width, height: 900 } });
      await page.goto(`${run.h.app.url}/admin?shop=${SHOP}#/informes?mes=2025-11`);
    });
    afterAll(async () => page?.context().close());

    it('shows the month as Form 430 reads it, the series and their gaps', async () => {
      await page.locator('#report-summary').waitFor(WAIT);
      expect(await page.locator('h1.page__title').textContent()).toBe('Informes');
      expect(await page.locator('#report-month').inputValue()).toBe('2025-11');
      expect(await cells('#rate-7 > *')).toEqual([
        'Gravadas 7 %',
        'USD 100.00',
        'USD 7.00',
        'USD 10.00',
        'USD 0.70',
        'USD 90.00',
        'USD 6.30',
      ]);
      expect(await cells('#rate-0 > *')).toEqual(['Exentas (0 %)', 'USD 5.00', 'USD 0.00', 'USD 0.00', 'USD 0.00', 'USD 5.00', 'USD 0.00']);
      expect(await cells('#rate-total > *')).toEqual([
        'Total',
        'USD 135.00',
        'USD 10.50',
        'USD 10.00',
        'USD 0.70',
        'USD 125.00',
        'USD 9.80',
      ]);
      expect(await page.locator('#total-invoices').textContent()).toBe('USD 145.50');
      expect(await page.locator('#total-notes').textContent()).toBe('−USD 10.70');
      expect(await page.locator('#total-net').textContent()).toBe('USD 134.80');
      const gaps = await page.locator('#report-series .gaps li').allTextContents();
      expect(gaps).toEqual(['2 sin registro']);
      expect(await page.locator('#report-email').textContent()).toContain('contador@example.com');
      expect(await noSidewaysScroll()).toBe(true);
      await shot('summary');
    });

    it('downloads the sales book', async () => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.click('#download-csv')]);
      expect(file.suggestedFilename()).toBe('libro-de-ventas-2025-11.csv');
      const text = fs.readFileSync((await file.path())!, 'utf8');
      expect(text.split('\r\n')[0]).toBe(
        '\uFEFFfecha,tipo,numero,cufe,cliente_tipo,ruc,dv,cliente,base_exenta,base_7,itbms_7,base_10,itbms_10,base_15,itbms_15,total,cufe_referenciado',
      );
      expect(text.split('\r\n')).toHaveLength(5);
    });

    it('speaks English on request and answers a month not begun clearly', async () => {
      await page.click('#language-toggle');
      await page.locator('#report-summary').waitFor(WAIT);
      expect(await page.locator('h1.page__title').textContent()).toBe('Reports');
      expect(await cells('#rate-15 > *')).toEqual(['Taxed 15 %', 'USD 10.00', 'USD 1.50', 'USD 0.00', 'USD 0.00', 'USD 10.00', 'USD 1.50']);
      expect(await noSidewaysScroll()).toBe(true);
      await shot('english');
      await page.fill('#report-month', '2999-01');
      await page.click('#report-show');
      await page.locator('#report-error').waitFor(WAIT);
      expect(await page.locator('#report-error').textContent()).toBe('month: 2999-01 has not begun yet (Panamá time)');
      await page.click('#language-toggle');
    });

    it("keeps the accountant's e-mail in Configuración", async () => {
      await page.evaluate(() => (location.hash = '#/configuracion'));
      const field = page.locator('#field-accountantEmail');
      await field.waitFor(WAIT);
      expect(await field.inputValue()).toBe('contador@example.com');
      expect(await noSidewaysScroll()).toBe(true);
    });

    it.runIf(width === 1280)("a wrong accountant's e-mail is told in Spanish under its field, and nothing is saved", async () => {
      const field = page.locator('#field-accountantEmail');
      await field.fill('contador');
      const refused = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PUT');
      await page.click('#save-settings');
      expect((await refused).status()).toBe(400);
      const error = page.locator('#field-accountantEmail-error');
      await error.waitFor(WAIT);
      expect(await error.textContent()).toBe('No es una dirección de correo electrónico (p. ej. contador@ejemplo.com).');
      expect((await run.h.app.shops.get(SHOP))!.settings.accountantEmail).toBe('contador@example.com');
      await field.fill('contador@example.com');
    });

    it.runIf(width === 1280)('keeps the Shopify Flow choices in Configuración: off, reasons in English', async () => {
      expect(await page.locator('#field-flowTriggers-enabled').isChecked()).toBe(true);
      await page.locator('#field-flowTriggers-enabled').uncheck();
      await page.selectOption('#field-flowTriggers-language', 'en');
      const saved = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PUT');
      await page.click('#save-settings');
      expect((await saved).status()).toBe(200);
      expect((await run.h.app.shops.get(SHOP))!.settings.flowTriggers).toEqual({ enabled: false, language: 'en' });
      expect((await run.h.app.shops.get(SHOP))!.settings.accountantEmail).toBe('contador@example.com');
    });
  });
});
