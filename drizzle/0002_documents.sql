-- The invoice row becomes a fiscal document with a kind (invoice now, credit note next). Renamed in place so every
-- row, id, PDF link and gateway call record stays; error texts become catalogue messages.
ALTER TABLE "invoices" RENAME TO "documents";--> statement-breakpoint
ALTER TABLE "documents" RENAME CONSTRAINT "invoices_pkey" TO "documents_pkey";--> statement-breakpoint
ALTER TABLE "documents" RENAME COLUMN "order_snapshot" TO "snapshot";--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "kind" text DEFAULT 'invoice' NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "source_key" text;--> statement-breakpoint
UPDATE "documents" SET "source_key" = "order_gid";--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "source_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "invoice_id" uuid;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "replaces_id" uuid;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "refresh_snapshot" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "client_override" jsonb;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "tax_id_source" text;--> statement-breakpoint
-- Stored prose becomes a message the catalogue renders as it was written ("legacy").
ALTER TABLE "documents" ADD COLUMN "last_error" jsonb;--> statement-breakpoint
UPDATE "documents" SET "last_error" = jsonb_build_object('key', 'legacy', 'params', jsonb_build_object('text', "last_error_message"))
  WHERE "last_error_message" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" DROP COLUMN "last_error_message";--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "notice" SET DATA TYPE jsonb
  USING CASE WHEN "notice" IS NULL THEN NULL ELSE jsonb_build_object('key', 'legacy', 'params', jsonb_build_object('text', "notice")) END;--> statement-breakpoint
ALTER TABLE "shops" ALTER COLUMN "paused_reason" SET DATA TYPE jsonb
  USING CASE WHEN "paused_reason" IS NULL THEN NULL ELSE jsonb_build_object('key', 'legacy', 'params', jsonb_build_object('text', "paused_reason")) END;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_kind_ck" CHECK ("kind" in ('invoice', 'credit_note'));--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_status_ck" CHECK ("status" in ('pending', 'waiting', 'needs_attention', 'failed', 'completed', 'skipped'));--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_step_ck" CHECK ("step" in ('send', 'pdf', 'writeback', 'done'));--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_kind_type_ck" CHECK (("documents"."kind" = 'invoice') = ("documents"."document_type" <> '04'));--> statement-breakpoint
DROP INDEX "invoices_shop_order_doc_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "documents_shop_kind_source_uq" ON "documents" USING btree ("shop","kind","source_key");--> statement-breakpoint
ALTER INDEX "invoices_due_idx" RENAME TO "documents_due_idx";--> statement-breakpoint
ALTER INDEX "invoices_shop_created_idx" RENAME TO "documents_shop_created_idx";--> statement-breakpoint
ALTER INDEX "invoices_shop_status_idx" RENAME TO "documents_shop_status_idx";--> statement-breakpoint
ALTER INDEX "invoices_shop_order_name_idx" RENAME TO "documents_shop_order_name_idx";--> statement-breakpoint
ALTER INDEX "invoices_shop_fiscal_number_idx" RENAME TO "documents_shop_fiscal_number_idx";--> statement-breakpoint
ALTER INDEX "invoices_fiscal_number_uq" RENAME TO "documents_fiscal_number_uq";--> statement-breakpoint
CREATE INDEX "documents_shop_order_idx" ON "documents" USING btree ("shop","order_gid");--> statement-breakpoint
CREATE INDEX "documents_invoice_idx" ON "documents" USING btree ("invoice_id");--> statement-breakpoint
ALTER TABLE "invoice_pdfs" RENAME TO "document_pdfs";--> statement-breakpoint
ALTER TABLE "document_pdfs" RENAME CONSTRAINT "invoice_pdfs_pkey" TO "document_pdfs_pkey";--> statement-breakpoint
ALTER TABLE "document_pdfs" RENAME COLUMN "invoice_id" TO "document_id";--> statement-breakpoint
ALTER TABLE "document_pdfs" RENAME CONSTRAINT "invoice_pdfs_token_unique" TO "document_pdfs_token_unique";--> statement-breakpoint
ALTER TABLE "document_pdfs" RENAME CONSTRAINT "invoice_pdfs_invoice_id_invoices_id_fk" TO "document_pdfs_document_id_documents_id_fk";--> statement-breakpoint
ALTER TABLE "fiscal_skips" RENAME COLUMN "invoice_id" TO "document_id";--> statement-breakpoint
ALTER TABLE "gateway_calls" RENAME COLUMN "invoice_id" TO "document_id";--> statement-breakpoint
ALTER INDEX "gateway_calls_invoice_idx" RENAME TO "gateway_calls_document_idx";
