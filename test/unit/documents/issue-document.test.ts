// The use case alone: one step of one claimed document against fakes of its ports (no HTTP, no database). Each test
// names the gateway answer, step or draft outcome it is about, and checks the transition returned and every call
// made, in order.
import { createHash } from 'node:crypto';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../mappers/fiscal/canonical-json.ts';
import type { GatewayDocument } from '../../../mappers/gateway/gateway-document.ts';
import { issueStep } from '../../../src/documents/issue-document.ts';
import type { Transition } from '../../../src/documents/issuing-ports.ts';
import type { DocumentRow } from '../../../src/documents/store/index.ts';
import { render } from '../../../src/messages/catalogue.ts';
import type { Message } from '../../../src/messages/message.ts';
import {
  APP_URL,
  AUTHORIZED,
  CLAIMED_AT,
  CREDENTIALS,
  CUFE,
  DOCUMENT_KEY,
  SHOP,
  answers,
  authorizedInvoice,
  claimedInvoice,
  gatewayPdf,
  issuingShop,
  orderBody,
  sentDocument,
  sentInvoice,
} from '../../support/issuing-factories.ts';
import { type IssuingWorld, issuingWorld } from '../../support/issuing-fakes.ts';
import { readOrderFixture } from '../../support/order-fixtures.ts';

const NUMBER = '0000-001-0000000042';
const NUMBERING = { branchCode: '0000', billingPoint: '001' };

/** The document's hash as the use case keeps it: the document without its broadcast time. */
function hashOf(document: GatewayDocument): string {
  const { dateBroadcast: _d, ...data } = document.dataTransaction;
  return createHash('sha256')
    .update(canonicalJson({ ...document, dataTransaction: data }))
    .digest('hex');
}

/** The order confirmed through the shop's own Admin API (no B2B company, no customer metafield asked for). */
const confirmCall = [
  'shopify.confirmOrder',
  SHOP,
  expect.stringMatching(/^gid:\/\/shopify\/Order\/\d+$/),
  { company: false, metafield: null },
];

/**
 * The journal of a send: the order confirmed (unless told), a number reserved (unless the document has one), then
 * marked and sent in one slot. A taxpayer's RUC came from the cart attributes (the fixtures').
 */
function sendCalls(document: GatewayDocument, o: { reserve: boolean; confirm?: boolean }) {
  const taxIdSource = document.dataTransaction.client.typeClientEB === '01' ? 'cart_attributes' : null;
  return [
    ...(o.confirm === false ? [] : [confirmCall]),
    ...(o.reserve ? [['store.reserveNumber', NUMBERING]] : []),
    ['slot.take'],
    [
      'store.markSending',
      { sendMayHaveReached: true, document, documentHash: hashOf(document), environment: 'pruebas', problems: null, taxIdSource },
    ],
    ['gateway.SendDocument', { credentials: CREDENTIALS, environment: 'pruebas', document }],
    ['slot.release'],
  ];
}

const inSlot = (call: unknown[]) => [['slot.take'], call, ['slot.release']];
const statusCall = ['gateway.StatusDocument', { credentials: CREDENTIALS, key: DOCUMENT_KEY }];
const pdfCall = ['gateway.DownloadPDF', { credentials: CREDENTIALS, key: DOCUMENT_KEY }];

/** The gateway refused the credentials: the shop's queue pauses. */
const PAUSED = {
  kind: 'pause_shop',
  error: { kind: 'credentials', code: '101', message: { key: 'credentials', params: { gatewayMessage: 'Credenciales inválidas' } } },
};
/** Retried automatically, for this reason. */
const retried = (kind: string, key: string, params: Record<string, string>) => ({
  kind: 'retry',
  error: { kind, code: undefined, message: { key, params } },
});

/** The same JSON value with every object's keys in reverse order. */
function reordered<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reordered) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reordered(v)]),
  ) as T;
}

/** Every message a transition carries must have its text in the catalogue, in both languages. */
function expectCatalogued(t: Transition): void {
  const messages: (Message | undefined)[] = [
    'error' in t ? t.error.message : undefined,
    'reason' in t && typeof t.reason === 'object' ? t.reason : undefined,
    'patch' in t ? (t.patch?.notice as Message | undefined) : undefined,
  ];
  for (const m of messages.filter((m) => m !== undefined)) {
    for (const language of ['es', 'en'] as const) expect(render(m, language)).not.toBe(`${m.key} ${JSON.stringify(m.params)}`);
  }
}

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

describe('send: what each SendDocument answer leads to', () => {
  const claimed = () => claimedInvoice(orderBody('tax-exclusive'));
  const document = sentDocument('tax-exclusive');

  it('authorized: numbered, marked as possibly sent, sent once; on to the PDF with the CUFE, QR and protocol', async () => {
    world.gateway.send.push(answers.authorized());
    const out = await step(claimed());
    expect(out.next).toStrictEqual({
      kind: 'advance',
      to: 'pdf',
      patch: {
        cufe: CUFE,
        qr: AUTHORIZED.qr,
        protocol: '20261120103000000001',
        receptionDateDgi: '2026-11-20T10:30:00-05:00',
        authorizedAt: CLAIMED_AT,
      },
      authorizedInvoice: true,
    });
    expect(world.journal).toEqual(sendCalls(document, { reserve: true }));
    expect(document.dataTransaction).toMatchObject({ numberDocumentFiscal: '0000000042', pointBillingFiscal: '001' });
    expect(document.totalsSubTotals.totalInvoice).toBe('105.93');
    // The document in hand is the one the store now holds: numbered and sent.
    expect(out.doc).toStrictEqual({
      ...claimed(),
      ...NUMBERING,
      fiscalNumber: 42,
      environment: 'pruebas',
      sendMayHaveReached: true,
      document,
      documentHash: hashOf(document),
      problems: null,
    });
  });

  const error201 = {
    kind: 'rejected',
    code: '201',
    message: { key: 'rejected', params: { code: '201', gatewayMessage: 'Error de procesamiento', document: 'invoice' } },
  };

  // Each: the answer, and what it leads to. The calls are the same for all: numbered, marked, sent once.
  it.each([
    [
      'duplicate (102) for a number never sent before: used elsewhere, skip it',
      answers.duplicate(),
      { kind: 'skip_number', number: NUMBER },
    ],
    [
      'rejected 109: a person completes the named field',
      answers.rejected('109', 'numberRUC'),
      {
        kind: 'attention',
        error: {
          kind: 'rejected',
          code: '109',
          message: {
            key: 'rejected',
            params: { code: '109', gatewayMessage: 'field numberRUC is required', document: 'invoice', field: 'numberRUC' },
          },
        },
      },
    ],
    ['201 the first time: retried (it may be a passing fault)', answers.rejected('201'), { kind: 'retry', error: error201 }],
    ["credentials (101): the shop's queue pauses", answers.credentials(), PAUSED],
    ['unavailable: retried, nothing was issued', answers.unavailable(), retried('unavailable', 'unavailable', { reason: 'HTTP 503' })],
    [
      'indeterminate: retried as possibly issued',
      answers.indeterminate(),
      retried('indeterminate', 'indeterminate', { reason: 'no answer within 30000 ms' }),
    ],
  ])('%s', async (_name, answer, transition) => {
    world.gateway.send.push(answer);
    const out = await step(claimed());
    expect(out.next).toStrictEqual(transition);
    expect(world.journal).toEqual(sendCalls(document, { reserve: true }));
    // Whatever the answer, the document keeps its number and the mark that it may have been sent.
    expect(out.doc).toMatchObject({ fiscalNumber: 42, sendMayHaveReached: true });
  });

  it('201 again for the same document (sent again a minute later, as it was): a person looks; for another document: retried', async () => {
    world.gateway.send.push(answers.rejected('201'));
    const first = await step(claimed());
    // As the runner saves a retry: the error's code on the document, which keeps its number and hash; read back with
    // its keys in another order (PostgreSQL's jsonb sorts them), still the same document.
    const retried = {
      ...first.doc,
      document: reordered(first.doc.document),
      attempts: 1,
      lastErrorKind: 'rejected' as const,
      lastErrorCode: '201',
      lastError: error201.message,
    };
    expect(JSON.stringify(retried.document)).not.toBe(JSON.stringify(document));
    world = issuingWorld();
    world.clock.now = new Date(CLAIMED_AT.getTime() + 60_000);
    world.gateway.send.push(answers.rejected('201'), answers.rejected('201'));
    expect((await step(retried)).next).toStrictEqual({ kind: 'attention', error: error201 });
    expect((await step({ ...retried, documentHash: hashOf(sentDocument('tax-inclusive')) })).next).toStrictEqual({
      kind: 'retry',
      error: error201,
    });
    // The document it may have reached the gateway with, not a new one of a minute later.
    expect(world.journal).toEqual([
      ...sendCalls(document, { reserve: false, confirm: false }),
      ...sendCalls(document, { reserve: false, confirm: false }),
    ]);
  });
});

describe('send: a document that may be at the gateway goes again as it was', () => {
  // After a lost answer or a kill, a second draft would carry another issue date (and a note, maybe other lines
  // mapped against notes saved since): the gateway would answer 102 for the number and keep the first, while the
  // app kept the second — and a note referencing the invoice would name a date the gateway does not know.
  it('an invoice sent an hour later: same content and issue date, nothing read or mapped again, no new number', async () => {
    world.clock.now = new Date(CLAIMED_AT.getTime() + 3_600_000);
    world.gateway.send.push(answers.authorized());
    const out = await step(sentInvoice('taxpayer-client'));
    const first = sentDocument('taxpayer-client');
    expect(first.dataTransaction.dateBroadcast).toBe('2026-11-20T10:30:00-05:00');
    expect(out.next).toMatchObject({ kind: 'advance', to: 'pdf', patch: { cufe: CUFE } });
    expect(world.journal).toEqual(sendCalls(first, { reserve: false, confirm: false }));
  });

  it('a credit note: sent as it was, without mapping it again against the notes saved since (no stale check)', async () => {
    const note = sentDocument('tax-exclusive');
    world.clock.now = new Date(CLAIMED_AT.getTime() + 60_000);
    world.gateway.send.push(answers.authorized());
    const doc = sentInvoice('tax-exclusive', {
      kind: 'credit_note',
      documentType: '04',
      sourceKey: 'gid://shopify/Refund/1',
      document: note,
    });
    const out = await step(doc);
    expect(out.next).toMatchObject({ kind: 'advance', to: 'pdf' });
    expect(world.journal).toEqual([
      ['slot.take'],
      [
        'store.markSending',
        {
          sendMayHaveReached: true,
          document: note,
          documentHash: hashOf(note),
          environment: 'pruebas',
          problems: null,
          taxIdSource: null,
          totalCents: doc.totalCents,
        },
      ],
      ['gateway.SendDocument', { credentials: CREDENTIALS, environment: 'pruebas', document: note }],
      ['slot.release'],
    ]);
  });

  it('a person asked for a fresh read (Retry after a fix): the order is read and mapped again, on the first date', async () => {
    const fresh = readOrderFixture('taxpayer-client');
    world.shopify.readOrder = { ok: true, data: { text: JSON.stringify(fresh), json: fresh } };
    world.clock.now = new Date(CLAIMED_AT.getTime() + 60_000);
    world.gateway.send.push(answers.authorized());
    const doc = sentInvoice('taxpayer-client', { refreshSnapshot: true });
    await step(doc);
    // Mapped again (the order read, confirmed), but still the emission the gateway may hold under this number: its date.
    expect(world.journal).toEqual([
      ['shopify.readOrder', SHOP, doc.orderGid],
      ['store.update', { snapshot: fresh, refreshSnapshot: false }],
      ...sendCalls(sentDocument('taxpayer-client'), { reserve: false }),
    ]);
    expect(sentDocument('taxpayer-client').dataTransaction.dateBroadcast).toBe('2026-11-20T10:30:00-05:00');
  });
});

describe('send: a 102 after an attempt that may have reached the gateway is reconciled', () => {
  // taxpayer-client: 66.88, the PDF's total.
  const document = sentDocument('taxpayer-client');
  const unrecoverable = {
    kind: 'attention',
    error: { kind: 'unrecoverable', code: '102', message: { key: 'unrecoverable', params: { number: NUMBER, document: 'invoice' } } },
  };
  let ours: Buffer;
  let another: Buffer;
  beforeAll(async () => {
    ours = await gatewayPdf(document);
    // The same number printed for another document (another total): someone else's.
    another = await gatewayPdf(sentDocument('tax-inclusive'));
  });

  it('status authorized and a PDF showing our total: adopted, with the DGI look-up as QR and a notice', async () => {
    world.gateway.send.push(answers.duplicate());
    world.gateway.status.push(answers.statusAuthorized());
    world.gateway.pdf.push(answers.pdf(ours));
    const out = await step(sentInvoice('taxpayer-client'));
    expect(out.next).toStrictEqual({
      kind: 'advance',
      to: 'writeback',
      pdf: ours,
      patch: {
        cufe: CUFE,
        qr: `https://dgi-fep-test.mef.gob.pa:40001/Consultas/FacturasPorCUFE?CUFE=${CUFE}`,
        protocol: null,
        authorizedAt: CLAIMED_AT,
        notice: { key: 'recovered_after_lost_answer', params: { number: NUMBER } },
      },
      authorizedInvoice: true,
    });
    expect(world.journal).toEqual([...sendCalls(document, { reserve: false, confirm: false }), ...inSlot(statusCall), ...inSlot(pdfCall)]);
  });

  it('status other than authorized: unrecoverable, no PDF asked for', async () => {
    world.gateway.send.push(answers.duplicate());
    world.gateway.status.push(answers.statusOther());
    expect((await step(sentInvoice('taxpayer-client'))).next).toStrictEqual(unrecoverable);
    expect(world.journal).toEqual([...sendCalls(document, { reserve: false, confirm: false }), ...inSlot(statusCall)]);
  });

  it('PDF not found: unrecoverable', async () => {
    world.gateway.send.push(answers.duplicate());
    world.gateway.status.push(answers.statusAuthorized());
    world.gateway.pdf.push(answers.pdfNotFound());
    expect((await step(sentInvoice('taxpayer-client'))).next).toStrictEqual(unrecoverable);
    expect(world.journal).toEqual([...sendCalls(document, { reserve: false, confirm: false }), ...inSlot(statusCall), ...inSlot(pdfCall)]);
  });

  it("a PDF without this document's total (or without a CUFE): unrecoverable", async () => {
    world.gateway.send.push(answers.duplicate(), answers.duplicate());
    world.gateway.status.push(answers.statusAuthorized(), answers.statusAuthorized());
    world.gateway.pdf.push(answers.pdf(another), answers.pdf(Buffer.from('not a PDF')));
    expect((await step(sentInvoice('taxpayer-client'))).next).toStrictEqual(unrecoverable);
    expect((await step(sentInvoice('taxpayer-client'))).next).toStrictEqual(unrecoverable);
    const once = [...sendCalls(document, { reserve: false, confirm: false }), ...inSlot(statusCall), ...inSlot(pdfCall)];
    expect(world.journal).toEqual([...once, ...once]);
  });

  it('the status or PDF call refused or unanswered: the shop pauses, or the document retries as indeterminate', async () => {
    const indeterminate = retried('indeterminate', 'indeterminate', { reason: 'HTTP 503' });
    world.gateway.send.push(answers.duplicate(), answers.duplicate(), answers.duplicate(), answers.duplicate());
    world.gateway.status.push(answers.credentials(), answers.unavailable(), answers.statusAuthorized(), answers.statusAuthorized());
    world.gateway.pdf.push(answers.credentials(), answers.unavailable());
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push((await step(sentInvoice('taxpayer-client'))).next);
    expect(outcomes).toStrictEqual([PAUSED, indeterminate, PAUSED, indeterminate]);
  });
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

  it('marking the document as possibly sent: lost, SendDocument never called', async () => {
    world.store.leaseLostAtWrite = 2;
    const out = await step(claimedInvoice(orderBody('tax-exclusive')));
    expect(out.next).toStrictEqual({ kind: 'lost' });
    expect(world.journal).toEqual(
      sendCalls(sentDocument('tax-exclusive'), { reserve: true }).filter(([op]) => op !== 'gateway.SendDocument'),
    );
  });
});

describe('pdf: what each DownloadPDF answer leads to', () => {
  const doc = authorizedInvoice('tax-exclusive', 'pdf');

  it('pdf: on to the write-back with the bytes', async () => {
    const bytes = Buffer.from('%PDF-1.7 factura 0000-001-0000000042');
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
