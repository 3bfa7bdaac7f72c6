-- Exact scan counts (every type, duplicates included) per organization and UTC hour, so the scan list's count over a
-- period (an organization's last 30 days: ~16,500 scans at a million) is a sum over its whole hours (~720 rows) plus
-- the two partial hours at the period's edges (both indexes hold `n`: a sum is an index-only scan) (a local midnight in +5:30 or +5:45 is not a whole UTC hour), read from
-- the organization/date index. Kept exact by statement-level triggers with transition tables on every insert, update
-- (an organization move, a corrected time), delete and truncate, as list_counts (0009); NULL organization
-- (unassigned) is a key of its own. Not in the Drizzle schema (read with plain SQL in db/list-counts.ts).
CREATE TABLE IF NOT EXISTS "scan_hour_counts" (
	"organization_id" integer,
	"hour" timestamp with time zone NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "scan_hour_counts_key" UNIQUE NULLS NOT DISTINCT("organization_id", "hour") INCLUDE ("n")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "scan_hour_counts_hour_idx" ON "scan_hour_counts" ("hour") INCLUDE ("organization_id", "n");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION scan_hour_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM scan_hour_counts;
    RETURN NULL;
  END IF;
  -- Deltas per organization and hour, in key order (concurrent writers lock the rows in the same order).
  IF TG_OP = 'INSERT' THEN
    INSERT INTO scan_hour_counts AS c (organization_id, hour, n)
    SELECT organization_id, date_trunc('hour', date_time, 'UTC'), count(*) FROM scan_hour_counts_new
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ON CONSTRAINT scan_hour_counts_key DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO scan_hour_counts AS c (organization_id, hour, n)
    SELECT organization_id, date_trunc('hour', date_time, 'UTC'), -count(*) FROM scan_hour_counts_old
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ON CONSTRAINT scan_hour_counts_key DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO scan_hour_counts AS c (organization_id, hour, n)
    SELECT organization_id, hour, sum(k) FROM (
      SELECT organization_id, date_trunc('hour', date_time, 'UTC') AS hour, 1 AS k FROM scan_hour_counts_new
      UNION ALL
      SELECT organization_id, date_trunc('hour', date_time, 'UTC'), -1 FROM scan_hour_counts_old
    ) d GROUP BY 1, 2 HAVING sum(k) <> 0 ORDER BY 1, 2
    ON CONFLICT ON CONSTRAINT scan_hour_counts_key DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER scan_hour_counts_ins AFTER INSERT ON scans REFERENCING NEW TABLE AS scan_hour_counts_new
  FOR EACH STATEMENT EXECUTE FUNCTION scan_hour_counts_apply();
--> statement-breakpoint
CREATE TRIGGER scan_hour_counts_upd AFTER UPDATE ON scans REFERENCING OLD TABLE AS scan_hour_counts_old NEW TABLE AS scan_hour_counts_new
  FOR EACH STATEMENT EXECUTE FUNCTION scan_hour_counts_apply();
--> statement-breakpoint
CREATE TRIGGER scan_hour_counts_del AFTER DELETE ON scans REFERENCING OLD TABLE AS scan_hour_counts_old
  FOR EACH STATEMENT EXECUTE FUNCTION scan_hour_counts_apply();
--> statement-breakpoint
CREATE TRIGGER scan_hour_counts_trunc AFTER TRUNCATE ON scans
  FOR EACH STATEMENT EXECUTE FUNCTION scan_hour_counts_apply();
--> statement-breakpoint
INSERT INTO scan_hour_counts (organization_id, hour, n)
SELECT organization_id, date_trunc('hour', date_time, 'UTC'), count(*) FROM scans GROUP BY 1, 2
ON CONFLICT ON CONSTRAINT scan_hour_counts_key DO UPDATE SET n = excluded.n;
--> statement-breakpoint
ANALYZE scan_hour_counts;
