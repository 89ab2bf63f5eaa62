// The buyer's e-mail answers to the shop and a credit note's e-mail names its invoice (issue 26 item 9): replies go to
// the shop's contact address from Admin GraphQL (never the operator's MAIL_FROM, which stays the sender), and the note
// of a refund says which invoice it corrects. Real SMTP on loopback, both databases.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/database.ts';
import { documents } from '../../../src/db/schema.ts';
import { silentLogger } from '../../../src/logger.ts';
import { type MailCatcher, startMailCatcher } from '../../../sim/demo/mail-catcher.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-respuestas.myshopify.com';
const FROM = 'facturas@operador.example';
const SHOP_EMAIL = 'tienda-respuestas@example.com';

describe.each(testDatabases)('replies and the corrected invoice in buyer e-mails on $name', (target) => {
  let database: Database;
  let h: Harness;
  let catcher: MailCatcher;

  const mailsTo = (address: string) => catcher.messages().filter((m) => m.envelope.to.includes(address));
  const rowsOf = (gid: string) => database.db.select().from(documents).where(eq(documents.orderGid, gid));

  beforeAll(async () => {
    database = await target.open();
    catcher = await startMailCatcher({});
    h = await startHarness({ database, logger: silentLogger, env: { SMTP_URL: catcher.url, MAIL_FROM: FROM } });
    await h.installShop(SHOP, {}, { name: 'Tienda Respuestas' });
  });
  afterAll(async () => {
    await h?.close();
    await catcher?.close();
    await database?.close();
  });

  it('the invoice e-mail comes from MAIL_FROM and answers to the shop; the credit note names its invoice', async () => {
    const id = 62_600_001;
    const gid = `gid://shopify/Order/${id}`;
    const order = makePaidOrder({ id, email: 'compradora@example.com' });
    expect((await h.simulator.orderPaid(SHOP, order, h.webhookAddress)).status).toBe(200);
    const invoice = await waitFor(async () => (await rowsOf(gid)).find((r) => r.kind === 'invoice' && r.status === 'completed'), 20_000);
    const [mail] = await waitFor(async () => mailsTo('compradora@example.com').length > 0 && mailsTo('compradora@example.com'), 10_000);
    expect(mail!.envelope.from).toBe(FROM);
    expect(mail!.parsed.from?.value).toEqual([{ name: 'Tienda Respuestas', address: FROM }]);
    expect(mail!.parsed.replyTo?.value).toEqual([{ name: 'Tienda Respuestas', address: SHOP_EMAIL }]);

    const lineItemId = (order['line_items'] as { id: number }[])[0]!.id;
    await h.simulator.refund(SHOP, gid, { lines: [{ lineItemId, quantity: 1 }] }, `${h.app.url}/webhooks/refunds/create`);
    const note = await waitFor(async () => (await rowsOf(gid)).find((r) => r.kind === 'credit_note' && r.status === 'completed'), 20_000);
    const invoiceNumber = `0000-001-${String(invoice.fiscalNumber).padStart(10, '0')}`;
    const noteMail = await waitFor(async () => mailsTo('compradora@example.com')[1], 10_000, 'the credit note e-mail');
    expect(noteMail.parsed.subject).toBe(
      `Nota de crédito 0000-001-${String(note.fiscalNumber).padStart(10, '0')} de Tienda Respuestas (pedido ${invoice.orderName})`,
    );
    expect(noteMail.parsed.text).toContain(
      `Tienda Respuestas le envía la nota de crédito de su pedido ${invoice.orderName}, que corrige la factura ${invoiceNumber}, autorizada`,
    );
    expect(noteMail.parsed.replyTo?.value).toEqual([{ name: 'Tienda Respuestas', address: SHOP_EMAIL }]);
  });
});
