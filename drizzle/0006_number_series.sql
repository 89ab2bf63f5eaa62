CREATE TABLE "fiscal_series_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"shop" text NOT NULL,
	"environment" text NOT NULL,
	"branch_code" text NOT NULL,
	"billing_point" text NOT NULL,
	"document_type" text NOT NULL,
	"kind" text NOT NULL,
	"from_next" bigint NOT NULL,
	"to_next" bigint NOT NULL,
	"changed_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fiscal_series_changes_kind_ck" CHECK ("kind" in ('set_next', 'split'))
);
--> statement-breakpoint
DROP INDEX "documents_fiscal_number_uq";--> statement-breakpoint
ALTER TABLE "fiscal_sequences" DROP CONSTRAINT "fiscal_sequences_shop_branch_code_billing_point_document_type_pk";--> statement-breakpoint
ALTER TABLE "fiscal_sequences" ADD COLUMN "environment" text DEFAULT 'pruebas' NOT NULL;--> statement-breakpoint
ALTER TABLE "fiscal_sequences" ADD CONSTRAINT "fiscal_sequences_shop_environment_branch_code_billing_point_document_type_pk" PRIMARY KEY("shop","environment","branch_code","billing_point","document_type");--> statement-breakpoint
ALTER TABLE "fiscal_skips" ADD COLUMN "environment" text DEFAULT 'pruebas' NOT NULL;--> statement-breakpoint
CREATE INDEX "fiscal_series_changes_series_idx" ON "fiscal_series_changes" USING btree ("shop","environment","branch_code","billing_point","document_type");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_fiscal_number_uq" ON "documents" USING btree ("shop","branch_code","billing_point","fiscal_number","document_type","environment");--> statement-breakpoint
-- hand-written:
-- Each environment its own series (docs/series.md). Until now one sequence per shop, branch, point and type served
-- the test and production environments alike. No issued number changes: numbered documents and skipped numbers learn
-- the environment they were numbered in, and each environment's series continues after the last number it used.
-- A document numbered but never sent has no environment yet: it was numbered for the shop's environment.
UPDATE "documents" d
SET "environment" = CASE WHEN s."settings"->>'environment' = 'produccion' THEN 'produccion' ELSE 'pruebas' END
FROM "shops" s
WHERE s."shop" = d."shop" AND d."environment" IS NULL AND d."fiscal_number" IS NOT NULL;
--> statement-breakpoint
UPDATE "documents" SET "environment" = 'pruebas' WHERE "environment" IS NULL AND "fiscal_number" IS NOT NULL;
--> statement-breakpoint
-- A skip was recorded after its document was sent, so in the document's environment.
UPDATE "fiscal_skips" k
SET "environment" = CASE
  WHEN d."environment" IN ('pruebas', 'produccion') THEN d."environment"
  WHEN s."settings"->>'environment' = 'produccion' THEN 'produccion'
  ELSE 'pruebas' END
FROM "fiscal_skips" k2
LEFT JOIN "documents" d ON d."id" = k2."document_id"
LEFT JOIN "shops" s ON s."shop" = k2."shop"
WHERE k."id" = k2."id";
--> statement-breakpoint
-- The new series: one per environment that used numbers of a shared sequence, next after its own last; a shared
-- sequence none of whose numbers is held any more keeps its next number, in the shop's environment.
CREATE TABLE "fiscal_sequences_split" AS
WITH "used" AS (
  SELECT "shop", "environment", "branch_code", "billing_point", "document_type", max("number") AS "last"
  FROM (
    SELECT "shop", "environment", "branch_code", "billing_point", "document_type", "fiscal_number" AS "number"
    FROM "documents"
    WHERE "fiscal_number" IS NOT NULL AND "branch_code" IS NOT NULL AND "billing_point" IS NOT NULL
    UNION ALL
    SELECT "shop", "environment", "branch_code", "billing_point", "document_type", "number" FROM "fiscal_skips"
  ) "numbers"
  GROUP BY "shop", "environment", "branch_code", "billing_point", "document_type"
)
SELECT u."shop", u."environment", u."branch_code", u."billing_point", u."document_type", u."last" + 1 AS "next_number",
  q."next_number" AS "shared_next"
FROM "used" u
LEFT JOIN "fiscal_sequences" q
  ON q."shop" = u."shop" AND q."branch_code" = u."branch_code" AND q."billing_point" = u."billing_point"
  AND q."document_type" = u."document_type"
UNION ALL
SELECT q."shop", CASE WHEN s."settings"->>'environment' = 'produccion' THEN 'produccion' ELSE 'pruebas' END,
  q."branch_code", q."billing_point", q."document_type", q."next_number", q."next_number"
FROM "fiscal_sequences" q
LEFT JOIN "shops" s ON s."shop" = q."shop"
WHERE NOT EXISTS (
  SELECT 1 FROM "used" u
  WHERE u."shop" = q."shop" AND u."branch_code" = q."branch_code" AND u."billing_point" = q."billing_point"
    AND u."document_type" = q."document_type"
);
--> statement-breakpoint
DELETE FROM "fiscal_sequences";
--> statement-breakpoint
INSERT INTO "fiscal_sequences" ("shop", "environment", "branch_code", "billing_point", "document_type", "next_number")
SELECT "shop", "environment", "branch_code", "billing_point", "document_type", "next_number" FROM "fiscal_sequences_split";
--> statement-breakpoint
-- Where a series now continues elsewhere than the shared sequence did, the split is recorded (series list names it as
-- the reason of the numbers the other environment used).
INSERT INTO "fiscal_series_changes"
  ("shop", "environment", "branch_code", "billing_point", "document_type", "kind", "from_next", "to_next", "changed_by")
SELECT "shop", "environment", "branch_code", "billing_point", "document_type", 'split', "shared_next", "next_number", 'migration'
FROM "fiscal_sequences_split"
WHERE "shared_next" IS NOT NULL AND "shared_next" <> "next_number";
--> statement-breakpoint
DROP TABLE "fiscal_sequences_split";
