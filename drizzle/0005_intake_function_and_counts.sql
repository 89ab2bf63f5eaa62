-- document_counts stays exact because every statement that changes documents adds its own net change, in its own
-- transaction (a rollback takes both back). One upsert per statement, its keys in order: concurrent statements take
-- the counter rows' locks in the same order, so they wait for each other but never deadlock. Statements that change
-- no status or step (leases, snapshots) add nothing and lock nothing. One function for the three kinds of change
-- (a database made before this migration had one function each, replaced here); PL/pgSQL plans a branch when it
-- first runs, so the insert branch never looks for "old_rows".
DROP TRIGGER IF EXISTS "documents_counted_insert" ON "documents";--> statement-breakpoint
DROP TRIGGER IF EXISTS "documents_counted_update" ON "documents";--> statement-breakpoint
DROP TRIGGER IF EXISTS "documents_counted_delete" ON "documents";--> statement-breakpoint
DROP FUNCTION IF EXISTS "document_counts_inserted"();--> statement-breakpoint
DROP FUNCTION IF EXISTS "document_counts_updated"();--> statement-breakpoint
DROP FUNCTION IF EXISTS "document_counts_deleted"();--> statement-breakpoint
CREATE FUNCTION "document_counts_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "document_counts" AS c ("shop", "kind", "status", "step", "n")
      SELECT "shop", "kind", "status", "step", count(*) FROM "new_rows" GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT ("shop", "kind", "status", "step") DO UPDATE SET "n" = c."n" + excluded."n";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "document_counts" AS c ("shop", "kind", "status", "step", "n")
      SELECT "shop", "kind", "status", "step", -count(*) FROM "old_rows" GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT ("shop", "kind", "status", "step") DO UPDATE SET "n" = c."n" + excluded."n";
  ELSE
    INSERT INTO "document_counts" AS c ("shop", "kind", "status", "step", "n")
      SELECT "shop", "kind", "status", "step", sum("d") FROM (
        SELECT "shop", "kind", "status", "step", -1 AS "d" FROM "old_rows"
        UNION ALL SELECT "shop", "kind", "status", "step", 1 FROM "new_rows"
      ) AS moved
      GROUP BY 1, 2, 3, 4 HAVING sum("d") <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT ("shop", "kind", "status", "step") DO UPDATE SET "n" = c."n" + excluded."n";
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "documents_counted_insert" AFTER INSERT ON "documents" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "document_counts_changed"();--> statement-breakpoint
CREATE TRIGGER "documents_counted_update" AFTER UPDATE ON "documents" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "document_counts_changed"();--> statement-breakpoint
CREATE TRIGGER "documents_counted_delete" AFTER DELETE ON "documents" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "document_counts_changed"();--> statement-breakpoint
-- Webhook intake (src/documents/store/intake-statements.ts calls it): a batch of deliveries stored as documents,
-- idempotent on (shop, kind, source key), with their delivery records, in one statement. A function because PL/pgSQL
-- plans its query once per connection and keeps the plan: sent as a statement, this query was parsed and planned
-- for every batch, most of the database's work for a small one (bench/RESULTS.md). `facts` holds one small JSON
-- object per delivery (its index `i`, the document's columns, the delivery's), `bodies` the snapshots in the same
-- order, stored as the text that arrived. Outcome per delivery index: 'stored' for the first delivery of a source
-- whose row is new, 'duplicate' for the rest.
CREATE FUNCTION "intake_documents"("facts" text[], "bodies" text[]) RETURNS TABLE ("i" int, "outcome" text)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH batch AS (
    SELECT b.*, s.body
    FROM unnest(facts, bodies) AS s(fact, body),
      json_to_record(s.fact::json) AS b(
        i int, shop text, kind text, source_key text, document_type text, order_gid text, order_name text,
        total_cents bigint, currency text, test boolean, webhook_id text, event_id text, topic text, triggered_at text)
  ),
  inserted AS (
    -- In delivery order, so the first delivery of a source in the batch is the one stored. A refund's order name
    -- comes from its order's invoice when there is one.
    INSERT INTO documents (shop, kind, source_key, document_type, order_gid, order_name, total_cents, currency, test, snapshot)
    SELECT shop, kind, source_key, document_type, order_gid,
      coalesce(order_name, (
        SELECT d.order_name FROM documents d
        WHERE d.shop = batch.shop AND d.order_gid = batch.order_gid AND d.kind = 'invoice' LIMIT 1), ''),
      total_cents, currency, test, body
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
