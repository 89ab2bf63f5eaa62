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

/** What a trigger's payload reads of a document. */
export type FlowDocument = Pick<
  DocumentRow,
  'orderGid' | 'fiscalNumber' | 'branchCode' | 'billingPoint' | 'cufe' | 'totalCents' | 'sourceKey'
>;

/** A claimed event with what its trigger is made of, read in the claiming statement. */
export interface ClaimedFlowEvent {
  event: Pick<FlowEventRow, 'id' | 'documentId' | 'shop' | 'event' | 'reason' | 'attempts'>;
  /** The document (only what a payload reads) and its PDF's link token; undefined: the document is gone. */
  content: { doc: FlowDocument; pdfToken: string | null } | undefined;
  /** The shop's stored `settings.flowTriggers`, unparsed (the shops module owns the settings' schema). */
  flowTriggers: unknown;
}

/**
 * Take up to `limit` due events of installed shops and lease them to `owner` (SKIP LOCKED: any number of runners claim
 * at once, none takes a row another holds; an expired lease makes a row claimable again). Database clock. The same
 * statement reads what their triggers are made of: each document (not the order's snapshot), its PDF's token and the
 * shop's Flow settings, so a batch costs one round trip.
 */
export async function claimDueFlowEvents(db: Db, o: { owner: string; limit: number; leaseMs: number }): Promise<ClaimedFlowEvent[]> {
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
  const claimed = db.$with('claimed').as(
    db
      .update(flowEvents)
      .set({ leaseOwner: o.owner, leaseUntil: leaseEnd(o.leaseMs), updatedAt: sql`now()` })
      .where(and(inArray(flowEvents.id, due), eq(flowEvents.status, 'pending')))
      .returning({
        id: flowEvents.id,
        documentId: flowEvents.documentId,
        shop: flowEvents.shop,
        event: flowEvents.event,
        reason: flowEvents.reason,
        attempts: flowEvents.attempts,
      }),
  );
  // A nested object of a left-joined table is null when the row found none: a document that is gone.
  const rows = await db
    .with(claimed)
    .select({
      event: {
        id: claimed.id,
        documentId: claimed.documentId,
        shop: claimed.shop,
        event: claimed.event,
        reason: claimed.reason,
        attempts: claimed.attempts,
      },
      doc: {
        orderGid: documents.orderGid,
        fiscalNumber: documents.fiscalNumber,
        branchCode: documents.branchCode,
        billingPoint: documents.billingPoint,
        cufe: documents.cufe,
        totalCents: documents.totalCents,
        sourceKey: documents.sourceKey,
      },
      pdfToken: documentPdfs.token,
      flowTriggers: sql<unknown>`${shops.settings} -> 'flowTriggers'`,
    })
    .from(claimed)
    .leftJoin(documents, eq(documents.id, claimed.documentId))
    .leftJoin(documentPdfs, eq(documentPdfs.documentId, claimed.documentId))
    .leftJoin(shops, eq(shops.shop, claimed.shop));
  return rows.map(({ event, doc, pdfToken, flowTriggers }) => ({
    event,
    content: doc ? { doc, pdfToken } : undefined,
    flowTriggers,
  }));
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
