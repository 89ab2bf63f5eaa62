// Bulk actions in real Chromium against the whole product on loopback, on both databases (issue 30 item 3): the 50
// documents of the list's first page selected with one tick, then retried (after a confirmation saying how many),
// resent and downloaded as one ZIP whose PDFs are byte-identical to their links; each result names what was refused and
// why. "Select all N that match" reaches past the page. At 390 px the bar fits and works. Screenshots: test-artifacts/.
import fs from 'node:fs';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../../src/db/schema.ts';
import type { DocumentRow } from '../../../src/documents/store/index.ts';
import { pdfFileName } from '../../../src/reports/month-zip.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { chromiumForBlock, offlinePage } from '../../support/browser-page.ts';
import { bulkWorldFor, pdfLinks, resendsOf } from '../../support/bulk-world.ts';
import { CHROMIUM, hasChromium } from '../../support/chromium.ts';
import { ARTIFACTS } from '../../support/paths.ts';
import { unzipEntries } from '../../support/zip-entries.ts';

const SHOP = 'tienda-lotes-pagina.myshopify.com';
const WAIT = { timeout: 20_000 };

if (!hasChromium) console.warn(`bulk-actions-browser.test.ts: SKIPPED — ${CHROMIUM} not found`);

describe.skipIf(!hasChromium).each(testDatabases)('bulk actions in the admin page on $name', (target) => {
  const world = bulkWorldFor(target, { shop: SHOP, firstOrderId: 7_500_000_001, good: 52, bad: 3 });
  const chromium = chromiumForBlock();

  beforeAll(() => fs.mkdirSync(ARTIFACTS, { recursive: true }));

  async function pageFor(language: 'es' | 'en', width: number): Promise<Page> {
    const page = await offlinePage(chromium.browser, { viewport: { width, height: width < 500 ? 844 : 900 } });
    await page.addInitScript((lang) => localStorage.setItem('factura-pa.lang', lang), language);
    return page;
  }
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(ARTIFACTS, `bulk-${target.name}-${name}.png`), fullPage: true });
  const open = async (page: Page, hash = '#/facturas') => {
    await page.goto(`${world.h.app.url}/admin?shop=${SHOP}${hash}`);
    await page.locator('#invoice-table tbody tr').first().waitFor(WAIT);
  };
  /** The list's first page, as the server orders it. */
  const firstPage = async (): Promise<DocumentRow[]> =>
    world.database.db
      .select()
      .from(documents)
      .where(eq(documents.shop, SHOP))
      .orderBy(desc(documents.createdAt), desc(documents.id))
      .limit(50);
  const refusedIds = (page: Page) => page.locator('#bulk-result li').evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.id));
  const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  async function downloadZip(page: Page): Promise<Map<string, Buffer>> {
    const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.click('#bulk-zip')]);
    expect(download.suggestedFilename()).toBe('documentos-pdf.zip');
    return unzipEntries(fs.readFileSync((await download.path())!));
  }

  it('at 1280 px in Spanish: select the page’s 50, retry after saying what it does, resend, and download the ZIP', async () => {
    const page = await pageFor('es', 1280);
    await open(page);
    const shown = await firstPage();
    const authorized = shown.filter((d) => d.status === 'completed');
    const stopped = shown.filter((d) => d.status === 'needs_attention');
    expect(stopped.length).toBeGreaterThan(0);

    expect(await page.locator('#bulk-retry').isDisabled()).toBe(true);
    await page.check('#bulk-select-page');
    expect(await page.locator('#bulk-count').textContent()).toBe('50 seleccionados');
    expect(await page.locator('#invoice-table input.bulk-row:checked').count()).toBe(50);
    await page.locator('#bulk-select-all').waitFor(WAIT);
    expect(await page.locator('#bulk-select-all').textContent()).toBe('Seleccionar los 55 que coinciden con los filtros');

    // Retry: asked first, saying how many and what it does; cancelling sends nothing.
    expect(await page.locator('#bulk-retry').textContent()).toBe('Reintentar (50)');
    await page.click('#bulk-retry');
    expect(await page.locator('#bulk-retry-dialog-text').textContent()).toBe(
      'Reintentar 50 documentos: los detenidos (fallidos o con atención requerida) se envían otra vez al proveedor y los que se autoricen quedan emitidos; los que esperan se envían ahora. Los demás quedan como están, y se dice por qué.',
    );
    await shot(page, 'retry-confirm');
    const retried = page.waitForResponse((r) => r.url().endsWith('/api/invoices/bulk/retry'));
    await page.click('#bulk-retry-dialog-confirm');
    expect((await retried).status()).toBe(200);
    await expect.poll(() => page.locator('#bulk-result-title').textContent(), WAIT).toBe(`Reintentados: ${stopped.length}`);
    expect(await page.locator('#bulk-result-refused').textContent()).toBe(`No se hizo con ${authorized.length}:`);
    expect(await refusedIds(page)).toEqual(authorized.map((d) => d.id));
    expect(await page.locator('#bulk-result .bulk-result__reason').first().textContent()).toBe(
      'Está autorizado: no hay nada que reintentar.',
    );
    await shot(page, 'retry-result');
    for (const d of stopped)
      await waitFor(
        async () => (await world.database.db.select().from(documents).where(eq(documents.id, d.id)))[0]!.status === 'needs_attention',
        20_000,
        'the stopped again',
      );

    // Resend: the authorized ones' e-mails queued, the stopped refused with the reason.
    expect(await page.locator('#bulk-count').textContent()).toBe('50 seleccionados');
    await page.click('#bulk-resend');
    await expect.poll(() => page.locator('#bulk-result-title').textContent(), WAIT).toBe(`Correos reenviados: ${authorized.length}`);
    expect(await refusedIds(page)).toEqual(stopped.map((d) => d.id));
    expect(await page.locator('#bulk-result .bulk-result__reason').first().textContent()).toBe(
      'Solo un documento autorizado, con su PDF, se puede enviar por correo.',
    );
    expect(
      await resendsOf(
        world,
        authorized.map((d) => d.id),
      ),
    ).toHaveLength(authorized.length);

    // The ZIP: each authorized one's PDF, byte-identical to its link; the others listed.
    const entries = await downloadZip(page);
    expect([...entries.keys()].sort()).toEqual([...authorized.map((d) => pdfFileName(d)), 'documentos-sin-pdf.txt'].sort());
    const links = await pdfLinks(
      world,
      SHOP,
      authorized.map((d) => d.id),
    );
    for (const d of authorized)
      expect(entries.get(pdfFileName(d))!.equals(Buffer.from(await (await fetch(links.get(d.id)!)).arrayBuffer()))).toBe(true);
    expect(entries.get('documentos-sin-pdf.txt')!.toString().trim().split('\r\n')).toHaveLength(stopped.length);
    expect(await page.locator('#bulk-result-title').textContent()).toBe(
      `ZIP con ${authorized.length} PDF; ${stopped.length} sin PDF quedaron fuera (el ZIP trae la lista).`,
    );

    // All that match: past the page, by the filters.
    await page.click('#bulk-select-all');
    expect(await page.locator('#bulk-all-matching').textContent()).toBe(
      'Seleccionados los 55 documentos que coinciden con los filtros. Quitar la selección',
    );
    expect(await page.locator('#bulk-zip').textContent()).toBe('Descargar PDF (ZIP) (55)');
    const all = await downloadZip(page);
    expect([...all.keys()].filter((n) => n.endsWith('.pdf'))).toHaveLength(52);
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'all-matching');
    await page.click('#bulk-clear');
    expect(await page.locator('#bulk-count').textContent()).toBe('0 seleccionados');
    await page.context().close();
  }, 120_000);

  it('at 390 px in English: the bar fits, two ticked rows are resent, and a tick never opens the document', async () => {
    const page = await pageFor('en', 390);
    await open(page, '#/facturas?status=completed');
    const rows = page.locator('#invoice-table input.bulk-row');
    await rows.nth(0).check();
    await rows.nth(1).check();
    expect(page.url()).toContain('#/facturas?status=completed');
    expect(await page.locator('#bulk-count').textContent()).toBe('2 selected');
    expect(await page.locator('#bulk-resend').textContent()).toBe('Resend e-mail (2)');
    await page.click('#bulk-resend');
    await expect.poll(() => page.locator('#bulk-result-title').textContent(), WAIT).toBe('E-mails resent: 2');
    expect(await page.locator('#bulk-result-refused').count()).toBe(0);
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'phone');
    await page.context().close();
  }, 60_000);
});
