// The buyer e-mail in the admin page, in Chromium: an authorized invoice's page lists the e-mail its buyer got and
// Reenviar sends it again (through a real SMTP server on loopback); the settings form chooses who delivers the CAFE,
// and deliveryCAFE can follow that choice.
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../../src/db/schema.ts';
import { type MailCatcher, startMailCatcher } from '../../../sim/demo/mail-catcher.ts';
import { chromiumForBlock, offlinePage } from '../../support/browser-page.ts';
import { CHROMIUM, hasChromium } from '../../support/chromium.ts';
import { inMemoryPglite } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { harnessFor } from '../../support/harness-blocks.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-reenvio.myshopify.com';
const WAIT = { timeout: 20_000 };

if (!hasChromium) console.warn(`buyer-email-browser.test.ts: SKIPPED — ${CHROMIUM} not found`);

describe.skipIf(!hasChromium)('buyer e-mail in the admin page (Chromium)', () => {
  let catcher: MailCatcher;
  // Before the app starts, which sends through it; closed after the app.
  beforeAll(async () => {
    catcher = await startMailCatcher();
  });
  afterAll(async () => {
    await catcher?.close();
  });
  const run = harnessFor(inMemoryPglite, () => ({ env: { SMTP_URL: catcher.url, MAIL_FROM: 'facturas@example.com' } }));
  const chromium = chromiumForBlock();
  let page: Page;

  beforeAll(async () => {
    await run.h.installShop(SHOP, {}, { name: 'Tienda Reenvío' });
    page = await offlinePage(chromium.browser, { viewport: { width: 1280, height: 900 } });
  }, 60_000);

  it('lists the e-mail sent for an authorized invoice, and Reenviar sends it again', async () => {
    const gid = 'gid://shopify/Order/6200000000001';
    await run.h.simulator.orderPaid(SHOP, makePaidOrder({ id: 6_200_000_000_001, email: 'rosa@example.com' }), run.h.webhookAddress);
    const doc = await waitFor(
      async () => {
        const [row] = await run.database.db.select().from(documents).where(eq(documents.orderGid, gid));
        return row?.status === 'completed' ? row : undefined;
      },
      20_000,
      'the invoice',
    );
    await waitFor(async () => catcher.messages().length === 1, 10_000, 'the e-mail');

    await page.goto(`${run.h.app.url}/admin?shop=${SHOP}#/facturas/${doc.id}`);
    const sentRow = page.locator('#emails li[data-status="sent"][data-reason="authorized"]');
    await sentRow.waitFor(WAIT);
    expect(await page.locator('#email-card .card__title').textContent()).toBe('Correo al comprador');
    expect(await sentRow.textContent()).toContain('rosa@example.com');
    expect(await sentRow.textContent()).toContain('Enviado');

    await page.click('#resend-email');
    await expect.poll(() => page.locator('#toast').textContent(), WAIT).toBe('El correo se enviará en unos instantes');
    await waitFor(async () => catcher.messages().length === 2, 10_000, 'the resent e-mail');
    expect(catcher.messages()[1]!.envelope.to).toEqual(['rosa@example.com']);
    expect(catcher.messages()[1]!.parsed.from?.value).toEqual([{ name: 'Tienda Reenvío', address: 'facturas@example.com' }]);
    await page.reload();
    await page.locator('#emails li[data-reason="resend"][data-status="sent"]').waitFor(WAIT);
  });

  it('chooses who delivers the CAFE; deliveryCAFE follows the choice unless a code is set', async () => {
    await page.goto(`${run.h.app.url}/admin?shop=${SHOP}#/configuracion`);
    const delivery = page.locator('#field-mapping-cafeDelivery');
    await delivery.waitFor(WAIT);
    expect(await delivery.inputValue()).toBe('app_email');
    expect(await page.locator('#field-mapping-transactionDefaults-deliveryCAFE').inputValue()).toBe('');
    expect(await page.locator('#field-mapping-transactionDefaults-deliveryCAFE option:checked').textContent()).toBe(
      'Según la entrega al comprador',
    );

    await delivery.selectOption('paper');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PUT');
    await page.click('#save-settings');
    expect((await saved).status()).toBe(200);
    const mapping = (await run.h.app.shops.get(SHOP))!.settings.mapping;
    expect(mapping.cafeDelivery).toBe('paper');
    expect(mapping.transactionDefaults.deliveryCAFE).toBeUndefined();
  });
});
