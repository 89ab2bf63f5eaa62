// The worker's statements on documents: claiming with a lease, lease-guarded updates, fiscal numbers, PDFs and the
// gateway-call audit. Every update is guarded by the lease: a worker that lost its lease changes nothing.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { IssuingPoint } from '../../../mappers/invoice/document-numbering.ts';
import type { Db, Tx } from '../../db/database.ts';
import { documentPdfs, documents, fiscalSequences, fiscalSkips, gatewayCalls, shops, webhookDeliveries } from '../../db/schema.ts';
import type { GatewayCallRecord } from '../../gateway/gateway-client.ts';
import type { GatewayEnvironment } from '../../gateway/gateway-types.ts';
import { CLAIMABLE_STATUSES } from '../../db/document-state.ts';
import type { DocumentPatch, DocumentRow } from './document-rows.ts';
import { type EmailToQueue, authorizedEmailInsert } from './email-statements.ts';
import { type FlowEventToQueue, flowEventInsert } from './flow-statements.ts';

export interface ClaimOptions {
  owner: string;
  limit: number;
  leaseMs: number;
  /** Most documents of one shop this process may hold at once (WORKER_SHOP_CONCURRENCY). */
  shopLimit: number;
  /** Documents each shop has in this process now. */
  held: ReadonlyMap<string, number>;
}

const leaseEnd = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`;

/**
 * Documents a worker may take now: pending or waiting, due, of an enabled, installed, unpaused shop.
 * For a query that joins `shops` on the document's shop.
 */
export function dueCondition() {
  return and(
    inArray(documents.status, CLAIMABLE_STATUSES),
    lte(documents.nextAttemptAt, sql`now()`),
    eq(shops.enabled, true),
    eq(shops.installed, true),
    isNull(shops.pausedReason),
  );
}

/** The worker may take the row of `documents` aliased `t` now: claimable, due and not leased. */
const takable = (t: string) =>
  sql.raw(
    `${t}.status in (${CLAIMABLE_STATUSES.map((s) => `'${s}'`).join(', ')}) and ${t}.next_attempt_at <= now() ` +
      `and (${t}.lease_until is null or ${t}.lease_until <= now())`,
  );

/**
 * Take up to `limit` due documents, fairly between shops, and lease them to `owner`. Every shop with due work (and
 * room under `shopLimit` in this process) gets its turn 1 before any shop gets its turn 2, oldest first within a
 * turn, so one shop's flash sale does not make the others' invoices wait behind it; within a shop, its live documents
 * come before those a backfill brought (docs/backfill.md), so a backfill of thousands never holds a new sale back. The
 * due index leads with the same order, so this stays index-driven. Each shop offers up to twice
 * an equal share of `limit`: the second half stands in for rows another worker has just locked (the runner claims
 * again when shops had less). The shops with due work are found by one probe each of the due index, so the claim
 * reads about twice `limit` plus one row per shop however long the queue is. Only the
 * chosen rows are locked, with SKIP LOCKED, so any number of workers claim at once and none takes a row another
 * holds; the lease is checked again on the locked row. An expired lease (a crashed worker) makes a row claimable
 * again. Times come from the database clock.
 */
export async function claimDue(db: Db, o: ClaimOptions): Promise<DocumentRow[]> {
  const held = JSON.stringify(Object.fromEntries(o.held));
  const picked = db.$with('picked', { id: sql<string>`id`.as('id') }).as(sql`
    with recursive due_shops(shop) as (
      (select d.shop from ${documents} d where ${takable('d')} order by d.shop limit 1)
      union all
      select (select d.shop from ${documents} d where d.shop > due_shops.shop and ${takable('d')} order by d.shop limit 1)
      from due_shops where due_shops.shop is not null
    ),
    open_shops as (
      select due_shops.shop, ${o.shopLimit} - coalesce(held.n, 0) as room
      from due_shops
      join ${shops} s on s.shop = due_shops.shop and s.enabled and s.installed and s.paused_reason is null
      left join (select key as shop, value::int as n from json_each_text(${held}::json)) held on held.shop = due_shops.shop
      where coalesce(held.n, 0) < ${o.shopLimit}
    ),
    candidates as (
      select due.id, due.turn, due.next_attempt_at
      from open_shops cross join lateral (
        select d.id, d.next_attempt_at,
          row_number() over (order by (d.backfill_id is not null), d.next_attempt_at) as turn
        from ${documents} d
        where d.shop = open_shops.shop and ${takable('d')}
        order by (d.backfill_id is not null), d.next_attempt_at
        limit least(open_shops.room, 2 * ceil(${o.limit}::numeric / (select count(*) from open_shops)))
      ) due
      order by due.turn, due.next_attempt_at
      limit ${2 * o.limit}
    )
    select d.id from ${documents} d join candidates c on c.id = d.id
    where ${takable('d')}
    order by c.turn, c.next_attempt_at
    limit ${o.limit}
    for update of d skip locked`);
  return db
    .with(picked)
    .update(documents)
    .set({ leaseOwner: o.owner, leaseUntil: leaseEnd(o.leaseMs), updatedAt: sql`now()` })
    .where(inArray(documents.id, db.select({ id: picked.id }).from(picked)))
    .returning();
}

/** Give a leased row back without touching anything else (e.g. over the per-shop limit). */
export async function releaseLease(db: Db, id: string, owner: string): Promise<void> {
  await db
    .update(documents)
    .set({ leaseOwner: null, leaseUntil: null })
    .where(and(eq(documents.id, id), eq(documents.leaseOwner, owner)));
}

/**
 * Update a row this worker holds, extending its lease. Returns the new row, or undefined when the lease was lost
 * (another worker owns it now): the caller must stop working on it.
 */
export async function updateLeased(
  db: Db | Tx,
  row: DocumentRow,
  owner: string,
  leaseMs: number,
  patch: DocumentPatch,
  alongside?: Parameters<Db['with']>[0],
): Promise<DocumentRow | undefined> {
  const updated = await db
    .with(...(alongside ? [alongside] : []))
    .update(documents)
    .set({ ...patch, leaseUntil: leaseEnd(leaseMs), updatedAt: sql`now()` })
    .where(and(eq(documents.id, row.id), eq(documents.leaseOwner, owner)))
    .returning({ id: documents.id });
  return updated.length > 0 ? patched(row, patch) : undefined;
}

/**
 * The row as a lease-guarded update left it: the holder's copy with the patch applied. Reading the whole row back
 * was most of the worker's CPU; only the lease's end and the update time (the database's clock) differ.
 */
function patched(row: DocumentRow, patch: DocumentPatch): DocumentRow {
  // As in the update's SET: a key whose value is undefined leaves the column as it was.
  const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  return { ...row, ...changes } as DocumentRow;
}

/** Gateway calls made for one document, for the audit table. */
export interface GatewayCallLog {
  shop: string;
  documentId: string;
  records: GatewayCallRecord[];
}
const NO_CALLS: GatewayCallLog = { shop: '', documentId: '', records: [] };

/**
 * Finish with a row: write the patch and drop the lease, log the gateway calls made for it, queue the buyer's
 * e-mail of a completed document and the document's Flow event (docs/flow.md), in one statement. The calls are logged
 * even when the lease was lost (they happened), and so is the e-mail queued (the document is authorized either way;
 * one per document); the Flow event only while the lease holds (the new holder decides what happens). False when the
 * lease was lost.
 */
export async function finishLeased(
  db: Db,
  id: string,
  owner: string,
  patch: DocumentPatch,
  calls: GatewayCallLog = NO_CALLS,
  email?: EmailToQueue,
  flow?: FlowEventToQueue,
): Promise<boolean> {
  const finish = (q: Pick<Db, 'update'>) =>
    q
      .update(documents)
      .set({ ...patch, leaseOwner: null, leaseUntil: null, updatedAt: sql`now()` })
      .where(and(eq(documents.id, id), eq(documents.leaseOwner, owner)))
      .returning({ id: documents.id });
  const ctes = [
    ...(calls.records.length > 0
      ? [db.$with('logged').as(db.insert(gatewayCalls).values(callRows(calls)).returning({ id: gatewayCalls.id }))]
      : []),
    ...(email ? [authorizedEmailInsert(db, email)] : []),
    ...(flow ? [flowEventInsert(db, flow, owner)] : []),
  ];
  return (await finish(ctes.length > 0 ? db.with(...ctes) : db)).length > 0;
}

/**
 * A document that must not exist (its order is not this shop's): removed with its lease, never once numbered, and the
 * delivery that brought it recorded as refused. Nothing of it remains but that record.
 */
export async function discardLeased(db: Db, doc: DocumentRow, owner: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(documents)
      .where(and(eq(documents.id, doc.id), eq(documents.leaseOwner, owner), isNull(documents.fiscalNumber)))
      .returning({ id: documents.id });
    if (gone.length === 0) return false;
    await tx
      .update(webhookDeliveries)
      .set({ outcome: 'refused_not_in_shop' })
      .where(
        and(eq(webhookDeliveries.shop, doc.shop), eq(webhookDeliveries.orderGid, doc.orderGid), eq(webhookDeliveries.outcome, 'stored')),
      );
    return true;
  });
}

/** The series a document is numbered in: its environment, branch, billing point (and its own document type). */
export interface SeriesPoint extends IssuingPoint {
  environment: GatewayEnvironment;
}

/**
 * Reserve the next fiscal number for a leased document that has none, in one statement: lock the document (still
 * ours, still without a number), then take the next number of its series (environment, branch, point, type), then
 * give it to the document with the environment it was numbered for. When the document no longer qualifies the series
 * is not touched, so a number is never lost or given twice.
 */
export async function reserveFiscalNumber(
  db: Db,
  row: DocumentRow,
  owner: string,
  leaseMs: number,
  numbering: SeriesPoint,
): Promise<DocumentRow | undefined> {
  const taken = db.$with('taken', { number: sql<number>`number`.as('number') }).as(sql`
    with mine as (
      select ${documents.id} from ${documents}
      where ${documents.id} = ${row.id} and ${documents.leaseOwner} = ${owner} and ${documents.fiscalNumber} is null
      for update
    )
    insert into ${fiscalSequences} (shop, environment, branch_code, billing_point, document_type, next_number)
    select ${row.shop}, ${numbering.environment}, ${numbering.branchCode}, ${numbering.billingPoint}, ${row.documentType}, 2
    from mine
    on conflict (shop, environment, branch_code, billing_point, document_type)
      do update set next_number = ${fiscalSequences}.next_number + 1
    returning next_number - 1 as number`);
  const point = { branchCode: numbering.branchCode, billingPoint: numbering.billingPoint, environment: numbering.environment };
  const [reserved] = await db
    .with(taken)
    .update(documents)
    .set({
      fiscalNumber: sql`${taken.number}`,
      ...point,
      sendMayHaveReached: false,
      leaseUntil: leaseEnd(leaseMs),
      updatedAt: sql`now()`,
    })
    .from(taken)
    .where(eq(documents.id, row.id))
    .returning({ fiscalNumber: documents.fiscalNumber });
  return reserved && patched(row, { ...reserved, ...point, sendMayHaveReached: false });
}

/** The number was used outside the app: record why it is skipped and take it off the document. */
export async function skipFiscalNumber(
  db: Db,
  row: DocumentRow,
  owner: string,
  leaseMs: number,
  reason: string,
): Promise<DocumentRow | undefined> {
  if (row.fiscalNumber === null || row.branchCode === null || row.billingPoint === null) return row;
  const { fiscalNumber, branchCode, billingPoint } = row;
  return db.transaction(async (tx) => {
    // Off the document first: with the lease lost, the number stays where it is and no skip is recorded.
    const updated = await updateLeased(tx, row, owner, leaseMs, { fiscalNumber: null, sendMayHaveReached: false });
    if (!updated) return undefined;
    await tx.insert(fiscalSkips).values({
      shop: row.shop,
      environment: row.environment ?? 'pruebas',
      branchCode,
      billingPoint,
      documentType: row.documentType,
      number: fiscalNumber,
      reason,
      documentId: row.id,
    });
    return updated;
  });
}

/**
 * Store the document's PDF under a new link token and update the leased row, in one statement. A PDF stored by an
 * earlier attempt wins (its link may already be on the order): its token is the one returned. Undefined when the
 * lease was lost (the PDF is kept all the same).
 */
export async function storePdfAndUpdate(
  db: Db,
  row: DocumentRow,
  owner: string,
  leaseMs: number,
  pdf: Buffer,
  patch: DocumentPatch,
): Promise<{ row: DocumentRow; pdfToken: string } | undefined> {
  const stored = db.$with('stored').as(
    db
      .insert(documentPdfs)
      .values({
        documentId: row.id,
        token: randomBytes(24).toString('base64url'),
        sha256: createHash('sha256').update(pdf).digest('hex'),
        bytes: pdf,
      })
      .onConflictDoUpdate({ target: documentPdfs.documentId, set: { documentId: sql`excluded.document_id` } })
      .returning({ token: documentPdfs.token }),
  );
  const [updated] = await db
    .with(stored)
    .update(documents)
    .set({ ...patch, leaseUntil: leaseEnd(leaseMs), updatedAt: sql`now()` })
    .from(stored)
    .where(and(eq(documents.id, row.id), eq(documents.leaseOwner, owner)))
    .returning({ pdfToken: stored.token });
  return updated && { row: patched(row, patch), pdfToken: updated.pdfToken };
}

export async function pdfTokenFor(db: Db, documentId: string): Promise<string | undefined> {
  const [row] = await db.select({ token: documentPdfs.token }).from(documentPdfs).where(eq(documentPdfs.documentId, documentId));
  return row?.token;
}

export async function recordGatewayCalls(db: Db, calls: GatewayCallLog): Promise<void> {
  if (calls.records.length === 0) return;
  await db.insert(gatewayCalls).values(callRows(calls));
}

function callRows({ shop, documentId, records }: GatewayCallLog) {
  return records.map((c) => ({
    documentId,
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
