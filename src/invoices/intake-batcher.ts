// Group commit for webhook intake: the deliveries that arrive while the previous write is running are
// written together, in one transaction with one multi-row insert per table. Each caller's promise
// resolves only after that transaction commits, so no delivery is answered 200 before its row is durable.
// Idle, a delivery is written at once (no timer); under load, batches grow by themselves.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
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
    return this.db.transaction(async (tx) => {
      const inserted = await tx
        .insert(invoices)
        .values(
          batch.map(({ invoice }) => ({
            shop: invoice.shop,
            orderGid: invoice.orderGid,
            orderName: invoice.orderName,
            totalCents: invoice.totalCents,
            currency: invoice.currency,
            test: invoice.test,
            orderSnapshot: sql`${invoice.rawOrder}::jsonb`,
          })),
        )
        // Also absorbs the same order twice in one batch: the first row wins, the rest are duplicates.
        .onConflictDoNothing()
        .returning({ shop: invoices.shop, orderGid: invoices.orderGid });
      const fresh = new Set(inserted.map((r) => `${r.shop} ${r.orderGid}`));
      const results = batch.map(({ invoice }): EnqueueResult => {
        const key = `${invoice.shop} ${invoice.orderGid}`;
        if (!fresh.has(key)) return 'duplicate';
        fresh.delete(key);
        return 'stored';
      });
      await tx.insert(webhookDeliveries).values(
        batch.map(({ invoice, delivery }, i) => ({
          webhookId: delivery.webhookId,
          eventId: delivery.eventId,
          topic: delivery.topic,
          triggeredAt: delivery.triggeredAt,
          shop: invoice.shop,
          orderGid: invoice.orderGid,
          outcome: results[i]!,
        })),
      );
      return results;
    });
  }
}
