-- The order snapshot as the text Shopify sent: intake parses it already; jsonb made the database parse it again.
ALTER TABLE "invoices" ALTER COLUMN "order_snapshot" SET DATA TYPE text USING "order_snapshot"::text;
