-- The scan map's packed points (GET scan/lat-long/, scan-list.queries.ts), issue 24. Two readers replace the
-- id-ordered scans_points_idx of 0010, which for a period walked every id and threw away the rows outside it:
-- 1. scan_point_days: the points of each organization and UTC day, pre-packed as the API sends them (12 bytes a scan:
--    int4 id, float4 latitude, float4 longitude, big-endian as int4send/float4send write them). A map filtered by
--    scope, organization and period only (its usual view) concatenates the period's whole days from here.
--    Kept exact by statement-level triggers with transition tables (as scan_hour_counts, 0017): an insert appends,
--    a delete removes the records by id, an update that moves a scan (organization, time or coordinates) does both;
--    each changes the row's current value (append, or filter by id), so concurrent writers of one day do not lose
--    each other's points. NULL
--    organization (unassigned) is a key of its own. Not in the Drizzle schema (plain SQL, like scan_hour_counts).
-- 2. scans_points_date_idx: the partial edge days of a period and every other filter read a date range of this
--    covering index with an index-only scan (scope and organization answered from it too).
CREATE INDEX IF NOT EXISTS "scans_points_date_idx" ON "scans" USING btree ("date_time")
  INCLUDE ("organization_id", "id", "latitude", "longitude") WHERE "latitude" IS NOT NULL AND "longitude" IS NOT NULL;
--> statement-breakpoint
DROP INDEX IF EXISTS "scans_points_idx";
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "scan_point_days" (
	"organization_id" integer,
	"day" date NOT NULL,
	"points" bytea DEFAULT ''::bytea NOT NULL,
	CONSTRAINT "scan_point_days_key" UNIQUE NULLS NOT DISTINCT("organization_id", "day")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "scan_point_days_day_idx" ON "scan_point_days" ("day", "organization_id");
--> statement-breakpoint
-- Mostly a few kB a row, all of it coordinates: not worth compressing (pglz would try on every write).
ALTER TABLE "scan_point_days" ALTER COLUMN "points" SET STORAGE EXTERNAL;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION scan_points_without(points bytea, ids integer[]) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(string_agg(substring(points FROM i * 12 + 1 FOR 12), ''::bytea ORDER BY i), ''::bytea)
  FROM generate_series(0, length(points) / 12 - 1) AS i
  WHERE NOT (('x' || encode(substring(points FROM i * 12 + 1 FOR 4), 'hex'))::bit(32)::integer = ANY (ids))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION scan_point_days_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k record;
BEGIN
  -- A statement names only the transition tables its trigger has (PL/pgSQL plans each one when it first runs).
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM scan_point_days;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO scan_point_days AS c (organization_id, day, points)
    SELECT n.organization_id, (n.date_time AT TIME ZONE 'UTC')::date,
      string_agg(int4send(n.id) || float4send(n.latitude::float4) || float4send(n.longitude::float4), ''::bytea)
    FROM scan_point_days_new n WHERE n.latitude IS NOT NULL AND n.longitude IS NOT NULL
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ON CONSTRAINT scan_point_days_key DO UPDATE SET points = c.points || excluded.points;
  ELSIF TG_OP = 'DELETE' THEN
    -- In key order, so concurrent writers lock the rows alike.
    FOR k IN
      SELECT o.organization_id, (o.date_time AT TIME ZONE 'UTC')::date AS day, array_agg(o.id) AS ids
      FROM scan_point_days_old o WHERE o.latitude IS NOT NULL AND o.longitude IS NOT NULL
      GROUP BY 1, 2 ORDER BY 1, 2
    LOOP
      UPDATE scan_point_days c SET points = scan_points_without(c.points, k.ids)
      WHERE c.organization_id IS NOT DISTINCT FROM k.organization_id AND c.day = k.day;
    END LOOP;
  ELSE
    -- An update moves a scan's point when its organization, time or coordinates (as float4) change: its record
    -- leaves the old day's row and joins the new one. Most updates move nothing and write nothing here.
    FOR k IN
      SELECT o.organization_id, (o.date_time AT TIME ZONE 'UTC')::date AS day, array_agg(o.id) AS ids
      FROM scan_point_days_old o JOIN scan_point_days_new n ON n.id = o.id
      WHERE o.latitude IS NOT NULL AND o.longitude IS NOT NULL
        AND (n.organization_id, n.date_time, n.latitude::float4, n.longitude::float4)
          IS DISTINCT FROM (o.organization_id, o.date_time, o.latitude::float4, o.longitude::float4)
      GROUP BY 1, 2 ORDER BY 1, 2
    LOOP
      UPDATE scan_point_days c SET points = scan_points_without(c.points, k.ids)
      WHERE c.organization_id IS NOT DISTINCT FROM k.organization_id AND c.day = k.day;
    END LOOP;
    INSERT INTO scan_point_days AS c (organization_id, day, points)
    SELECT n.organization_id, (n.date_time AT TIME ZONE 'UTC')::date,
      string_agg(int4send(n.id) || float4send(n.latitude::float4) || float4send(n.longitude::float4), ''::bytea)
    FROM scan_point_days_new n JOIN scan_point_days_old o ON o.id = n.id
    WHERE n.latitude IS NOT NULL AND n.longitude IS NOT NULL
      AND (n.organization_id, n.date_time, n.latitude::float4, n.longitude::float4)
        IS DISTINCT FROM (o.organization_id, o.date_time, o.latitude::float4, o.longitude::float4)
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ON CONSTRAINT scan_point_days_key DO UPDATE SET points = c.points || excluded.points;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER scan_point_days_ins AFTER INSERT ON scans REFERENCING NEW TABLE AS scan_point_days_new
  FOR EACH STATEMENT EXECUTE FUNCTION scan_point_days_apply();
--> statement-breakpoint
CREATE TRIGGER scan_point_days_upd AFTER UPDATE ON scans REFERENCING OLD TABLE AS scan_point_days_old NEW TABLE AS scan_point_days_new
  FOR EACH STATEMENT EXECUTE FUNCTION scan_point_days_apply();
--> statement-breakpoint
CREATE TRIGGER scan_point_days_del AFTER DELETE ON scans REFERENCING OLD TABLE AS scan_point_days_old
  FOR EACH STATEMENT EXECUTE FUNCTION scan_point_days_apply();
--> statement-breakpoint
CREATE TRIGGER scan_point_days_trunc AFTER TRUNCATE ON scans
  FOR EACH STATEMENT EXECUTE FUNCTION scan_point_days_apply();
--> statement-breakpoint
INSERT INTO scan_point_days (organization_id, day, points)
SELECT organization_id, (date_time AT TIME ZONE 'UTC')::date,
  string_agg(int4send(id) || float4send(latitude::float4) || float4send(longitude::float4), ''::bytea)
FROM scans WHERE latitude IS NOT NULL AND longitude IS NOT NULL GROUP BY 1, 2
ON CONFLICT ON CONSTRAINT scan_point_days_key DO UPDATE SET points = excluded.points;
--> statement-breakpoint
ANALYZE scan_point_days;