-- The order snapshot as the text Shopify sent: intake parses it already; jsonb made the database parse it again.
ALTER TABLE "invoices" ALTER COLUMN "order_snapshot" SET DATA TYPE text USING "order_snapshot"::text;
--> statement-breakpoint
-- lz4 compresses the 8 KB snapshots for a third of pglz's CPU, where the server is built with it (PGlite is not).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)) THEN
    ALTER TABLE "invoices" ALTER COLUMN "order_snapshot" SET COMPRESSION lz4;
  END IF;
END $$;
