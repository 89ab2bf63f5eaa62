// The Flow trigger outbox's statements (docs/flow.md): queueing an event with the statement that completes or stops a
// document, the Flow runner's leased claims and results, and what a trigger's payload is made of. Every runner update
// is guarded by its lease.
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import type { FlowEvent } from '../../db/flow-state.ts';
import { documentPdfs, documents, flowEvents, shops } from '../../db/schema.ts';
import type { Message } from '../../messages/message.ts';
import type { DocumentRow } from './document-rows.ts';

export type FlowEventRow = typeof flowEvents.$inferSelect;

export interface FlowEventToQueue {
  documentId: string;
  shop: string;
  event: FlowEvent;
  /** The reason a person is needed (invoice_needs_attention). */
  reason?: Message;
}

const leaseEnd = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`;

/**
 * The insert of a document's Flow event, as a CTE for the statement that completes or stops the document (the lease
 * holder's, `owner`): queued in the same statement, so a crash cannot finish the document and lose its trigger, and only
 * while `owner` holds the document, so a worker that lost its lease queues nothing. At most one per document and event.
 */
export function flowEventInsert(db: Db, event: FlowEventToQueue, owner: string) {
  const reason = event.reason === undefined ? null : JSON.stringify(event.reason);
  return db.$with('queued_flow_event', { id: sql<string>`id`.as('id') }).as(sql`
    insert into ${flowEvents} (document_id, shop, event, reason)
    select ${event.documentId}::uuid, ${event.shop}, ${event.event}, ${reason}::jsonb
    where exists (select 1 from ${documents} where ${documents.id} = ${event.documentId} and ${documents.leaseOwner} = ${owner})
    on conflict do nothing
    returning id`);
}

/**
 * Take up to `limit` due events of installed shops and lease them to `owner` (SKIP LOCKED: any number of runners claim
 * at once, none takes a row another holds; an expired lease makes a row claimable again). Database clock.
 */
export async function claimDueFlowEvents(db: Db, o: { owner: string; limit: number; leaseMs: number }): Promise<FlowEventRow[]> {
  const due = db
    .select({ id: flowEvents.id })
    .from(flowEvents)
    .innerJoin(shops, eq(shops.shop, flowEvents.shop))
    .where(
      and(
        eq(flowEvents.status, 'pending'),
        lte(flowEvents.nextAttemptAt, sql`now()`),
        or(isNull(flowEvents.leaseUntil), lte(flowEvents.leaseUntil, sql`now()`)),
        eq(shops.installed, true),
      ),
    )
    .orderBy(asc(flowEvents.nextAttemptAt))
    .limit(o.limit)
    .for('update', { of: flowEvents, skipLocked: true });
  return db
    .update(flowEvents)
    .set({ leaseOwner: o.owner, leaseUntil: leaseEnd(o.leaseMs), updatedAt: sql`now()` })
    .where(and(inArray(flowEvents.id, due), eq(flowEvents.status, 'pending')))
    .returning();
}

/** Shopify took the trigger. False when the lease was lost. */
export async function markFlowEventSent(db: Db, id: string, owner: string, attempts: number): Promise<boolean> {
  return finishLeasedFlowEvent(db, id, owner, { status: 'sent', attempts, sentAt: new Date(), lastError: null });
}

/** An attempt failed: try again at `nextAttemptAt`, or give up (`failed`), with the reason. */
export async function markFlowEventFailed(
  db: Db,
  id: string,
  owner: string,
  o: { attempts: number; failed: boolean; nextAttemptAt: Date; lastError: string },
): Promise<boolean> {
  return finishLeasedFlowEvent(db, id, owner, {
    status: o.failed ? 'failed' : 'pending',
    attempts: o.attempts,
    nextAttemptAt: o.nextAttemptAt,
    lastError: o.lastError.slice(0, 1000),
  });
}

async function finishLeasedFlowEvent(db: Db, id: string, owner: string, patch: Partial<typeof flowEvents.$inferInsert>): Promise<boolean> {
  const done = await db
    .update(flowEvents)
    .set({ ...patch, leaseOwner: null, leaseUntil: null, updatedAt: sql`now()` })
    .where(and(eq(flowEvents.id, id), eq(flowEvents.leaseOwner, owner)))
    .returning({ id: flowEvents.id });
  return done.length > 0;
}

/** What a trigger's payload reads of a document. */
export type FlowDocument = Pick<
  DocumentRow,
  'orderGid' | 'fiscalNumber' | 'branchCode' | 'billingPoint' | 'cufe' | 'totalCents' | 'sourceKey'
>;

/**
 * What the payloads of a claimed batch are made of, in one read: each document (only what a payload reads; not the
 * order's snapshot) and its PDF's link token, by document id. A document that is gone is missing from the map.
 */
export async function flowEventContents(
  db: Db,
  documentIds: readonly string[],
): Promise<Map<string, { doc: FlowDocument; pdfToken: string | null }>> {
  if (documentIds.length === 0) return new Map();
  const found = await db
    .select({
      id: documents.id,
      orderGid: documents.orderGid,
      fiscalNumber: documents.fiscalNumber,
      branchCode: documents.branchCode,
      billingPoint: documents.billingPoint,
      cufe: documents.cufe,
      totalCents: documents.totalCents,
      sourceKey: documents.sourceKey,
      pdfToken: documentPdfs.token,
    })
    .from(documents)
    .leftJoin(documentPdfs, eq(documentPdfs.documentId, documents.id))
    .where(inArray(documents.id, [...documentIds]));
  return new Map(found.map(({ id, pdfToken, ...doc }) => [id, { doc, pdfToken }]));
}
