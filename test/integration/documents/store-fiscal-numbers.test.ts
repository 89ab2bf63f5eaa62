// The documents store's fiscal numbering and PDFs (src/documents/store/), on PGlite and PostgreSQL alike.
// Each test works in shops of its own.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db } from '../../../src/db/database.ts';
import { documents, fiscalSequences, fiscalSkips } from '../../../src/db/schema.ts';
import {
  type DocumentRow,
  pdfByToken,
  pdfInfo,
  pdfToken,
  pdfTokenFor,
  reserveFiscalNumber,
  skipFiscalNumber,
  storePdfAndUpdate,
  updateLeased,
} from '../../../src/documents/store/index.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { addShop, leasedTo, put, reread, uniqueShop } from '../../support/document-store-seeds.ts';
import { OWNER, OTHER, LEASE_MS, numbering, sha256 } from '../../support/document-store-seeds.ts';

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
});
