// Actions a merchant can trust, in real Chromium against the whole product on loopback, on both databases, in Spanish
// and English, at 1280 and 390 px (issue 26): re-issue is offered only where it can succeed, asks first naming both
// documents, and the two invoices link each other; withheld actions say why; a wrong DV, a bad date range and a
// gateway outage are told in the page's language; every status tab is in sight. Screenshots go to test-artifacts/.
import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../../src/db/schema.ts';
import type { DocumentRow } from '../../../src/documents/store/index.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { chromiumForBlock, offlinePage } from '../../support/browser-page.ts';
import { CHROMIUM, hasChromium } from '../../support/chromium.ts';
import { TAXPAYER_CORRECTION } from '../../support/client-fixtures.ts';
import { harnessForShop } from '../../support/harness-blocks.ts';
import { makePaidOrder } from '../../support/order-factory.ts';
import { ARTIFACTS } from '../../support/paths.ts';

const SHOP = 'tienda-acciones-pagina.myshopify.com';
const WAIT = { timeout: 20_000 };

if (!hasChromium) console.warn(`document-actions-browser.test.ts: SKIPPED — ${CHROMIUM} not found`);

/** What the page says, per language. */
const WORDS = {
  es: {
    retryWithheld: 'Está autorizado: no hay nada que reintentar.',
    confirm: (amount: string, number: string, dv: string) =>
      `Se emitirá una nota de crédito de USD ${amount} para la factura ${number}, y una nueva factura a RUC 155596713-2-2015 DV ${dv} (Ferretería Central, S.A.).`,
    dv: 'El dígito verificador 58 no corresponde al RUC 155596713-2-2015.',
    replacedBy: 'Reemplazada por la factura',
    replaces: 'Reemplaza a la factura',
    replacesShort: (number: string) => `reemplaza a ${number}`,
    replaced: (number: string) => `Ya fue reemplazada por la factura ${number}.`,
    hasNote: /^La factura tiene una nota de crédito \(reembolsos\)/,
    dates: 'La fecha «hasta» (2026-03-01) es anterior a la fecha «desde» (2026-03-02): elija un rango en orden.',
    outage: /No se pudo contactar al proveedor \(respondió HTTP 50\d con un contenido que no es JSON\)/,
    authorized: 'Autorizada',
  },
  en: {
    retryWithheld: 'It is authorized: there is nothing to retry.',
    confirm: (amount: string, number: string, dv: string) =>
      `A credit note of USD ${amount} will be issued for invoice ${number}, and a new invoice to RUC 155596713-2-2015 DV ${dv} (Ferretería Central, S.A.).`,
    dv: 'the check digit 58 does not belong to the RUC 155596713-2-2015',
    replacedBy: 'Replaced by invoice',
    replaces: 'Replaces invoice',
    replacesShort: (number: string) => `replaces ${number}`,
    replaced: (number: string) => `It was replaced already by invoice ${number}.`,
    hasNote: /^The invoice has a credit note \(refunds\)/,
    // English is the API's own wording, as other callers have always read it.
    dates: 'to: must not be before from',
    outage: /The gateway could not be reached \(HTTP 50\d with a body that is not JSON\)/,
    authorized: 'Authorized',
  },
} as const;

const CASES = [
  { language: 'es', width: 390 },
  { language: 'en', width: 1280 },
  { language: 'es', width: 1280 },
  { language: 'en', width: 390 },
] as const;

describe.skipIf(!hasChromium).each(testDatabases)('actions a merchant can trust, in the admin page on $name', (target) => {
  const run = harnessForShop(target, SHOP);
  const chromium = chromiumForBlock();
  let nextOrder = 6_263_000_001;

  const rowsOf = (gid: string) =>
    run.database.db
      .select()
      .from(documents)
      .where(and(eq(documents.shop, SHOP), eq(documents.orderGid, gid)));
  const number = (r: Pick<DocumentRow, 'fiscalNumber'>) => `0000-001-${String(r.fiscalNumber).padStart(10, '0')}`;

  beforeAll(() => fs.mkdirSync(ARTIFACTS, { recursive: true }));

  async function authorized(): Promise<{ gid: string; invoice: DocumentRow; order: Record<string, unknown> }> {
    const id = nextOrder++;
    const order = makePaidOrder({ id });
    await run.h.simulator.orderPaid(SHOP, order, run.h.webhookAddress);
    const gid = `gid://shopify/Order/${id}`;
    const invoice = await waitFor(async () => (await rowsOf(gid)).find((r) => r.status === 'completed'), 20_000, 'the invoice');
    return { gid, invoice, order };
  }

  async function pageFor(language: 'es' | 'en', width: number): Promise<Page> {
    const page = await offlinePage(chromium.browser, { viewport: { width, height: width < 500 ? 844 : 900 } });
    await page.addInitScript((lang) => localStorage.setItem('factura-pa.lang', lang), language);
    return page;
  }
  const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  describe.each(CASES)('in $language at $width px', ({ language, width }) => {
    const words = WORDS[language];
    let page: Page;
    const shot = (name: string) =>
      page.screenshot({ path: path.join(ARTIFACTS, `actions-${target.name}-${language}-${width}-${name}.png`), fullPage: true });
    const open = (hash: string) => page.goto(`${run.h.app.url}/admin?shop=${SHOP}${hash}`);

    beforeAll(async () => {
      page = await pageFor(language, width);
    }, 60_000);

    it('re-issue: offered on an authorized invoice, asks first naming both documents, and links both ways', async () => {
      const { gid, invoice } = await authorized();
      await open(`#/facturas/${invoice.id}`);
      await page.locator('#reissue-form').waitFor(WAIT);
      expect(await page.locator('#retry-invoice').count()).toBe(0);
      expect(await page.locator('#withheld-actions [data-action="retry"] .withheld__reason').textContent()).toBe(words.retryWithheld);

      const field = (name: string) => page.locator(`#reissue-form #field-client-${name}`);
      await field('type').selectOption('taxpayer');
      for (const name of ['ruc', 'name', 'address', 'locationCode'] as const) await field(name).fill(TAXPAYER_CORRECTION[name]);
      await field('dv').fill('58');
      await page.click('#reissue-save');
      const dialog = page.locator('#reissue-dialog');
      await dialog.waitFor(WAIT);
      expect(await page.locator('#reissue-dialog-text').textContent()).toBe(words.confirm('70.43', number(invoice), '58'));
      await shot('confirm');
      // Confirmed, the server refuses the DV, in the page's language, under the field: nothing issued.
      const refused = page.waitForResponse((r) => r.url().endsWith('/reinvoice'));
      await page.click('#reissue-dialog-confirm');
      expect((await refused).status()).toBe(400);
      await page.locator('#field-client-dv-error').waitFor({ state: 'visible', ...WAIT });
      expect(await page.locator('#field-client-dv-error').textContent()).toBe(words.dv);
      expect(await rowsOf(gid)).toHaveLength(1);

      // Cancelled: nothing sent.
      await field('dv').fill(TAXPAYER_CORRECTION.dv);
      await page.click('#reissue-save');
      expect(await page.locator('#reissue-dialog-text').textContent()).toBe(words.confirm('70.43', number(invoice), '59'));
      await page.click('#reissue-dialog-cancel');
      expect(await page.locator('#reissue-dialog').count()).toBe(0);
      expect(await rowsOf(gid)).toHaveLength(1);

      const posted = page.waitForResponse((r) => r.url().endsWith('/reinvoice'));
      await page.click('#reissue-save');
      await page.click('#reissue-dialog-confirm');
      expect((await posted).status()).toBe(202);
      await expect.poll(() => page.url(), WAIT).not.toContain(invoice.id);
      await expect.poll(() => page.locator('h1.page__title .badge').textContent(), WAIT).toBe(words.authorized);
      const replacement = (await rowsOf(gid)).find((r) => r.replacesId === invoice.id)!;
      expect(await page.locator('#replaces').textContent()).toBe(`${words.replaces} ${number(invoice)}`);
      expect(await fitsWidth(page)).toBe(true);
      await shot('replacement');

      await page.click('#replaces a');
      await page.locator('#replaced-by').waitFor(WAIT);
      expect(await page.locator('#replaced-by').textContent()).toBe(`${words.replacedBy} ${number(replacement)}`);
      expect(await page.locator('#reissue-card').count()).toBe(0);
      expect(await page.locator('#withheld-actions [data-action="reissue"] .withheld__reason').textContent()).toBe(
        words.replaced(number(replacement)),
      );
      expect(await fitsWidth(page)).toBe(true);
      await shot('replaced');
      // The list says it too: the new invoice under the old one's order names what it replaces.
      await open('#/facturas');
      await expect.poll(() => page.locator('.kind__replaces').allTextContents(), WAIT).toContain(words.replacesShort(number(invoice)));
    });

    it('an invoice with a credit note is not offered for re-issue, and says why', async () => {
      const { gid, invoice, order } = await authorized();
      const lineItemId = (order['line_items'] as { id: number }[])[0]!.id;
      await run.h.simulator.refund(SHOP, gid, { lines: [{ lineItemId, quantity: 1 }] }, `${run.h.app.url}/webhooks/refunds/create`);
      await waitFor(async () => (await rowsOf(gid)).find((r) => r.kind === 'credit_note' && r.status === 'completed'), 20_000, 'the note');
      await open(`#/facturas/${invoice.id}`);
      await page.locator('#withheld-actions').waitFor(WAIT);
      expect(await page.locator('#reissue-card').count()).toBe(0);
      expect(await page.locator('#withheld-actions [data-action="reissue"] .withheld__reason').textContent()).toMatch(words.hasNote);
    });

    it('a bad date range is told in the page’s language; every status tab is in sight', async () => {
      await open('#/facturas?from=2026-03-02&to=2026-03-01');
      await page.locator('.empty .subdued').waitFor(WAIT);
      expect(await page.locator('.empty .subdued').textContent()).toBe(words.dates);
      const tabs = page.locator('.filter-tab');
      expect(await tabs.count()).toBeGreaterThanOrEqual(7);
      for (const tab of await tabs.all()) {
        const box = (await tab.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
      }
      expect(await fitsWidth(page)).toBe(true);
      await shot('tabs');
    });

    it('a gateway outage is told in the page’s language', async () => {
      run.h.sandbox.gateway.setFaults({ rate5xx: 1 });
      try {
        const id = nextOrder++;
        await run.h.simulator.orderPaid(SHOP, makePaidOrder({ id }), run.h.webhookAddress);
        const gid = `gid://shopify/Order/${id}`;
        const stalled = await waitFor(async () => (await rowsOf(gid)).find((r) => r.lastErrorKind === 'unavailable'), 20_000, 'the outage');
        await open(`#/facturas/${stalled.id}`);
        await page.locator('#reason-banner .reason-message').waitFor(WAIT);
        expect(await page.locator('#reason-banner .reason-message').textContent()).toMatch(words.outage);
        await shot('outage');
      } finally {
        run.h.sandbox.gateway.setFaults({});
      }
    });
  });

  it('Configuración asks "Entrega del CAFE" once and keeps the customer metafield it shows', async () => {
    await run.h.app.shops.saveSettings(SHOP, {
      ...(await run.h.app.shops.get(SHOP))!.settings,
      mapping: { ...(await run.h.app.shops.get(SHOP))!.settings.mapping, customerTaxIdMetafield: { namespace: 'facturacion', key: 'ruc' } },
    });
    const page = await pageFor('es', 390);
    await page.goto(`${run.h.app.url}/admin?shop=${SHOP}#/configuracion`);
    await page.locator('#settings-form').waitFor(WAIT);
    const labels = await page.locator('#settings-form label').allTextContents();
    expect(labels.filter((l) => l.startsWith('Entrega del CAFE'))).toEqual(['Entrega del CAFE al comprador']);
    expect(await page.locator('#field-mapping-customerTaxIdMetafield-namespace').inputValue()).toBe('facturacion');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PUT');
    await page.click('#save-settings');
    expect((await saved).status()).toBe(200);
    expect((await run.h.app.shops.get(SHOP))!.settings.mapping.customerTaxIdMetafield).toEqual({ namespace: 'facturacion', key: 'ruc' });
  });
});
