// The intake's statements: a batch of webhook deliveries stored as documents (idempotent on shop, kind and source)
// with their delivery records, in one statement; and deliveries answered without a document.
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.ts';
import { documents, webhookDeliveries } from '../../db/schema.ts';
import type { DocumentKind } from '../document-state.ts';

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
  /** The webhook body as received (safe for the database's JSON functions): stored without a JS round trip. */
  rawSnapshot: string;
}

export type EnqueueResult = 'stored' | 'duplicate';

export interface IntakeItem {
  document: NewDocument;
  delivery: DeliveryFacts;
}

/**
 * Store a batch in one statement (its own transaction). Per delivery, its facts travel as one small JSON parameter
 * and its snapshot as another, stored as the text that arrived (the database need not parse it). Each row carries
 * both, so no join copies 8 KB snapshots into a hash table, and the duplicate check sorts only the small columns.
 * JSON parameters rather than a multi-row insert per table, which costs more CPU to build (bench/RESULTS.md).
 */
export async function insertBatch(db: Db, batch: readonly IntakeItem[]): Promise<EnqueueResult[]> {
  const rowsSql = sql.join(
    batch.map(({ document: d, delivery }, i) => {
      const facts = JSON.stringify({
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
      });
      return sql`(${facts}::text, ${d.rawSnapshot}::text)`;
    }),
    sql`, `,
  );
  const rows = await db.execute<{ i: number; outcome: EnqueueResult }>(sql`
    with batch as (
      select b.*, s.body
      from (values ${rowsSql}) as s(facts, body),
        json_to_record(s.facts::json) as b(
          i int, shop text, kind text, source_key text, document_type text, order_gid text, order_name text,
          total_cents bigint, currency text, test boolean, webhook_id text, event_id text, topic text, triggered_at text)
    ),
    inserted as (
      -- In delivery order, so the first delivery of a source in the batch is the one stored. A refund's order name
      -- comes from its order's invoice when there is one.
      insert into ${documents} (shop, kind, source_key, document_type, order_gid, order_name, total_cents, currency, test, snapshot)
      select shop, kind, source_key, document_type, order_gid,
        coalesce(order_name, (
          select d.order_name from ${documents} d
          where d.shop = batch.shop and d.order_gid = batch.order_gid and d.kind = 'invoice' limit 1), ''),
        total_cents, currency, test, body
      from batch order by i
      on conflict do nothing
      returning shop, kind, source_key
    ),
    outcomes as (
      -- Stored: the source's first delivery in the batch, when its row is new. The rest: duplicates.
      select b.*, case when b.i = b.first and n.source_key is not null then 'stored' else 'duplicate' end as outcome
      from (
        select i, shop, kind, source_key, order_gid, webhook_id, event_id, topic, triggered_at,
          min(i) over (partition by shop, kind, source_key) as first
        from batch
      ) b
      left join inserted n on n.shop = b.shop and n.kind = b.kind and n.source_key = b.source_key
    ),
    logged as (
      insert into ${webhookDeliveries} (webhook_id, event_id, topic, triggered_at, shop, order_gid, outcome)
      select webhook_id, event_id, topic, triggered_at, shop, order_gid, outcome from outcomes order by i
    )
    select i, outcome from outcomes`);
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

/** Deliveries on record by topic and outcome (metrics). The sweep's enqueues are recorded like deliveries, not counted. */
export async function countDeliveries(db: Db): Promise<{ topic: string; outcome: string; n: number }[]> {
  const rows = await db
    .select({ topic: webhookDeliveries.topic, outcome: webhookDeliveries.outcome, n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(sql`${webhookDeliveries.webhookId} not like 'sweep-%'`)
    .groupBy(webhookDeliveries.topic, webhookDeliveries.outcome);
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}
