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
CREATE FUNCTION "document_counts_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "document_counts";
  RETURN NULL;
END $$;--> statement-breakpoint
-- The insert, update and delete triggers that keep the counts are made by 0005, in the same transaction as this
-- migration (drizzle applies every pending migration in one). Writers are locked out until it commits, as the
-- triggers' own lock would, so the count below misses none.
LOCK TABLE "documents" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
CREATE TRIGGER "documents_counted_truncate" AFTER TRUNCATE ON "documents"
  FOR EACH STATEMENT EXECUTE FUNCTION "document_counts_truncated"();--> statement-breakpoint
INSERT INTO "document_counts" ("shop", "kind", "status", "step", "n")
  SELECT "shop", "kind", "status", "step", count(*) FROM "documents" GROUP BY 1, 2, 3, 4;
