ALTER TABLE "cervical_exams" ADD COLUMN "final_status" text;--> statement-breakpoint
ALTER TABLE "cervical_exams" ADD COLUMN "adjudicated_by_id" integer;--> statement-breakpoint
ALTER TABLE "cervical_exams" ADD COLUMN "adjudicated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cervical_exams" ADD COLUMN "adjudication_note" text;--> statement-breakpoint
ALTER TABLE "cervical_exams" ADD CONSTRAINT "cervical_exams_adjudicated_by_id_users_id_fk" FOREIGN KEY ("adjudicated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scan_stats_technician_daily_tech_idx" ON "scan_stats_technician_daily" USING btree ("technician_id","day");