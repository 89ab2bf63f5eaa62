// Shopify Flow triggers end to end (docs/flow.md): paid orders and refunds through the app against the sandbox gateway
// and the store simulator, whose flowTriggerReceive checks each payload against the trigger extensions in extensions/.
// Each document fires its trigger once, with the values the order shows, after its write-back.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { documents, flowEvents, shops } from '../../../src/db/schema.ts';
import { type DocumentRow, retryDocuments } from '../../../src/documents/store/index.ts';
import { render } from '../../../src/messages/catalogue.ts';
import { asMessage } from '../../../src/messages/message.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { harnessFor } from '../../support/harness-blocks.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-flow.myshopify.com';
const SHOP_EN = 'tienda-flow-en.myshopify.com';
const SHOP_OFF = 'tienda-flow-off.myshopify.com';
const BOOK = [{ title: 'Libro', price: 1234, quantity: 1, ratePercent: 0 }];

describe.each(testDatabases)('Flow triggers on $name', (target) => {
  const run = harnessFor(target);
  let nextId = 7_100_000_000_000;
  let installed = false;

  async function install(): Promise<void> {
    if (installed) return;
    installed = true;
    await run.h.installShop(SHOP);
    await run.h.installShop(SHOP_EN, { flowTriggers: { enabled: true, language: 'en' } });
    await run.h.installShop(SHOP_OFF, { flowTriggers: { enabled: false, language: 'es' } });
  }

  const documentOf = async (orderGid: string, kind: DocumentRow['kind'] = 'invoice') =>
    (
      await run.database.db
        .select()
        .from(documents)
        .where(and(eq(documents.orderGid, orderGid), eq(documents.kind, kind)))
    )[0];
  const until = (orderGid: string, status: DocumentRow['status'], kind: DocumentRow['kind'] = 'invoice') =>
    waitFor(
      async () => {
        const row = await documentOf(orderGid, kind);
        return row?.status === status ? row : undefined;
      },
      20_000,
      `the ${kind} of ${orderGid} to be ${status}`,
    );
  const eventsOf = (documentId: string) => run.database.db.select().from(flowEvents).where(eq(flowEvents.documentId, documentId));
  const sentEvent = (documentId: string) =>
    waitFor(async () => (await eventsOf(documentId)).find((e) => e.status === 'sent'), 20_000, 'the Flow event to be sent');
  const triggersFor = (shop: string, orderId: number) =>
    run.h.simulator.flowTriggers(shop).filter((t) => t.payload['order_id'] === orderId);

  async function paid(shop: string, lines = BOOK): Promise<{ id: number; gid: string }> {
    await install();
    const id = ++nextId;
    await run.h.simulator.orderPaid(shop, makePaidOrder({ id, lines }), run.h.webhookAddress);
    return { id, gid: `gid://shopify/Order/${id}` };
  }

  it('an authorized invoice fires "Factura autorizada" once, after its write-back, with the order’s values', async () => {
    const { id, gid } = await paid(SHOP);
    const invoice = await until(gid, 'completed');
    const event = await sentEvent(invoice.id);
    expect(event).toMatchObject({ shop: SHOP, event: 'invoice_authorized', attempts: 1, lastError: null });
    const pdf = run.h.simulator.metafields(gid).find((m) => m.key === 'pdf_url')!.value;
    expect(pdf).toMatch(new RegExp(`^${run.h.app.url}/invoices/[A-Za-z0-9_-]{32}\\.pdf$`));
    expect(triggersFor(SHOP, id).map((t) => [t.handle, t.payload])).toEqual([
      ['flow-invoice-authorized', { order_id: id, 'Numero fiscal': '0000-001-0000000001', CUFE: invoice.cufe, PDF: pdf, Total: 12.34 }],
    ]);
    // The write-back came first: the trigger's call follows the metafieldsSet of the order.
    const calls = run.h.simulator
      .calls()
      .filter((c) => c.shop === SHOP)
      .map((c) => c.operation);
    expect(calls.lastIndexOf('flowTriggerReceive')).toBeGreaterThan(calls.lastIndexOf('metafieldsSet'));
  });

  it('an invoice that needs attention fires "Factura requiere atención" once, in the shop’s language, retries or not', async () => {
    const huge = [{ title: 'Yate', price: 100_000_000_000, quantity: 1, ratePercent: 0 }];
    const es = await paid(SHOP, huge);
    const en = await paid(SHOP_EN, huge);
    for (const [shop, order, language] of [
      [SHOP, es, 'es'],
      [SHOP_EN, en, 'en'],
    ] as const) {
      const row = await until(order.gid, 'needs_attention');
      await sentEvent(row.id);
      const reason = render(asMessage(row.lastError)!, language);
      expect(triggersFor(shop, order.id)).toMatchObject([
        { handle: 'flow-invoice-needs-attention', payload: { order_id: order.id, Motivo: reason } },
      ]);
    }
    expect(triggersFor(SHOP, es.id)[0]!.payload['Motivo']).toBe(
      'Un monto de este pedido es demasiado grande para facturarlo. Emita esta factura manualmente.',
    );
    expect(triggersFor(SHOP_EN, en.id)[0]!.payload['Motivo']).toBe(
      'An amount in this order is too large to be invoiced. Issue this invoice by hand.',
    );
    // A person retries it; it stops again: the event is once per document.
    const row = await documentOf(es.gid);
    expect(await retryDocuments(run.database.db, { ids: [row!.id] })).toBe(1);
    await waitFor(
      async () => ((await documentOf(es.gid))!.attempts === 1 && (await documentOf(es.gid))!.status === 'needs_attention') || undefined,
    );
    run.h.app.flow.wake();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(triggersFor(SHOP, es.id)).toHaveLength(1);
    expect(await eventsOf(row!.id)).toHaveLength(1);
  });

  it('an authorized credit note fires "Nota de crédito autorizada" once with its refund, number, CUFE and amount', async () => {
    const { id, gid } = await paid(SHOP);
    await until(gid, 'completed');
    const { refund } = await run.h.simulator.refund(
      SHOP,
      gid,
      { lines: [{ lineItemId: id * 100, quantity: 1 }] },
      `${run.h.app.url}/webhooks/refunds/create`,
    );
    const note = await until(gid, 'completed', 'credit_note');
    await sentEvent(note.id);
    expect(triggersFor(SHOP, id).map((t) => [t.handle, t.payload])).toEqual([
      ['flow-invoice-authorized', expect.objectContaining({ order_id: id })],
      [
        'flow-credit-note-authorized',
        {
          order_id: id,
          Reembolso: `gid://shopify/Refund/${String(refund['id'])}`,
          'Numero fiscal': `0000-001-${String(note.fiscalNumber).padStart(10, '0')}`,
          CUFE: note.cufe,
          Monto: 12.34,
        },
      ],
    ]);
  });

  it('a shop with Flow triggers off queues none; turned on, an event that meets Admin API failures is retried and fires once', async () => {
    const { id, gid } = await paid(SHOP_OFF);
    const invoice = await until(gid, 'completed');
    run.h.app.flow.wake();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await eventsOf(invoice.id)).toEqual([]);
    expect(triggersFor(SHOP_OFF, id)).toEqual([]);

    await run.database.db
      .update(shops)
      .set({ settings: { ...(await run.h.app.shops.get(SHOP_OFF))!.settings, flowTriggers: { enabled: true, language: 'es' } } })
      .where(eq(shops.shop, SHOP_OFF));
    run.h.simulator.setFaults({ http5xxRate: 1 });
    try {
      await run.database.db.insert(flowEvents).values({ documentId: invoice.id, shop: SHOP_OFF, event: 'invoice_authorized' });
      run.h.app.flow.wake();
      await waitFor(async () => ((await eventsOf(invoice.id))[0]!.attempts >= 2 ? true : undefined), 30_000, 'two failed attempts');
    } finally {
      run.h.simulator.setFaults({});
    }
    const event = await sentEvent(invoice.id);
    expect(event.attempts).toBeGreaterThanOrEqual(3);
    // Every refused call was refused before Flow took it: the trigger arrived once.
    expect(
      run.h.simulator.calls().filter((c) => c.operation === 'flowTriggerReceive' && c.shop === SHOP_OFF && c.status === 503).length,
    ).toBeGreaterThanOrEqual(8);
    expect(triggersFor(SHOP_OFF, id)).toHaveLength(1);
  }, 60_000);

  it('an event queued before the shop turned its triggers off is not sent: failed, with the reason', async () => {
    const late = 'tienda-flow-tarde.myshopify.com';
    await install();
    await run.h.installShop(late);
    // The runner stopped: the invoice completes and its event waits, queued.
    await run.h.app.flow.stop();
    try {
      const { id, gid } = await paid(late);
      const invoice = await until(gid, 'completed');
      expect((await eventsOf(invoice.id)).map((e) => e.status)).toEqual(['pending']);
      const settings = (await run.h.app.shops.get(late))!.settings;
      await run.database.db
        .update(shops)
        .set({ settings: { ...settings, flowTriggers: { enabled: false, language: 'es' } } })
        .where(eq(shops.shop, late));
      run.h.app.flow.start();
      const failed = await waitFor(
        async () => (await eventsOf(invoice.id)).find((e) => e.status === 'failed'),
        10_000,
        'the Flow event to fail',
      );
      expect(failed).toMatchObject({ attempts: 1, lastError: 'Flow triggers were turned off before it was sent', leaseOwner: null });
      expect(triggersFor(late, id)).toEqual([]);
    } finally {
      run.h.app.flow.start();
    }
  });
});
