// The Shopify Flow trigger outbox (docs/flow.md); only the documents store speaks SQL to it.
import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { FLOW_EVENTS, FLOW_STATUSES } from './flow-state.ts';
import { oneOf, queueColumns, rowTimes, tstz } from './schema-columns.ts';

/**
 * One Flow trigger to fire: queued by the statement that completes a document (after its write-back) or stops it for a
 * person, sent by the Flow runner under its own lease. The unique index holds each event to once per document,
 * whichever process or retry queues it. A document's removal (shop/redact) removes its events.
 */
export const flowEvents = pgTable(
  'flow_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // The reference is declared in drizzle/0011 (hand-written): this schema module stays apart from documents'.
    documentId: uuid('document_id').notNull(),
    shop: text('shop').notNull(),
    event: text('event', { enum: FLOW_EVENTS }).notNull(),
    /** Why the document needs a person, as a catalogue message { key, params }, rendered in the shop's language when sent. */
    reason: jsonb('reason'),
    status: text('status', { enum: FLOW_STATUSES }).notNull().default('pending'),
    ...queueColumns(),
    sentAt: tstz('sent_at'),
    /** Why the last attempt failed (Shopify's userErrors, or the Admin API failure), for operators. */
    lastError: text('last_error'),
    ...rowTimes(),
  },
  (t) => [
    uniqueIndex('flow_events_document_event_uq').on(t.documentId, t.event),
    index('flow_events_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    check('flow_events_event_ck', oneOf('event', FLOW_EVENTS)),
    check('flow_events_status_ck', oneOf('status', FLOW_STATUSES)),
  ],
);
