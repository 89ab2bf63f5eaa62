-- hand-written (ahead of the index it makes possible): Reenviar pressed at once queued several resends of a
-- document; keep the oldest waiting one of each, the others would have sent the same e-mail again.
DELETE FROM "document_emails" AS "e" WHERE "e"."reason" = 'resend' AND "e"."status" = 'pending' AND EXISTS (SELECT 1 FROM "document_emails" AS "o" WHERE "o"."document_id" = "e"."document_id" AND "o"."reason" = 'resend' AND "o"."status" = 'pending' AND ("o"."created_at", "o"."id") < ("e"."created_at", "e"."id"));--> statement-breakpoint
CREATE UNIQUE INDEX "document_emails_pending_resend_uq" ON "document_emails" USING btree ("document_id") WHERE "document_emails"."reason" = 'resend' and "document_emails"."status" = 'pending';
