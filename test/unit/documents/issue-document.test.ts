// The use case alone: one step of one claimed document against fakes of its ports (no HTTP, no database). Each test
// names the gateway answer, step or draft outcome it is about, and checks the transition returned and every call
// made, in order.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { issueStep } from '../../../src/documents/issue-document.ts';
import type { DocumentRow } from '../../../src/documents/store/index.ts';
import {
  AUTHORIZED,
  CLAIMED_AT,
  CREDENTIALS,
  CUFE,
  DOCUMENT_KEY,
  SHOP,
  answers,
  claimedInvoice,
  gatewayPdf,
  issuingShop,
  orderBody,
  sentDocument,
  sentInvoice,
} from '../../support/issuing-factories.ts';
import { type IssuingWorld, issuingWorld } from '../../support/issuing-fakes.ts';
import { readOrderFixture } from '../../support/order-fixtures.ts';
import { NUMBER, NUMBERING, PAUSED, expectCatalogued, hashOf, inSlot, pdfCall, retried, sendCalls } from '../../support/issuing-journal.ts';

const statusCall = ['gateway.StatusDocument', { credentials: CREDENTIALS, key: DOCUMENT_KEY }];

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
    [
      '201 the first time: retried (it may be a passing fault)',
      answers.rejected('201'),
      { kind: 'retry', error: error201, patch: { repeated201: 1, last201At: CLAIMED_AT } },
    ],
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

  it('201 a third time for the same document while others are authorized: a person looks; for another document: retried', async () => {
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
      repeated201: 2,
      last201At: CLAIMED_AT,
    };
    expect(JSON.stringify(retried.document)).not.toBe(JSON.stringify(document));
    world = issuingWorld();
    const later = new Date(CLAIMED_AT.getTime() + 60_000);
    world.clock.now = later;
    world.gateway.send.push(answers.rejected('201'), answers.rejected('201'));
    const third = { repeated201: 3, last201At: later };
    expect((await step(retried)).next).toStrictEqual({ kind: 'attention', error: error201, patch: third });
    expect((await step({ ...retried, documentHash: hashOf(sentDocument('tax-inclusive')) })).next).toStrictEqual({
      kind: 'retry',
      error: error201,
      patch: { repeated201: 1, last201At: later },
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
      ['slot.take'],
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
