// The documents store's lists, counts, search, look-ups and retries by hand (src/documents/store/), on PGlite
// and PostgreSQL alike. Each test works in shops of its own.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db, rowsOf } from '../../../src/db/database.ts';
import { documents } from '../../../src/db/schema.ts';
import {
  type DocumentRow,
  countByKindStatusStep,
  countByStatus,
  documentCalls,
  findDocument,
  listDocuments,
  orderDocuments,
  recordGatewayCalls,
  retryDocuments,
  retryShopDocument,
  storePdfAndUpdate,
} from '../../../src/documents/store/index.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { addShop, callRecord, leasedTo, orderGid, put, reread, secondsFromNow, uniqueShop } from '../../support/document-store-seeds.ts';
import { OWNER, LEASE_MS, numbering } from '../../support/document-store-seeds.ts';

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
});
