// Each gateway outcome drives the invoice to its state (docs/design.md §5), over real HTTP, on PGlite and PostgreSQL.
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/database.ts';
import { fiscalSkips, gatewayCalls, documents, shops } from '../../../src/db/schema.ts';
import { retryDocuments as retryInvoices } from '../../../src/documents/store/index.ts';
import { lastErrorText } from '../../support/documents.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, credentialsFor, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

describe.each(testDatabases)('gateway outcomes drive the invoice on $name', (target) => {
  let database: Database;
  let h: Harness;
  let shopCount = 0;
  let orderId = 6_100_000_000_000;

  beforeAll(async () => {
    database = await target.open();
    // Short gateway time-out so "authorize, then answer too late" is quick to provoke.
    h = await startHarness({ database, gatewayTimeoutMs: 800, env: { WORKER_MAX_ATTEMPTS: '6' } });
  });
  afterEach(() => {
    h.sandbox.gateway.setFaults({});
  });
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });

  /** A fresh shop (own fiscal sequence) and a paid order delivered for it. */
  async function orderFor(settings: Parameters<Harness['installShop']>[1] = {}) {
    const shop = `tienda-outcome-${++shopCount}.myshopify.com`;
    await h.installShop(shop, settings);
    const id = ++orderId;
    return { shop, id, gid: `gid://shopify/Order/${id}`, order: makePaidOrder({ id }) };
  }
  const invoiceOf = async (gid: string) => (await database.db.select().from(documents).where(eq(documents.orderGid, gid)))[0];
  const untilStatus = (gid: string, status: string) =>
    waitFor(
      async () => {
        const row = await invoiceOf(gid);
        return row?.status === status ? row : undefined;
      },
      20_000,
      `invoice ${gid} to be ${status}`,
    );
  const callsOf = async (invoiceId: string) =>
    (await database.db.select().from(gatewayCalls).where(eq(gatewayCalls.documentId, invoiceId)).orderBy(gatewayCalls.id)).map(
      (c) => `${c.operation}:${c.outcome}:${c.code ?? '-'}`,
    );

  it('authorized: completed with number 1, PDF and metafields', async () => {
    const { shop, gid, order } = await orderFor();
    await h.simulator.orderPaid(shop, order, h.webhookAddress);
    const row = await untilStatus(gid, 'completed');
    expect(row).toMatchObject({ step: 'done', fiscalNumber: 1, lastErrorKind: null, attempts: 0 });
    expect(await callsOf(row.id)).toEqual(['SendDocument:authorized:200', 'DownloadPDF:pdf:200']);
    expect(
      h.simulator
        .metafields(gid)
        .map((m) => m.key)
        .sort(),
    ).toEqual(['authorized_at', 'buyer_url', 'cufe', 'fiscal_number', 'pdf_url', 'protocol', 'qr_url']);
  });

  it("several gateways: the worker reads the order's transactions from Shopify and invoices each payment form", async () => {
    const { shop } = await orderFor();
    const fs = await import('node:fs');
    const order = JSON.parse(fs.readFileSync(new URL('../../fixtures/orders/gift-card-payment.json', import.meta.url), 'utf8')) as Record<
      string,
      unknown
    >;
    const nodes = JSON.parse(
      fs.readFileSync(new URL('../../fixtures/orders/gift-card-payment.transactions.json', import.meta.url), 'utf8'),
    ) as {
      gateway: string;
      kind: string;
      status: string;
      amountSet: { shopMoney: { amount: string } };
    }[];
    order.test = false;
    const gid = h.simulator.setOrder(shop, order, {
      transactions: nodes.map((t) => ({ gateway: t.gateway, kind: t.kind, status: t.status, amount: t.amountSet.shopMoney.amount })),
    });
    await h.simulator.sendWebhook({ address: h.webhookAddress, topic: 'orders/paid', shop, payload: order });
    const row = await untilStatus(gid, 'completed');
    const totals = (row.document as { totalsSubTotals: { totalInvoice: string; listFormPayment: unknown[] } }).totalsSubTotals;
    expect(totals.listFormPayment).toEqual([
      { formPaymentInvoice: '07', valueFeePaid: '50.00' },
      { formPaymentInvoice: '03', valueFeePaid: '84.82' },
    ]);
    expect(totals.totalInvoice).toBe('134.82');
    // The order confirmed through the shop's API, then its transactions read: two order queries.
    expect(h.simulator.calls().filter((c) => c.shop === shop && c.operation === 'order')).toHaveLength(2);
  });

  it('write-back: throttled, 429 and 5xx answers from Shopify are retried until the metafields are written', async () => {
    const { shop, gid, order } = await orderFor();
    h.simulator.setFaults({ graphqlThrottledRate: 0.4, http429Rate: 0.2, http5xxRate: 0.2, seed: 5 });
    try {
      await h.simulator.orderPaid(shop, order, h.webhookAddress);
      const row = await untilStatus(gid, 'completed');
      const writes = h.simulator.calls().filter((c) => c.shop === shop && c.operation === 'metafieldsSet');
      expect(writes.at(-1)?.outcome).toBe('ok');
      expect(writes.slice(0, -1).every((c) => ['throttled', 'http_429', 'http_5xx'].includes(c.outcome))).toBe(true);
      expect(writes.length).toBeGreaterThan(1);
      expect(h.simulator.metafields(gid).find((m) => m.key === 'cufe')?.value).toBe(row.cufe);
    } finally {
      h.simulator.setFaults({});
    }
  });

  it('skipped: an order of only gift cards has nothing to invoice and uses no fiscal number', async () => {
    const { shop, gid, id } = await orderFor();
    const order = makePaidOrder({ id, lines: [{ title: 'Tarjeta de regalo', price: 2500, quantity: 1, ratePercent: 0 }] });
    (order.line_items as Record<string, unknown>[])[0]!.gift_card = true;
    await h.simulator.orderPaid(shop, order, h.webhookAddress);
    const row = await untilStatus(gid, 'skipped');
    expect(row).toMatchObject({ fiscalNumber: null, lastErrorKind: null });
    expect(lastErrorText(row)).toMatch(/^Nothing in this order is invoiced: it only contains gift cards or tips/);
    expect(await callsOf(row.id)).toEqual([]);
  });

  it('201 to every document: an incident, waited out (no person needed); issued by itself once it passes', async () => {
    h.sandbox.gateway.setFaults({ rate201: 1 });
    const { shop, gid, order } = await orderFor();
    await h.simulator.orderPaid(shop, order, h.webhookAddress);
    const waiting = await waitFor(
      async () => {
        const row = await invoiceOf(gid);
        return row?.status === 'waiting' && (await callsOf(row.id)).length >= 3 ? row : undefined;
      },
      20_000,
      'the incident to show',
    );
    expect(waiting).toMatchObject({ step: 'send', fiscalNumber: 1, lastErrorKind: null });
    expect(lastErrorText(waiting)).toMatch(/^The provider is answering "error processing the request" \(201\) to every document since /);
    expect(h.simulator.metafields(gid)).toEqual([]);
    h.sandbox.gateway.setFaults({});
    const row = await untilStatus(gid, 'completed');
    expect(row.fiscalNumber).toBe(1);
    expect((await callsOf(row.id)).slice(-2)).toEqual(['SendDocument:authorized:200', 'DownloadPDF:pdf:200']);
  });

  it('an item past the DGI widths needs attention without taking a number; the next order gets number 1', async () => {
    const { shop, gid, id } = await orderFor();
    const huge = makePaidOrder({ id, lines: [{ title: 'Yate', price: 100_000_000_000, quantity: 1, ratePercent: 0 }] });
    await h.simulator.orderPaid(shop, huge, h.webhookAddress);
    const row = await untilStatus(gid, 'needs_attention');
    expect(row).toMatchObject({ fiscalNumber: null, cufe: null });
    expect(row.problems).toEqual([{ code: 'amount_too_large', params: {}, path: 'line_items' }]);
    expect(await callsOf(row.id)).toEqual([]);
    const next = ++orderId;
    await h.simulator.orderPaid(shop, makePaidOrder({ id: next }), h.webhookAddress);
    expect((await untilStatus(`gid://shopify/Order/${next}`, 'completed')).fiscalNumber).toBe(1);
  });

  it('rejected: a 109 needs attention at once with the field named; a retry after the fix authorizes', async () => {
    h.sandbox.gateway.setExtraRequiredClientFields(['telephone1']);
    try {
      const { shop, gid, order } = await orderFor();
      await h.simulator.orderPaid(shop, order, h.webhookAddress);
      const row = await untilStatus(gid, 'needs_attention');
      expect(row).toMatchObject({ lastErrorKind: 'rejected', lastErrorCode: '109', fiscalNumber: 1, attempts: 1 });
      expect(lastErrorText(row)).toBe(
        'The gateway rejected the invoice (code 109): field "telephone1" is required. Complete it in Settings or on the order, then retry.',
      );
      expect(await callsOf(row.id)).toEqual(['SendDocument:rejected:109']);

      h.sandbox.gateway.setExtraRequiredClientFields([]);
      expect(await retryInvoices(database.db, { ids: [row.id] })).toBe(1);
      const done = await untilStatus(gid, 'completed');
      expect(done.fiscalNumber).toBe(1);
      // A retry of a completed invoice changes nothing.
      expect(await retryInvoices(database.db, { ids: [row.id] })).toBe(0);
    } finally {
      h.sandbox.gateway.setExtraRequiredClientFields([]);
    }
  });

  it('credentials: a 101 pauses the shop; saving correct credentials resumes it and the invoice is authorized', async () => {
    const shop0 = `tienda-outcome-${shopCount + 1}.myshopify.com`;
    const { shop, gid, order } = await orderFor({ credentials: { ...credentialsFor(shop0), Token: 'bad-token' } });
    await h.simulator.orderPaid(shop, order, h.webhookAddress);
    const paused = await waitFor(
      async () =>
        lastErrorText({ lastError: (await database.db.select().from(shops).where(eq(shops.shop, shop)))[0]?.pausedReason }) ?? undefined,
      20_000,
      'the shop to pause',
    );
    expect(paused).toMatch(/^The gateway refused the shop's invoicing credentials \("Token de emisor invalido\."\)/);
    // The shop is paused first, then the invoice records why it waits.
    const waiting = await waitFor(
      async () => {
        const row = await invoiceOf(gid);
        return row?.lastErrorKind ? row : undefined;
      },
      20_000,
      'the invoice to record the refusal',
    );
    expect(waiting).toMatchObject({ status: 'pending', lastErrorKind: 'credentials', lastErrorCode: '101' });
    expect(JSON.stringify(await database.db.select().from(gatewayCalls))).not.toContain('bad-token');

    const current = await h.app.shops.get(shop);
    await h.app.shops.saveSettings(shop, { ...current!.settings, credentials: credentialsFor(shop) });
    const done = await untilStatus(gid, 'completed');
    expect(done.fiscalNumber).toBe(1);
    expect(await callsOf(done.id)).toEqual(['SendDocument:credentials:101', 'SendDocument:authorized:200', 'DownloadPDF:pdf:200']);
  });

  it('unavailable: 5xx answers are retried with backoff, then authorized', async () => {
    h.sandbox.gateway.setFaults({ rate5xx: 1 });
    const { shop, gid, order } = await orderFor();
    await h.simulator.orderPaid(shop, order, h.webhookAddress);
    await waitFor(async () => (await invoiceOf(gid))?.attempts === 2, 20_000, 'two failed attempts');
    h.sandbox.gateway.setFaults({});
    const row = await untilStatus(gid, 'completed');
    const calls = await callsOf(row.id);
    expect(calls.slice(0, 2)).toEqual(['SendDocument:unavailable:-', 'SendDocument:unavailable:-']);
    expect(calls.slice(-2)).toEqual(['SendDocument:authorized:200', 'DownloadPDF:pdf:200']);
    expect(h.sandbox.gateway.documents().filter((d) => d.company === shop)).toHaveLength(1);
  });

  it('unavailable: a dropped connection is retried, then authorized once', async () => {
    h.sandbox.gateway.setFaults({ rateDrop: 1 });
    const { shop, gid, order } = await orderFor();
    await h.simulator.orderPaid(shop, order, h.webhookAddress);
    await waitFor(async () => ((await invoiceOf(gid))?.attempts ?? 0) >= 1, 20_000, 'a failed attempt');
    h.sandbox.gateway.setFaults({});
    const row = await untilStatus(gid, 'completed');
    expect((await callsOf(row.id))[0]).toBe('SendDocument:unavailable:-');
    expect(h.sandbox.gateway.documents().filter((d) => d.company === shop)).toHaveLength(1);
  });

  it('indeterminate: authorized, then answered too late — reconciled without a second invoice', async () => {
    // One late answer only: clearing the fault after the first attempt would race the retry's 10-20 ms backoff.
    h.sandbox.gateway.setFaults({ rateAuthorizeThenLate: 1, lateMs: 2500, maxFaults: 1 });
    const { shop, gid, order } = await orderFor();
    await h.simulator.orderPaid(shop, order, h.webhookAddress);
    const row = await untilStatus(gid, 'completed');
    const issued = h.sandbox.gateway.documents().filter((d) => d.company === shop);
    expect(issued).toHaveLength(1);
    expect(row.cufe).toBe(issued[0]!.cufe);
    expect(row.fiscalNumber).toBe(1);
    expect(row.qr).toBe(`https://dgi-fep-test.mef.gob.pa:40001/Consultas/FacturasPorCUFE?CUFE=${row.cufe}`);
    expect(lastErrorText({ lastError: row.notice })).toBe(
      'Recovered after a lost answer: the gateway had already authorized number 0000-001-0000000001; CUFE read from its PDF.',
    );
    expect(await callsOf(row.id)).toEqual([
      'SendDocument:indeterminate:-',
      'SendDocument:duplicate:102',
      'StatusDocument:authorized:200',
      'DownloadPDF:pdf:200',
    ]);
    const fields = Object.fromEntries(h.simulator.metafields(gid).map((m) => [m.key, m.value]));
    expect(fields.cufe).toBe(row.cufe);
    expect(fields.qr_url).toBe(row.qr);
    // No protocol number came back: that metafield is left off, not written blank.
    expect(Object.keys(fields).sort()).toEqual(['authorized_at', 'buyer_url', 'cufe', 'fiscal_number', 'pdf_url', 'qr_url']);
  });

  it('duplicate after a failed attempt: another invoice under the number is not adopted; the invoice says so plainly', async () => {
    h.sandbox.gateway.setFaults({ rate5xx: 1 });
    const { shop, gid, order } = await orderFor();
    await h.simulator.orderPaid(shop, order, h.webhookAddress);
    await waitFor(async () => ((await invoiceOf(gid))?.attempts ?? 0) >= 1, 20_000, 'a failed attempt');
    // Between our attempts, someone else issues number 1 for a different amount (past the faults, which stay until it
    // is filed: our next attempt, which resends at once, must not land while it is being issued).
    const outside = await h.sandbox.gateway.call('SendDocument', { ...(await exampleRequest('0000000001')), Company: shop });
    expect(outside.code).toBe('200');
    h.sandbox.gateway.setFaults({});
    const row = await untilStatus(gid, 'needs_attention');
    expect(row).toMatchObject({ lastErrorKind: 'unrecoverable', lastErrorCode: '102', fiscalNumber: 1, cufe: null });
    expect(lastErrorText(row)).toBe(
      "The gateway says fiscal number 0000-001-0000000001 is already issued, and it may be this order's invoice, but its CUFE could not be recovered from the gateway. Look the number up in the provider's portal before doing anything else; do not retry blindly.",
    );
    expect((await callsOf(row.id)).slice(-3)).toEqual([
      'SendDocument:duplicate:102',
      'StatusDocument:authorized:200',
      'DownloadPDF:pdf:200',
    ]);
    expect(h.simulator.metafields(gid)).toEqual([]);
  });

  it('duplicate: a number used outside the app is skipped with a recorded reason', async () => {
    const { shop, gid, order } = await orderFor();
    // Someone else issues number 1 at this branch and point first (e.g. the provider's own portal).
    const outside = await h.sandbox.gateway.call('SendDocument', { ...(await exampleRequest('0000000001')), Company: shop });
    expect(outside.code).toBe('200');
    await h.simulator.orderPaid(shop, order, h.webhookAddress);
    const row = await untilStatus(gid, 'completed');
    expect(row.fiscalNumber).toBe(2);
    expect(lastErrorText({ lastError: row.notice })).toBe(
      'Fiscal number 0000-001-0000000001 was already used outside this app; the app skipped it and used the next number.',
    );
    const skips = await database.db
      .select()
      .from(fiscalSkips)
      .where(and(eq(fiscalSkips.shop, shop)));
    expect(skips.map((s) => [s.number, s.reason, s.documentId])).toEqual([
      [1, 'gateway answered 102 for a number this app had not sent: used outside the app', row.id],
    ]);
    // The number is confirmed taken (StatusDocument) before it is skipped.
    expect(await callsOf(row.id)).toEqual([
      'SendDocument:duplicate:102',
      'StatusDocument:authorized:200',
      'SendDocument:authorized:200',
      'DownloadPDF:pdf:200',
    ]);
  });
});

async function exampleRequest(number: string) {
  const fs = await import('node:fs');
  const request = JSON.parse(fs.readFileSync(new URL('../../fixtures/gateway/send-document-example.json', import.meta.url), 'utf8'));
  request.document.dataTransaction.numberDocumentFiscal = number;
  return request;
}
