CREATE TABLE "backfills" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shop" text NOT NULL,
	"from_day" text NOT NULL,
	"to_day" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"cursor" text,
	"read_done" boolean DEFAULT false NOT NULL,
	"expected" integer,
	"orders_read" integer DEFAULT 0 NOT NULL,
	"enqueued" integer DEFAULT 0 NOT NULL,
	"already_invoiced" integer DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "backfills_status_ck" CHECK ("status" in ('running', 'done', 'cancelled', 'failed'))
);
--> statement-breakpoint
DROP INDEX "documents_shop_due_idx";--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "backfill_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "backfills_running_shop_uq" ON "backfills" USING btree ("shop") WHERE "backfills"."status" = 'running';--> statement-breakpoint
CREATE INDEX "documents_backfill_idx" ON "documents" USING btree ("backfill_id","status") WHERE "documents"."backfill_id" is not null;--> statement-breakpoint
CREATE INDEX "documents_shop_due_idx" ON "documents" USING btree ("shop",("backfill_id" is not null),"next_attempt_at") WHERE "documents"."status" in ('pending', 'waiting');--> statement-breakpoint
-- The intake function of migration 0005, now also storing the backfill that brought a document (docs/backfill.md): a
-- fact without "backfill_id" (a webhook, the sweep) stores null, as before.
CREATE OR REPLACE FUNCTION "intake_documents"("facts" text[], "bodies" text[]) RETURNS TABLE ("i" int, "outcome" text)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH batch AS (
    SELECT b.*, s.body
    FROM unnest(facts, bodies) AS s(fact, body),
      json_to_record(s.fact::json) AS b(
        i int, shop text, kind text, source_key text, document_type text, order_gid text, order_name text,
        total_cents bigint, currency text, test boolean, webhook_id text, event_id text, topic text, triggered_at text,
        backfill_id uuid)
  ),
  inserted AS (
    -- In delivery order, so the first delivery of a source in the batch is the one stored. A refund's order name
    -- comes from its order's invoice when there is one.
    INSERT INTO documents (shop, kind, source_key, document_type, order_gid, order_name, total_cents, currency, test, snapshot, backfill_id)
    SELECT shop, kind, source_key, document_type, order_gid,
      coalesce(order_name, (
        SELECT d.order_name FROM documents d
        WHERE d.shop = batch.shop AND d.order_gid = batch.order_gid AND d.kind = 'invoice' LIMIT 1), ''),
      total_cents, currency, test, body, backfill_id
    FROM batch ORDER BY i
    ON CONFLICT DO NOTHING
    RETURNING shop, kind, source_key
  ),
  outcomes AS (
    SELECT b.*, CASE WHEN b.i = b.first AND n.source_key IS NOT NULL THEN 'stored' ELSE 'duplicate' END AS outcome
    FROM (
      SELECT i, shop, kind, source_key, order_gid, webhook_id, event_id, topic, triggered_at,
        min(i) OVER (PARTITION BY shop, kind, source_key) AS first
      FROM batch
    ) b
    LEFT JOIN inserted n ON n.shop = b.shop AND n.kind = b.kind AND n.source_key = b.source_key
  ),
  logged AS (
    INSERT INTO webhook_deliveries (webhook_id, event_id, topic, triggered_at, shop, order_gid, outcome)
    SELECT webhook_id, event_id, topic, triggered_at, shop, order_gid, outcome FROM outcomes ORDER BY i
  )
  SELECT i, outcome FROM outcomes;
END $$;
