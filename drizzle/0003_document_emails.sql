-- The buyer e-mail outbox (issue 16 item 4). In shop settings, a deliveryCAFE of 3 (the old default, saved with every
-- form) is dropped so that the code follows mapping.cafeDelivery, whose default (the app e-mails the CAFE) gives 3
-- again: no shop's documents change. Any other code the merchant chose stays.
CREATE TABLE "document_emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"shop" text NOT NULL,
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
	CONSTRAINT "document_emails_status_ck" CHECK ("status" in ('pending', 'sent', 'failed')),
	CONSTRAINT "document_emails_reason_ck" CHECK ("reason" in ('authorized', 'resend')),
	CONSTRAINT "document_emails_language_ck" CHECK ("language" in ('es', 'en'))
);
--> statement-breakpoint
ALTER TABLE "document_emails" ADD CONSTRAINT "document_emails_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "document_emails_authorized_uq" ON "document_emails" USING btree ("document_id") WHERE "document_emails"."reason" = 'authorized';--> statement-breakpoint
CREATE INDEX "document_emails_document_idx" ON "document_emails" USING btree ("document_id","created_at");--> statement-breakpoint
CREATE INDEX "document_emails_due_idx" ON "document_emails" USING btree ("status","next_attempt_at");--> statement-breakpoint
UPDATE "shops" SET "settings" = "settings" #- '{mapping,transactionDefaults,deliveryCAFE}'
  WHERE "settings" #>> '{mapping,transactionDefaults,deliveryCAFE}' = '3';