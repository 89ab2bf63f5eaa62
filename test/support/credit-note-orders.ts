// Orders with credit notes, made through the store simulator as a merchant would (a paid order, then refunds from
// the order's page), for the tests of what people see of notes: the admin API, the page, the CLI.
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../src/db/database.ts';
import { documents } from '../../src/db/schema.ts';
import type { DocumentRow } from '../../src/documents/store/index.ts';
import { type Harness, waitFor } from '../../sim/harness/harness.ts';
import { makePaidOrder } from './order-factory.ts';

const refundsAddress = (h: Harness) => `${h.app.url}/webhooks/refunds/create`;

async function orderRows(database: Database, shop: string, orderGid: string): Promise<DocumentRow[]> {
  return database.db
    .select()
    .from(documents)
    .where(and(eq(documents.shop, shop), eq(documents.orderGid, orderGid)));
}

/** The order's documents once `check` says they are as wanted. */
async function settled<T>(database: Database, shop: string, orderGid: string, check: (rows: DocumentRow[]) => T | undefined, what: string) {
  return waitFor(async () => check(await orderRows(database, shop, orderGid)), 30_000, what);
}

const done = (r: DocumentRow) => r.status === 'completed' && r.step === 'done';

export interface InvoiceWithNotes {
  orderGid: string;
  orderName: string;
  invoice: DocumentRow;
  /** Oldest first: one shirt of two, then the shipping. */
  notes: [DocumentRow, DocumentRow];
}

/**
 * makePaidOrder's order (two shirts at 24.50 + 7 %, a book at 18.00 exempt) with 5.00 + 7 % shipping, invoiced; then
 * one shirt refunded (26.22), then the shipping (5.35): two notes, authorized and written back.
 */
export async function invoiceWithTwoNotes(h: Harness, database: Database, shop: string, orderId: number): Promise<InvoiceWithNotes> {
  const order = makePaidOrder({ id: orderId, shippingCents: 500 });
  const orderGid = `gid://shopify/Order/${orderId}`;
  await h.simulator.orderPaid(shop, order, h.webhookAddress);
  await settled(database, shop, orderGid, (rows) => rows.find(done), 'the invoice');
  await h.simulator.refund(shop, orderGid, { lines: [{ lineItemId: orderId * 100, quantity: 1 }] }, refundsAddress(h));
  await settled(database, shop, orderGid, (rows) => rows.filter(done).length === 2 || undefined, 'the first note');
  await h.simulator.refund(shop, orderGid, { shipping: 'full' }, refundsAddress(h));
  return settled(
    database,
    shop,
    orderGid,
    (rows) => {
      const notes = rows.filter((r) => r.kind === 'credit_note' && done(r)).sort((a, b) => a.fiscalNumber! - b.fiscalNumber!);
      const invoice = rows.find((r) => r.kind === 'invoice');
      return invoice && notes.length === 2 ? { orderGid, orderName: invoice.orderName, invoice, notes: [notes[0]!, notes[1]!] } : undefined;
    },
    'the second note',
  );
}

/**
 * An order whose invoice needs attention (8.5 % is no ITBMS rate), refunded in full: its note waits for the invoice.
 */
export async function noteWaitingForInvoice(
  h: Harness,
  database: Database,
  shop: string,
  orderId: number,
): Promise<{ orderGid: string; invoice: DocumentRow; note: DocumentRow }> {
  const order = makePaidOrder({
    id: orderId,
    lines: [{ title: 'Vino importado', sku: 'VIN-01', price: 2000, quantity: 1, ratePercent: 8.5 }],
  });
  const orderGid = `gid://shopify/Order/${orderId}`;
  await h.simulator.orderPaid(shop, order, h.webhookAddress);
  const invoice = await settled(database, shop, orderGid, (rows) => rows.find((r) => r.status === 'needs_attention'), 'the stuck invoice');
  await h.simulator.refund(shop, orderGid, { lines: [{ lineItemId: orderId * 100, quantity: 1 }] }, refundsAddress(h));
  const note = await settled(database, shop, orderGid, (rows) => rows.find((r) => r.status === 'waiting'), 'the note to wait');
  return { orderGid, invoice, note };
}
