// Invoice rows: intake, claiming with leases, lease-guarded updates, fiscal numbers.
import { randomBytes, createHash } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lte, notInArray, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/database.ts';
import { fiscalSequences, fiscalSkips, gatewayCalls, invoicePdfs, invoices, shops, webhookDeliveries } from '../db/schema.ts';
import type { GatewayCallRecord } from '../gateway/gateway-client.ts';

export type InvoiceRow = typeof invoices.$inferSelect;
export type InvoicePatch = Partial<Omit<typeof invoices.$inferInsert, 'id' | 'shop' | 'orderGid' | 'documentType'>>;

export interface DeliveryFacts {
  webhookId: string;
  eventId: string | undefined;
  topic: string;
  triggeredAt: string | undefined;
}

export interface NewInvoice {
  shop: string;
  orderGid: string;
  orderName: string;
  totalCents: number;
  currency: string;
  test: boolean;
  /** The webhook body exactly as received; stored as jsonb without a JS round trip. */
  rawOrder: string;
}

export type EnqueueResult = 'stored' | 'duplicate';

/** A delivery we answered 200 without storing an invoice (shop not installed or not enabled, …). */
export async function recordDelivery(db: Db, shop: string, delivery: DeliveryFacts, outcome: string, orderGid?: string): Promise<void> {
  await db.insert(webhookDeliveries).values({ ...deliveryRow(delivery, shop), orderGid, outcome });
}

function deliveryRow(d: DeliveryFacts, shop: string) {
  return { webhookId: d.webhookId, eventId: d.eventId, topic: d.topic, triggeredAt: d.triggeredAt, shop };
}

export interface ClaimOptions {
  owner: string;
  limit: number;
  leaseMs: number;
  /** Shops already at their concurrency limit in this process. */
  skipShops: string[];
}

/**
 * Take up to `limit` due invoices of enabled, unpaused shops and lease them to `owner`.
 * SKIP LOCKED lets any number of workers claim at once without waiting on or taking each other's rows;
 * an expired lease (a crashed worker) makes a row claimable again. Times come from the database clock.
 */
export async function claimDueInvoices(db: Db, o: ClaimOptions): Promise<InvoiceRow[]> {
  const due = db
    .select({ id: invoices.id })
    .from(invoices)
    .innerJoin(shops, eq(shops.shop, invoices.shop))
    .where(
      and(
        dueInvoiceCondition(),
        or(isNull(invoices.leaseUntil), lte(invoices.leaseUntil, sql`now()`)),
        o.skipShops.length > 0 ? notInArray(invoices.shop, o.skipShops) : undefined,
      ),
    )
    .orderBy(asc(invoices.nextAttemptAt))
    .limit(o.limit)
    .for('update', { of: invoices, skipLocked: true });
  return db
    .update(invoices)
    .set({ leaseOwner: o.owner, leaseUntil: leaseEnd(o.leaseMs), updatedAt: sql`now()` })
    .where(inArray(invoices.id, due))
    .returning();
}

/**
 * Invoices a worker may take now: pending, due, of an enabled, installed, unpaused shop.
 * For a query that joins `shops` on the invoice's shop.
 */
export function dueInvoiceCondition() {
  return and(
    eq(invoices.status, 'pending'),
    lte(invoices.nextAttemptAt, sql`now()`),
    eq(shops.enabled, true),
    eq(shops.installed, true),
    isNull(shops.pausedReason),
  );
}

const leaseEnd = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`;

/** Give a leased row back without touching anything else (e.g. over the per-shop limit). */
export async function releaseLease(db: Db, id: string, owner: string): Promise<void> {
  await db
    .update(invoices)
    .set({ leaseOwner: null, leaseUntil: null })
    .where(and(eq(invoices.id, id), eq(invoices.leaseOwner, owner)));
}

/**
 * Update a row this worker holds, extending its lease. Returns the new row, or undefined when the lease
 * was lost (another worker owns it now): the caller must stop working on it.
 */
export async function updateLeased(
  db: Db | Tx,
  row: InvoiceRow,
  owner: string,
  leaseMs: number,
  patch: InvoicePatch,
): Promise<InvoiceRow | undefined> {
  const updated = await db
    .update(invoices)
    .set({ ...patch, leaseUntil: leaseEnd(leaseMs), updatedAt: sql`now()` })
    .where(and(eq(invoices.id, row.id), eq(invoices.leaseOwner, owner)))
    .returning({ id: invoices.id });
  return updated.length > 0 ? patched(row, patch) : undefined;
}

/**
 * The row as a lease-guarded update left it: the holder's copy with the patch applied. Reading the whole row
 * back was most of the worker's CPU; only the lease's end and the update time (the database's clock) differ.
 */
function patched(row: InvoiceRow, patch: InvoicePatch): InvoiceRow {
  // As in the update's SET: a key whose value is undefined leaves the column as it was.
  const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  return { ...row, ...changes } as InvoiceRow;
}

/**
 * Finish with a row: write the patch and drop the lease, and log the gateway calls made for it, in one
 * statement. The calls are logged even when the lease was lost (they happened). False when it was lost.
 */
export async function finishLeased(
  db: Db,
  id: string,
  owner: string,
  patch: InvoicePatch,
  calls: GatewayCallLog = NO_CALLS,
): Promise<boolean> {
  const finish = (q: Pick<Db, 'update'>) =>
    q
      .update(invoices)
      .set({ ...patch, leaseOwner: null, leaseUntil: null, updatedAt: sql`now()` })
      .where(and(eq(invoices.id, id), eq(invoices.leaseOwner, owner)))
      .returning({ id: invoices.id });
  if (calls.records.length === 0) return (await finish(db)).length > 0;
  const logged = db.$with('logged').as(db.insert(gatewayCalls).values(callRows(calls)).returning({ id: gatewayCalls.id }));
  return (await finish(db.with(logged))).length > 0;
}

export interface Numbering {
  branchCode: string;
  billingPoint: string;
}

/**
 * Reserve the next fiscal number for a leased invoice that has none, in one statement: lock the invoice (still
 * ours, still without a number), then take the sequence's next number, then give it to the invoice. When the
 * invoice no longer qualifies the sequence is not touched, so a number is never lost or given twice.
 */
export async function reserveFiscalNumber(
  db: Db,
  invoice: InvoiceRow,
  owner: string,
  leaseMs: number,
  numbering: Numbering,
): Promise<InvoiceRow | undefined> {
  const taken = db.$with('taken', { number: sql<number>`number`.as('number') }).as(sql`
    with mine as (
      select ${invoices.id} from ${invoices}
      where ${invoices.id} = ${invoice.id} and ${invoices.leaseOwner} = ${owner} and ${invoices.fiscalNumber} is null
      for update
    )
    insert into ${fiscalSequences} (shop, branch_code, billing_point, document_type, next_number)
    select ${invoice.shop}, ${numbering.branchCode}, ${numbering.billingPoint}, ${invoice.documentType}, 2 from mine
    on conflict (shop, branch_code, billing_point, document_type)
      do update set next_number = ${fiscalSequences}.next_number + 1
    returning next_number - 1 as number`);
  const [row] = await db
    .with(taken)
    .update(invoices)
    .set({
      fiscalNumber: sql`${taken.number}`,
      branchCode: numbering.branchCode,
      billingPoint: numbering.billingPoint,
      sendMayHaveReached: false,
      leaseUntil: leaseEnd(leaseMs),
      updatedAt: sql`now()`,
    })
    .from(taken)
    .where(eq(invoices.id, invoice.id))
    .returning({ fiscalNumber: invoices.fiscalNumber });
  return row && patched(invoice, { ...row, ...numbering, sendMayHaveReached: false });
}

/** The number was used outside the app: record why it is skipped and take it off the invoice. */
export async function skipFiscalNumber(
  db: Db,
  invoice: InvoiceRow,
  owner: string,
  leaseMs: number,
  reason: string,
): Promise<InvoiceRow | undefined> {
  if (invoice.fiscalNumber === null || invoice.branchCode === null || invoice.billingPoint === null) return invoice;
  const { fiscalNumber, branchCode, billingPoint } = invoice;
  return db.transaction(async (tx) => {
    await tx.insert(fiscalSkips).values({
      shop: invoice.shop,
      branchCode,
      billingPoint,
      documentType: invoice.documentType,
      number: fiscalNumber,
      reason,
      invoiceId: invoice.id,
    });
    return updateLeased(tx, invoice, owner, leaseMs, { fiscalNumber: null, sendMayHaveReached: false });
  });
}

/**
 * Store the invoice's PDF under a new link token and update the leased row, in one statement. A PDF stored
 * by an earlier attempt wins (its link may already be on the order): its token is the one returned.
 * Undefined when the lease was lost (the PDF is kept all the same).
 */
export async function storePdfAndUpdate(
  db: Db,
  row: InvoiceRow,
  owner: string,
  leaseMs: number,
  pdf: Buffer,
  patch: InvoicePatch,
): Promise<{ row: InvoiceRow; pdfToken: string } | undefined> {
  const stored = db.$with('stored').as(
    db
      .insert(invoicePdfs)
      .values({
        invoiceId: row.id,
        token: randomBytes(24).toString('base64url'),
        sha256: createHash('sha256').update(pdf).digest('hex'),
        bytes: pdf,
      })
      .onConflictDoUpdate({ target: invoicePdfs.invoiceId, set: { invoiceId: sql`excluded.invoice_id` } })
      .returning({ token: invoicePdfs.token }),
  );
  const [updated] = await db
    .with(stored)
    .update(invoices)
    .set({ ...patch, leaseUntil: leaseEnd(leaseMs), updatedAt: sql`now()` })
    .from(stored)
    .where(and(eq(invoices.id, row.id), eq(invoices.leaseOwner, owner)))
    .returning({ pdfToken: stored.token });
  return updated && { row: patched(row, patch), pdfToken: updated.pdfToken };
}

export async function findPdfByToken(db: Db, token: string): Promise<{ bytes: Buffer; sha256: string; invoiceId: string } | undefined> {
  const [row] = await db
    .select({ bytes: invoicePdfs.bytes, sha256: invoicePdfs.sha256, invoiceId: invoicePdfs.invoiceId })
    .from(invoicePdfs)
    .where(eq(invoicePdfs.token, token));
  return row;
}

export async function pdfTokenFor(db: Db, invoiceId: string): Promise<string | undefined> {
  const [row] = await db.select({ token: invoicePdfs.token }).from(invoicePdfs).where(eq(invoicePdfs.invoiceId, invoiceId));
  return row?.token;
}

/** Gateway calls made for one invoice, for the audit table. */
export interface GatewayCallLog {
  shop: string;
  invoiceId: string;
  records: GatewayCallRecord[];
}
const NO_CALLS: GatewayCallLog = { shop: '', invoiceId: '', records: [] };

export async function recordGatewayCalls(db: Db, calls: GatewayCallLog): Promise<void> {
  if (calls.records.length === 0) return;
  await db.insert(gatewayCalls).values(callRows(calls));
}

function callRows({ shop, invoiceId, records }: GatewayCallLog) {
  return records.map((c) => ({
    invoiceId,
    shop,
    operation: c.operation,
    outcome: c.outcome,
    code: c.code ?? null,
    message: c.message?.slice(0, 1000) ?? null,
    durationMs: c.durationMs,
    request: c.request,
    response: c.response,
  }));
}

export async function getInvoice(db: Db, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id));
  return row;
}

/** Put invoices back in the queue by hand (after a settings fix). Completed invoices are never touched. */
export async function retryInvoices(
  db: Db,
  filter: { shop?: string; ids?: string[]; statuses?: ('failed' | 'needs_attention')[] },
): Promise<number> {
  const statuses = filter.statuses ?? ['failed', 'needs_attention'];
  const rows = await db
    .update(invoices)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        inArray(invoices.status, statuses),
        filter.shop ? eq(invoices.shop, filter.shop) : undefined,
        filter.ids ? inArray(invoices.id, filter.ids) : undefined,
      ),
    )
    .returning({ id: invoices.id });
  return rows.length;
}
