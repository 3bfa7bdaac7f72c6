-- An impersonation token lives only while the ADMIN's session that started it does (issue 6, must-fix 7): the
-- link, and the end of the impersonation tokens already issued, which name no session.
ALTER TABLE "sessions" ADD COLUMN "parent_session_id" integer;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_parent_session_id_sessions_id_fk" FOREIGN KEY ("parent_session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_parent_session_idx" ON "sessions" USING btree ("parent_session_id");--> statement-breakpoint
UPDATE "sessions" SET "revoked_at" = now() WHERE "kind" = 'impersonation' AND "parent_session_id" IS NULL AND "revoked_at" IS NULL;
