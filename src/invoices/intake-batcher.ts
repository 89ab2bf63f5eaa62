// Group commit for webhook intake: the deliveries that arrive while the previous write is running are
// written together, in one statement for both tables (its own transaction). Each caller's promise
// resolves only after that statement commits, so no delivery is answered 200 before its row is durable.
// Idle, a delivery is written at once (no timer); under load, batches grow by themselves.
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/database.ts';
import { invoices, webhookDeliveries } from '../db/schema.ts';
import type { DeliveryFacts, EnqueueResult, NewInvoice } from './invoice-repository.ts';

interface Pending {
  invoice: NewInvoice;
  delivery: DeliveryFacts;
  resolve(result: EnqueueResult): void;
  reject(error: unknown): void;
}

export interface IntakeBatcherOptions {
  /** Most deliveries in one transaction. */
  maxBatch?: number;
  /** Transactions in flight at once (1 for PGlite, which has one connection; a few for PostgreSQL). */
  concurrency?: number;
}

export class IntakeBatcher {
  private readonly db: Db;
  private readonly maxBatch: number;
  private readonly concurrency: number;
  private queue: Pending[] = [];
  private running = 0;
  private scheduled = false;

  constructor(db: Db, options: IntakeBatcherOptions = {}) {
    this.db = db;
    this.maxBatch = options.maxBatch ?? 250;
    this.concurrency = options.concurrency ?? 1;
  }

  enqueue(invoice: NewInvoice, delivery: DeliveryFacts): Promise<EnqueueResult> {
    return new Promise<EnqueueResult>((resolve, reject) => {
      this.queue.push({ invoice, delivery, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running >= this.concurrency || this.queue.length === 0) return;
    this.scheduled = true;
    // Let the deliveries already parsed in this turn of the event loop join the batch.
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.running < this.concurrency && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.running++;
      void this.write(batch)
        .then(
          (results) => batch.forEach((p, i) => p.resolve(results[i]!)),
          (error: unknown) => batch.forEach((p) => p.reject(error)),
        )
        .finally(() => {
          this.running--;
          this.schedule();
        });
    }
  }

  private async write(batch: Pending[]): Promise<EnqueueResult[]> {
    // One statement: per delivery, its facts as one small JSON parameter and its snapshot as another,
    // stored as the text that arrived (parsed here already, so the database does not parse it again).
    // Each row carries both, so no join copies 8 KB snapshots into a hash table, and the duplicate
    // check sorts only the small columns. Building a 7-column multi-row insert per table cost more CPU
    // than the rest of the request (bench/RESULTS.md).
    const rowsSql = sql.join(
      batch.map(({ invoice, delivery }, i) => {
        const facts = JSON.stringify({
          i,
          shop: invoice.shop,
          order_gid: invoice.orderGid,
          order_name: invoice.orderName,
          total_cents: invoice.totalCents,
          currency: invoice.currency,
          test: invoice.test,
          webhook_id: delivery.webhookId,
          event_id: delivery.eventId ?? null,
          topic: delivery.topic,
          triggered_at: delivery.triggeredAt ?? null,
        });
        return sql`(${facts}::text, ${invoice.rawOrder}::text)`;
      }),
      sql`, `,
    );
    const rows = await this.db.execute<{ i: number; outcome: EnqueueResult }>(sql`
      with batch as (
        select b.*, s.body
        from (values ${rowsSql}) as s(facts, body),
          json_to_record(s.facts::json) as b(
            i int, shop text, order_gid text, order_name text, total_cents bigint, currency text, test boolean,
            webhook_id text, event_id text, topic text, triggered_at text)
      ),
      inserted as (
        -- In delivery order, so the first delivery of an order in the batch is the one stored.
        insert into ${invoices} (shop, order_gid, order_name, total_cents, currency, test, order_snapshot)
        select shop, order_gid, order_name, total_cents, currency, test, body from batch order by i
        on conflict do nothing
        returning shop, order_gid
      ),
      outcomes as (
        -- Stored: the order's first delivery in the batch, when its row is new. The rest: duplicates.
        select b.*, case when b.i = b.first and n.order_gid is not null then 'stored' else 'duplicate' end as outcome
        from (
          select i, shop, order_gid, webhook_id, event_id, topic, triggered_at, min(i) over (partition by shop, order_gid) as first
          from batch
        ) b
        left join inserted n on n.shop = b.shop and n.order_gid = b.order_gid
      ),
      logged as (
        insert into ${webhookDeliveries} (webhook_id, event_id, topic, triggered_at, shop, order_gid, outcome)
        select webhook_id, event_id, topic, triggered_at, shop, order_gid, outcome from outcomes order by i
      )
      select i, outcome from outcomes`);
    return resultsInOrder(rowsOf(rows), batch.length);
  }
}

function resultsInOrder(rows: { i: number; outcome: EnqueueResult }[], size: number): EnqueueResult[] {
  const results = new Array<EnqueueResult | undefined>(size);
  for (const r of rows) results[Number(r.i)] = r.outcome;
  if (results.some((r) => r === undefined) || rows.length !== size)
    throw new Error('intake: the batch statement did not answer for every delivery');
  return results as EnqueueResult[];
}
