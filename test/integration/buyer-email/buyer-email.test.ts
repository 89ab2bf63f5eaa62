// Buyer e-mail end to end (issue 16 item 4): paid orders through the store simulator, the sandbox gateway and the
// app, e-mails through a real SMTP server on loopback (the mail catcher, with a login), on both databases.
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src/cli/cli-context.ts';
import { runInvoices } from '../../../src/cli/invoices-command.ts';
import type { Database } from '../../../src/db/database.ts';
import { documentEmails, documentPdfs, documents } from '../../../src/db/schema.ts';
import { type CaughtMail, type MailCatcher, startMailCatcher } from '../../../sim/demo/mail-catcher.ts';
import { createLogger } from '../../../src/logger.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-correo.myshopify.com';
const PROVIDER_SHOP = 'tienda-proveedor.myshopify.com';
const PAPER_SHOP = 'tienda-papel.myshopify.com';
const SMTP_USER = 'mailer@example.com';
const SMTP_PASS = 'smtp-Pa55word-never-logged';
const FROM = 'facturas@example.com';

describe.each(testDatabases)('buyer e-mail on $name', (target) => {
  let database: Database;
  let h: Harness;
  let catcher: MailCatcher;
  let port: number;
  const logLines: string[] = [];
  let nextId = 6_100_000_000_000;

  const gidOf = (id: number) => `gid://shopify/Order/${id}`;
  const mailsTo = (address: string) => catcher.messages().filter((m) => m.envelope.to.includes(address));
  const documentOf = async (gid: string) => (await database.db.select().from(documents).where(eq(documents.orderGid, gid)))[0];
  const emailsOf = (documentId: string) =>
    database.db.select().from(documentEmails).where(eq(documentEmails.documentId, documentId)).orderBy(documentEmails.createdAt);
  /** The e-mail reaches the server a moment before the runner records it as sent. */
  const recorded = (documentId: string) =>
    waitFor(
      async () => {
        const rows = await emailsOf(documentId);
        return rows.length > 0 && rows.every((r) => r.status === 'sent') && rows;
      },
      10_000,
      'the e-mail recorded as sent',
    );
  const storedPdf = async (documentId: string) =>
    (await database.db.select().from(documentPdfs).where(eq(documentPdfs.documentId, documentId)))[0]!.bytes;

  /** Send a paid order and wait for its invoice to complete. */
  async function invoiceFor(shop: string, o: { email?: string; locale?: string } = {}) {
    const id = nextId++;
    const order = makePaidOrder({ id, ...(o.email === undefined ? {} : { email: o.email }) });
    if (o.locale) order['customer_locale'] = o.locale;
    expect((await h.simulator.orderPaid(shop, order, h.webhookAddress)).status).toBe(200);
    return waitFor(
      async () => {
        const doc = await documentOf(gidOf(id));
        return doc?.status === 'completed' ? doc : undefined;
      },
      20_000,
      'the invoice to complete',
    );
  }

  async function api(method: string, path: string) {
    const token = await h.simulator.sessionToken(SHOP);
    const response = await fetch(`${h.app.url}${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as Record<string, unknown>, text };
  }

  beforeAll(async () => {
    database = await target.open();
    catcher = await startMailCatcher({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
    port = catcher.port;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    h = await startHarness({
      database,
      logger: createLogger('debug', sink),
      env: {
        SMTP_URL: catcher.url,
        MAIL_FROM: FROM,
        MAIL_RETRY_BASE_MS: '50',
        MAIL_RETRY_MAX_MS: '200',
        MAIL_MAX_ATTEMPTS: '1000',
      },
    });
    await h.installShop(SHOP, {}, { name: 'Tienda Ejemplo, S.A.' });
    await h.installShop(PROVIDER_SHOP, { mapping: { cafeDelivery: 'provider_email' } as never });
    await h.installShop(PAPER_SHOP, { mapping: { cafeDelivery: 'paper' } as never });
  });
  afterAll(async () => {
    await h?.close();
    await catcher?.close();
    await database?.close();
  });

  function expectDocumentEmail(mail: CaughtMail, doc: NonNullable<Awaited<ReturnType<typeof documentOf>>>) {
    expect(mail.parsed.from?.value).toEqual([{ name: 'Tienda Ejemplo, S.A.', address: FROM }]);
    expect(mail.envelope.from).toBe(FROM);
    expect(mail.parsed.text).toContain(`CUFE: ${doc.cufe}`);
    expect(mail.parsed.text).toContain(doc.qr!);
    expect(mail.parsed.attachments).toHaveLength(1);
    expect(mail.parsed.attachments[0]!.contentType).toBe('application/pdf');
  }

  it('e-mails each authorized invoice once, in Spanish, with the stored PDF byte for byte', async () => {
    const doc = await invoiceFor(SHOP, { email: 'ana@example.com', locale: 'es-PA' });
    const [mail] = await waitFor(async () => mailsTo('ana@example.com').length > 0 && mailsTo('ana@example.com'), 10_000, 'the e-mail');
    const number = `0000-001-${String(doc.fiscalNumber).padStart(10, '0')}`;
    expectDocumentEmail(mail!, doc);
    expect(mail!.parsed.subject).toBe(`Factura electrónica ${number} de Tienda Ejemplo, S.A. (pedido ${doc.orderName})`);
    expect(mail!.parsed.text).toContain(`Número fiscal: ${number}\nTotal: 70.43 USD\nCUFE: ${doc.cufe}\nConsulta en la DGI: ${doc.qr}`);
    expect(mail!.parsed.attachments[0]!.filename).toBe(`factura-${number}.pdf`);
    expect(Buffer.compare(mail!.parsed.attachments[0]!.content, await storedPdf(doc.id))).toBe(0);

    const [row] = await recorded(doc.id);
    expect(row).toMatchObject({ recipient: 'ana@example.com', language: 'es', reason: 'authorized', status: 'sent', attempts: 1 });
    expect(row!.sentAt).toBeInstanceOf(Date);
    expect(row!.messageId).toBe(`<${row!.id}@example.com>`);
    expect(mail!.parsed.messageId).toBe(row!.messageId);

    // Once: the runner keeps polling and nothing more goes out for this document.
    await new Promise((r) => setTimeout(r, 600));
    expect(mailsTo('ana@example.com')).toHaveLength(1);
    expect(await emailsOf(doc.id)).toHaveLength(1);
  });

  it('writes in English when the buyer’s locale is English', async () => {
    const doc = await invoiceFor(SHOP, { email: 'john@example.com', locale: 'en-US' });
    const [mail] = await waitFor(async () => mailsTo('john@example.com').length > 0 && mailsTo('john@example.com'), 10_000, 'the e-mail');
    const number = `0000-001-${String(doc.fiscalNumber).padStart(10, '0')}`;
    expectDocumentEmail(mail!, doc);
    expect(mail!.parsed.subject).toBe(`Electronic invoice ${number} from Tienda Ejemplo, S.A. (order ${doc.orderName})`);
    expect(mail!.parsed.text).toContain(`Fiscal number: ${number}\nTotal: 70.43 USD\nCUFE: ${doc.cufe}\nLook it up at the DGI: ${doc.qr}`);
    expect(mail!.parsed.attachments[0]!.filename).toBe(`invoice-${number}.pdf`);
    expect(Buffer.compare(mail!.parsed.attachments[0]!.content, await storedPdf(doc.id))).toBe(0);
    expect((await recorded(doc.id))[0]).toMatchObject({ language: 'en', status: 'sent' });
  });

  it('with SMTP down the invoice completes anyway, and its e-mail arrives once SMTP is back', async () => {
    await catcher.close();
    const doc = await invoiceFor(SHOP, { email: 'maria@example.com' });
    expect(doc.status).toBe('completed');
    const waiting = await waitFor(
      async () => {
        const [row] = await emailsOf(doc.id);
        return row && row.attempts >= 2 ? row : undefined;
      },
      10_000,
      'failed attempts',
    );
    expect(waiting).toMatchObject({ status: 'pending', lastError: { key: 'email_smtp_failed' } });

    catcher = await startMailCatcher({ port, auth: { user: SMTP_USER, pass: SMTP_PASS } });
    const [mail] = await waitFor(async () => mailsTo('maria@example.com').length > 0 && mailsTo('maria@example.com'), 15_000, 'the e-mail');
    expectDocumentEmail(mail!, doc);
    expect(Buffer.compare(mail!.parsed.attachments[0]!.content, await storedPdf(doc.id))).toBe(0);
    const [sent] = await recorded(doc.id);
    expect(sent).toMatchObject({ status: 'sent', lastError: null });
    expect(sent!.attempts).toBeGreaterThanOrEqual(3);
  });

  it('Resend sends the document again; a document that cannot be e-mailed is refused with 409', async () => {
    const doc = await invoiceFor(SHOP, { email: 'luis@example.com' });
    await waitFor(async () => mailsTo('luis@example.com').length === 1, 10_000, 'the first e-mail');
    // Received by the server is not yet recorded as sent: a resend before that finds it still waiting.
    await recorded(doc.id);

    const resent = await api('POST', `/api/invoices/${doc.id}/resend`);
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ queued: true, email: { recipient: 'luis@example.com', reason: 'resend', status: 'pending' } });
    const mails = await waitFor(async () => mailsTo('luis@example.com').length === 2 && mailsTo('luis@example.com'), 10_000, 'the resend');
    expect(Buffer.compare(mails[1]!.parsed.attachments[0]!.content, await storedPdf(doc.id))).toBe(0);
    expect(mails[1]!.parsed.messageId).not.toBe(mails[0]!.parsed.messageId);

    await recorded(doc.id);
    const listed = await api('GET', `/api/invoices/${doc.id}/emails`);
    expect(listed.status).toBe(200);
    expect(listed.body.configured).toBe(true);
    expect((listed.body.emails as { reason: string; status: string }[]).map((e) => [e.reason, e.status])).toEqual([
      ['resend', 'sent'],
      ['authorized', 'sent'],
    ]);

    const noAddress = await invoiceFor(SHOP, { email: '' });
    expect(await api('POST', `/api/invoices/${noAddress.id}/resend`)).toMatchObject({ status: 409, body: { code: 'no_address' } });
    expect(await emailsOf(noAddress.id)).toEqual([]);

    await database.db.update(documents).set({ status: 'failed' }).where(eq(documents.id, noAddress.id));
    expect(await api('POST', `/api/invoices/${noAddress.id}/resend`)).toMatchObject({ status: 409, body: { code: 'not_authorized' } });
    expect(await api('POST', '/api/invoices/00000000-0000-4000-8000-000000000000/resend')).toMatchObject({ status: 404 });
  });

  it('`invoices resend <id>` queues the e-mail again (exit 0), and refuses what cannot be sent (exit 1, 2)', async () => {
    const doc = await invoiceFor(SHOP, { email: 'cli@example.com' });
    await waitFor(async () => mailsTo('cli@example.com').length === 1, 10_000, 'the first e-mail');
    const cli = async (...args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const io = { out: (l: string) => void out.push(l), err: (l: string) => void err.push(l), stdin: async () => '' };
      const context: CliContext = {
        config: h.app.config,
        logger: h.app.logger,
        database: { ...database, close: async () => {} },
        box: h.app.box,
        shops: h.app.shops,
        sessions: h.app.sessions,
        newKeyFile: undefined,
        close: async () => {},
      };
      const code = await runInvoices(args, io, async () => context);
      return { code, out: out.join('\n'), err: err.join('\n') };
    };

    const queued = await cli('resend', doc.id);
    expect(queued).toMatchObject({ code: 0, err: '' });
    expect(queued.out).toBe(
      `The e-mail of invoice ${doc.id} (${SHOP} ${doc.orderName}) to cli@example.com is queued; the running app sends it.`,
    );
    h.app.emails!.wake();
    await waitFor(async () => mailsTo('cli@example.com').length === 2, 10_000, 'the resent e-mail');
    expect((await recorded(doc.id)).map((e) => e.reason)).toEqual(['authorized', 'resend']);

    const noAddress = await invoiceFor(SHOP, { email: '' });
    expect(await cli('resend', noAddress.id)).toMatchObject({
      code: 1,
      err: expect.stringContaining('cannot be e-mailed: the document has no e-mail address for the buyer'),
    });
    expect(await cli('resend', '00000000-0000-4000-8000-000000000000')).toMatchObject({ code: 1 });
    expect(await cli('resend', 'not-an-id')).toMatchObject({ code: 2 });
    expect(await cli('resend')).toMatchObject({ code: 2 });
  });

  it('sends nothing when the shop delivers the CAFE otherwise, and the document says how', async () => {
    const byProvider = await invoiceFor(PROVIDER_SHOP, { email: 'prov@example.com' });
    const onPaper = await invoiceFor(PAPER_SHOP, { email: 'papel@example.com' });
    const byApp = await invoiceFor(SHOP, { email: 'app@example.com' });
    await waitFor(async () => mailsTo('app@example.com').length === 1, 10_000, 'the app shop’s e-mail');

    const deliveryCafe = (doc: typeof byApp) =>
      (doc.document as { dataTransaction: { deliveryCAFE: string } }).dataTransaction.deliveryCAFE;
    expect([deliveryCafe(byApp), deliveryCafe(byProvider), deliveryCafe(onPaper)]).toEqual(['3', '3', '2']);
    expect(await emailsOf(byProvider.id)).toEqual([]);
    expect(await emailsOf(onPaper.id)).toEqual([]);
    expect(mailsTo('prov@example.com')).toEqual([]);
    expect(mailsTo('papel@example.com')).toEqual([]);
  });

  it('customers/redact drops the buyer’s e-mails not yet sent and blanks the address of those sent', async () => {
    const sent = await invoiceFor(SHOP, { email: 'olga@example.com' });
    await recorded(sent.id);
    await catcher.close();
    const waiting = await invoiceFor(SHOP, { email: 'olga@example.com' });
    await waitFor(async () => (await emailsOf(waiting.id))[0]?.lastError, 10_000, 'a failed attempt');

    const redact = await h.simulator.sendWebhook({
      address: `${h.app.url}/webhooks/compliance`,
      topic: 'customers/redact',
      shop: SHOP,
      payload: { shop_id: 1, shop_domain: SHOP, customer: { id: 1, email: 'olga@example.com' }, orders_to_redact: [] },
    });
    expect(redact.status).toBe(200);
    expect(await emailsOf(waiting.id)).toEqual([]);
    expect(await emailsOf(sent.id)).toMatchObject([{ recipient: '', status: 'sent' }]);
    catcher = await startMailCatcher({ port, auth: { user: SMTP_USER, pass: SMTP_PASS } });
  });

  it('never writes the SMTP password in a log, a stored error or an answer', async () => {
    const secretForms = [SMTP_PASS, encodeURIComponent(SMTP_PASS), Buffer.from(`\0${SMTP_USER}\0${SMTP_PASS}`).toString('base64')];
    const logs = logLines.join('');
    expect(logs).toContain('buyer e-mail is on');
    expect(logs).toContain('buyer e-mail sent');
    expect(logs).toContain('buyer e-mail not sent');
    const stored = JSON.stringify(await database.db.select().from(documentEmails));
    const answers = (await Promise.all((await database.db.select().from(documents)).map((d) => api('GET', `/api/invoices/${d.id}/emails`))))
      .map((a) => a.text)
      .join('');
    for (const secret of secretForms) {
      expect(logs).not.toContain(secret);
      expect(stored).not.toContain(secret);
      expect(answers).not.toContain(secret);
    }
  });
});
