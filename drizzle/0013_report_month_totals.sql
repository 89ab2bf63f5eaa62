CREATE TABLE "report_month_totals" (
	"shop" text NOT NULL,
	"environment" text NOT NULL,
	"month" text NOT NULL,
	"branch_code" text NOT NULL,
	"billing_point" text NOT NULL,
	"document_type" text NOT NULL,
	"documents" bigint DEFAULT 0 NOT NULL,
	"total_cents" bigint DEFAULT 0 NOT NULL,
	"base_0_cents" bigint DEFAULT 0 NOT NULL,
	"itbms_0_cents" bigint DEFAULT 0 NOT NULL,
	"base_7_cents" bigint DEFAULT 0 NOT NULL,
	"itbms_7_cents" bigint DEFAULT 0 NOT NULL,
	"base_10_cents" bigint DEFAULT 0 NOT NULL,
	"itbms_10_cents" bigint DEFAULT 0 NOT NULL,
	"base_15_cents" bigint DEFAULT 0 NOT NULL,
	"itbms_15_cents" bigint DEFAULT 0 NOT NULL,
	"unreadable" bigint DEFAULT 0 NOT NULL,
	"first_number" bigint,
	"last_number" bigint,
	CONSTRAINT "report_month_totals_shop_environment_month_branch_code_billing_point_document_type_pk" PRIMARY KEY("shop","environment","month","branch_code","billing_point","document_type")
);
--> statement-breakpoint
-- The accountant's month's totals (docs/reports.md, src/db/schema-reports.ts), kept as document_counts is: every
-- statement that changes documents adds its own net change to the months and series it touches, in its own
-- transaction, one upsert with its keys in order. A document counts while it is authorized (CUFE and authorization
-- time) with a fiscal number; its amounts are read from the stored gateway document as the sales book reads them
-- (src/reports/document-amounts.ts): items' priceItem and valueITBMS by rateITBMS, totalsSubTotals.totalInvoice.
-- An amount that is not a decimal text with at most two significant decimals, or an item of another rate code, is
-- counted as unreadable instead of failing: the report then stops, the statement storing the CUFE never does.
-- Cents of a decimal text ("12.34" → 1234); NULL when it is not one (as parseCents in mappers/fiscal/money.ts).
CREATE FUNCTION "report_cents"("v" jsonb) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(v) = 'string' AND (v #>> '{}') ~ '^\s*-?[0-9]{1,13}(\.[0-9]{1,2}0*)?\s*$'
    THEN round((v #>> '{}')::numeric * 100)::bigint END
$$;--> statement-breakpoint
-- One stored document's total, base and ITBMS per rate, and how many of its amounts could not be read.
CREATE FUNCTION "report_document_amounts"("doc" jsonb)
RETURNS TABLE ("total" bigint, "base_0" bigint, "itbms_0" bigint, "base_7" bigint, "itbms_7" bigint, "base_10" bigint, "itbms_10" bigint, "base_15" bigint, "itbms_15" bigint, "unreadable" bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT report_cents(doc->'totalsSubTotals'->'totalInvoice'),
    coalesce(sum(c.base) FILTER (WHERE c.code = '00'), 0), coalesce(sum(c.itbms) FILTER (WHERE c.code = '00'), 0),
    coalesce(sum(c.base) FILTER (WHERE c.code = '01'), 0), coalesce(sum(c.itbms) FILTER (WHERE c.code = '01'), 0),
    coalesce(sum(c.base) FILTER (WHERE c.code = '02'), 0), coalesce(sum(c.itbms) FILTER (WHERE c.code = '02'), 0),
    coalesce(sum(c.base) FILTER (WHERE c.code = '03'), 0), coalesce(sum(c.itbms) FILTER (WHERE c.code = '03'), 0),
    (report_cents(doc->'totalsSubTotals'->'totalInvoice') IS NULL)::int + count(*) FILTER (
      WHERE c.code IS NULL OR c.code NOT IN ('00', '01', '02', '03') OR c.base IS NULL OR c.itbms IS NULL)
  FROM (
    SELECT i->>'rateITBMS' AS code, report_cents(i->'priceItem') AS base, report_cents(i->'valueITBMS') AS itbms
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(doc->'listItems') = 'array' THEN doc->'listItems' ELSE '[]'::jsonb END) i
  ) c
$$;--> statement-breakpoint
-- An update adds the rows that count now and did not count the same way before, and takes off the converse (a
-- document's lease or e-mail moving adds nothing). When documents leave a series' month (a shop's data deleted), its
-- first and last number are read again from the documents, and a month left empty is dropped.
CREATE FUNCTION "report_month_totals_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH moved AS (
      SELECT 1 AS sign, n.shop, n.environment, n.authorized_at, n.branch_code, n.billing_point, n.document_type, n.fiscal_number, n.document FROM new_rows n WHERE n.shop IS NOT NULL AND n.environment IS NOT NULL AND n.cufe IS NOT NULL AND n.authorized_at IS NOT NULL AND n.fiscal_number IS NOT NULL
    )
    INSERT INTO "report_month_totals" AS t ("shop", "environment", "month", "branch_code", "billing_point", "document_type", "documents", "total_cents", "base_0_cents", "itbms_0_cents", "base_7_cents", "itbms_7_cents", "base_10_cents", "itbms_10_cents", "base_15_cents", "itbms_15_cents", "unreadable", "first_number", "last_number")
      SELECT m.shop, m.environment, to_char((m.authorized_at AT TIME ZONE 'UTC') - interval '5 hours', 'YYYY-MM'), coalesce(m.branch_code, ''), coalesce(m.billing_point, ''), m.document_type,
        sum(m.sign), sum(m.sign * coalesce(a.total, 0)),
        sum(m.sign * a.base_0) AS base_0_cents, sum(m.sign * a.itbms_0) AS itbms_0_cents,
        sum(m.sign * a.base_7) AS base_7_cents, sum(m.sign * a.itbms_7) AS itbms_7_cents,
        sum(m.sign * a.base_10) AS base_10_cents, sum(m.sign * a.itbms_10) AS itbms_10_cents,
        sum(m.sign * a.base_15) AS base_15_cents, sum(m.sign * a.itbms_15) AS itbms_15_cents,
        sum(m.sign * a.unreadable),
        min(m.fiscal_number) FILTER (WHERE m.sign > 0), max(m.fiscal_number) FILTER (WHERE m.sign > 0)
      FROM moved m CROSS JOIN LATERAL report_document_amounts(m.document) a
      GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
      ON CONFLICT ("shop", "environment", "month", "branch_code", "billing_point", "document_type") DO UPDATE SET
        "documents" = t."documents" + excluded."documents", "total_cents" = t."total_cents" + excluded."total_cents", "base_0_cents" = t."base_0_cents" + excluded."base_0_cents", "itbms_0_cents" = t."itbms_0_cents" + excluded."itbms_0_cents", "base_7_cents" = t."base_7_cents" + excluded."base_7_cents", "itbms_7_cents" = t."itbms_7_cents" + excluded."itbms_7_cents", "base_10_cents" = t."base_10_cents" + excluded."base_10_cents", "itbms_10_cents" = t."itbms_10_cents" + excluded."itbms_10_cents", "base_15_cents" = t."base_15_cents" + excluded."base_15_cents", "itbms_15_cents" = t."itbms_15_cents" + excluded."itbms_15_cents", "unreadable" = t."unreadable" + excluded."unreadable",
        "first_number" = least(t."first_number", excluded."first_number"),
        "last_number" = greatest(t."last_number", excluded."last_number");
  ELSIF TG_OP = 'DELETE' THEN
    WITH moved AS (
      SELECT -1 AS sign, o.shop, o.environment, o.authorized_at, o.branch_code, o.billing_point, o.document_type, o.fiscal_number, o.document FROM old_rows o WHERE o.shop IS NOT NULL AND o.environment IS NOT NULL AND o.cufe IS NOT NULL AND o.authorized_at IS NOT NULL AND o.fiscal_number IS NOT NULL
    )
    INSERT INTO "report_month_totals" AS t ("shop", "environment", "month", "branch_code", "billing_point", "document_type", "documents", "total_cents", "base_0_cents", "itbms_0_cents", "base_7_cents", "itbms_7_cents", "base_10_cents", "itbms_10_cents", "base_15_cents", "itbms_15_cents", "unreadable", "first_number", "last_number")
      SELECT m.shop, m.environment, to_char((m.authorized_at AT TIME ZONE 'UTC') - interval '5 hours', 'YYYY-MM'), coalesce(m.branch_code, ''), coalesce(m.billing_point, ''), m.document_type,
        sum(m.sign), sum(m.sign * coalesce(a.total, 0)),
        sum(m.sign * a.base_0) AS base_0_cents, sum(m.sign * a.itbms_0) AS itbms_0_cents,
        sum(m.sign * a.base_7) AS base_7_cents, sum(m.sign * a.itbms_7) AS itbms_7_cents,
        sum(m.sign * a.base_10) AS base_10_cents, sum(m.sign * a.itbms_10) AS itbms_10_cents,
        sum(m.sign * a.base_15) AS base_15_cents, sum(m.sign * a.itbms_15) AS itbms_15_cents,
        sum(m.sign * a.unreadable),
        min(m.fiscal_number) FILTER (WHERE m.sign > 0), max(m.fiscal_number) FILTER (WHERE m.sign > 0)
      FROM moved m CROSS JOIN LATERAL report_document_amounts(m.document) a
      GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
      ON CONFLICT ("shop", "environment", "month", "branch_code", "billing_point", "document_type") DO UPDATE SET
        "documents" = t."documents" + excluded."documents", "total_cents" = t."total_cents" + excluded."total_cents", "base_0_cents" = t."base_0_cents" + excluded."base_0_cents", "itbms_0_cents" = t."itbms_0_cents" + excluded."itbms_0_cents", "base_7_cents" = t."base_7_cents" + excluded."base_7_cents", "itbms_7_cents" = t."itbms_7_cents" + excluded."itbms_7_cents", "base_10_cents" = t."base_10_cents" + excluded."base_10_cents", "itbms_10_cents" = t."itbms_10_cents" + excluded."itbms_10_cents", "base_15_cents" = t."base_15_cents" + excluded."base_15_cents", "itbms_15_cents" = t."itbms_15_cents" + excluded."itbms_15_cents", "unreadable" = t."unreadable" + excluded."unreadable",
        "first_number" = least(t."first_number", excluded."first_number"),
        "last_number" = greatest(t."last_number", excluded."last_number");
    WITH removed AS (
      SELECT DISTINCT m.shop, m.environment, to_char((m.authorized_at AT TIME ZONE 'UTC') - interval '5 hours', 'YYYY-MM') AS month, coalesce(m.branch_code, '') AS branch_code,
        coalesce(m.billing_point, '') AS billing_point, m.document_type
      FROM (SELECT -1 AS sign, o.shop, o.environment, o.authorized_at, o.branch_code, o.billing_point, o.document_type, o.fiscal_number, o.document FROM old_rows o WHERE o.shop IS NOT NULL AND o.environment IS NOT NULL AND o.cufe IS NOT NULL AND o.authorized_at IS NOT NULL AND o.fiscal_number IS NOT NULL) m
    ),
    bounds AS (
      SELECT k.*, b.lo, b.hi FROM removed k CROSS JOIN LATERAL (
        SELECT min(d.fiscal_number) AS lo, max(d.fiscal_number) AS hi FROM "documents" d
        WHERE d.shop = k.shop AND d.environment = k.environment
          AND d.authorized_at >= ((k.month || '-01')::timestamp + interval '5 hours') AT TIME ZONE 'UTC'
          AND d.authorized_at < ((k.month || '-01')::timestamp + interval '1 month 5 hours') AT TIME ZONE 'UTC'
          AND coalesce(d.branch_code, '') = k.branch_code AND coalesce(d.billing_point, '') = k.billing_point
          AND d.document_type = k.document_type AND d.cufe IS NOT NULL AND d.fiscal_number IS NOT NULL) b
    ),
    emptied AS (
      DELETE FROM "report_month_totals" t USING removed k
      WHERE t.shop = k.shop AND t.environment = k.environment AND t.month = k.month AND t.branch_code = k.branch_code
        AND t.billing_point = k.billing_point AND t.document_type = k.document_type AND t."documents" = 0
    )
    UPDATE "report_month_totals" t SET "first_number" = bounds.lo, "last_number" = bounds.hi FROM bounds
    WHERE t.shop = bounds.shop AND t.environment = bounds.environment AND t.month = bounds.month
      AND t.branch_code = bounds.branch_code AND t.billing_point = bounds.billing_point AND t.document_type = bounds.document_type
      AND t."documents" <> 0;
  ELSE
    WITH moved AS (
      SELECT 1 AS sign, n.shop, n.environment, n.authorized_at, n.branch_code, n.billing_point, n.document_type, n.fiscal_number, n.document FROM new_rows n
      WHERE n.shop IS NOT NULL AND n.environment IS NOT NULL AND n.cufe IS NOT NULL AND n.authorized_at IS NOT NULL AND n.fiscal_number IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.id = n.id AND o.shop IS NOT NULL AND o.environment IS NOT NULL AND o.cufe IS NOT NULL AND o.authorized_at IS NOT NULL AND o.fiscal_number IS NOT NULL
          AND o.shop IS NOT DISTINCT FROM n.shop AND o.environment IS NOT DISTINCT FROM n.environment AND o.authorized_at IS NOT DISTINCT FROM n.authorized_at AND o.branch_code IS NOT DISTINCT FROM n.branch_code AND o.billing_point IS NOT DISTINCT FROM n.billing_point AND o.document_type IS NOT DISTINCT FROM n.document_type AND o.fiscal_number IS NOT DISTINCT FROM n.fiscal_number AND o.document IS NOT DISTINCT FROM n.document)
      UNION ALL
      SELECT -1 AS sign, o.shop, o.environment, o.authorized_at, o.branch_code, o.billing_point, o.document_type, o.fiscal_number, o.document FROM old_rows o
      WHERE o.shop IS NOT NULL AND o.environment IS NOT NULL AND o.cufe IS NOT NULL AND o.authorized_at IS NOT NULL AND o.fiscal_number IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.id = o.id AND n.shop IS NOT NULL AND n.environment IS NOT NULL AND n.cufe IS NOT NULL AND n.authorized_at IS NOT NULL AND n.fiscal_number IS NOT NULL
          AND o.shop IS NOT DISTINCT FROM n.shop AND o.environment IS NOT DISTINCT FROM n.environment AND o.authorized_at IS NOT DISTINCT FROM n.authorized_at AND o.branch_code IS NOT DISTINCT FROM n.branch_code AND o.billing_point IS NOT DISTINCT FROM n.billing_point AND o.document_type IS NOT DISTINCT FROM n.document_type AND o.fiscal_number IS NOT DISTINCT FROM n.fiscal_number AND o.document IS NOT DISTINCT FROM n.document)
    )
    INSERT INTO "report_month_totals" AS t ("shop", "environment", "month", "branch_code", "billing_point", "document_type", "documents", "total_cents", "base_0_cents", "itbms_0_cents", "base_7_cents", "itbms_7_cents", "base_10_cents", "itbms_10_cents", "base_15_cents", "itbms_15_cents", "unreadable", "first_number", "last_number")
      SELECT m.shop, m.environment, to_char((m.authorized_at AT TIME ZONE 'UTC') - interval '5 hours', 'YYYY-MM'), coalesce(m.branch_code, ''), coalesce(m.billing_point, ''), m.document_type,
        sum(m.sign), sum(m.sign * coalesce(a.total, 0)),
        sum(m.sign * a.base_0) AS base_0_cents, sum(m.sign * a.itbms_0) AS itbms_0_cents,
        sum(m.sign * a.base_7) AS base_7_cents, sum(m.sign * a.itbms_7) AS itbms_7_cents,
        sum(m.sign * a.base_10) AS base_10_cents, sum(m.sign * a.itbms_10) AS itbms_10_cents,
        sum(m.sign * a.base_15) AS base_15_cents, sum(m.sign * a.itbms_15) AS itbms_15_cents,
        sum(m.sign * a.unreadable),
        min(m.fiscal_number) FILTER (WHERE m.sign > 0), max(m.fiscal_number) FILTER (WHERE m.sign > 0)
      FROM moved m CROSS JOIN LATERAL report_document_amounts(m.document) a
      GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
      ON CONFLICT ("shop", "environment", "month", "branch_code", "billing_point", "document_type") DO UPDATE SET
        "documents" = t."documents" + excluded."documents", "total_cents" = t."total_cents" + excluded."total_cents", "base_0_cents" = t."base_0_cents" + excluded."base_0_cents", "itbms_0_cents" = t."itbms_0_cents" + excluded."itbms_0_cents", "base_7_cents" = t."base_7_cents" + excluded."base_7_cents", "itbms_7_cents" = t."itbms_7_cents" + excluded."itbms_7_cents", "base_10_cents" = t."base_10_cents" + excluded."base_10_cents", "itbms_10_cents" = t."itbms_10_cents" + excluded."itbms_10_cents", "base_15_cents" = t."base_15_cents" + excluded."base_15_cents", "itbms_15_cents" = t."itbms_15_cents" + excluded."itbms_15_cents", "unreadable" = t."unreadable" + excluded."unreadable",
        "first_number" = least(t."first_number", excluded."first_number"),
        "last_number" = greatest(t."last_number", excluded."last_number");
    WITH removed AS (
      SELECT DISTINCT m.shop, m.environment, to_char((m.authorized_at AT TIME ZONE 'UTC') - interval '5 hours', 'YYYY-MM') AS month, coalesce(m.branch_code, '') AS branch_code,
        coalesce(m.billing_point, '') AS billing_point, m.document_type
      FROM (SELECT -1 AS sign, o.shop, o.environment, o.authorized_at, o.branch_code, o.billing_point, o.document_type, o.fiscal_number, o.document FROM old_rows o
      WHERE o.shop IS NOT NULL AND o.environment IS NOT NULL AND o.cufe IS NOT NULL AND o.authorized_at IS NOT NULL AND o.fiscal_number IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.id = o.id AND n.shop IS NOT NULL AND n.environment IS NOT NULL AND n.cufe IS NOT NULL AND n.authorized_at IS NOT NULL AND n.fiscal_number IS NOT NULL
          AND o.shop IS NOT DISTINCT FROM n.shop AND o.environment IS NOT DISTINCT FROM n.environment AND o.authorized_at IS NOT DISTINCT FROM n.authorized_at AND o.branch_code IS NOT DISTINCT FROM n.branch_code AND o.billing_point IS NOT DISTINCT FROM n.billing_point AND o.document_type IS NOT DISTINCT FROM n.document_type AND o.fiscal_number IS NOT DISTINCT FROM n.fiscal_number AND o.document IS NOT DISTINCT FROM n.document)) m
    ),
    bounds AS (
      SELECT k.*, b.lo, b.hi FROM removed k CROSS JOIN LATERAL (
        SELECT min(d.fiscal_number) AS lo, max(d.fiscal_number) AS hi FROM "documents" d
        WHERE d.shop = k.shop AND d.environment = k.environment
          AND d.authorized_at >= ((k.month || '-01')::timestamp + interval '5 hours') AT TIME ZONE 'UTC'
          AND d.authorized_at < ((k.month || '-01')::timestamp + interval '1 month 5 hours') AT TIME ZONE 'UTC'
          AND coalesce(d.branch_code, '') = k.branch_code AND coalesce(d.billing_point, '') = k.billing_point
          AND d.document_type = k.document_type AND d.cufe IS NOT NULL AND d.fiscal_number IS NOT NULL) b
    ),
    emptied AS (
      DELETE FROM "report_month_totals" t USING removed k
      WHERE t.shop = k.shop AND t.environment = k.environment AND t.month = k.month AND t.branch_code = k.branch_code
        AND t.billing_point = k.billing_point AND t.document_type = k.document_type AND t."documents" = 0
    )
    UPDATE "report_month_totals" t SET "first_number" = bounds.lo, "last_number" = bounds.hi FROM bounds
    WHERE t.shop = bounds.shop AND t.environment = bounds.environment AND t.month = bounds.month
      AND t.branch_code = bounds.branch_code AND t.billing_point = bounds.billing_point AND t.document_type = bounds.document_type
      AND t."documents" <> 0;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "documents_month_totals_insert" AFTER INSERT ON "documents" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "report_month_totals_changed"();--> statement-breakpoint
CREATE TRIGGER "documents_month_totals_update" AFTER UPDATE ON "documents" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "report_month_totals_changed"();--> statement-breakpoint
CREATE TRIGGER "documents_month_totals_delete" AFTER DELETE ON "documents" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "report_month_totals_changed"();--> statement-breakpoint
-- The documents authorized before this migration (the triggers above hold writers off until it commits).
WITH moved AS (
      SELECT 1 AS sign, n.shop, n.environment, n.authorized_at, n.branch_code, n.billing_point, n.document_type, n.fiscal_number, n.document FROM "documents" n WHERE n.shop IS NOT NULL AND n.environment IS NOT NULL AND n.cufe IS NOT NULL AND n.authorized_at IS NOT NULL AND n.fiscal_number IS NOT NULL
)
INSERT INTO "report_month_totals" ("shop", "environment", "month", "branch_code", "billing_point", "document_type", "documents", "total_cents", "base_0_cents", "itbms_0_cents", "base_7_cents", "itbms_7_cents", "base_10_cents", "itbms_10_cents", "base_15_cents", "itbms_15_cents", "unreadable", "first_number", "last_number")
  SELECT m.shop, m.environment, to_char((m.authorized_at AT TIME ZONE 'UTC') - interval '5 hours', 'YYYY-MM'), coalesce(m.branch_code, ''), coalesce(m.billing_point, ''), m.document_type,
    count(*), sum(coalesce(a.total, 0)),
    sum(a.base_0), sum(a.itbms_0), sum(a.base_7), sum(a.itbms_7), sum(a.base_10), sum(a.itbms_10), sum(a.base_15), sum(a.itbms_15),
    sum(a.unreadable), min(m.fiscal_number), max(m.fiscal_number)
  FROM moved m CROSS JOIN LATERAL report_document_amounts(m.document) a
  GROUP BY 1, 2, 3, 4, 5, 6;
