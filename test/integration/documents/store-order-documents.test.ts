// The documents store on an order's documents together and on privacy erasure (src/documents/store/), on PGlite
// and PostgreSQL alike. Each test works in shops of its own.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db } from '../../../src/db/database.ts';
import { documentPdfs, documents, gatewayCalls } from '../../../src/db/schema.ts';
import {
  type DocumentRow,
  completedNotes,
  currentInvoice,
  deleteShopDocuments,
  findCustomerDocuments,
  fiscalNumbersOf,
  insertBatch,
  notesAgainst,
  orderWasRefused,
  ordersWithoutInvoice,
  recordDelivery,
  recordGatewayCalls,
  relatedDocuments,
  sendRequestsOf,
  storePdfAndUpdate,
  updateCallRequest,
  updateRedacted,
  saveAuthorizedInvoice,
  wakeWaitingNotes,
} from '../../../src/documents/store/index.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import {
  addShop,
  callRecord,
  delivery,
  leasedTo,
  orderGid,
  put,
  reread,
  secondsFromNow,
  uniqueShop,
} from '../../support/document-store-seeds.ts';
import { newInvoice } from '../../support/documents.ts';
import { OWNER, LEASE_MS } from '../../support/document-store-seeds.ts';

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

      // Saving an authorized invoice under its lease wakes them in the same statement; under a lost lease, nothing.
      await db.update(documents).set({ nextAttemptAt: later }).where(eq(documents.id, waiting.id));
      const asleep = (await reread(db, waiting.id))!;
      const lost = await put(db, shop, leasedTo('another-worker', { orderGid: gid }));
      expect(await saveAuthorizedInvoice(db, lost, OWNER, LEASE_MS, { cufe: 'FE01-lost' })).toBeUndefined();
      expect(await reread(db, waiting.id)).toEqual(asleep);
      await db.delete(documents).where(eq(documents.id, lost.id));
      const held = await put(db, shop, leasedTo(OWNER, { orderGid: gid }));
      expect(await saveAuthorizedInvoice(db, held, OWNER, LEASE_MS, { cufe: 'FE01-held' })).toMatchObject({
        id: held.id,
        cufe: 'FE01-held',
      });
      expect((await reread(db, held.id))!.cufe).toBe('FE01-held');
      expect((await reread(db, waiting.id))!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      expect(await reread(db, elsewhere.id)).toEqual(elsewhere);
      await db.delete(documents).where(eq(documents.id, held.id));

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
