-- The patients' search text (patients.search_text: name, mobile, e-mail, lower case) in a narrow table of its own, for
-- the scan list's patient search (modules/scans/scan-list.queries.ts searchScans). A broad term ('sha') is answered by
-- scanning patients until enough match; patients rows are wide and search_text is their last column, so each row
-- examined cost ~0.4 µs of tuple decoding before the LIKE, and a 30-day search examined thousands (2.5 ms a request at a
-- million scans, ~0.9 ms here). A rare term uses the trigram index below. Kept equal to patients.search_text by
-- statement-level triggers with transition tables (insert, update); a deleted patient's row goes with it (ON DELETE
-- CASCADE). Not in the Drizzle schema (read with plain SQL).
CREATE TABLE IF NOT EXISTS "patient_search" (
	"patient_id" integer PRIMARY KEY NOT NULL REFERENCES "patients"("id") ON DELETE CASCADE,
	"search_text" text NOT NULL
);
--> statement-breakpoint
INSERT INTO "patient_search" ("patient_id", "search_text")
SELECT "id", coalesce("search_text", '') FROM "patients" ORDER BY "id"
ON CONFLICT ("patient_id") DO NOTHING;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "patient_search_trgm_idx" ON "patient_search" USING gin ("search_text" gin_trgm_ops);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION patient_search_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- In key order (concurrent writers lock the rows in the same order); unchanged texts are not rewritten.
  INSERT INTO patient_search AS s (patient_id, search_text)
  SELECT id, coalesce(search_text, '') FROM patient_search_new ORDER BY id
  ON CONFLICT (patient_id) DO UPDATE SET search_text = excluded.search_text
  WHERE s.search_text IS DISTINCT FROM excluded.search_text;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS patient_search_insert ON patients;
--> statement-breakpoint
CREATE TRIGGER patient_search_insert AFTER INSERT ON patients
  REFERENCING NEW TABLE AS patient_search_new FOR EACH STATEMENT EXECUTE FUNCTION patient_search_apply();
--> statement-breakpoint
DROP TRIGGER IF EXISTS patient_search_update ON patients;
--> statement-breakpoint
CREATE TRIGGER patient_search_update AFTER UPDATE ON patients
  REFERENCING NEW TABLE AS patient_search_new FOR EACH STATEMENT EXECUTE FUNCTION patient_search_apply();
--> statement-breakpoint
ANALYZE "patient_search";
