CREATE TABLE "trash_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"area" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" integer NOT NULL,
	"label" text NOT NULL,
	"organization_id" integer,
	"deleted_by" integer,
	"deleted_at" timestamp with time zone NOT NULL,
	"purge_after" timestamp with time zone NOT NULL,
	"rows" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"file_keys" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trash_entries" ADD CONSTRAINT "trash_entries_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trash_entries_area_idx" ON "trash_entries" USING btree ("area","deleted_at","id");--> statement-breakpoint
CREATE INDEX "trash_entries_purge_idx" ON "trash_entries" USING btree ("purge_after");--> statement-breakpoint
CREATE INDEX "trash_entries_target_idx" ON "trash_entries" USING btree ("target_type","target_id");