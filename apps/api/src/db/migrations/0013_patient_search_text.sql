ALTER TABLE "patients" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(first_name || ' ' || last_name || ' ' || coalesce(mobile, '') || ' ' || coalesce(email, ''))) STORED;--> statement-breakpoint
CREATE INDEX "patients_search_text_trgm_idx" ON "patients" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "scans_patient_date_idx" ON "scans" USING btree ("patient_id","date_time");--> statement-breakpoint
DROP INDEX "scans_patient_idx";
