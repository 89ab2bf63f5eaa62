ALTER TABLE "documents" ADD COLUMN "repeated_201" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "last_201_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "documents_shop_cufe_uq" ON "documents" USING btree ("shop","cufe") WHERE "documents"."cufe" is not null;