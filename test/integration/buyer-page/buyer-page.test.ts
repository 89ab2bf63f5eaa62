// The buyer's own page and the RUC invoice on request (issue 29, docs/buyer-page.md), end to end over HTTP on both
// databases: paid orders through the store simulator, the sandbox gateway and the app, e-mails through a real SMTP
// server on loopback (the mail catcher). The link in the e-mail and on the order; the page and its JSON; a wrong DV
// refused with nothing sent; the right one re-issues (one full credit note, one taxpayer invoice, the order's
// metafields and a second e-mail); a second request does nothing new; a needs-attention invoice is corrected
// without a note; tampered links are 404 and the limits 429.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayDocument } from '../../../mappers/gateway/gateway-document.ts';
import type { BuyerDocumentView } from '../../../src/buyer-page/buyer-view.ts';
import type { Database } from '../../../src/db/database.ts';
import { documentPdfs, documents } from '../../../src/db/schema.ts';
import { type MailCatcher, startMailCatcher } from '../../../sim/demo/mail-catcher.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { TAXPAYER_CLIENT_BLOCK, TAXPAYER_CORRECTION } from '../../support/client-fixtures.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-comprador.myshopify.com';
const BUYER = 'ana.perez@example.com';
const LINK = /http:\/\/127\.0\.0\.1:\d+\/d\/[A-Za-z0-9_-]{43}/;
/** The buyer's company as the page's form sends it (no e-mail: the order's is used). */
const { email: _email, ...COMPANY } = TAXPAYER_CORRECTION;
const PER_LINK = 8;
const PER_ADDRESS = 60;

type Row = typeof documents.$inferSelect;

describe.each(testDatabases)("the buyer's page on $name", (target) => {
  let database: Database;
  let h: Harness;
  let catcher: MailCatcher;

  const gidOf = (id: number) => `gid://shopify/Order/${id}`;
  const rowsOf = (id: number) =>
    database.db
      .select()
      .from(documents)
      .where(and(eq(documents.shop, SHOP), eq(documents.orderGid, gidOf(id))))
      .orderBy(documents.createdAt);
  const mailsTo = (address: string) => catcher.messages().filter((m) => m.envelope.to.includes(address));
  const sends = () => h.sandbox.gateway.stats().requests.SendDocument;
  const sent = (row: Row) => row.document as GatewayDocument;
  const pdfOf = async (id: string) => (await database.db.select().from(documentPdfs).where(eq(documentPdfs.documentId, id)))[0]!;
  const settled = (id: number, check: (rows: Row[]) => boolean, what: string) =>
    waitFor(async () => ((rows) => check(rows) && rows)(await rowsOf(id)), 30_000, what);

  async function get(url: string, headers: Record<string, string> = {}) {
    const response = await fetch(url, { headers });
    return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
  }
  async function request(link: string, body: unknown, headers: Record<string, string> = {}, query = '') {
    const response = await fetch(`${link}/request${query}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  beforeAll(async () => {
    database = await target.open();
    catcher = await startMailCatcher();
    h = await startHarness({
      database,
      env: {
        SMTP_URL: catcher.url,
        MAIL_FROM: 'facturas@example.com',
        BUYER_LINK_REQUESTS_PER_MINUTE: String(PER_LINK),
        BUYER_ADDRESS_REQUESTS_PER_MINUTE: String(PER_ADDRESS),
      },
    });
    await h.installShop(SHOP, {}, { name: 'Tienda Ejemplo, S.A.' });
  });
  afterAll(async () => {
    await h?.close();
    await catcher?.close();
    await database?.close();
  });

  it('a final-consumer invoice: the link in its e-mail and on the order; the page, its JSON; a wrong DV refused; the right one re-issues it once', async () => {
    const id = 6_900_000_000_001;
    await h.simulator.orderPaid(SHOP, makePaidOrder({ id, email: BUYER }), h.webhookAddress);
    const [invoice] = await settled(id, (r) => r[0]?.status === 'completed', 'the invoice');
    expect(sent(invoice!).dataTransaction.client.typeClientEB).toBe('02');
    const [mail] = await waitFor(async () => mailsTo(BUYER).length > 0 && mailsTo(BUYER), 10_000, 'the e-mail');
    const link = LINK.exec(mail!.parsed.text ?? '')?.[0];
    expect(link).toBe(`${h.app.url}/d/${invoice!.buyerToken}`);
    const fields = () => Object.fromEntries(h.simulator.metafields(gidOf(id), SHOP).map((m) => [m.key, m.value]));
    expect(fields().buyer_url).toBe(link);
    const number = `0000-001-${String(invoice!.fiscalNumber).padStart(10, '0')}`;
    const pdf = await pdfOf(invoice!.id);

    const page = await get(link!);
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    for (const shown of [number, invoice!.cufe!, '70.43 USD', `/invoices/${pdf.token}.pdf`, 'Solicitar factura con RUC', 'lang="es"']) {
      expect(page.text).toContain(shown);
    }
    const json = await get(`${link}.json`);
    expect(json.status).toBe(200);
    const view = JSON.parse(json.text) as BuyerDocumentView;
    expect(view).toMatchObject({
      kind: 'invoice',
      language: 'es',
      state: 'authorized',
      orderName: invoice!.orderName,
      fiscalNumber: number,
      date: sent(invoice!).dataTransaction.dateBroadcast,
      total: '70.43',
      totalCents: 7043,
      currency: 'USD',
      cufe: invoice!.cufe,
      qr: { url: invoice!.qr },
      pdfUrl: `${h.app.url}/invoices/${pdf.token}.pdf`,
      client: { type: 'final_consumer' },
      creditNotes: [],
      replacedBy: null,
      requestable: true,
      reason: null,
      request: null,
      links: { page: link, json: `${link}.json`, request: `${link}/request` },
    });
    expect(view.qr!.image).toMatch(/^data:image\/svg\+xml;base64,/);

    const before = sends();
    const wrong = await request(link!, { ...COMPANY, dv: '58' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.problems).toEqual([
      { path: 'dv', message: 'El DV 58 no corresponde al RUC 155596713-2-2015: revise el dígito verificador.' },
    ]);
    const english = await request(link!, { ...COMPANY, dv: '5' }, {}, '?lang=en');
    expect(english).toEqual({
      status: 400,
      body: {
        error: 'Check the details: dv: The DV 05 does not belong to the RUC 155596713-2-2015: check the check digit.',
        problems: [{ path: 'dv', message: 'The DV 05 does not belong to the RUC 155596713-2-2015: check the check digit.' }],
      },
    });
    expect(sends()).toBe(before);
    expect(await rowsOf(id)).toHaveLength(1);

    const accepted = await request(link!, COMPANY);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ outcome: 'reissued', repeat: false });
    const rows = await settled(id, (r) => r.length === 3 && r.every((d) => d.status === 'completed'), 'the note and the new invoice');
    const note = rows.find((r) => r.kind === 'credit_note')!;
    const replacement = rows.find((r) => r.kind === 'invoice' && r.replacesId === invoice!.id)!;
    expect(accepted.body).toMatchObject({ creditNoteId: note.id, replacementId: replacement.id });
    expect(sends()).toBe(before + 2);
    expect(note).toMatchObject({ invoiceId: invoice!.id, totalCents: invoice!.totalCents, documentType: '04' });
    expect(sent(replacement).dataTransaction.client).toEqual({ ...TAXPAYER_CLIENT_BLOCK, email1: BUYER });
    const atGateway = h.sandbox.gateway.documents().filter((d) => d.cufe === note.cufe || d.cufe === replacement.cufe);
    expect(atGateway).toHaveLength(2);
    await waitFor(async () => fields().cufe === replacement.cufe, 10_000, 'the order showing the new invoice');
    expect(fields()).toMatchObject({
      fiscal_number: `0000-001-${String(replacement.fiscalNumber).padStart(10, '0')}`,
      buyer_url: `${h.app.url}/d/${replacement.buyerToken}`,
    });
    const newNumber = fields().fiscal_number!;
    const second = await waitFor(
      async () => mailsTo(BUYER).find((m) => m.parsed.subject?.includes(newNumber)),
      10_000,
      'the e-mail of the new invoice',
    );
    expect(Buffer.compare(second.parsed.attachments[0]!.content, (await pdfOf(replacement.id)).bytes)).toBe(0);
    await waitFor(async () => mailsTo(BUYER).some((m) => m.parsed.subject?.startsWith('Nota de crédito')), 10_000, "the note's e-mail");

    // Asked again: the first's outcome, nothing issued.
    const again = await request(link!, COMPANY);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ outcome: 'reissued', repeat: true, creditNoteId: note.id, replacementId: replacement.id });
    expect(await rowsOf(id)).toHaveLength(3);
    expect(sends()).toBe(before + 2);
    const after = JSON.parse((await get(`${link}.json?lang=en`)).text) as BuyerDocumentView;
    expect(after).toMatchObject({ language: 'en', state: 'replaced', requestable: false, reason: { code: 'requested' } });
    expect(after.replacedBy).toMatchObject({ fiscalNumber: newNumber, url: `${h.app.url}/d/${replacement.buyerToken}` });
    expect(after.creditNotes).toMatchObject([{ cufe: note.cufe, url: `${h.app.url}/d/${note.buyerToken}` }]);
    // The merchant sees it: the invoice's detail and the list.
    const admin = async (route: string) =>
      (await (
        await fetch(`${h.app.url}${route}`, { headers: { Authorization: `Bearer ${await h.simulator.sessionToken(SHOP)}` } })
      ).json()) as {
        invoice: { buyer: unknown };
        invoices: { id: string; buyerRequested: boolean }[];
      };
    expect((await admin(`/api/invoices/${invoice!.id}`)).invoice.buyer).toMatchObject({
      url: link,
      request: { outcome: 'reissued', language: 'es', creditNoteId: note.id, replacementId: replacement.id },
    });
    const listed = (await admin('/api/invoices?kind=invoice')).invoices;
    expect(listed.find((i) => i.id === invoice!.id)?.buyerRequested).toBe(true);
    expect(listed.find((i) => i.id === replacement.id)?.buyerRequested).toBe(false);
    // The new invoice is the company's already.
    const replacementLink = `${h.app.url}/d/${replacement.buyerToken}`;
    const refused = await request(replacementLink, COMPANY, {});
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('already_taxpayer');
  });

  it('an invoice that needs attention: the buyer’s client becomes its correction; authorized with it, no credit note', async () => {
    const id = 6_900_000_000_002;
    const order = {
      ...makePaidOrder({ id, email: BUYER }),
      note_attributes: [
        { name: 'ruc', value: '155596713-2-2015' },
        { name: 'dv', value: '00' },
      ],
    };
    await h.simulator.orderPaid(SHOP, order, h.webhookAddress);
    const [stopped] = await settled(id, (r) => r[0]?.status === 'needs_attention', 'the invoice to stop');
    const link = `${h.app.url}/d/${stopped!.buyerToken}`;
    const view = JSON.parse((await get(`${link}.json`)).text) as BuyerDocumentView;
    expect(view).toMatchObject({ state: 'in_progress', fiscalNumber: null, cufe: null, pdfUrl: null, requestable: true });

    const accepted = await request(link, COMPANY);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ outcome: 'corrected', repeat: false, creditNoteId: null, replacementId: null });
    const [done] = await settled(id, (r) => r[0]?.status === 'completed', 'the corrected invoice');
    expect(await rowsOf(id)).toHaveLength(1);
    expect(done).toMatchObject({ taxIdSource: 'correction' });
    expect(sent(done!).dataTransaction.client).toEqual({ ...TAXPAYER_CLIENT_BLOCK, email1: BUYER });
    expect(h.simulator.metafields(gidOf(id), SHOP).find((m) => m.key === 'cufe')?.value).toBe(done!.cufe);
    expect((await request(link, COMPANY)).body).toMatchObject({ outcome: 'corrected', repeat: true });
  });

  it('a tampered link is 404 everywhere; past the limits, 429', async () => {
    const [row] = await database.db.select().from(documents).where(eq(documents.shop, SHOP)).limit(1);
    const token = row!.buyerToken;
    const tampered = `${h.app.url}/d/${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const url of [tampered, `${tampered}.json`, `${h.app.url}/d/short`, `${h.app.url}/d/${token}/other`]) {
      const answer = await get(url);
      expect(answer.status, url).toBe(404);
      expect(answer.text).not.toMatch(/Error|at |select|documents/);
    }
    expect((await request(tampered, COMPANY)).status).toBe(404);

    // Per link: the same link, whatever the address.
    const link = `${h.app.url}/d/${token}.json`;
    const statuses: number[] = [];
    for (let i = 0; i < PER_LINK + 1; i++) statuses.push((await get(link, { 'X-Forwarded-For': `198.51.100.${i + 1}` })).status);
    expect(statuses.at(-1)).toBe(429);
    expect(JSON.parse((await get(link, { 'X-Forwarded-For': '198.51.100.200' })).text)).toEqual({
      error: 'Demasiadas solicitudes. Espere un minuto e intente de nuevo.',
    });
    // Per address: any links, one address.
    const guesses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 1; i++) {
      guesses.push((await get(`${h.app.url}/d/${String(i).padStart(43, 'x')}`, { 'X-Forwarded-For': '203.0.113.9' })).status);
    }
    expect(guesses.slice(0, PER_ADDRESS).every((s) => s === 404)).toBe(true);
    expect(guesses.at(-1)).toBe(429);
    expect((await get(`${h.app.url}/d/${'y'.repeat(43)}`, { 'X-Forwarded-For': '203.0.113.10' })).status).toBe(404);
  });
});
