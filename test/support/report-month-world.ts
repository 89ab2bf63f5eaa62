// A shop's month made through the whole product (store simulator → app → sandbox gateway) for the reports' tests:
// invoices at every ITBMS rate, tax-inclusive and tax-exclusive orders, a partial and a full credit note, a note of
// this month's invoice authorized in the next month, a test-environment invoice, and an invoice authorized at 23:30
// Panamá time on the month's last day. The documents are issued now; their authorization times are then moved into
// the report's month by SQL (the app's clock is the system's), which is all the report reads of time.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../src/db/database.ts';
import { documents } from '../../src/db/schema.ts';
import type { DocumentRow } from '../../src/documents/store/index.ts';
import { type Harness, waitFor } from '../../sim/harness/harness.ts';
import { makePaidOrder } from './order-factory.ts';

/** The report's month: in the past whatever today is, with its next month. */
export const MONTH = '2025-11';
/** 2025-11-30 23:30 in Panamá. */
export const LAST_DAY_2330 = '2025-12-01T04:30:00.000Z';
/** 2025-12-01 00:00 in Panamá: the next month. */
export const NEXT_MONTH_START = '2025-12-01T05:00:00.000Z';

export interface MonthWorld {
  /** The month's production documents. */
  inMonth: DocumentRow[];
  /** The production note authorized in the next month (of an invoice of this month). */
  nextMonthNote: DocumentRow;
  /** The test-environment invoice, authorized in the month. */
  testInvoice: DocumentRow;
  /** The invoice authorized at 23:30 on the last day. */
  lastDayInvoice: DocumentRow;
}

const refunds = (h: Harness) => `${h.app.url}/webhooks/refunds/create`;

function fixtureOrder(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'orders', `${name}.json`), 'utf8')) as Record<
    string,
    unknown
  >;
}

async function completedOf(database: Database, shop: string, orderGid: string, count: number): Promise<DocumentRow[]> {
  return waitFor(
    async () => {
      const rows = await database.db
        .select()
        .from(documents)
        .where(and(eq(documents.shop, shop), eq(documents.orderGid, orderGid)));
      const done = rows.filter((r) => r.status === 'completed' && r.step === 'done');
      return done.length === count ? done.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()) : undefined;
    },
    30_000,
    `${count} completed documents of ${orderGid}`,
  );
}

async function moveAuthorization(database: Database, id: string, at: string): Promise<void> {
  await database.db
    .update(documents)
    .set({ authorizedAt: sql`${at}::timestamptz` })
    .where(eq(documents.id, id));
}

/** Issue the month's documents for `shop` (installed with environment produccion) and date them. */
export async function makeMonth(h: Harness, database: Database, shop: string, firstOrderId: number): Promise<MonthWorld> {
  const paid = async (order: Record<string, unknown>) => {
    await h.simulator.orderPaid(shop, order, h.webhookAddress);
    return `gid://shopify/Order/${String(order['id'])}`;
  };
  // Every rate (exempt, 7, 10, 15), tax-exclusive; and a tax-inclusive order.
  const mixed = await paid(fixtureOrder('mixed-rates-exempt'));
  const inclusive = await paid(fixtureOrder('tax-inclusive'));
  // Partly refunded (one shirt of two), fully refunded, and refunded next month.
  const partial = await paid(makePaidOrder({ id: firstOrderId, shippingCents: 500 }));
  const full = await paid(makePaidOrder({ id: firstOrderId + 1 }));
  const later = await paid(
    makePaidOrder({ id: firstOrderId + 2, lines: [{ title: 'Ron', sku: 'RON', price: 3000, quantity: 1, ratePercent: 10 }] }),
  );
  const [mixedInvoice] = await completedOf(database, shop, mixed, 1);
  const [inclusiveInvoice] = await completedOf(database, shop, inclusive, 1);
  const [partialInvoice] = await completedOf(database, shop, partial, 1);
  const [fullInvoice] = await completedOf(database, shop, full, 1);
  const [laterInvoice] = await completedOf(database, shop, later, 1);

  await h.simulator.refund(shop, partial, { lines: [{ lineItemId: firstOrderId * 100, quantity: 1 }] }, refunds(h));
  await h.simulator.refund(
    shop,
    full,
    {
      lines: [
        { lineItemId: (firstOrderId + 1) * 100, quantity: 2 },
        { lineItemId: (firstOrderId + 1) * 100 + 1, quantity: 1 },
      ],
    },
    refunds(h),
  );
  await h.simulator.refund(shop, later, { lines: [{ lineItemId: (firstOrderId + 2) * 100, quantity: 1 }] }, refunds(h));
  const partialNote = (await completedOf(database, shop, partial, 2)).find((r) => r.kind === 'credit_note')!;
  const fullNote = (await completedOf(database, shop, full, 2)).find((r) => r.kind === 'credit_note')!;
  const laterNote = (await completedOf(database, shop, later, 2)).find((r) => r.kind === 'credit_note')!;

  // One invoice in the DGI's test environment.
  const current = await h.app.shops.get(shop);
  const toTest = await h.app.shops.saveSettings(shop, { ...current!.settings, environment: 'pruebas' });
  if (!toTest.ok) throw new Error(toTest.problems.join('; '));
  const testOrder = await paid(makePaidOrder({ id: firstOrderId + 3 }));
  const [testInvoice] = await completedOf(database, shop, testOrder, 1);
  const back = await h.app.shops.saveSettings(shop, { ...current!.settings, environment: 'produccion' });
  if (!back.ok) throw new Error(back.problems.join('; '));

  const inMonth = [mixedInvoice!, inclusiveInvoice!, partialInvoice!, fullInvoice!, laterInvoice!, partialNote, fullNote];
  for (const [i, doc] of inMonth.entries()) {
    const at = doc.id === mixedInvoice!.id ? LAST_DAY_2330 : new Date(Date.UTC(2025, 10, 3 + i, 15, 0, 0)).toISOString();
    await moveAuthorization(database, doc.id, at);
  }
  await moveAuthorization(database, laterNote.id, NEXT_MONTH_START);
  await moveAuthorization(database, testInvoice!.id, '2025-11-20T15:00:00.000Z');
  const reread = async (id: string) => (await database.db.select().from(documents).where(eq(documents.id, id)))[0]!;
  return {
    inMonth: await Promise.all(inMonth.map((d) => reread(d.id))),
    nextMonthNote: await reread(laterNote.id),
    testInvoice: await reread(testInvoice!.id),
    lastDayInvoice: await reread(mixedInvoice!.id),
  };
}
