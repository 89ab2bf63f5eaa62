CREATE TABLE "report_emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shop" text NOT NULL,
	"month" text NOT NULL,
	"environment" text NOT NULL,
	"recipient" text NOT NULL,
	"language" text NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"message_id" text,
	"last_error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_emails_status_ck" CHECK ("status" in ('pending', 'sent', 'failed')),
	CONSTRAINT "report_emails_reason_ck" CHECK ("reason" in ('monthly', 'resend')),
	CONSTRAINT "report_emails_language_ck" CHECK ("language" in ('es', 'en'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "report_emails_monthly_uq" ON "report_emails" USING btree ("shop","month") WHERE "report_emails"."reason" = 'monthly';--> statement-breakpoint
CREATE INDEX "report_emails_shop_month_idx" ON "report_emails" USING btree ("shop","month","created_at");--> statement-breakpoint
CREATE INDEX "report_emails_due_idx" ON "report_emails" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "documents_shop_authorized_idx" ON "documents" USING btree ("shop","environment","authorized_at","id") WHERE "documents"."authorized_at" is not null;