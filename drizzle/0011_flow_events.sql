CREATE TABLE "flow_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"shop" text NOT NULL,
	"event" text NOT NULL,
	"reason" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flow_events_event_ck" CHECK ("event" in ('invoice_authorized', 'invoice_needs_attention', 'credit_note_authorized')),
	CONSTRAINT "flow_events_status_ck" CHECK ("status" in ('pending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "flow_events_document_event_uq" ON "flow_events" USING btree ("document_id","event");--> statement-breakpoint
CREATE INDEX "flow_events_due_idx" ON "flow_events" USING btree ("next_attempt_at") WHERE "flow_events"."status" = 'pending';--> statement-breakpoint
-- Hand-written: the reference to documents (schema-flow.ts stays apart from schema.ts). A document removed (shop/redact,
-- a discarded document) takes its Flow events with it.
ALTER TABLE "flow_events" ADD CONSTRAINT "flow_events_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;
