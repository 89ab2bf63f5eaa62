// The documents store's contract (src/documents/store/): every statement on the documents table, its PDFs, fiscal
// numbering and call log, on PGlite and on PostgreSQL alike. Each test works in shops of its own; only the claim tests
// use enabled shops, and disable them when done, so no claim takes another test's rows.
import { createHash } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db, rowsOf } from '../../../src/db/database.ts';
import { documentPdfs, documents, fiscalSequences, fiscalSkips, gatewayCalls, shops, webhookDeliveries } from '../../../src/db/schema.ts';
import { IntakeBatcher } from '../../../src/documents/intake-batcher.ts';
import {
  type DocumentRow,
  type NewDocument,
  claimDue,
  completedNotes,
  countByKindStatusStep,
  countByStatus,
  countDeliveries,
  currentInvoice,
  deleteShopDocuments,
  discardLeased,
  documentCalls,
  finishLeased,
  findCustomerDocuments,
  findDocument,
  fiscalNumbersOf,
  insertBatch,
  listDocuments,
  notesAgainst,
  orderDocuments,
  orderWasRefused,
  ordersWithoutInvoice,
  pdfByToken,
  pdfInfo,
  pdfToken,
  pdfTokenFor,
  queueStats,
  recordDelivery,
  recordGatewayCalls,
  relatedDocuments,
  releaseLease,
  reserveFiscalNumber,
  retryDocuments,
  retryShopDocument,
  sendRequestsOf,
  skipFiscalNumber,
  storePdfAndUpdate,
  updateCallRequest,
  updateLeased,
  updateRedacted,
  wakeWaitingNotes,
} from '../../../src/documents/store/index.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import {
  addShop,
  callRecord,
  callsOf,
  deliveriesOf,
  delivery,
  leasedTo,
  newCreditNote,
  orderGid,
  put,
  reread,
  secondsFromNow,
  uniqueShop,
} from '../../support/document-store-seeds.ts';
import { invoiceRow, newInvoice } from '../../support/documents.ts';

const OWNER = 'worker-a';
const OTHER = 'worker-b';
const LEASE_MS = 60_000;
const numbering = { branchCode: '0000', billingPoint: '001', environment: 'pruebas' as const };
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(testDatabases)('documents store on $name', (target) => {
  let database: Database;
  let db: Db;
  beforeAll(async () => {
    database = await target.open();
    db = database.db;
  });
  afterAll(async () => {
    await database?.close();
  });

  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

  describe('intake', () => {
    it('stores each source once: a repeat in the same batch or a later one is a duplicate; every delivery is recorded', async () => {
      const shop = uniqueShop('intake');
      const [a, b] = [orderGid(), orderGid()];
      const invoice = (gid: string, raw: string) =>
        newInvoice({ shop, orderGid: gid, orderName: `#${gid.slice(-4)}`, totalCents: 10593, rawOrder: raw });
      // Stored as the text that arrived: spacing and key order kept.
      const rawA = '{"id": 1,  "name":"#A", "note": "café ñ"}';
      expect(
        await insertBatch(db, [
          { document: invoice(a, rawA), delivery: delivery('w-1') },
          { document: invoice(b, '{"id":2}'), delivery: delivery('w-2') },
          { document: invoice(a, '{"id":1,"again":true}'), delivery: delivery('w-3') },
        ]),
      ).toEqual(['stored', 'stored', 'duplicate']);
      expect(await insertBatch(db, [{ document: invoice(b, '{"id":2}'), delivery: delivery('w-4') }])).toEqual(['duplicate']);

      const rows = await db.select().from(documents).where(eq(documents.shop, shop)).orderBy(documents.orderGid);
      expect(
        rows.map((r) => [r.kind, r.sourceKey, r.orderGid, r.documentType, r.totalCents, r.currency, r.test, r.status, r.step]),
      ).toEqual([
        ['invoice', a, a, '01', 10593, 'USD', false, 'pending', 'send'],
        ['invoice', b, b, '01', 10593, 'USD', false, 'pending', 'send'],
      ]);
      const [text] = rowsOf<{ snapshot: string }>(await db.execute(sql`select snapshot from ${documents} where order_gid = ${a}`));
      expect(text?.snapshot).toBe(rawA);
      expect(rows[0]?.snapshot).toEqual({ id: 1, name: '#A', note: 'café ñ' });
      const recorded = (webhookId: string, gid: string, outcome: string) => ({
        webhookId,
        eventId: `e-${webhookId}`,
        topic: 'orders/paid',
        orderGid: gid,
        triggeredAt: '2026-11-20T15:30:00Z',
        outcome,
      });
      expect(await deliveriesOf(db, shop)).toEqual([
        recorded('w-1', a, 'stored'),
        recorded('w-2', b, 'stored'),
        recorded('w-3', a, 'duplicate'),
        recorded('w-4', b, 'duplicate'),
      ]);
    });

    it("a refund is another document than its order's invoice; its order name comes from the invoice, or is empty", async () => {
      const shop = uniqueShop('refund');
      const [invoiced, notInvoiced] = [orderGid(), orderGid()];
      const invoice = newInvoice({ shop, orderGid: invoiced, orderName: '#1001', totalCents: 5000 });
      expect(await insertBatch(db, [{ document: invoice, delivery: delivery('r-1') }])).toEqual(['stored']);
      expect(
        await insertBatch(db, [
          {
            document: newCreditNote({ shop, orderGid: invoiced, refundGid: 'gid://shopify/Refund/11', totalCents: 1250 }),
            delivery: delivery('r-2', 'refunds/create'),
          },
          {
            document: newCreditNote({ shop, orderGid: notInvoiced, refundGid: 'gid://shopify/Refund/12', totalCents: 700 }),
            delivery: delivery('r-3', 'refunds/create'),
          },
        ]),
      ).toEqual(['stored', 'stored']);
      const rows = await db.select().from(documents).where(eq(documents.shop, shop)).orderBy(documents.sourceKey);
      expect(rows.map((r) => [r.kind, r.documentType, r.sourceKey, r.orderGid, r.orderName, r.totalCents])).toEqual([
        ['invoice', '01', invoiced, invoiced, '#1001', 5000],
        ['credit_note', '04', 'gid://shopify/Refund/11', invoiced, '#1001', 1250],
        ['credit_note', '04', 'gid://shopify/Refund/12', notInvoiced, '', 700],
      ]);
    });

    it('refuses a second invoice for the same shop, order and document type', async () => {
      const row = invoiceRow({
        shop: 'a.myshopify.com',
        orderGid: 'gid://shopify/Order/1',
        orderName: '#1001',
        totalCents: 1234,
        currency: 'USD',
        snapshot: { id: 1 },
      });
      const first = await db.insert(documents).values(row).onConflictDoNothing().returning({ id: documents.id });
      const second = await db.insert(documents).values(row).onConflictDoNothing().returning({ id: documents.id });
      expect(first).toHaveLength(1);
      expect(second).toHaveLength(0);
    });

    it('group commit: 300 concurrent deliveries in a few statements; duplicates inside one batch count once', async () => {
      const shop = uniqueShop('batch');
      const invoice = (n: number): NewDocument =>
        newInvoice({
          shop,
          orderGid: `gid://shopify/Order/${n}`,
          orderName: `#${n}`,
          totalCents: 1000 + n,
          rawOrder: JSON.stringify({ id: n, name: `#${n}` }),
        });
      const batcher = new IntakeBatcher(db, { maxBatch: 100 });
      let statements = 0;
      const counting = new Proxy(db, {
        get(target, key) {
          if (key === 'execute') return ((query: never) => (statements++, target.execute(query))) as typeof target.execute;
          const value: unknown = Reflect.get(target, key);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
      const counted = new IntakeBatcher(counting, { maxBatch: 100 });
      // 250 distinct orders, and order 1..50 delivered a second time in the same burst.
      const work = [
        ...Array.from({ length: 250 }, (_, i) => counted.enqueue(invoice(i + 1), delivery(`a-${i}`))),
        ...Array.from({ length: 50 }, (_, i) => counted.enqueue(invoice(i + 1), delivery(`b-${i}`))),
      ];
      const results = await Promise.all(work);
      expect(results.filter((r) => r === 'stored')).toHaveLength(250);
      expect(results.slice(250)).toEqual(Array(50).fill('duplicate'));
      expect(statements).toBe(3);
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(documents)
        .where(eq(documents.shop, shop));
      expect(count!.n).toBe(250);
      const [deliveries] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.shop, shop));
      expect(deliveries!.n).toBe(300);
      // A later delivery of a stored order is a duplicate too.
      expect(await batcher.enqueue(invoice(7), delivery('c-1'))).toBe('duplicate');
    });

    it('judges each delivery alone: one the database refuses fails by itself, its neighbours in the batch are stored', async () => {
      const shop = uniqueShop('fail');
      const invoice = (n: number) => newInvoice({ shop, orderGid: `gid://shopify/Order/${n}`, orderName: `#${n}`, totalCents: 1000 + n });
      const batcher = new IntakeBatcher(db);
      // A NUL is a value PostgreSQL's text refuses: the batch statement fails, then each delivery goes again alone.
      const poisoned = { ...invoice(9001), orderName: '#9001\u0000' };
      const results = await Promise.allSettled([
        batcher.enqueue(invoice(9000), delivery('f-1')),
        batcher.enqueue(poisoned, delivery('f-2')),
        batcher.enqueue(invoice(9002), delivery('f-3')),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const stored = await db.select({ name: documents.orderName }).from(documents).where(eq(documents.shop, shop));
      expect(stored.map((r) => r.name).sort()).toEqual(['#9000', '#9002']);
      // Each goes again alone, at once on PostgreSQL: in either order.
      expect((await deliveriesOf(db, shop)).map((d) => [d.webhookId, d.outcome]).sort()).toEqual([
        ['f-1', 'stored'],
        ['f-3', 'stored'],
      ]);
    });

    it('deliveries answered without a document are recorded and counted, the sweep’s enqueues are not', async () => {
      const shop = uniqueShop('refused');
      const gid = orderGid();
      const key = (c: { topic: string; outcome: string }) => `${c.topic} ${c.outcome}`;
      const counts = async () => new Map((await countDeliveries(db)).map((c) => [key(c), c.n]));
      const before = await counts();
      await recordDelivery(db, shop, delivery('n-1'), 'shop_not_enabled', gid);
      await recordDelivery(db, shop, delivery('sweep-1'), 'shop_not_enabled', gid);
      const after = await counts();
      expect((after.get('orders/paid shop_not_enabled') ?? 0) - (before.get('orders/paid shop_not_enabled') ?? 0)).toBe(1);
      expect((await deliveriesOf(db, shop)).map((d) => [d.webhookId, d.orderGid, d.outcome])).toEqual([
        ['n-1', gid, 'shop_not_enabled'],
        ['sweep-1', gid, 'shop_not_enabled'],
      ]);
    });
  });

  describe('claims and leases', () => {
    const enabled: string[] = [];
    const claimableShop = async (label: string) => {
      const shop = await addShop(db, label, { enabled: true });
      enabled.push(shop);
      return shop;
    };
    // Shops at their limit in this process: held as many as the limit allows.
    const claim = (owner: string, limit = 100, fullShops: string[] = []) =>
      claimDue(db, { owner, limit, leaseMs: LEASE_MS, shopLimit: 100, held: new Map(fullShops.map((s) => [s, 100])) });
    afterEach(async () => {
      // Leave nothing claimable behind for the next test.
      if (enabled.length > 0)
        await db
          .update(shops)
          .set({ enabled: false })
          .where(inArray(shops.shop, enabled.splice(0)));
    });

    it('two owners claiming at once never get the same row, and together get every due row', async () => {
      const shop = await claimableShop('claim');
      const rows = await Promise.all(Array.from({ length: 20 }, () => put(db, shop)));
      const [a, b] = await Promise.all([claim(OWNER, 15), claim(OTHER, 15)]);
      expect(a!.length + b!.length).toBe(20);
      expect(new Set([...ids(a!), ...ids(b!)])).toEqual(new Set(ids(rows)));
      expect(a!.every((r) => r.leaseOwner === OWNER) && b!.every((r) => r.leaseOwner === OTHER)).toBe(true);
      const stored = await db.select().from(documents).where(eq(documents.shop, shop));
      expect(stored.filter((r) => r.leaseOwner === OWNER).length).toBe(a!.length);
      // Leased for LEASE_MS by the database's clock.
      const [lease] = rowsOf<{ ms: number }>(
        await db.execute(sql`select extract(epoch from (lease_until - now())) * 1000 as ms from ${documents} where id = ${rows[0]!.id}`),
      );
      expect(Number(lease!.ms)).toBeGreaterThan(LEASE_MS - 5_000);
      expect(Number(lease!.ms)).toBeLessThanOrEqual(LEASE_MS);
      expect(await claim('worker-c')).toEqual([]);
    });

    it('an expired lease (a crashed worker) is claimable again; a live one is not', async () => {
      const shop = await claimableShop('expired');
      const expired = await put(db, shop, { leaseOwner: 'crashed', leaseUntil: secondsFromNow(-1) });
      await put(db, shop, leasedTo(OWNER));
      expect(ids(await claim(OTHER))).toEqual([expired.id]);
    });

    it('only enabled, installed, unpaused shops are claimed from', async () => {
      const ok = await claimableShop('ok');
      const disabled = await addShop(db, 'disabled', { enabled: false });
      const uninstalled = await addShop(db, 'uninstalled', { enabled: true, installed: false });
      const paused = await addShop(db, 'paused', { enabled: true, paused: true });
      enabled.push(uninstalled, paused);
      const mine = await put(db, ok);
      for (const shop of [disabled, uninstalled, paused, uniqueShop('unknown')]) await put(db, shop);
      expect(ids(await claim(OWNER))).toEqual([mine.id]);
    });

    it('pending and waiting rows when due, oldest first; never before their time, never a person’s or finished ones', async () => {
      const shop = await claimableShop('due');
      const waiting = await put(db, shop, { status: 'waiting', nextAttemptAt: secondsFromNow(-120) });
      const pending = await put(db, shop, { status: 'pending', nextAttemptAt: secondsFromNow(-60) });
      await put(db, shop, { status: 'pending', nextAttemptAt: secondsFromNow(3600) });
      await put(db, shop, { status: 'waiting', nextAttemptAt: secondsFromNow(3600) });
      for (const status of ['needs_attention', 'failed', 'completed', 'skipped'] as const)
        await put(db, shop, { status, nextAttemptAt: secondsFromNow(-600) });
      const stats = await queueStats(db);
      expect(stats.due).toBe(2);
      expect(stats.oldestDueAgeSeconds).toBeGreaterThanOrEqual(120);
      expect(stats.oldestDueAgeSeconds).toBeLessThan(130);
      expect(await claim(OWNER, 10, [shop])).toEqual([]);
      expect(ids(await claim(OWNER, 1))).toEqual([waiting.id]);
      expect(ids(await claim(OWNER, 10))).toEqual([pending.id]);
    });

    it('a released lease is claimable at once; only its holder can release it', async () => {
      const shop = await claimableShop('release');
      const row = await put(db, shop, leasedTo(OWNER));
      await releaseLease(db, row.id, OTHER);
      expect((await reread(db, row.id))?.leaseOwner).toBe(OWNER);
      await releaseLease(db, row.id, OWNER);
      expect(await reread(db, row.id)).toMatchObject({ leaseOwner: null, leaseUntil: null });
      expect(ids(await claim(OTHER))).toEqual([row.id]);
    });
  });

  describe('lease-guarded writes', () => {
    it('update: the holder’s patch is written and returned; a lost lease writes nothing', async () => {
      const shop = await addShop(db, 'update');
      const row = await put(db, shop, leasedTo(OWNER));
      const notice = { key: 'recovered_after_lost_answer', params: { number: '0000-001-0000000042' } };
      // A key set to undefined leaves its column as it was.
      const updated = await updateLeased(db, row, OWNER, LEASE_MS, { step: 'pdf', cufe: 'FE01', notice, lastError: undefined });
      const stored = await reread(db, row.id);
      expect(updated).toEqual({ ...row, step: 'pdf', cufe: 'FE01', notice });
      expect(stored).toEqual({ ...updated, leaseUntil: stored!.leaseUntil, updatedAt: stored!.updatedAt });
      expect(await updateLeased(db, stored!, OTHER, LEASE_MS, { step: 'writeback', cufe: 'FE02' })).toBeUndefined();
      expect(await reread(db, row.id)).toEqual(stored);
    });

    it('finish: patch written, lease dropped and the calls logged in one go; a lost lease writes nothing but logs the calls', async () => {
      const shop = await addShop(db, 'finish');
      const row = await put(db, shop, leasedTo(OWNER));
      const send = callRecord('SendDocument');
      expect(
        await finishLeased(db, row.id, OWNER, { status: 'completed', step: 'done' }, { shop, documentId: row.id, records: [send] }),
      ).toBe(true);
      expect(await reread(db, row.id)).toMatchObject({ status: 'completed', step: 'done', leaseOwner: null, leaseUntil: null });
      const log = (r: typeof send) => ({
        documentId: row.id,
        shop,
        operation: r.operation,
        outcome: r.outcome,
        code: null,
        message: r.message,
        durationMs: r.durationMs,
        request: r.request,
        response: r.response,
      });
      expect(await callsOf(db, row.id)).toEqual([log(send)]);

      const other = await put(db, shop, leasedTo(OTHER));
      const pdf = callRecord('DownloadPDF', { outcome: 'not_found', code: '404', message: 'x'.repeat(1500) });
      expect(await finishLeased(db, other.id, OWNER, { status: 'failed' }, { shop, documentId: other.id, records: [pdf] })).toBe(false);
      expect(await reread(db, other.id)).toEqual(other);
      expect(await callsOf(db, other.id)).toEqual([{ ...log(pdf), documentId: other.id, code: '404', message: 'x'.repeat(1000) }]);
      await recordGatewayCalls(db, { shop, documentId: other.id, records: [] });
      expect(await callsOf(db, other.id)).toHaveLength(1);
    });

    it('discard: removes the holder’s document that has no number; a numbered one or a lost lease stays', async () => {
      const shop = await addShop(db, 'discard');
      const foreign = await put(db, shop, leasedTo(OWNER));
      const numbered = await put(db, shop, leasedTo(OWNER, { ...numbering, fiscalNumber: 7 }));
      const taken = await put(db, shop, leasedTo(OTHER));
      expect(await discardLeased(db, foreign, OWNER)).toBe(true);
      expect(await discardLeased(db, numbered, OWNER)).toBe(false);
      expect(await discardLeased(db, taken, OWNER)).toBe(false);
      expect(ids(await db.select().from(documents).where(eq(documents.shop, shop))).sort()).toEqual([numbered.id, taken.id].sort());
    });
  });

  describe('fiscal numbers', () => {
    /** `count` invoices of a fresh shop, leased to OWNER. */
    async function claimedInvoices(count: number, values: Parameters<typeof put>[2] = {}) {
      const shop = await addShop(db, 'n');
      const rows = [];
      for (let i = 0; i < count; i++) rows.push(await put(db, shop, leasedTo(OWNER, values)));
      return { shop, rows };
    }
    const nextNumberOf = async (shop: string, billingPoint = '001', documentType = '01') =>
      (
        await db
          .select({ next: fiscalSequences.nextNumber })
          .from(fiscalSequences)
          .where(
            and(
              eq(fiscalSequences.shop, shop),
              eq(fiscalSequences.billingPoint, billingPoint),
              eq(fiscalSequences.documentType, documentType),
            ),
          )
      )[0]?.next;

    it('gives 1, 2, 3 in turn and records where the number belongs', async () => {
      const { shop, rows } = await claimedInvoices(3);
      const taken = [];
      for (const row of rows) taken.push(await reserveFiscalNumber(db, row, OWNER, LEASE_MS, numbering));
      expect(taken.map((r) => [r?.id, r?.fiscalNumber, r?.branchCode, r?.billingPoint, r?.sendMayHaveReached])).toEqual(
        rows.map((r, i) => [r.id, i + 1, '0000', '001', false]),
      );
      expect(await nextNumberOf(shop)).toBe(4);
      // The whole invoice row comes back, as from any other lease-guarded update.
      expect(Object.keys(taken[0]!).sort()).toEqual(Object.keys(rows[0]!).sort());
    });

    it('touches nothing for an invoice leased to another worker or already numbered', async () => {
      const { shop, rows } = await claimedInvoices(2);
      const [first, second] = rows as [DocumentRow, DocumentRow];
      expect((await reserveFiscalNumber(db, first, OWNER, LEASE_MS, numbering))?.fiscalNumber).toBe(1);
      // Already numbered: no second number.
      expect(await reserveFiscalNumber(db, first, OWNER, LEASE_MS, numbering)).toBeUndefined();
      // The lease went to someone else: no number, and the sequence does not move.
      expect(await reserveFiscalNumber(db, second, OTHER, LEASE_MS, numbering)).toBeUndefined();
      expect(await nextNumberOf(shop)).toBe(2);
      const [again] = await db.select().from(documents).where(eq(documents.id, second.id));
      expect(again?.fiscalNumber).toBeNull();
    });

    it('hands out 1…60 exactly once to 60 invoices reserved at the same time', async () => {
      const { shop, rows } = await claimedInvoices(60);
      const taken = await Promise.all(rows.map((row) => reserveFiscalNumber(db, row, OWNER, LEASE_MS, numbering)));
      expect(taken.map((r) => r?.fiscalNumber).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      expect(await nextNumberOf(shop)).toBe(61);
    });

    it('keeps separate sequences per billing point, per branch, and for invoices and credit notes', async () => {
      const { shop, rows } = await claimedInvoices(4);
      const [a, b, c, d] = rows as [DocumentRow, DocumentRow, DocumentRow, DocumentRow];
      const note = await put(db, shop, leasedTo(OWNER, { kind: 'credit_note', orderGid: a.orderGid }));
      expect((await reserveFiscalNumber(db, a, OWNER, LEASE_MS, numbering))?.fiscalNumber).toBe(1);
      expect((await reserveFiscalNumber(db, b, OWNER, LEASE_MS, { ...numbering, billingPoint: '002' }))?.fiscalNumber).toBe(1);
      expect((await reserveFiscalNumber(db, c, OWNER, LEASE_MS, { ...numbering, branchCode: '0001' }))?.fiscalNumber).toBe(1);
      expect((await reserveFiscalNumber(db, note, OWNER, LEASE_MS, numbering))?.fiscalNumber).toBe(1);
      expect((await reserveFiscalNumber(db, d, OWNER, LEASE_MS, numbering))?.fiscalNumber).toBe(2);
      expect(await nextNumberOf(shop)).toBe(3);
      expect(await nextNumberOf(shop, '002')).toBe(2);
      expect(await nextNumberOf(shop, '001', '04')).toBe(2);
    });

    it('a skipped number is recorded with its reason and taken off the document, which gets the next one', async () => {
      const { shop, rows } = await claimedInvoices(1);
      const numbered = (await reserveFiscalNumber(db, rows[0]!, OWNER, LEASE_MS, numbering))!;
      const sent = (await updateLeased(db, numbered, OWNER, LEASE_MS, { sendMayHaveReached: true }))!;
      const skipped = await skipFiscalNumber(db, sent, OWNER, LEASE_MS, 'used outside the app');
      expect(skipped).toMatchObject({ fiscalNumber: null, sendMayHaveReached: false });
      expect(await reread(db, sent.id)).toMatchObject({ fiscalNumber: null, sendMayHaveReached: false, branchCode: '0000' });
      const skips = await db.select().from(fiscalSkips).where(eq(fiscalSkips.shop, shop));
      expect(skips.map(({ id: _i, createdAt: _c, ...s }) => s)).toEqual([
        {
          shop,
          environment: 'pruebas',
          branchCode: '0000',
          billingPoint: '001',
          documentType: '01',
          number: 1,
          reason: 'used outside the app',
          documentId: sent.id,
        },
      ]);
      expect((await reserveFiscalNumber(db, skipped!, OWNER, LEASE_MS, numbering))?.fiscalNumber).toBe(2);
    });

    it('skipping with a lost lease records nothing and leaves the number; a document without one is left as it is', async () => {
      const { shop, rows } = await claimedInvoices(2);
      const numbered = (await reserveFiscalNumber(db, rows[0]!, OWNER, LEASE_MS, numbering))!;
      expect(await skipFiscalNumber(db, numbered, OTHER, LEASE_MS, 'used outside the app')).toBeUndefined();
      expect((await reread(db, numbered.id))?.fiscalNumber).toBe(1);
      expect(await skipFiscalNumber(db, rows[1]!, OWNER, LEASE_MS, 'used outside the app')).toEqual(rows[1]);
      expect(await db.select().from(fiscalSkips).where(eq(fiscalSkips.shop, shop))).toEqual([]);
    });

    it('keeps fiscal numbers above 2^31 exactly', async () => {
      const { shop, rows } = await claimedInvoices(1);
      await db
        .insert(fiscalSequences)
        .values({ shop, branchCode: '0000', billingPoint: '001', documentType: '01', nextNumber: 9_999_999_999 });
      expect(await nextNumberOf(shop)).toBe(9_999_999_999);
      expect((await reserveFiscalNumber(db, rows[0]!, OWNER, LEASE_MS, numbering))?.fiscalNumber).toBe(9_999_999_999);
      expect((await reread(db, rows[0]!.id))?.fiscalNumber).toBe(9_999_999_999);
    });
  });

  describe('PDFs', () => {
    it('the first stored PDF and its link token win; a lost lease keeps the PDF but writes nothing else', async () => {
      const shop = await addShop(db, 'pdf');
      const row = await put(db, shop, leasedTo(OWNER, { ...numbering, fiscalNumber: 42, step: 'pdf' }));
      const first = Buffer.from('%PDF-1.7 first');
      const stored = await storePdfAndUpdate(db, row, OWNER, LEASE_MS, first, { step: 'writeback' });
      expect(stored?.pdfToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(stored?.row).toEqual({ ...row, step: 'writeback' });
      const again = await storePdfAndUpdate(db, stored!.row, OWNER, LEASE_MS, Buffer.from('%PDF-1.7 second'), { attempts: 0 });
      expect(again?.pdfToken).toBe(stored!.pdfToken);
      expect(await pdfInfo(db, row.id)).toEqual({ bytes: first.length, sha256: sha256(first) });
      expect(await pdfByToken(db, stored!.pdfToken)).toEqual({
        bytes: first,
        sha256: sha256(first),
        kind: 'invoice',
        branchCode: '0000',
        billingPoint: '001',
        fiscalNumber: 42,
      });
      expect(await pdfTokenFor(db, row.id)).toBe(stored!.pdfToken);
      expect(await pdfToken(db, shop, row.id)).toBe(stored!.pdfToken);
      expect(await pdfToken(db, uniqueShop('other'), row.id)).toBeUndefined();
      expect(await pdfByToken(db, 'no-such-token')).toBeUndefined();

      const lost = await put(db, shop, leasedTo(OTHER, { step: 'pdf' }));
      expect(await storePdfAndUpdate(db, lost, OWNER, LEASE_MS, first, { step: 'writeback' })).toBeUndefined();
      expect((await reread(db, lost.id))?.step).toBe('pdf');
      expect(await pdfInfo(db, lost.id)).toEqual({ bytes: first.length, sha256: sha256(first) });
    });
  });

  describe('lists, counts, search and look-ups', () => {
    /**
     * Five documents of a shop: two created at one instant (the id breaks the tie), two a microsecond apart (a cursor
     * rounded to the millisecond would skip one).
     */
    async function listedShop() {
      const shop = await addShop(db, 'list');
      const at = (micros: string) => sql`${`2026-11-20T15:30:00.${micros}Z`}::timestamptz`;
      const rows = [
        await put(db, shop, { orderName: '#1001', createdAt: at('001000'), status: 'completed', ...numbering, fiscalNumber: 1 }),
        await put(db, shop, { orderName: '#1002', createdAt: at('002000'), status: 'needs_attention' }),
        await put(db, shop, { orderName: '#1003', createdAt: at('002000'), status: 'pending' }),
        await put(db, shop, {
          orderName: '#1004',
          createdAt: at('003000'),
          status: 'completed',
          branchCode: '0000',
          billingPoint: '002',
          fiscalNumber: 1,
        }),
        await put(db, shop, { orderName: '#1001', createdAt: at('003001'), kind: 'credit_note', status: 'waiting' }),
      ];
      // Newest first; between equal times, the greater id first.
      const sameInstant = rows.slice(1, 3).sort((a, b) => (b.id > a.id ? 1 : -1));
      return { shop, rows, expected: [rows[4]!, rows[3]!, ...sameInstant, rows[0]!] };
    }
    const query = (shop: string, o: Partial<Parameters<typeof listDocuments>[1]> = {}) =>
      listDocuments(db, {
        shop,
        status: undefined,
        kind: undefined,
        from: undefined,
        before: undefined,
        search: undefined,
        after: undefined,
        limit: 50,
        ...o,
      });

    it('pages newest first by a cursor that keeps microseconds: every document once, ties broken by id', async () => {
      const { shop, expected } = await listedShop();
      const seen: string[] = [];
      let after: Parameters<typeof listDocuments>[1]['after'];
      let pages = 0;
      do {
        const page = await query(shop, { limit: 2, after });
        seen.push(...ids(page.rows));
        after = page.next;
        pages++;
      } while (after);
      expect(seen).toEqual(ids(expected));
      expect(pages).toBe(3);
      const first = await query(shop, { limit: 1 });
      expect(first.next).toEqual({ createdAt: '2026-11-20T15:30:00.003001Z', id: expected[0]!.id });
      expect(first.rows[0]).not.toHaveProperty('snapshot');
    });

    it('filters by status, kind, time and search (order name, fiscal number, full fiscal key)', async () => {
      const { shop, rows } = await listedShop();
      const [r1, r2, r3, r4, note] = rows as [DocumentRow, DocumentRow, DocumentRow, DocumentRow, DocumentRow];
      const found = async (o: Partial<Parameters<typeof listDocuments>[1]>) => ids((await query(shop, o)).rows).sort();
      const search = (s: Partial<NonNullable<Parameters<typeof listDocuments>[1]['search']>>) => ({
        search: { orderNames: [], fiscalNumber: undefined, fiscalKey: undefined, ...s },
      });
      expect(await found({ status: 'completed' })).toEqual([r1.id, r4.id].sort());
      expect(await found({ kind: 'credit_note' })).toEqual([note.id]);
      expect(await found({ from: new Date('2026-11-20T15:30:00.002Z'), before: new Date('2026-11-20T15:30:00.003Z') })).toEqual(
        [r2.id, r3.id].sort(),
      );
      expect(await found(search({ orderNames: ['#1001'] }))).toEqual([r1.id, note.id].sort());
      expect(await found(search({ fiscalNumber: 1 }))).toEqual([r1.id, r4.id].sort());
      expect(await found(search({ fiscalKey: { branchCode: '0000', billingPoint: '002', fiscalNumber: 1 } }))).toEqual([r4.id]);
      expect(await found({ ...search({ orderNames: ['#1001'] }), kind: 'invoice' })).toEqual([r1.id]);
      expect(await found({ shop: uniqueShop('none') })).toEqual([]);
    });

    it('counts by status, every status named; finds one document, only in its own shop; counts by kind, status and step', async () => {
      const { shop, rows } = await listedShop();
      expect(await countByStatus(db, shop)).toEqual({
        all: 5,
        pending: 1,
        waiting: 1,
        needs_attention: 1,
        failed: 0,
        completed: 2,
        skipped: 0,
      });
      expect(await findDocument(db, rows[1]!.id)).toEqual(rows[1]);
      expect(await findDocument(db, rows[1]!.id, shop)).toEqual(rows[1]);
      expect(await findDocument(db, rows[1]!.id, uniqueShop('other'))).toBeUndefined();

      const countOf = async () =>
        (await countByKindStatusStep(db)).find((c) => c.kind === 'credit_note' && c.status === 'waiting' && c.step === 'send')?.n ?? 0;
      const before = await countOf();
      const other = await addShop(db, 'kinds');
      await put(db, other, { kind: 'credit_note', status: 'waiting' });
      await put(db, other, { kind: 'credit_note', status: 'waiting' });
      expect((await countOf()) - before).toBe(2);
    });

    it("an order's documents oldest first with their PDF tokens; a document's gateway calls in order, only in its shop", async () => {
      const shop = await addShop(db, 'order');
      const gid = orderGid();
      const invoice = await put(db, shop, leasedTo(OWNER, { orderGid: gid, createdAt: secondsFromNow(-10) }));
      const note = await put(db, shop, { kind: 'credit_note', orderGid: gid });
      await put(db, shop);
      const { pdfToken: token } = (await storePdfAndUpdate(db, invoice, OWNER, LEASE_MS, Buffer.from('%PDF'), {}))!;
      expect((await orderDocuments(db, shop, gid)).map((d) => [d.id, d.kind, d.pdfToken])).toEqual([
        [invoice.id, 'invoice', token],
        [note.id, 'credit_note', null],
      ]);
      await recordGatewayCalls(db, { shop, documentId: invoice.id, records: [callRecord('SendDocument'), callRecord('DownloadPDF')] });
      expect((await documentCalls(db, invoice.id, shop)).map((c) => c.operation)).toEqual(['SendDocument', 'DownloadPDF']);
      expect((await documentCalls(db, invoice.id)).map((c) => c.operation)).toEqual(['SendDocument', 'DownloadPDF']);
      expect(await documentCalls(db, invoice.id, uniqueShop('other'))).toEqual([]);
    });
  });

  describe('retry by hand', () => {
    it('puts failed and needs-attention documents back, fresh, to be re-read from Shopify; nothing else', async () => {
      const shop = await addShop(db, 'retry');
      const later = secondsFromNow(3600);
      const failed = await put(db, shop, { status: 'failed', attempts: 5, nextAttemptAt: later });
      const attention = await put(db, shop, { status: 'needs_attention', attempts: 1, nextAttemptAt: later });
      const others = await Promise.all(
        (['pending', 'waiting', 'completed', 'skipped'] as const).map((status) =>
          put(db, shop, { status, attempts: 2, nextAttemptAt: later }),
        ),
      );
      const elsewhere = await put(db, await addShop(db, 'retry-other'), { status: 'failed', attempts: 5 });
      expect(await retryDocuments(db, { shop })).toBe(2);
      const requeued = { status: 'pending', attempts: 0, refreshSnapshot: true };
      expect(await reread(db, failed.id)).toMatchObject(requeued);
      expect(await reread(db, attention.id)).toMatchObject(requeued);
      const [due] = rowsOf<{ n: number }>(
        await db.execute(
          sql`select count(*)::int as n from ${documents} where id in (${failed.id}, ${attention.id}) and next_attempt_at <= now()`,
        ),
      );
      expect(Number(due!.n)).toBe(2);
      for (const row of others) expect(await reread(db, row.id)).toEqual(row);
      expect(await reread(db, elsewhere.id)).toEqual(elsewhere);
    });

    it('by ids and by status', async () => {
      const shop = await addShop(db, 'retry-ids');
      const [a, b] = [await put(db, shop, { status: 'failed' }), await put(db, shop, { status: 'failed' })];
      const attention = await put(db, shop, { status: 'needs_attention' });
      expect(await retryDocuments(db, { shop, ids: [a.id] })).toBe(1);
      expect(await retryDocuments(db, { shop, statuses: ['needs_attention'] })).toBe(1);
      expect(await Promise.all([a, b, attention].map(async (r) => (await reread(db, r.id))?.status))).toEqual([
        'pending',
        'failed',
        'pending',
      ]);
    });

    it('one document of a shop: requeued when stopped, hurried when waiting out a backoff, else left alone', async () => {
      const shop = await addShop(db, 'retry-one');
      const stopped = await put(db, shop, { status: 'failed' });
      const backingOff = await put(db, shop, {
        status: 'pending',
        lastErrorKind: 'unavailable',
        attempts: 2,
        nextAttemptAt: secondsFromNow(600),
      });
      const fresh = await put(db, shop, { status: 'pending', nextAttemptAt: secondsFromNow(600) });
      const waiting = await put(db, shop, { kind: 'credit_note', status: 'waiting', nextAttemptAt: secondsFromNow(600) });
      const done = await put(db, shop, { status: 'completed' });
      expect(await retryShopDocument(db, uniqueShop('other'), stopped.id)).toBe(0);
      expect(await retryShopDocument(db, shop, stopped.id)).toBe(1);
      expect(await retryShopDocument(db, shop, backingOff.id)).toBe(1);
      expect(await reread(db, backingOff.id)).toMatchObject({ status: 'pending', attempts: 2, refreshSnapshot: false });
      expect((await reread(db, backingOff.id))!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      // A waiting note looks for its invoice again now.
      expect(await retryShopDocument(db, shop, waiting.id)).toBe(1);
      expect(await reread(db, waiting.id)).toMatchObject({ status: 'waiting', attempts: 0 });
      expect((await reread(db, waiting.id))!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      // Repeating it changes nothing more.
      expect(await retryShopDocument(db, shop, waiting.id)).toBe(0);
      expect(await retryShopDocument(db, shop, backingOff.id)).toBe(0);
      expect(await retryShopDocument(db, shop, fresh.id)).toBe(0);
      expect(await retryShopDocument(db, shop, done.id)).toBe(0);
      expect(await reread(db, fresh.id)).toEqual(fresh);
    });
  });

  describe("an order's documents together", () => {
    it('the current invoice is the newest one no other replaced; a credit note is never it', async () => {
      const shop = await addShop(db, 'current');
      const gid = orderGid();
      const original = await put(db, shop, { orderGid: gid, createdAt: secondsFromNow(-20) });
      const replacement = await put(db, shop, {
        orderGid: gid,
        sourceKey: `${gid}#2`,
        replacesId: original.id,
        createdAt: secondsFromNow(-10),
      });
      await put(db, shop, { kind: 'credit_note', orderGid: gid });
      expect((await currentInvoice(db, shop, gid))?.id).toBe(replacement.id);
      expect(await currentInvoice(db, uniqueShop('other'), gid)).toBeUndefined();
      expect(await currentInvoice(db, shop, orderGid())).toBeUndefined();
    });

    it("relatives: an invoice's notes (the unlinked ones with the invoice no other replaced), a note's invoice", async () => {
      const shop = await addShop(db, 'related');
      const gid = orderGid();
      const original = await put(db, shop, {
        orderGid: gid,
        createdAt: secondsFromNow(-40),
        branchCode: '0000',
        billingPoint: '001',
        fiscalNumber: 7,
      });
      const replacement = await put(db, shop, {
        orderGid: gid,
        sourceKey: `${gid}#2`,
        replacesId: original.id,
        createdAt: secondsFromNow(-30),
      });
      const ofOriginal = await put(db, shop, {
        kind: 'credit_note',
        orderGid: gid,
        invoiceId: original.id,
        createdAt: secondsFromNow(-20),
      });
      const unlinked = await put(db, shop, { kind: 'credit_note', orderGid: gid, status: 'waiting', createdAt: secondsFromNow(-10) });
      const linked = await put(db, shop, { kind: 'credit_note', orderGid: gid, invoiceId: replacement.id });
      const other = await put(db, shop, { kind: 'credit_note', invoiceId: original.id });

      const related = async (doc: DocumentRow) => {
        const r = await relatedDocuments(db, doc);
        return { invoice: r.invoice?.id, notes: ids(r.notes) };
      };
      expect(await related(original)).toEqual({ invoice: undefined, notes: [ofOriginal.id] });
      expect(await related(replacement)).toEqual({ invoice: undefined, notes: [unlinked.id, linked.id] });
      expect(await related(ofOriginal)).toEqual({ invoice: original.id, notes: [] });
      expect(await related(unlinked)).toEqual({ invoice: replacement.id, notes: [] });
      // Another order's note names an invoice of this one: not its order's, so not found among its relatives.
      expect(await related(other)).toEqual({ invoice: undefined, notes: [] });
      expect(await related({ ...original, shop: uniqueShop('other') })).toEqual({ invoice: undefined, notes: [] });

      expect(await fiscalNumbersOf(db, shop, [original.id, replacement.id])).toEqual(
        expect.arrayContaining([
          { id: original.id, branchCode: '0000', billingPoint: '001', fiscalNumber: 7 },
          { id: replacement.id, branchCode: null, billingPoint: null, fiscalNumber: null },
        ]),
      );
      expect(await fiscalNumbersOf(db, uniqueShop('other'), [original.id])).toEqual([]);
      expect(await fiscalNumbersOf(db, shop, [])).toEqual([]);
    });

    it('notes against an invoice: those holding a document, oldest first, but the one asking and skipped ones', async () => {
      const shop = await addShop(db, 'notes');
      const gid = orderGid();
      const invoice = await put(db, shop, { orderGid: gid });
      const other = await put(db, shop);
      const note = (o: Parameters<typeof put>[2]) => put(db, shop, { kind: 'credit_note', orderGid: gid, invoiceId: invoice.id, ...o });
      const doc = { document: { totalsSubTotals: { totalInvoice: '5.00' } } };
      const issued = await note({ ...doc, status: 'completed', createdAt: secondsFromNow(-30) });
      const inFlight = await note({ ...doc, status: 'pending', createdAt: secondsFromNow(-20) });
      await note({ status: 'pending' });
      await note({ ...doc, status: 'skipped' });
      await put(db, shop, { kind: 'credit_note', invoiceId: other.id, ...doc });
      const asking = await note({ ...doc });
      expect(ids(await notesAgainst(db, invoice.id, asking.id))).toEqual([issued.id, inFlight.id]);
    });

    it("an authorized invoice wakes its order's waiting notes, and only those; completed notes are those with a CUFE, with their PDFs' tokens", async () => {
      const shop = await addShop(db, 'wake');
      const gid = orderGid();
      const later = secondsFromNow(3600);
      const waiting = await put(db, shop, { kind: 'credit_note', orderGid: gid, status: 'waiting', nextAttemptAt: later });
      const pending = await put(db, shop, { kind: 'credit_note', orderGid: gid, status: 'pending', nextAttemptAt: later });
      const elsewhere = await put(db, shop, { kind: 'credit_note', status: 'waiting', nextAttemptAt: later });
      expect(await wakeWaitingNotes(db, shop, gid)).toBe(1);
      expect((await reread(db, waiting.id))!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      expect(await reread(db, pending.id)).toEqual(pending);
      expect(await reread(db, elsewhere.id)).toEqual(elsewhere);

      const first = await put(
        db,
        shop,
        leasedTo(OWNER, { kind: 'credit_note', orderGid: gid, cufe: 'FE04-a', createdAt: secondsFromNow(-20) }),
      );
      const second = await put(db, shop, { kind: 'credit_note', orderGid: gid, cufe: 'FE04-b', createdAt: secondsFromNow(-10) });
      await put(db, shop, { orderGid: gid, cufe: 'FE01' });
      const { pdfToken: token } = (await storePdfAndUpdate(db, first, OWNER, LEASE_MS, Buffer.from('%PDF'), {}))!;
      expect((await completedNotes(db, shop, gid)).map((n) => [n.id, n.cufe, n.pdfToken])).toEqual([
        [first.id, 'FE04-a', token],
        [second.id, 'FE04-b', null],
      ]);
    });

    it('orders without an invoice: neither invoiced nor refused by the intake (a credit note is not an invoice)', async () => {
      const shop = await addShop(db, 'sweep');
      const [invoiced, noted, refused, unknown, elsewhere] = [orderGid(), orderGid(), orderGid(), orderGid(), orderGid()];
      await put(db, shop, { orderGid: invoiced });
      await put(db, shop, { kind: 'credit_note', orderGid: noted });
      await put(db, await addShop(db, 'sweep-other'), { orderGid: elsewhere });
      await recordDelivery(db, shop, delivery('s-1'), 'shop_not_enabled', refused);
      await recordDelivery(db, shop, delivery('s-2'), 'duplicate', unknown);
      expect(await ordersWithoutInvoice(db, shop, [invoiced, noted, refused, unknown, elsewhere])).toEqual(
        new Set([noted, unknown, elsewhere]),
      );
      expect(await ordersWithoutInvoice(db, shop, [])).toEqual(new Set());
      expect(await orderWasRefused(db, shop, refused)).toBe('shop_not_enabled');
      expect(await orderWasRefused(db, shop, unknown)).toBeUndefined();
    });
  });

  describe('privacy', () => {
    const ana = { customerId: '8000000000001', email: 'ana@example.com' };
    const raw = (o: unknown) => JSON.stringify(o);
    /** Snapshots stored as the text that arrived, by the intake's own statement. */
    async function stored(shop: string, order: string, snapshot: string) {
      const gid = orderGid();
      await insertBatch(db, [
        {
          document: newInvoice({ shop, orderGid: gid, orderName: order, totalCents: 100, rawOrder: snapshot }),
          delivery: delivery(`p-${gid}`),
        },
      ]);
      return gid;
    }

    it('finds a customer by text, then confirms in the order; poisoned snapshots do not break the request', async () => {
      const shop = await addShop(db, 'privacy');
      const byId = await stored(shop, '#A', raw({ customer: { id: 8000000000001, email: 'otra@example.com' } }));
      const byEmail = await stored(shop, '#B', raw({ contact_email: 'ANA@Example.com', customer: null }));
      // The text appears, but not as this customer: a note that mentions her.
      await stored(shop, '#C', raw({ note: 'regalo para ana@example.com', customer: { id: 8000000000002, email: 'luis@example.com' } }));
      // Written before the intake cleaned such text: a NUL escape, a lone surrogate, nesting deeper than any parser's stack.
      await stored(shop, '#NUL', '{"note":"ana@example.com \\u0000","customer":null}');
      const surrogate = await stored(shop, '#SUR', '{"email":"ana@example.com","note":"\\ud800"}');
      await stored(shop, '#DEEP', '['.repeat(100_000) + '"ana@example.com 8000000000001"' + ']'.repeat(100_000));
      const note = await put(db, shop, { kind: 'credit_note', orderGid: byId });
      const listed = await stored(shop, '#D', raw({ customer: null }));
      const elsewhere = await addShop(db, 'privacy-other');
      await stored(elsewhere, '#E', raw({ email: 'ana@example.com' }));

      // Which documents, not their order: rows stored in the same millisecond tie on created_at (PGlite's clock) and
      // then go by their random ids.
      const sorted = (pairs: string[][]) => pairs.map((p) => p.join(' ')).sort();
      const orders = async (who: Partial<typeof ana> & { orderGids?: string[] }) =>
        sorted(
          (await findCustomerDocuments(db, shop, { orderGids: [], customerId: undefined, email: undefined, ...who })).map((d) => [
            d.orderGid,
            d.kind,
          ]),
        );
      expect(await orders({ customerId: ana.customerId })).toEqual(
        sorted([
          [byId, 'invoice'],
          [byId, 'credit_note'],
        ]),
      );
      expect(await orders({ email: ana.email })).toEqual(
        sorted([
          [byEmail, 'invoice'],
          [surrogate, 'invoice'],
        ]),
      );
      expect(await orders({ ...ana, orderGids: [listed] })).toEqual(
        sorted([
          [byId, 'invoice'],
          [byEmail, 'invoice'],
          [surrogate, 'invoice'],
          [byId, 'credit_note'],
          [listed, 'invoice'],
        ]),
      );
      expect(await orders({})).toEqual([]);
      expect(note.orderGid).toBe(byId);
    });

    it('redacts a document and its stored requests; shop deletion takes its documents, PDFs and calls, nothing else', async () => {
      const shop = await addShop(db, 'redact');
      const row = await put(db, shop, leasedTo(OWNER, { snapshot: { email: 'ana@example.com' }, document: { client: { name: 'Ana' } } }));
      await storePdfAndUpdate(db, row, OWNER, LEASE_MS, Buffer.from('%PDF'), {});
      await recordGatewayCalls(db, {
        shop,
        documentId: row.id,
        records: [callRecord('SendDocument', { request: { client: 'Ana' } }), callRecord('DownloadPDF')],
      });
      await updateRedacted(db, row.id, { snapshot: { email: null }, document: { client: { name: '' } } });
      expect(await reread(db, row.id)).toMatchObject({
        snapshot: { email: null },
        document: { client: { name: '' } },
        snapshotRedacted: true,
      });
      const requests = await sendRequestsOf(db, [row.id]);
      expect(requests.map((r) => r.request)).toEqual([{ client: 'Ana' }]);
      await updateCallRequest(db, requests[0]!.id, { client: '' });
      expect(await sendRequestsOf(db, [row.id])).toEqual([{ id: requests[0]!.id, request: { client: '' } }]);
      expect(await sendRequestsOf(db, [])).toEqual([]);

      const kept = await addShop(db, 'redact-kept');
      const other = await put(db, kept);
      await recordGatewayCalls(db, { shop: kept, documentId: other.id, records: [callRecord('SendDocument')] });
      await put(db, shop);
      expect(await deleteShopDocuments(db, shop)).toEqual({ documents: 2, gatewayCalls: 2 });
      expect(await db.select().from(documentPdfs).where(eq(documentPdfs.documentId, row.id))).toEqual([]);
      expect(await reread(db, other.id)).toEqual(other);
      expect(await db.select().from(gatewayCalls).where(eq(gatewayCalls.shop, kept))).toHaveLength(1);
    });
  });
});
