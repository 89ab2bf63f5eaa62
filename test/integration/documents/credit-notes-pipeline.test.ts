// Refunds become credit notes, end to end over HTTP on both databases: the store simulator sends Shopify's
// refunds/create bodies (test/fixtures/refunds/), the app issues each note through the pipeline after its invoice, the
// sandbox gateway checks the note's rules and reference, and the order's credit_notes metafield lists them.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { REFERENCE_FIELDS, type GatewayDocument } from '../../../mappers/gateway/gateway-document.ts';
import { documents } from '../../../src/db/schema.ts';
import type { DocumentRow } from '../../../src/documents/store/index.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { harnessForShop } from '../../support/harness-blocks.ts';
import { type RefundFixture, readRefundFixture } from '../../support/refund-fixtures.ts';

const SHOP = 'tienda-notas.myshopify.com';

describe.each(testDatabases)('refunds to credit notes, end to end on $name', (target) => {
  const run = harnessForShop(target, SHOP);
  const refundsAddress = () => `${run.h.app.url}/webhooks/refunds/create`;

  const rowsOf = (orderGid: string) =>
    run.database.db
      .select()
      .from(documents)
      .where(and(eq(documents.shop, SHOP), eq(documents.orderGid, orderGid)));

  /** The order's documents once `count` notes are completed (and its invoice). */
  async function completed(orderGid: string, notes: number): Promise<{ invoice: DocumentRow; notes: DocumentRow[] }> {
    return waitFor(
      async () => {
        const rows = await rowsOf(orderGid);
        const invoice = rows.find((r) => r.kind === 'invoice' && r.status === 'completed');
        const done = rows.filter((r) => r.kind === 'credit_note' && r.status === 'completed');
        return invoice && done.length === notes ? { invoice, notes: done.sort((a, b) => a.fiscalNumber! - b.fiscalNumber!) } : undefined;
      },
      30_000,
      `${notes} completed credit notes of ${orderGid}`,
    );
  }

  async function invoiced(name: RefundFixture): Promise<string> {
    const order = readRefundFixture(name, 'order');
    await run.h.simulator.orderPaid(SHOP, order, run.h.webhookAddress);
    const gid = `gid://shopify/Order/${String(order['id'])}`;
    await completed(gid, 0);
    return gid;
  }

  const sent = (row: DocumentRow) => row.document as GatewayDocument;
  const totalOf = (row: DocumentRow) => sent(row).totalsSubTotals.totalInvoice;

  /** A note's reference names its invoice's CUFE and date (docs/design.md §9), and the note is type 04. */
  function expectReference(note: DocumentRow, invoice: DocumentRow): void {
    expect(note).toMatchObject({
      kind: 'credit_note',
      documentType: '04',
      invoiceId: invoice.id,
      orderName: invoice.orderName,
      step: 'done',
    });
    expect(sent(note).dataTransaction.typeDocument).toBe('04');
    expect(sent(note).dataTransaction[REFERENCE_FIELDS.list]).toEqual([
      {
        [REFERENCE_FIELDS.date]: sent(invoice).dataTransaction.dateBroadcast,
        [REFERENCE_FIELDS.cufe]: invoice.cufe,
        [REFERENCE_FIELDS.paperNumber]: '',
        [REFERENCE_FIELDS.fiscalPrinterNumber]: '',
      },
    ]);
    expect(sent(note).dataTransaction.client).toEqual(sent(invoice).dataTransaction.client);
    expect(note.cufe).toMatch(/^FE04/);
  }

  /** Send the same refund body three times at once, as Shopify's retries may: one note. */
  async function refundedThrice(name: RefundFixture): Promise<void> {
    const refund = readRefundFixture(name, 'refund');
    const answers = await Promise.all([1, 2, 3].map(() => run.h.simulator.refundCreated(SHOP, refund, refundsAddress())));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => JSON.parse(a.body).outcome).sort()).toEqual(['duplicate', 'duplicate', 'stored']);
  }

  it('a full refund: one note for the whole invoice, to the cent, naming its CUFE; the invoice keeps its metafields', async () => {
    const gid = await invoiced('full-refund');
    const before = Object.fromEntries(run.h.simulator.metafields(gid, SHOP).map((m) => [m.key, m.value]));
    await refundedThrice('full-refund');
    const { invoice, notes } = await completed(gid, 1);
    const [note] = notes;
    expectReference(note!, invoice);
    expect(totalOf(note!)).toBe('71.32');
    expect(totalOf(invoice)).toBe('71.32');
    expect(note!.totalCents).toBe(7132);
    expect(note!.fiscalNumber).toBe(1);
    const fields = Object.fromEntries(run.h.simulator.metafields(gid, SHOP).map((m) => [m.key, m.value]));
    expect(fields.cufe).toBe(before.cufe);
    expect(fields.fiscal_number).toBe(before.fiscal_number);
    expect(JSON.parse(fields.credit_notes!)).toEqual([
      {
        fiscal_number: '0000-001-0000000001',
        cufe: note!.cufe,
        pdf_url: expect.stringMatching(new RegExp(`^${run.h.app.url}/invoices/[A-Za-z0-9_-]{32}\\.pdf$`)),
        amount: '71.32',
        refund_id: 'gid://shopify/Refund/9400000011011',
      },
    ]);
    const issued = run.h.sandbox.gateway.documents().filter((d) => d.cufe === note!.cufe);
    expect(issued).toHaveLength(1);
    const pdf = await fetch(JSON.parse(fields.credit_notes!)[0].pdf_url);
    expect(pdf.headers.get('content-disposition')).toBe('inline; filename="nota-de-credito-0000-001-0000000001.pdf"');
  });

  it('two partial refunds of one order, the first of part of a discounted line: two notes adding up to the invoice', async () => {
    const gid = await invoiced('partial-line');
    await refundedThrice('partial-line');
    const first = await completed(gid, 1);
    expect(totalOf(first.notes[0]!)).toBe('47.35');
    // 2 of 3 shirts at a per-unit discount of 2.875: split into 1 @ 2.87 and 1 @ 2.88.
    expect(sent(first.notes[0]!).listItems.map((i) => [i.amount, i.priceUnitDiscount, i.priceItem, i.valueITBMS])).toEqual([
      ['1.00', '2.87', '22.13', '1.55'],
      ['1.00', '2.88', '22.12', '1.55'],
    ]);
    await refundedThrice('second-partial');
    const { invoice, notes } = await completed(gid, 2);
    for (const note of notes) expectReference(note, invoice);
    expect(notes.map(totalOf)).toEqual(['47.35', '40.18']);
    expect(notes.map((n) => n.totalCents).reduce((a, b) => a + b, 0)).toBe(8753);
    expect(totalOf(invoice)).toBe('87.53');
    const listed = JSON.parse(run.h.simulator.metafields(gid, SHOP).find((m) => m.key === 'credit_notes')!.value) as {
      amount: string;
      refund_id: string;
    }[];
    expect(listed.map((n) => [n.amount, n.refund_id])).toEqual([
      ['47.35', 'gid://shopify/Refund/9400000011021'],
      ['40.18', 'gid://shopify/Refund/9400000011022'],
    ]);
  });

  it('shipping only, and an amount-only refund whose ITBMS is allocated over the invoice', async () => {
    const shipping = await invoiced('shipping-only');
    await refundedThrice('shipping-only');
    const s = await completed(shipping, 1);
    expectReference(s.notes[0]!, s.invoice);
    expect(totalOf(s.notes[0]!)).toBe('6.42');
    expect(sent(s.notes[0]!).totalsSubTotals.totalITBMS).toBe('0.42');

    const goodwill = await invoiced('amount-only');
    await refundedThrice('amount-only');
    const a = await completed(goodwill, 1);
    expectReference(a.notes[0]!, a.invoice);
    expect(sent(a.notes[0]!).totalsSubTotals).toMatchObject({ totalInvoice: '10.00', totalITBMS: '0.75', totalPriceNet: '9.25' });
  });

  it('a refund delivered before its order was invoiced waits, visibly, and goes once the invoice is authorized', async () => {
    const order = readRefundFixture('second-partial', 'order');
    const refund = readRefundFixture('second-partial', 'refund');
    // Another order number for the same shape, so it has an invoice of its own.
    const id = 5_900_000_009_102;
    const early = { ...order, id, admin_graphql_api_id: `gid://shopify/Order/${id}`, name: '#9102' };
    const earlyRefund = { ...refund, id: 9_400_000_091_021, admin_graphql_api_id: 'gid://shopify/Refund/9400000091021', order_id: id };
    const gid = `gid://shopify/Order/${id}`;
    run.h.simulator.setOrder(SHOP, early);
    expect((await run.h.simulator.refundCreated(SHOP, earlyRefund, refundsAddress())).status).toBe(200);
    const waiting = await waitFor(
      async () => (await rowsOf(gid)).find((r) => r.kind === 'credit_note' && r.status === 'waiting'),
      20_000,
      'the note to wait',
    );
    expect(waiting.lastError).toEqual({ key: 'waiting_for_invoice', params: { orderName: gid } });
    expect(waiting.fiscalNumber).toBeNull();
    await run.h.simulator.orderPaid(SHOP, early, run.h.webhookAddress);
    const { invoice, notes } = await completed(gid, 1);
    expectReference(notes[0]!, invoice);
    expect(totalOf(notes[0]!)).toBe('40.18');
  });
});
