// The intake's statements: a batch of webhook deliveries stored as documents (idempotent on shop, kind and source)
// with their delivery records, in one statement; and deliveries answered without a document.
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.ts';
import { webhookDeliveries } from '../../db/schema.ts';
import type { DocumentKind } from '../../db/document-state.ts';

export interface DeliveryFacts {
  webhookId: string;
  eventId: string | undefined;
  topic: string;
  triggeredAt: string | undefined;
}

/** A document as a webhook (or the sweep) brings it. */
export interface NewDocument {
  shop: string;
  kind: DocumentKind;
  /** Unique within shop and kind: the order GID of an invoice, the refund GID of a credit note. */
  sourceKey: string;
  documentType: string;
  orderGid: string;
  /** Undefined for a refund (its body has no order name): taken from the order's invoice when there is one. */
  orderName: string | undefined;
  totalCents: number;
  currency: string;
  test: boolean;
  /**
   * The webhook body as received (safe for the database's JSON functions), stored without a JS round trip: its text,
   * or its bytes when they are valid UTF-8 (sent as they are, no second encoding).
   */
  rawSnapshot: string | Buffer;
  /** The backfill that brings it (docs/backfill.md); a live order's has none. */
  backfillId?: string | undefined;
}

export type EnqueueResult = 'stored' | 'duplicate';

export interface IntakeItem {
  document: NewDocument;
  delivery: DeliveryFacts;
}

/**
 * Store a batch in one statement (its own transaction): the database function `intake_documents` (migration 0005,
 * which says why it is a function). Per delivery, its facts travel as one small JSON text and its snapshot as another
 * text, stored as it arrived (the database need not parse it); JSON texts rather than a parameter per column, which
 * cost more CPU to build (bench/RESULTS.md).
 */
export async function insertBatch(db: Db, batch: readonly IntakeItem[]): Promise<EnqueueResult[]> {
  const facts = batch.map(({ document: d, delivery }, i) =>
    JSON.stringify({
      i,
      shop: d.shop,
      kind: d.kind,
      source_key: d.sourceKey,
      document_type: d.documentType,
      order_gid: d.orderGid,
      order_name: d.orderName ?? null,
      total_cents: d.totalCents,
      currency: d.currency,
      test: d.test,
      webhook_id: delivery.webhookId,
      event_id: delivery.eventId ?? null,
      topic: delivery.topic,
      triggered_at: delivery.triggeredAt ?? null,
      backfill_id: d.backfillId ?? null,
    }),
  );
  const list = (values: readonly unknown[]) =>
    sql.join(
      values.map((v) => sql`${v}`),
      sql`, `,
    );
  const rows = await db.execute<{ i: number; outcome: EnqueueResult }>(
    sql`select i, outcome from intake_documents(array[${list(facts)}]::text[], array[${list(batch.map((b) => b.document.rawSnapshot))}]::text[])`,
  );
  return resultsInOrder(rowsOf(rows), batch.length);
}

function resultsInOrder(rows: { i: number; outcome: EnqueueResult }[], size: number): EnqueueResult[] {
  const results = new Array<EnqueueResult | undefined>(size);
  for (const r of rows) results[Number(r.i)] = r.outcome;
  if (results.some((r) => r === undefined) || rows.length !== size)
    throw new Error('intake: the batch statement did not answer for every delivery');
  return results as EnqueueResult[];
}

/** A delivery we answered without storing a document (shop not installed or not enabled, …). */
export async function recordDelivery(db: Db, shop: string, delivery: DeliveryFacts, outcome: string, orderGid?: string): Promise<void> {
  await db.insert(webhookDeliveries).values({
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    topic: delivery.topic,
    triggeredAt: delivery.triggeredAt,
    shop,
    orderGid,
    outcome,
  });
}

/**
 * Deliveries on record by topic and outcome (metrics). The sweep's and the backfill's enqueues are recorded like
 * deliveries, not counted.
 */
export async function countDeliveries(db: Db): Promise<{ topic: string; outcome: string; n: number }[]> {
  const rows = await db
    .select({ topic: webhookDeliveries.topic, outcome: webhookDeliveries.outcome, n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(sql`${webhookDeliveries.webhookId} not like 'sweep-%' and ${webhookDeliveries.webhookId} not like 'backfill-%'`)
    .groupBy(webhookDeliveries.topic, webhookDeliveries.outcome);
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}
