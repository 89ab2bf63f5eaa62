CREATE TABLE "buyer_requests" (
	"invoice_id" uuid PRIMARY KEY NOT NULL,
	"shop" text NOT NULL,
	"outcome" text NOT NULL,
	"language" text NOT NULL,
	"credit_note_id" uuid,
	"replacement_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "buyer_requests_outcome_ck" CHECK ("outcome" in ('corrected', 'reissued')),
	CONSTRAINT "buyer_requests_language_ck" CHECK ("language" in ('es', 'en'))
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "buyer_token" text DEFAULT rtrim(translate(encode(decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'), 'base64'), '+/', '-_'), '=') NOT NULL;--> statement-breakpoint
ALTER TABLE "buyer_requests" ADD CONSTRAINT "buyer_requests_invoice_id_documents_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "buyer_requests_shop_idx" ON "buyer_requests" USING btree ("shop","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_buyer_token_uq" ON "documents" USING btree ("buyer_token");