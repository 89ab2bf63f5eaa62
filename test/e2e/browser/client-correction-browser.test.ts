// The merchant corrects an invoice's client in the admin page (docs/design.md §10, issue 16 item 2), in real Chromium at
// phone width against the whole product on loopback, on both databases: an order whose RUC has a wrong check digit
// needs attention; its page offers *Corregir cliente* prefilled with what the buyer typed; the server's refusal of
// the DV shows under the field (nothing saved); the right DV sends the invoice back to the queue, and it is
// authorized with the corrected client. Screenshots go to test-artifacts/.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../../src/db/schema.ts';
import { chromiumForBlock, offlinePage } from '../../support/browser-page.ts';
import { CHROMIUM, hasChromium } from '../../support/chromium.ts';
import { TAXPAYER_CLIENT_BLOCK, TAXPAYER_CORRECTION } from '../../support/client-fixtures.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { harnessForShop } from '../../support/harness-blocks.ts';
import { makePaidOrder } from '../../support/order-factory.ts';
import { ARTIFACTS } from '../../support/paths.ts';

const SHOP = 'tienda-correccion-pagina.myshopify.com';
const ORDER_ID = 6_610_000_000_001;
const WAIT = { timeout: 20_000 };

if (!hasChromium) console.warn(`client-correction-browser.test.ts: SKIPPED — ${CHROMIUM} not found`);

describe.skipIf(!hasChromium).each(testDatabases)('correcting the client in the admin page on $name', (target) => {
  const run = harnessForShop(target, SHOP);
  const chromium = chromiumForBlock();
  let page: Page;

  const field = (name: string) => page.locator(`#field-client-${name}`);
  const errorOf = (name: string) => page.locator(`#field-client-${name}-error`);
  const badge = () => page.locator('h1.page__title .badge').textContent();
  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `correction-${target.name}-${name}.png`), fullPage: true });
  /** Click *Guardar y reintentar*; the server's answer's status. */
  async function save() {
    const answer = page.waitForResponse((r) => r.url().endsWith('/client') && r.request().method() === 'PUT');
    await page.click('#client-save');
    return (await answer).status();
  }
  const row = async () =>
    (
      await run.database.db
        .select()
        .from(documents)
        .where(eq(documents.orderGid, `gid://shopify/Order/${ORDER_ID}`))
    )[0];

  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    page = await offlinePage(chromium.browser, { viewport: { width: 390, height: 844 } });
  }, 60_000);

  it('a wrong check digit → needs attention → corrected in the page → authorized with the corrected client', async () => {
    const order = {
      ...makePaidOrder({ id: ORDER_ID }),
      note_attributes: [
        { name: 'ruc', value: '155596713-2-2015' },
        { name: 'dv', value: '00' },
      ],
    };
    await run.h.simulator.orderPaid(SHOP, order, run.h.webhookAddress);
    const stopped = await waitFor(async () => {
      const r = await row();
      return r?.status === 'needs_attention' ? r : undefined;
    }, 20_000);

    await page.goto(`${run.h.app.url}/admin?shop=${SHOP}#/facturas/${stopped.id}`);
    await page.locator('#client-form').waitFor(WAIT);
    expect(await page.locator('#client-card .card__title').textContent()).toBe('Corregir cliente');
    // Prefilled with what the buyer typed, so the DV is the one field to fix.
    expect(await field('type').inputValue()).toBe('taxpayer');
    expect(await field('ruc').inputValue()).toBe('155596713-2-2015');
    expect(await field('dv').inputValue()).toBe('00');
    expect(await field('name').inputValue()).toBe('Ana Pérez');
    expect(await field('address').inputValue()).toBe('Calle 50, Panamá');
    expect(await field('locationCode').inputValue()).toBe('8-8-7');
    expect(await field('email').inputValue()).toBe('cliente@example.com');
    // A final consumer has no RUC: its fields go away, and come back.
    await field('type').selectOption('final_consumer');
    expect(await field('ruc').isVisible()).toBe(false);
    expect(await field('dv').isVisible()).toBe(false);
    await field('type').selectOption('taxpayer');
    expect(await field('dv').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot('form');

    // Sent as it is: the server refuses the DV, and says why under the field. Nothing is saved.
    await field('name').fill(TAXPAYER_CORRECTION.name);
    await field('address').fill(TAXPAYER_CORRECTION.address);
    expect(await save()).toBe(400);
    await errorOf('dv').waitFor({ state: 'visible', ...WAIT });
    expect(await errorOf('dv').textContent()).toBe('El dígito verificador 00 no corresponde al RUC 155596713-2-2015.');
    expect(await field('dv').getAttribute('aria-invalid')).toBe('true');
    expect(await errorOf('name').isHidden()).toBe(true);
    expect(await page.locator('#client-errors .banner__title').textContent()).toBe('Revise los campos marcados');
    expect(await row()).toEqual(stopped);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot('refused');

    await field('dv').fill(TAXPAYER_CORRECTION.dv);
    await field('email').fill(TAXPAYER_CORRECTION.email);
    expect(await save()).toBe(200);
    // Back in the queue, as the server answered; the form is gone (a queued invoice takes no correction).
    await expect.poll(badge, WAIT).toBe('En cola');
    expect(await page.locator('#toast').textContent()).toBe('Cliente corregido: la factura vuelve a la cola');
    expect(await page.locator('#client-card').count()).toBe(0);
    expect(await page.locator('#reason-banner').count()).toBe(0);

    // The page follows it to the end.
    await expect.poll(badge, WAIT).toBe('Autorizada');
    expect(await page.locator('#tax-id-source').textContent()).toBe('Corrección del comercio');
    expect(await page.locator('#document-card .card__section .strong').first().textContent()).toBe(
      'Ferretería Central, S.A. · RUC 155596713-2-2015 DV 59',
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot('authorized');

    const done = await row();
    expect(done).toMatchObject({ status: 'completed', taxIdSource: 'correction' });
    const sent = run.h.sandbox.gateway.documents().find((d) => d.cufe === done!.cufe);
    expect(sent?.document.dataTransaction.client).toEqual(TAXPAYER_CLIENT_BLOCK);

    // Issued to the wrong buyer after all: re-issued from its page to a final consumer, in one action.
    await page.locator('#reissue-form').waitFor(WAIT);
    expect(await page.locator('#reissue-card .card__title').textContent()).toBe('Reemitir a otro cliente');
    await field('type').selectOption('final_consumer');
    await field('name').fill('Luis Gómez');
    const posted = page.waitForResponse((r) => r.url().endsWith('/reinvoice') && r.request().method() === 'POST');
    await page.click('#reissue-save');
    // Two fiscal documents: asked first.
    await page.locator('#reissue-dialog-confirm').click();
    expect((await posted).status()).toBe(202);
    // The page opens the new invoice and follows it to the end.
    await expect.poll(() => page.url(), WAIT).not.toContain(done!.id);
    await expect.poll(badge, WAIT).toBe('Autorizada');
    await shot('reissued');
    const rows = await run.database.db
      .select()
      .from(documents)
      .where(eq(documents.orderGid, `gid://shopify/Order/${ORDER_ID}`));
    const note = rows.find((r) => r.kind === 'credit_note');
    const replacement = rows.find((r) => r.replacesId === done!.id);
    expect(note).toMatchObject({ invoiceId: done!.id, totalCents: done!.totalCents });
    expect(replacement).toMatchObject({ status: 'completed', kind: 'invoice' });
    expect((replacement!.document as { dataTransaction: { client: Record<string, string> } }).dataTransaction.client).toMatchObject({
      typeClientEB: '02',
      businessName: 'Luis Gómez',
    });
    await waitFor(
      async () => (await run.database.db.select().from(documents).where(eq(documents.id, note!.id)))[0]?.status === 'completed',
      20_000,
    );
  });
});
