CREATE TABLE "compliance_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"topic" text NOT NULL,
	"shop" text NOT NULL,
	"payload" jsonb NOT NULL,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fiscal_sequences" (
	"shop" text NOT NULL,
	"branch_code" text NOT NULL,
	"billing_point" text NOT NULL,
	"document_type" text NOT NULL,
	"next_number" bigint DEFAULT 1 NOT NULL,
	CONSTRAINT "fiscal_sequences_shop_branch_code_billing_point_document_type_pk" PRIMARY KEY("shop","branch_code","billing_point","document_type")
);
--> statement-breakpoint
CREATE TABLE "fiscal_skips" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"shop" text NOT NULL,
	"branch_code" text NOT NULL,
	"billing_point" text NOT NULL,
	"document_type" text NOT NULL,
	"number" bigint NOT NULL,
	"reason" text NOT NULL,
	"invoice_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateway_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"invoice_id" uuid,
	"shop" text NOT NULL,
	"operation" text NOT NULL,
	"outcome" text NOT NULL,
	"code" text,
	"message" text,
	"duration_ms" integer NOT NULL,
	"request" jsonb,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_pdfs" (
	"invoice_id" uuid PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"sha256" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_pdfs_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shop" text NOT NULL,
	"order_gid" text NOT NULL,
	"order_name" text NOT NULL,
	"document_type" text DEFAULT '01' NOT NULL,
	"step" text DEFAULT 'send' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"total_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"test" boolean DEFAULT false NOT NULL,
	"order_snapshot" jsonb NOT NULL,
	"snapshot_redacted" boolean DEFAULT false NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"environment" text,
	"branch_code" text,
	"billing_point" text,
	"fiscal_number" bigint,
	"send_may_have_reached" boolean DEFAULT false NOT NULL,
	"document" jsonb,
	"document_hash" text,
	"cufe" text,
	"qr" text,
	"protocol" text,
	"reception_date_dgi" text,
	"authorized_at" timestamp with time zone,
	"written_back_at" timestamp with time zone,
	"last_error_kind" text,
	"last_error_code" text,
	"last_error_message" text,
	"problems" jsonb,
	"notice" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconcile_sweeps" (
	"shop" text PRIMARY KEY NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"last_started_at" timestamp with time zone,
	"last_finished_at" timestamp with time zone,
	"last_enqueued" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"shop" text NOT NULL,
	"state" text NOT NULL,
	"is_online" boolean DEFAULT false NOT NULL,
	"scope" text,
	"expires" timestamp with time zone,
	"access_token_enc" text NOT NULL,
	"refresh_token_enc" text,
	"refresh_token_expires" timestamp with time zone,
	"user_id" bigint,
	"first_name" text,
	"last_name" text,
	"email" text,
	"account_owner" boolean,
	"locale" text,
	"collaborator" boolean,
	"email_verified" boolean
);
--> statement-breakpoint
CREATE TABLE "shops" (
	"shop" text PRIMARY KEY NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"credentials_enc" text,
	"enabled" boolean DEFAULT false NOT NULL,
	"installed" boolean DEFAULT true NOT NULL,
	"paused_reason" text,
	"settings_version" integer DEFAULT 0 NOT NULL,
	"installed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uninstalled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"webhook_id" text NOT NULL,
	"event_id" text,
	"topic" text NOT NULL,
	"shop" text NOT NULL,
	"order_gid" text,
	"triggered_at" text,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice_pdfs" ADD CONSTRAINT "invoice_pdfs_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconcile_sweeps" ADD CONSTRAINT "reconcile_sweeps_shop_shops_shop_fk" FOREIGN KEY ("shop") REFERENCES "public"."shops"("shop") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gateway_calls_invoice_idx" ON "gateway_calls" USING btree ("invoice_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_shop_order_doc_uq" ON "invoices" USING btree ("shop","order_gid","document_type");--> statement-breakpoint
CREATE INDEX "invoices_due_idx" ON "invoices" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "invoices_shop_created_idx" ON "invoices" USING btree ("shop","created_at");--> statement-breakpoint
CREATE INDEX "invoices_shop_status_idx" ON "invoices" USING btree ("shop","status");--> statement-breakpoint
CREATE INDEX "invoices_shop_order_name_idx" ON "invoices" USING btree ("shop","order_name");--> statement-breakpoint
CREATE INDEX "invoices_shop_fiscal_number_idx" ON "invoices" USING btree ("shop","fiscal_number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_fiscal_number_uq" ON "invoices" USING btree ("shop","branch_code","billing_point","document_type","fiscal_number");--> statement-breakpoint
CREATE INDEX "sessions_shop_idx" ON "sessions" USING btree ("shop");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_shop_idx" ON "webhook_deliveries" USING btree ("shop","received_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_order_idx" ON "webhook_deliveries" USING btree ("shop","order_gid");