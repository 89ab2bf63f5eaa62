// Credit notes in the admin page, in real Chromium at desktop (1280 px) and phone (390 px) width, against the whole
// product on loopback, with an invoice and two notes made through the store simulator (and a note waiting for an
// invoice that needs attention): the list shows each document's type and a note's invoice, and filters by type; the
// invoice's page lists its notes; a note's page links back to its invoice with its reference and refund; a waiting
// note shows the catalogue's reason and Reintentar; English on request; the notes' nature of the operation in
// Configuración. Screenshots go to test-artifacts/.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayDocument } from '../../../mappers/gateway/gateway-document.ts';
import { chromiumForBlock, offlinePage } from '../../support/browser-page.ts';
import { CHROMIUM, hasChromium } from '../../support/chromium.ts';
import { inMemoryPglite } from '../../../sim/harness/databases.ts';
import { type InvoiceWithNotes, invoiceWithTwoNotes, noteWaitingForInvoice } from '../../support/credit-note-orders.ts';
import { harnessForShop } from '../../support/harness-blocks.ts';
import { ARTIFACTS } from '../../support/paths.ts';

const SHOP = 'tienda-notas-pagina.myshopify.com';
const WAIT = { timeout: 20_000 };

if (!hasChromium) console.warn(`credit-notes-browser.test.ts: SKIPPED — ${CHROMIUM} not found`);

describe.skipIf(!hasChromium)('credit notes in the admin page', () => {
  const run = harnessForShop(inMemoryPglite, SHOP);
  const chromium = chromiumForBlock();
  let refunded: InvoiceWithNotes;
  let waiting: Awaited<ReturnType<typeof noteWaitingForInvoice>>;

  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    refunded = await invoiceWithTwoNotes(run.h, run.database, SHOP, 5_970_000_000_001);
    waiting = await noteWaitingForInvoice(run.h, run.database, SHOP, 5_970_000_000_002);
  }, 120_000);

  describe.each([1280, 390])('at %i px', (width) => {
    let page: Page;
    const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `credit-notes-${width}-${name}.png`), fullPage: true });
    const hash = (target: string) => page.evaluate((h) => (location.hash = h), target);
    const text = (selector: string) => page.locator(selector).first().textContent();
    const noSidewaysScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    const rowKinds = () => page.locator('#invoice-table tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.kind));

    beforeAll(async () => {
      page = await offlinePage(chromium.browser, { viewport: { width, height: 900 } });
      await page.goto(`${run.h.app.url}/admin?shop=${SHOP}#/facturas`);
    });
    afterAll(async () => page?.context().close());

    it('the list shows each document’s type, a note’s invoice, and filters by type', async () => {
      const note = page.locator(`tr[data-id="${refunded.notes[0].id}"]`);
      await note.waitFor(WAIT);
      expect(await rowKinds()).toEqual(['credit_note', 'invoice', 'credit_note', 'credit_note', 'invoice']);
      expect(await note.locator('td[data-label="Tipo"] .kind').evaluate((e) => e.firstChild?.textContent)).toBe('Nota de crédito');
      expect(await note.locator('.kind__invoice').textContent()).toBe('de la factura 0000-001-0000000001');
      expect(await note.locator('td[data-label="Número fiscal"]').textContent()).toBe('0000-001-0000000001');
      expect(await note.locator('td[data-label="Monto"]').textContent()).toBe('USD 26.22');
      const invoice = page.locator(`tr[data-id="${refunded.invoice.id}"]`);
      expect(await invoice.locator('td[data-label="Tipo"]').textContent()).toBe('Factura');
      // The waiting note: its badge and the catalogue's reason.
      const early = page.locator(`tr[data-id="${waiting.note.id}"]`);
      expect(await early.locator('.badge').first().textContent()).toBe('En espera');
      expect(await early.locator('.reason__title').textContent()).toBe('En espera');
      expect(await noSidewaysScroll()).toBe(true);
      await shot('list');

      await page.selectOption('#kind-filter', 'credit_note');
      await expect.poll(rowKinds, WAIT).toEqual(['credit_note', 'credit_note', 'credit_note']);
      expect(await page.evaluate(() => location.hash)).toBe('#/facturas?kind=credit_note');
      await page.click('.filter-tab[data-status="waiting"]');
      await expect
        .poll(() => page.locator('#invoice-table tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.id)), WAIT)
        .toEqual([waiting.note.id]);
      expect(await text('.filter-tab[data-status="waiting"] .filter-tab__count')).toBe('1');
      await hash('#/facturas?kind=invoice');
      await expect.poll(rowKinds, WAIT).toEqual(['invoice', 'invoice']);
      expect(await page.locator('#kind-filter').inputValue()).toBe('invoice');
      await shot('list-invoices');
    });

    it('the invoice’s page lists its notes; a note’s page links back to it with its reference and refund', async () => {
      await hash(`#/facturas/${refunded.invoice.id}`);
      await page.locator('#credit-notes').waitFor(WAIT);
      expect(await text('#credit-notes .card__title')).toBe('Notas de crédito');
      const rows = page.locator('#credit-notes tbody tr');
      expect(
        await rows.evaluateAll((trs) =>
          trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.firstElementChild?.textContent ?? td.textContent)),
        ),
      ).toEqual([
        [
          '0000-001-0000000001',
          'Autorizada',
          'USD 26.22',
          `${refunded.notes[0].cufe!.slice(0, 10)}…${refunded.notes[0].cufe!.slice(-6)}`,
          'Ver PDF',
        ],
        [
          '0000-001-0000000002',
          'Autorizada',
          'USD 5.35',
          `${refunded.notes[1].cufe!.slice(0, 10)}…${refunded.notes[1].cufe!.slice(-6)}`,
          'Ver PDF',
        ],
      ]);
      expect(await rows.first().locator('a[target="_blank"]').getAttribute('href')).toMatch(/\/invoices\/[A-Za-z0-9_-]{32}\.pdf$/);
      expect(await noSidewaysScroll()).toBe(true);
      await shot('invoice');

      await rows.first().locator('a').first().click();
      await page.locator('#note-invoice').waitFor(WAIT);
      expect(await text('h1.page__title')).toBe(`Nota de crédito · Pedido ${refunded.orderName} Autorizada`);
      expect(await text('#invoice-number')).toBe('0000-001-0000000001');
      expect(await text('#reference-cufe')).toBe(refunded.invoice.cufe);
      const [, y, m, d, hh, mm] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(
        (refunded.invoice.document as GatewayDocument).dataTransaction.dateBroadcast,
      )!;
      expect(await text('#reference-date')).toBe(`${d}/${m}/${y} ${hh}:${mm}`);
      expect(await text('#refund-id')).toBe(refunded.notes[0].sourceKey.split('/').pop());
      expect(await text('#fiscal-number')).toBe('0000-001-0000000001');
      expect(await text('#document-card .totals__grand dt')).toBe('Total de la nota de crédito');
      expect(await text('#document-total')).toBe('USD 26.22');
      expect(await page.locator('#retry-invoice').count()).toBe(0);
      expect(await noSidewaysScroll()).toBe(true);
      await shot('note');

      await page.click('#invoice-link');
      await page.locator('#credit-notes').waitFor(WAIT);
      expect(await page.evaluate(() => location.hash)).toBe(`#/facturas/${refunded.invoice.id}`);
      expect(await text('h1.page__title')).toBe(`Pedido ${refunded.orderName} Autorizada`);
    });

    it('a note waiting for its invoice shows why, its invoice, and Reintentar; in English too', async () => {
      await hash(`#/facturas/${waiting.note.id}`);
      await page.locator('#reason-banner').waitFor(WAIT);
      expect(await text('#reason-banner .banner__title')).toBe('En espera');
      expect(await text('#reason-banner')).toContain(
        `La nota de crédito espera a que se autorice la factura del pedido ${waiting.invoice.orderName}; sigue sola.`,
      );
      expect(await text('h1.page__title .badge')).toBe('En espera');
      expect(await page.locator('#note-invoice .badge').textContent()).toBe('Requiere atención');
      expect(await page.locator('#reference-cufe').count()).toBe(0);
      expect(await noSidewaysScroll()).toBe(true);
      await shot('waiting');

      const retried = page.waitForResponse((r) => r.url().endsWith(`/api/invoices/${waiting.note.id}/retry`));
      await page.click('#retry-invoice');
      expect((await retried).status()).toBe(200);
      await expect.poll(() => text('#toast'), WAIT).toBe('La nota de crédito vuelve a la cola');

      await page.click('#language-toggle');
      await expect.poll(() => text('h1.page__title'), WAIT).toBe(`Credit note · Order ${waiting.invoice.orderName} Waiting`);
      expect(await text('#note-invoice .card__title')).toBe('Invoice it corrects');
      expect(await text('#reason-banner')).toContain(
        `The credit note waits for the invoice of order ${waiting.invoice.orderName} to be authorized; it goes on by itself.`,
      );
      await hash('#/facturas?kind=credit_note');
      await page.locator(`tr[data-id="${refunded.notes[1].id}"]`).waitFor(WAIT);
      expect(await page.locator(`tr[data-id="${refunded.notes[1].id}"] .kind__invoice`).textContent()).toBe(
        'of invoice 0000-001-0000000001',
      );
      await shot('list-en');
      await page.click('#language-toggle');
    });
  });

  it('Configuración sets the nature of the operation of credit notes, and keeps it when saving other settings', async () => {
    const page = await offlinePage(chromium.browser, { viewport: { width: 1280, height: 900 } });
    const field = '#field-mapping-creditNoteNatureOperation';
    const save = async () => {
      const saved = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PUT');
      await page.click('#save-settings');
      expect((await saved).status()).toBe(200);
    };
    await page.goto(`${run.h.app.url}/admin?shop=${SHOP}#/configuracion`);
    await page.locator(field).waitFor(WAIT);
    expect(await page.locator(`label[for="${field.slice(1)}"]`).textContent()).toContain(
      'Naturaleza de la operación de las notas de crédito',
    );
    expect(await page.inputValue(field)).toBe('11');
    await page.selectOption(field, '01');
    await save();
    expect((await run.h.app.shops.get(SHOP))!.settings.mapping.creditNoteNatureOperation).toBe('01');
    await page.reload();
    await page.locator(field).waitFor(WAIT);
    expect(await page.inputValue(field)).toBe('01');
    await page.fill('#field-mapping-shippingDescription', 'Envío a domicilio');
    await save();
    expect((await run.h.app.shops.get(SHOP))!.settings.mapping).toMatchObject({
      creditNoteNatureOperation: '01',
      shippingDescription: 'Envío a domicilio',
    });
    await page.context().close();
  });
});

describe.skipIf(hasChromium)('credit notes in the admin page', () => {
  it(`is skipped: ${CHROMIUM} not found`, () => {
    expect(hasChromium).toBe(false);
  });
});
