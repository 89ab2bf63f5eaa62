// The use case alone, past the gateway's answers: the draft deciding first, the order confirmed through its shop's
// Admin API, the lease lost, then the pdf, writeback and done steps, against fakes of its ports (no HTTP, no
// database). Each test checks the transition returned and every call made, in order.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayDocument } from '../../../mappers/gateway/gateway-document.ts';
import { issueStep } from '../../../src/documents/issue-document.ts';
import type { DocumentRow } from '../../../src/documents/store/index.ts';
import {
  APP_URL,
  AUTHORIZED,
  CLAIMED_AT,
  CUFE,
  SHOP,
  answers,
  authorizedInvoice,
  claimedInvoice,
  issuingShop,
  orderBody,
  sentDocument,
  gatewayPdf,
} from '../../support/issuing-factories.ts';
import { type IssuingWorld, issuingWorld } from '../../support/issuing-fakes.ts';
import { readOrderFixture } from '../../support/order-fixtures.ts';
import {
  NUMBER,
  NUMBERING,
  PAUSED,
  confirmCall,
  expectCatalogued,
  inSlot,
  pdfCall,
  retried,
  sendCalls,
} from '../../support/issuing-journal.ts';

let world: IssuingWorld;
const step = async (doc: DocumentRow, shop = issuingShop()) => {
  const outcome = await issueStep(doc, shop, world.deps);
  expectCatalogued(outcome.next);
  return outcome;
};

beforeEach(() => {
  world = issuingWorld();
});
afterEach(() => {
  // Strict gateway: every answer a test queued was asked for.
  expect(world.unused()).toEqual([]);
});

describe('send: the draft decides first', () => {
  it('a test order in production: skipped, nothing asked of anyone', async () => {
    const doc = claimedInvoice(orderBody('discounted-shipping'));
    expect(doc.test).toBe(true);
    const out = await step(doc, issuingShop({ environment: 'produccion' }));
    expect(out).toStrictEqual({ doc, next: { kind: 'skipped', reason: { key: 'test_order_in_production', params: {} } } });
    expect(world.journal).toEqual([]);
  });

  it('gift cards only: skipped, nothing to invoice, no number reserved', async () => {
    const giftCardsOnly = orderBody('gift-card-line', (o) => {
      o.line_items = (o.line_items as { gift_card: boolean }[]).filter((l) => l.gift_card);
    });
    const out = await step(claimedInvoice(giftCardsOnly));
    expect(out.next).toStrictEqual({
      kind: 'skipped',
      reason: { key: 'nothing_to_invoice', params: {} },
      problems: [{ code: 'nothing_to_invoice', params: {} }],
    });
    expect(world.journal).toEqual([confirmCall]);
  });

  it('mapping problems: a person looks, the first problem is the reason, all are kept, no number reserved', async () => {
    const inEuros = orderBody('unknown-rate', (o) => {
      o.currency = 'EUR';
    });
    const out = await step(claimedInvoice(inEuros));
    expect(out.next).toStrictEqual({
      kind: 'attention',
      error: { kind: 'mapping', code: undefined, message: { key: 'unsupported_currency', params: { currency: 'EUR' } } },
      problems: [
        { code: 'unsupported_currency', params: { currency: 'EUR' }, path: 'currency' },
        { code: 'unsupported_tax_rate', params: { rate: '8', what: 'Audífonos inalámbricos' }, path: 'line_items[0].tax_lines' },
      ],
    });
    expect(world.journal).toEqual([confirmCall]);
  });

  it('refresh asked for: the order is read again and saved, and the fresh one is what is sent', async () => {
    // Stored without the buyer's RUC (added in Shopify since): the fresh order makes a taxpayer's invoice.
    const stale = orderBody('taxpayer-client', (o) => {
      o.note_attributes = [];
    });
    const fresh = readOrderFixture('taxpayer-client');
    const document = sentDocument('taxpayer-client');
    expect(document.dataTransaction.client.numberRUC).toBe('155596713-2-2015');
    const doc = claimedInvoice(stale, { refreshSnapshot: true });
    world.shopify.readOrder = { ok: true, data: { text: JSON.stringify(fresh), json: fresh } };
    world.gateway.send.push(answers.authorized());
    const out = await step(doc);
    expect(out.next.kind).toBe('advance');
    expect(out.doc).toMatchObject({ snapshot: fresh, refreshSnapshot: false, fiscalNumber: 42 });
    expect(world.journal).toEqual([
      ['shopify.readOrder', SHOP, doc.orderGid],
      ['store.update', { snapshot: fresh, refreshSnapshot: false }],
      ...sendCalls(document, { reserve: true }),
    ]);
  });

  it('refresh: an order this shop does not have needs a person (order_unconfirmed); a failed read retries or asks', async () => {
    const doc = claimedInvoice(orderBody('tax-exclusive'), { refreshSnapshot: true });
    const unconfirmed = (detail: string) => ({
      kind: 'attention',
      error: { kind: 'order_unconfirmed', code: undefined, message: { key: 'order_unconfirmed', params: { detail } } },
    });
    world.shopify.readOrder = { ok: true, data: null };
    expect((await step(doc)).next).toStrictEqual(unconfirmed('Shopify has no such order in this shop'));
    world.shopify.readOrder = { ok: false, retryable: true, message: 'HTTP 503' };
    expect((await step(doc)).next).toStrictEqual(retried('unavailable', 'unavailable', { reason: 'Shopify, reading the order: HTTP 503' }));
    world.shopify.readOrder = { ok: false, retryable: false, message: 'ACCESS_DENIED' };
    expect((await step(doc)).next).toStrictEqual(unconfirmed('reading the order: ACCESS_DENIED'));
    expect(world.journal).toEqual(Array(3).fill(['shopify.readOrder', SHOP, doc.orderGid]));
  });

  it('several gateways paid the order: its transactions are read and give the payment forms', async () => {
    const doc = claimedInvoice(orderBody('several-gateways'));
    const document = sentDocument('several-gateways');
    world.shopify.orderTransactions = { ok: true, data: readOrderFixture('several-gateways.transactions') as unknown[] };
    world.gateway.send.push(answers.authorized());
    await step(doc);
    expect(document.totalsSubTotals.listFormPayment).toEqual([
      { formPaymentInvoice: '08', valueFeePaid: '200.00' },
      { formPaymentInvoice: '02', valueFeePaid: '163.80' },
    ]);
    expect(world.journal).toEqual([
      confirmCall,
      ['shopify.orderTransactions', SHOP, doc.orderGid],
      ...sendCalls(document, { reserve: true, confirm: false }),
    ]);
  });

  it("several gateways: a failed read of the transactions retries; unreadable ones are the order's problem", async () => {
    const doc = claimedInvoice(orderBody('several-gateways'));
    world.shopify.orderTransactions = { ok: false, retryable: true, message: 'THROTTLED' };
    expect((await step(doc)).next).toStrictEqual(
      retried('unavailable', 'unavailable', { reason: "Shopify, reading the order's payments: THROTTLED" }),
    );
    world.shopify.orderTransactions = { ok: true, data: [{ gateway: 'Bank Deposit', kind: 'SALE' }] };
    const unreadable = (await step(doc)).next;
    expect(unreadable).toMatchObject({ kind: 'attention', error: { kind: 'mapping', message: { key: 'order_unreadable' } } });
    expect(world.journal).toEqual(
      Array(2)
        .fill([confirmCall, ['shopify.orderTransactions', SHOP, doc.orderGid]])
        .flat(),
    );
  });
});

describe("send: the order confirmed through its own shop's Admin API", () => {
  it('an order the shop does not have (a body signed for another shop): discarded, nothing reserved or sent', async () => {
    world.shopify.confirmOrder = { ok: true, data: null };
    const out = await step(claimedInvoice(orderBody('tax-exclusive')));
    expect(out.next).toStrictEqual({ kind: 'discard', reason: 'the shop has no such order (a body signed for another shop?)' });
    expect(world.journal).toEqual([confirmCall]);
  });

  it('Shopify not answering: retried; refusing (a missing scope): a person looks, nothing reserved', async () => {
    world.shopify.confirmOrder = { ok: false, retryable: true, message: 'HTTP 503' };
    expect((await step(claimedInvoice(orderBody('tax-exclusive')))).next).toStrictEqual(
      retried('unavailable', 'unavailable', { reason: 'Shopify, confirming the order: HTTP 503' }),
    );
    world.shopify.confirmOrder = { ok: false, retryable: false, message: 'Access denied for purchasingEntity field.' };
    expect((await step(claimedInvoice(orderBody('tax-exclusive')))).next).toStrictEqual({
      kind: 'attention',
      error: {
        kind: 'order_unconfirmed',
        code: undefined,
        message: { key: 'order_unconfirmed', params: { detail: 'confirming the order: Access denied for purchasingEntity field.' } },
      },
    });
    expect(world.journal).toEqual([confirmCall, confirmCall]);
  });

  it("a B2B order: the company location's tax id is asked for and makes the taxpayer, its source recorded", async () => {
    const b2b = orderBody('tax-exclusive', (o) => {
      o.company = { id: 7100000001, location_id: 7200000001 };
    });
    world.shopify.confirmOrder = {
      ok: true,
      data: { company: { name: 'Importadora Ejemplo, S.A.', taxId: '155646463-2-2017 DV 86' }, customerMetafield: undefined },
    };
    world.gateway.send.push(answers.authorized());
    const out = await step(claimedInvoice(b2b));
    expect(out.doc.taxIdSource).toBe('b2b_company');
    expect((out.doc.document as GatewayDocument).dataTransaction.client).toMatchObject({
      numberRUC: '155646463-2-2017',
      digitCheckRUC: '86',
    });
    expect(world.journal[0]).toEqual(['shopify.confirmOrder', SHOP, out.doc.orderGid, { company: true, metafield: null }]);
  });
});

describe('send: the lease lost wherever the store writes', () => {
  it('saving the refreshed order: lost, nothing reserved or sent', async () => {
    const doc = claimedInvoice(orderBody('tax-exclusive'), { refreshSnapshot: true });
    const fresh = readOrderFixture('tax-exclusive');
    world.shopify.readOrder = { ok: true, data: { text: JSON.stringify(fresh), json: fresh } };
    world.store.leaseLostAtWrite = 1;
    expect((await step(doc)).next).toStrictEqual({ kind: 'lost' });
    expect(world.journal).toEqual([
      ['shopify.readOrder', SHOP, doc.orderGid],
      ['store.update', { snapshot: fresh, refreshSnapshot: false }],
    ]);
  });

  it('reserving the number: lost, nothing sent', async () => {
    world.store.leaseLostAtWrite = 1;
    expect((await step(claimedInvoice(orderBody('tax-exclusive')))).next).toStrictEqual({ kind: 'lost' });
    expect(world.journal).toEqual([confirmCall, ['store.reserveNumber', NUMBERING]]);
  });

  it('marking the document as possibly sent: lost, no slot taken, SendDocument never called', async () => {
    world.store.leaseLostAtWrite = 2;
    const out = await step(claimedInvoice(orderBody('tax-exclusive')));
    expect(out.next).toStrictEqual({ kind: 'lost' });
    const beforeTheSlot = sendCalls(sentDocument('tax-exclusive'), { reserve: true }).slice(0, -3);
    expect(beforeTheSlot.at(-1)?.[0]).toBe('store.markSending');
    expect(world.journal).toEqual(beforeTheSlot);
  });
});

describe('pdf: what each DownloadPDF answer leads to', () => {
  const doc = authorizedInvoice('tax-exclusive', 'pdf');

  it('pdf: on to the write-back with the bytes', async () => {
    const bytes = await gatewayPdf(sentDocument('tax-exclusive'));
    world.gateway.pdf.push(answers.pdf(bytes));
    expect((await step(doc)).next).toStrictEqual({ kind: 'advance', to: 'writeback', pdf: bytes, patch: {} });
    expect(world.journal).toEqual(inSlot(pdfCall));
  });

  it('not found or unavailable: retried (the PDF can lag the authorization)', async () => {
    world.gateway.pdf.push(answers.pdfNotFound(), answers.unavailable());
    const missing = (detail: string) => retried('unavailable', 'pdf_missing', { detail });
    expect((await step(doc)).next).toStrictEqual(missing('404 Documento no encontrado'));
    expect((await step(doc)).next).toStrictEqual(missing('HTTP 503'));
    expect(world.journal).toEqual([...inSlot(pdfCall), ...inSlot(pdfCall)]);
  });

  it("credentials: the shop's queue pauses", async () => {
    world.gateway.pdf.push(answers.credentials());
    expect((await step(doc)).next).toStrictEqual(PAUSED);
    expect(world.journal).toEqual(inSlot(pdfCall));
  });
});

describe('writeback: the metafields on the order', () => {
  const doc = authorizedInvoice('tax-exclusive', 'writeback');
  const write = [
    'shopify.writeInvoiceMetafields',
    SHOP,
    doc.orderGid,
    {
      cufe: CUFE,
      qr_url: AUTHORIZED.qr,
      pdf_url: `${APP_URL}/invoices/tok-1.pdf`,
      fiscal_number: NUMBER,
      protocol: '20261120103000000001',
      authorized_at: '2026-11-20T15:30:00.000Z',
      buyer_url: `${APP_URL}/d/buyer-token-of-the-unit-invoice-0123456789a`,
    },
  ];

  it('written: done', async () => {
    world.store.pdfTokens.set(doc.id, 'tok-1');
    expect((await step(doc)).next).toStrictEqual({ kind: 'done', patch: { writtenBackAt: CLAIMED_AT } });
    expect(world.journal).toEqual([['store.pdfToken', doc.id], write]);
  });

  it('a failure Shopify may get over: retried; userErrors: a person looks', async () => {
    world.store.pdfTokens.set(doc.id, 'tok-1');
    world.shopify.writeInvoiceMetafields = { ok: false, retryable: true, message: 'HTTP 502' };
    expect((await step(doc)).next).toStrictEqual(retried('unavailable', 'writeback', { detail: 'HTTP 502' }));
    const userErrors = 'metafields.0.value: Value must be a valid URL (INVALID_VALUE)';
    world.shopify.writeInvoiceMetafields = { ok: false, retryable: false, message: userErrors };
    expect((await step(doc)).next).toStrictEqual({
      kind: 'attention',
      error: { kind: 'writeback', code: undefined, message: { key: 'writeback', params: { detail: userErrors } } },
    });
    expect(world.journal).toEqual([['store.pdfToken', doc.id], write, ['store.pdfToken', doc.id], write]);
  });

  it('no stored PDF: an error, never a step back to download it again; nothing written', async () => {
    await expect(step(doc)).rejects.toThrow(`document ${doc.id} is at writeback without its stored PDF`);
    expect(world.journal).toEqual([['store.pdfToken', doc.id]]);
  });

  it("a credit note: the order's list of completed notes with their PDFs (one read), this one last", async () => {
    const refund = (n: number) => `gid://shopify/Refund/${n}`;
    const note = (id: string, o: Partial<DocumentRow>) =>
      authorizedInvoice('tax-exclusive', 'writeback', { id, kind: 'credit_note', documentType: '04', ...o });
    const earlier = note('00000000-0000-4000-8000-000000000002', { sourceKey: refund(1), fiscalNumber: 41, totalCents: 500 });
    const thisNote = note('00000000-0000-4000-8000-000000000003', { sourceKey: refund(2), fiscalNumber: 42, totalCents: 1050 });
    world.store.completedNotes = [earlier, thisNote];
    world.store.pdfTokens.set(earlier.id, 'tok-41').set(thisNote.id, 'tok-42');
    expect((await step(thisNote)).next).toStrictEqual({ kind: 'done', patch: { writtenBackAt: CLAIMED_AT } });
    const entry = (n: number, refundId: string, amount: string) => ({
      fiscal_number: `0000-001-00000000${n}`,
      cufe: CUFE,
      pdf_url: `${APP_URL}/invoices/tok-${n}.pdf`,
      amount,
      refund_id: refundId,
    });
    expect(world.journal).toEqual([
      ['store.pdfToken', thisNote.id],
      ['store.completedNotes', SHOP, thisNote.orderGid],
      ['shopify.writeCreditNotesMetafield', SHOP, thisNote.orderGid, [entry(41, refund(1), '5.00'), entry(42, refund(2), '10.50')]],
    ]);
  });
});

describe('done', () => {
  it('a document already done stays done, asking nothing', async () => {
    expect((await step(authorizedInvoice('tax-exclusive', 'done'))).next).toStrictEqual({ kind: 'done', patch: {} });
    expect(world.journal).toEqual([]);
  });
});
