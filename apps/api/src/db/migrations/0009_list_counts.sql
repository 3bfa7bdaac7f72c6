-- Exact row counts of the two largest lists per organization (scans of every type, duplicates included; patients),
-- so an unfiltered list's '{n} items' (ADMIN's All Time, an organization's page without filters) is a sum over a
-- few rows instead of a count over a million. Kept exact by statement-level triggers with transition tables on
-- every insert, update (organization moves), delete and truncate, like the scan_stats tables of 0005; a COPY is
-- counted once per statement. NULL organization (unassigned) is a key of its own. Not in the Drizzle schema (read
-- with plain SQL in scan-list.queries.ts and patients.queries.ts); drizzle-kit never sees it, so never drops it.
CREATE TABLE IF NOT EXISTS "list_counts" (
	"list" text NOT NULL,
	"organization_id" integer,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "list_counts_key" UNIQUE NULLS NOT DISTINCT("list", "organization_id")
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION list_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM list_counts WHERE list = TG_ARGV[0];
    RETURN NULL;
  END IF;
  -- Deltas per organization, in key order (concurrent writers lock the rows in the same order).
  IF TG_OP = 'INSERT' THEN
    INSERT INTO list_counts AS c (list, organization_id, n)
    SELECT TG_ARGV[0], organization_id, count(*) FROM list_counts_new GROUP BY organization_id ORDER BY organization_id
    ON CONFLICT ON CONSTRAINT list_counts_key DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO list_counts AS c (list, organization_id, n)
    SELECT TG_ARGV[0], organization_id, -count(*) FROM list_counts_old GROUP BY organization_id ORDER BY organization_id
    ON CONFLICT ON CONSTRAINT list_counts_key DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO list_counts AS c (list, organization_id, n)
    SELECT TG_ARGV[0], organization_id, sum(k) FROM (
      SELECT organization_id, 1 AS k FROM list_counts_new
      UNION ALL
      SELECT organization_id, -1 AS k FROM list_counts_old
    ) d GROUP BY organization_id HAVING sum(k) <> 0 ORDER BY organization_id
    ON CONFLICT ON CONSTRAINT list_counts_key DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER list_counts_scans_ins AFTER INSERT ON scans REFERENCING NEW TABLE AS list_counts_new
  FOR EACH STATEMENT EXECUTE FUNCTION list_counts_apply('scans');
--> statement-breakpoint
CREATE TRIGGER list_counts_scans_upd AFTER UPDATE ON scans REFERENCING OLD TABLE AS list_counts_old NEW TABLE AS list_counts_new
  FOR EACH STATEMENT EXECUTE FUNCTION list_counts_apply('scans');
--> statement-breakpoint
CREATE TRIGGER list_counts_scans_del AFTER DELETE ON scans REFERENCING OLD TABLE AS list_counts_old
  FOR EACH STATEMENT EXECUTE FUNCTION list_counts_apply('scans');
--> statement-breakpoint
CREATE TRIGGER list_counts_scans_trunc AFTER TRUNCATE ON scans
  FOR EACH STATEMENT EXECUTE FUNCTION list_counts_apply('scans');
--> statement-breakpoint
CREATE TRIGGER list_counts_patients_ins AFTER INSERT ON patients REFERENCING NEW TABLE AS list_counts_new
  FOR EACH STATEMENT EXECUTE FUNCTION list_counts_apply('patients');
--> statement-breakpoint
CREATE TRIGGER list_counts_patients_upd AFTER UPDATE ON patients REFERENCING OLD TABLE AS list_counts_old NEW TABLE AS list_counts_new
  FOR EACH STATEMENT EXECUTE FUNCTION list_counts_apply('patients');
--> statement-breakpoint
CREATE TRIGGER list_counts_patients_del AFTER DELETE ON patients REFERENCING OLD TABLE AS list_counts_old
  FOR EACH STATEMENT EXECUTE FUNCTION list_counts_apply('patients');
--> statement-breakpoint
CREATE TRIGGER list_counts_patients_trunc AFTER TRUNCATE ON patients
  FOR EACH STATEMENT EXECUTE FUNCTION list_counts_apply('patients');
--> statement-breakpoint
INSERT INTO list_counts (list, organization_id, n)
SELECT 'scans', organization_id, count(*) FROM scans GROUP BY organization_id
UNION ALL
SELECT 'patients', organization_id, count(*) FROM patients GROUP BY organization_id
ON CONFLICT ON CONSTRAINT list_counts_key DO UPDATE SET n = excluded.n;