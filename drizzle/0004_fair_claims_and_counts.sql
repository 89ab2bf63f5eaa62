CREATE TABLE "document_counts" (
	"shop" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"step" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "document_counts_shop_kind_status_step_pk" PRIMARY KEY("shop","kind","status","step")
);
--> statement-breakpoint
DROP INDEX "documents_due_idx";--> statement-breakpoint
DROP INDEX "documents_shop_status_idx";--> statement-breakpoint
DROP INDEX "documents_fiscal_number_uq";--> statement-breakpoint
CREATE INDEX "documents_shop_due_idx" ON "documents" USING btree ("shop","next_attempt_at") WHERE "documents"."status" in ('pending', 'waiting');--> statement-breakpoint
CREATE INDEX "documents_shop_status_created_idx" ON "documents" USING btree ("shop","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_fiscal_number_uq" ON "documents" USING btree ("shop","branch_code","billing_point","fiscal_number","document_type");--> statement-breakpoint
-- document_counts stays exact because every statement that changes documents adds its own net change, in its own
-- transaction (a rollback takes both back). One upsert per statement, its keys in order: concurrent statements take
-- the counter rows' locks in the same order, so they wait for each other but never deadlock. Statements that change
-- no status or step (leases, snapshots) add nothing and lock nothing.
CREATE FUNCTION "document_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "document_counts" AS c ("shop", "kind", "status", "step", "n")
    SELECT "shop", "kind", "status", "step", count(*) FROM "new_rows" GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("shop", "kind", "status", "step") DO UPDATE SET "n" = c."n" + excluded."n";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "document_counts_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "document_counts" AS c ("shop", "kind", "status", "step", "n")
    SELECT "shop", "kind", "status", "step", sum("d") FROM (
      SELECT "shop", "kind", "status", "step", -1 AS "d" FROM "old_rows"
      UNION ALL SELECT "shop", "kind", "status", "step", 1 FROM "new_rows"
    ) AS moved
    GROUP BY 1, 2, 3, 4 HAVING sum("d") <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("shop", "kind", "status", "step") DO UPDATE SET "n" = c."n" + excluded."n";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "document_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "document_counts" AS c ("shop", "kind", "status", "step", "n")
    SELECT "shop", "kind", "status", "step", -count(*) FROM "old_rows" GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("shop", "kind", "status", "step") DO UPDATE SET "n" = c."n" + excluded."n";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "document_counts_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "document_counts";
  RETURN NULL;
END $$;--> statement-breakpoint
-- The triggers first: creating them locks out writers until this migration commits, so the count below misses none.
CREATE TRIGGER "documents_counted_insert" AFTER INSERT ON "documents" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "document_counts_inserted"();--> statement-breakpoint
CREATE TRIGGER "documents_counted_update" AFTER UPDATE ON "documents" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "document_counts_updated"();--> statement-breakpoint
CREATE TRIGGER "documents_counted_delete" AFTER DELETE ON "documents" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "document_counts_deleted"();--> statement-breakpoint
CREATE TRIGGER "documents_counted_truncate" AFTER TRUNCATE ON "documents"
  FOR EACH STATEMENT EXECUTE FUNCTION "document_counts_truncated"();--> statement-breakpoint
INSERT INTO "document_counts" ("shop", "kind", "status", "step", "n")
  SELECT "shop", "kind", "status", "step", count(*) FROM "documents" GROUP BY 1, 2, 3, 4;
