// What the admin API says of credit notes, over real HTTP on both databases, with notes made through the store
// simulator: the list filtered by type, each note's row naming its invoice's number; an invoice's detail listing its
// notes; a note's detail linking back to its invoice with its reference and refund; a note that waits for an invoice
// that needs attention, with the catalogue's reason and a retry that makes it look again now; a re-issued invoice's
// full note; the order block's list; another shop sees none of it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayDocument } from '../../../mappers/gateway/gateway-document.ts';
import type { DocumentDetail, DocumentSummary } from '../../../src/admin/document-view.ts';
import type { OrderDocuments } from '../../../src/admin/order-documents-api.ts';
import type { Database } from '../../../src/db/database.ts';
import { documents } from '../../../src/db/schema.ts';
import { type InvoiceWithNotes, invoiceWithTwoNotes, noteWaitingForInvoice } from '../../support/credit-note-orders.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { TAXPAYER_CORRECTION } from '../../support/client-fixtures.ts';
import { type Harness, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const A = 'tienda-notas-admin-a.myshopify.com';
const B = 'tienda-notas-admin-b.myshopify.com';
const PDF_URL = /^http:\/\/127\.0\.0\.1:\d+\/invoices\/[A-Za-z0-9_-]{32}\.pdf$/;

describe.each(testDatabases)('credit notes in the admin API on $name', (target) => {
  let database: Database;
  let h: Harness;
  let refunded: InvoiceWithNotes;
  let waiting: Awaited<ReturnType<typeof noteWaitingForInvoice>>;

  /** The API's answer, read as what a route answers (`T`). */
  async function call<T>(method: 'GET' | 'POST', path: string, shop = A): Promise<{ status: number; body: T }> {
    const token = await h.simulator.sessionToken(shop);
    const response = await fetch(`${h.app.url}${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as T };
  }
  const list = (query: string, shop = A) => call<{ invoices: DocumentSummary[] }>('GET', `/api/invoices?${query}`, shop);
  const detail = async (id: string) => (await call<{ invoice: DocumentDetail }>('GET', `/api/invoices/${id}`)).body.invoice;

  beforeAll(async () => {
    database = await target.open();
    h = await startHarness({ database });
    await h.installShop(A);
    await h.installShop(B);
    refunded = await invoiceWithTwoNotes(h, database, A, 5_960_000_000_001);
    waiting = await noteWaitingForInvoice(h, database, A, 5_960_000_000_002);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });

  it('lists the notes by type, each naming its invoice’s number; invoices name none', async () => {
    const notes = await list('kind=credit_note');
    expect(notes.status).toBe(200);
    expect(notes.body.invoices.map((n) => [n.id, n.kind, n.documentType, n.status, n.amount, n.fiscalNumber, n.invoiceNumber])).toEqual([
      [waiting.note.id, 'credit_note', '04', 'waiting', '21.70', null, null],
      [refunded.notes[1].id, 'credit_note', '04', 'completed', '5.35', '0000-001-0000000002', '0000-001-0000000001'],
      [refunded.notes[0].id, 'credit_note', '04', 'completed', '26.22', '0000-001-0000000001', '0000-001-0000000001'],
    ]);
    const invoices = await list('kind=invoice');
    expect(invoices.body.invoices.map((i) => [i.id, i.kind, i.invoiceNumber])).toEqual([
      [waiting.invoice.id, 'invoice', null],
      [refunded.invoice.id, 'invoice', null],
    ]);
    expect((await list('')).body.invoices).toHaveLength(5);
    expect(await call('GET', '/api/invoices?kind=nota')).toEqual({
      status: 400,
      body: {
        error: 'kind: must be one of invoice, credit_note',
        problems: [{ path: 'kind', message: 'must be one of invoice, credit_note' }],
      },
    });
  });

  it('an invoice’s detail lists its notes: number, status, amount, CUFE, PDF link', async () => {
    const invoice = await detail(refunded.invoice.id);
    expect(invoice).toMatchObject({ kind: 'invoice', refundId: null, invoice: null, reference: null, invoiceNumber: null });
    expect(invoice.creditNotes.map((n) => [n.id, n.fiscalNumber, n.status, n.amount, n.cufe, n.invoiceNumber])).toEqual([
      [refunded.notes[0].id, '0000-001-0000000001', 'completed', '26.22', refunded.notes[0].cufe, '0000-001-0000000001'],
      [refunded.notes[1].id, '0000-001-0000000002', 'completed', '5.35', refunded.notes[1].cufe, '0000-001-0000000001'],
    ]);
    expect(refunded.notes.map((n) => n.cufe)).toEqual([expect.stringMatching(/^FE04/), expect.stringMatching(/^FE04/)]);
    for (const note of invoice.creditNotes) {
      expect(note.pdfUrl).toMatch(PDF_URL);
      const pdf = await fetch(note.pdfUrl!);
      expect(pdf.headers.get('content-disposition')).toBe(`inline; filename="nota-de-credito-${note.fiscalNumber}.pdf"`);
    }
  });

  it('a note’s detail links back to its invoice and shows its reference (the invoice’s CUFE and date) and its refund', async () => {
    const [first] = refunded.notes;
    const note = await detail(first.id);
    const sent = refunded.invoice.document as GatewayDocument;
    expect(note).toMatchObject({
      kind: 'credit_note',
      documentType: '04',
      fiscalNumber: '0000-001-0000000001',
      invoiceNumber: '0000-001-0000000001',
      invoiceId: refunded.invoice.id,
      refundId: first.sourceKey,
      reference: { cufe: refunded.invoice.cufe, date: sent.dataTransaction.dateBroadcast },
      creditNotes: [],
      retryable: false,
      reason: null,
      pdfUrl: expect.stringMatching(PDF_URL),
    });
    expect(note.refundId).toMatch(/^gid:\/\/shopify\/Refund\/\d+$/);
    expect(note.reference!.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-05:00$/);
    expect(note.invoice).toMatchObject({
      id: refunded.invoice.id,
      kind: 'invoice',
      fiscalNumber: '0000-001-0000000001',
      status: 'completed',
      cufe: refunded.invoice.cufe,
      pdfUrl: expect.stringMatching(PDF_URL),
    });
  });

  it('a note waiting for an invoice that needs attention: the catalogue’s reason, its invoice, and Reintentar', async () => {
    const note = await detail(waiting.note.id);
    expect(note).toMatchObject({
      status: 'waiting',
      invoiceId: null,
      invoiceNumber: null,
      reference: null,
      retryable: true,
      reason: {
        kind: 'waiting',
        title: { es: 'En espera', en: 'Waiting' },
        text: {
          es: `La nota de crédito espera a que se autorice la factura del pedido ${waiting.invoice.orderName}; sigue sola.`,
          en: `The credit note waits for the invoice of order ${waiting.invoice.orderName} to be authorized; it goes on by itself.`,
        },
      },
    });
    expect(note.invoice).toMatchObject({ id: waiting.invoice.id, status: 'needs_attention', fiscalNumber: null, pdfUrl: null });
    expect(note.invoice!.reason!.kind).toBe('mapping');

    const invoice = await detail(waiting.invoice.id);
    expect(invoice.creditNotes.map((n) => [n.id, n.status, n.amount])).toEqual([[waiting.note.id, 'waiting', '21.70']]);

    // Reintentar: it looks for its invoice again now (and waits again, the invoice still stopped).
    await database.db
      .update(documents)
      .set({ nextAttemptAt: new Date(Date.now() + 3_600_000) })
      .where(eq(documents.id, waiting.note.id));
    const retried = await call<{ retried: number; invoice: DocumentDetail }>('POST', `/api/invoices/${waiting.note.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.retried).toBe(1);
    expect(retried.body.invoice.status).toBe('waiting');
    const [row] = await database.db.select().from(documents).where(eq(documents.id, waiting.note.id));
    expect(row!.nextAttemptAt.getTime()).toBeLessThan(Date.now() + 60_000);
  });

  it('a re-issued invoice: its full credit note is listed under it, with no refund; the new invoice has none', async () => {
    const order = makePaidOrder({ id: 5_960_000_000_003 });
    await h.simulator.orderPaid(A, order, h.webhookAddress);
    const gid = 'gid://shopify/Order/5960000000003';
    const rowsOf = () => database.db.select().from(documents).where(eq(documents.orderGid, gid));
    const old = await waitFor(async () => (await rowsOf()).find((r) => r.status === 'completed'), 20_000, 'the invoice');
    const token = await h.simulator.sessionToken(A);
    const answer = await fetch(`${h.app.url}/api/invoices/${old.id}/reinvoice`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(TAXPAYER_CORRECTION),
    });
    expect(answer.status).toBe(202);
    const { creditNoteId, invoiceId } = (await answer.json()) as { creditNoteId: string; invoiceId: string };
    await waitFor(async () => (await rowsOf()).filter((r) => r.status === 'completed').length === 3, 30_000, 'the replacement');

    const replaced = await detail(old.id);
    expect(replaced.creditNotes.map((n) => [n.id, n.status, n.invoiceNumber])).toEqual([
      [creditNoteId, 'completed', replaced.fiscalNumber],
    ]);
    const note = await detail(creditNoteId);
    expect(note).toMatchObject({ refundId: null, invoiceId: old.id, invoice: { id: old.id }, reference: { cufe: old.cufe } });
    expect((await detail(invoiceId)).creditNotes).toEqual([]);
    // Back as it was for the other tests: this order's documents leave the lists.
    await database.db.delete(documents).where(eq(documents.orderGid, gid));
  });

  it('the order block’s list names each note’s invoice', async () => {
    const { body } = await call<OrderDocuments>('GET', `/api/orders/${refunded.orderGid.split('/').pop()}/documents`);
    expect(body.documents.map((d) => [d.kind, d.fiscalNumber, d.invoiceNumber])).toEqual([
      ['invoice', '0000-001-0000000001', null],
      ['credit_note', '0000-001-0000000001', '0000-001-0000000001'],
      ['credit_note', '0000-001-0000000002', '0000-001-0000000001'],
    ]);
  });

  it('another shop sees none of it', async () => {
    expect((await list('kind=credit_note', B)).body.invoices).toEqual([]);
    for (const doc of [refunded.invoice, ...refunded.notes]) {
      expect(await call('GET', `/api/invoices/${doc.id}`, B)).toEqual({ status: 404, body: { error: 'invoice not found' } });
    }
  });
});
