// Fiscal numbers: one statement takes the next number for a leased invoice, or touches nothing.
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { fiscalSequences, documents } from '../src/db/schema.ts';
import { IntakeBatcher } from '../src/documents/intake-batcher.ts';
import { reserveFiscalNumber, type DocumentRow as InvoiceRow } from '../src/documents/store/index.ts';
import { newInvoice } from './support/documents.ts';
import { ShopRepository } from '../src/shops/shop-repository.ts';
import { createSecretBox } from '../src/shops/secret-box.ts';
import { testDatabases } from './support/databases.ts';

const numbering = { branchCode: '0000', billingPoint: '001' };
const OWNER = 'worker-a';
const LEASE_MS = 60_000;

describe.each(testDatabases)('fiscal numbers on $name', (target) => {
  let database: Database;
  let nextOrder = 1;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => {
    await database?.close();
  });

  /** `count` stored invoices of a fresh installed shop, claimed by OWNER. */
  async function claimedInvoices(count: number): Promise<{ shop: string; rows: InvoiceRow[] }> {
    const shop = `n-${randomBytes(3).toString('hex')}.myshopify.com`;
    await new ShopRepository(database.db, createSecretBox(randomBytes(32))).ensureInstalled(shop);
    const batcher = new IntakeBatcher(database.db);
    await Promise.all(
      Array.from({ length: count }, () => {
        const n = nextOrder++;
        const order = newInvoice({ shop, orderGid: `gid://shopify/Order/${n}`, orderName: `#${n}`, totalCents: 100 });
        return batcher.enqueue(order, { webhookId: `w-${n}`, eventId: undefined, topic: 'orders/paid', triggeredAt: undefined });
      }),
    );
    // Claims skip shops that are not enabled: take the rows by hand, as a worker's claim would.
    const rows = await database.db
      .update(documents)
      .set({ leaseOwner: OWNER, leaseUntil: sql`now() + interval '1 minute'` })
      .where(eq(documents.shop, shop))
      .returning();
    return { shop, rows };
  }

  const nextNumberOf = async (shop: string) =>
    (
      await database.db
        .select({ next: fiscalSequences.nextNumber })
        .from(fiscalSequences)
        .where(and(eq(fiscalSequences.shop, shop), eq(fiscalSequences.billingPoint, '001')))
    )[0]?.next;

  it('gives 1, 2, 3 in turn and records where the number belongs', async () => {
    const { shop, rows } = await claimedInvoices(3);
    const taken = [];
    for (const row of rows) taken.push(await reserveFiscalNumber(database.db, row, OWNER, LEASE_MS, numbering));
    expect(taken.map((r) => [r?.id, r?.fiscalNumber, r?.branchCode, r?.billingPoint, r?.sendMayHaveReached])).toEqual(
      rows.map((r, i) => [r.id, i + 1, '0000', '001', false]),
    );
    expect(await nextNumberOf(shop)).toBe(4);
    // The whole invoice row comes back, as from any other lease-guarded update.
    expect(Object.keys(taken[0]!).sort()).toEqual(Object.keys(rows[0]!).sort());
  });

  it('touches nothing for an invoice leased to another worker or already numbered', async () => {
    const { shop, rows } = await claimedInvoices(2);
    const [first, second] = rows as [InvoiceRow, InvoiceRow];
    expect((await reserveFiscalNumber(database.db, first, OWNER, LEASE_MS, numbering))?.fiscalNumber).toBe(1);
    // Already numbered: no second number.
    expect(await reserveFiscalNumber(database.db, first, OWNER, LEASE_MS, numbering)).toBeUndefined();
    // The lease went to someone else: no number, and the sequence does not move.
    expect(await reserveFiscalNumber(database.db, second, 'worker-b', LEASE_MS, numbering)).toBeUndefined();
    expect(await nextNumberOf(shop)).toBe(2);
    const [again] = await database.db.select().from(documents).where(eq(documents.id, second.id));
    expect(again?.fiscalNumber).toBeNull();
  });

  it('hands out 1…60 exactly once to 60 invoices reserved at the same time', async () => {
    const { shop, rows } = await claimedInvoices(60);
    const taken = await Promise.all(rows.map((row) => reserveFiscalNumber(database.db, row, OWNER, LEASE_MS, numbering)));
    expect(taken.map((r) => r?.fiscalNumber).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(await nextNumberOf(shop)).toBe(61);
  });

  it('keeps separate sequences per billing point', async () => {
    const { shop, rows } = await claimedInvoices(2);
    const [a, b] = rows as [InvoiceRow, InvoiceRow];
    expect((await reserveFiscalNumber(database.db, a, OWNER, LEASE_MS, numbering))?.fiscalNumber).toBe(1);
    expect((await reserveFiscalNumber(database.db, b, OWNER, LEASE_MS, { branchCode: '0000', billingPoint: '002' }))?.fiscalNumber).toBe(1);
    expect(await nextNumberOf(shop)).toBe(2);
  });
});
