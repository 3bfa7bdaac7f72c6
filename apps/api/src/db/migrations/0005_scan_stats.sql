CREATE TABLE "scan_stats_device_daily" (
	"day" date NOT NULL,
	"organization_id" integer,
	"device_serial_number" text NOT NULL,
	"scans" integer DEFAULT 0 NOT NULL,
	"positives" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "scan_stats_device_daily_key" UNIQUE NULLS NOT DISTINCT("day","device_serial_number","organization_id")
);
--> statement-breakpoint
CREATE TABLE "scan_stats_org_daily" (
	"day" date NOT NULL,
	"organization_id" integer,
	"scans" integer DEFAULT 0 NOT NULL,
	"positives" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "scan_stats_org_daily_key" UNIQUE NULLS NOT DISTINCT("day","organization_id")
);
--> statement-breakpoint
CREATE TABLE "scan_stats_org_total" (
	"organization_id" integer,
	"scans" integer DEFAULT 0 NOT NULL,
	"positives" integer DEFAULT 0 NOT NULL,
	"last_sync" timestamp with time zone,
	CONSTRAINT "scan_stats_org_total_key" UNIQUE NULLS NOT DISTINCT("organization_id")
);
--> statement-breakpoint
CREATE TABLE "scan_stats_technician_daily" (
	"day" date NOT NULL,
	"organization_id" integer,
	"technician_id" integer NOT NULL,
	"scans" integer DEFAULT 0 NOT NULL,
	"positives" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "scan_stats_technician_daily_key" UNIQUE NULLS NOT DISTINCT("day","technician_id","organization_id")
);
--> statement-breakpoint
CREATE INDEX "scan_stats_device_daily_org_idx" ON "scan_stats_device_daily" USING btree ("organization_id","day");--> statement-breakpoint
CREATE INDEX "scan_stats_org_daily_org_idx" ON "scan_stats_org_daily" USING btree ("organization_id","day");--> statement-breakpoint
CREATE INDEX "scan_stats_technician_daily_org_idx" ON "scan_stats_technician_daily" USING btree ("organization_id","day");--> statement-breakpoint
-- Keeps the scan_stats_* tables exact whatever writes scans (uploads, transfers, deletes, cascades, COPY).
-- Statement-level with transition tables: a COPY of a million rows is aggregated once, not row by row.
-- The delta rows carry sign +1 (a row as it is now) or -1 (a row as it was); each table adds the grouped delta.
CREATE FUNCTION scan_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cols constant text := 'date_time, organization_id, technician_id, device_serial_number, scan_type, is_positive, created';
  src text;
  has_rows boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    src := format('SELECT %s, 1 AS sign FROM scan_stats_new', cols);
  ELSIF TG_OP = 'DELETE' THEN
    src := format('SELECT %s, -1 AS sign FROM scan_stats_old', cols);
  ELSE
    -- Only rows whose counted facts changed: an update of notes or files moves nothing.
    src := 'SELECT x.* FROM scan_stats_old o JOIN scan_stats_new n ON n.id = o.id'
      || ' CROSS JOIN LATERAL (VALUES'
      || ' (n.date_time, n.organization_id, n.technician_id, n.device_serial_number, n.scan_type, n.is_positive, n.created, 1),'
      || ' (o.date_time, o.organization_id, o.technician_id, o.device_serial_number, o.scan_type, o.is_positive, o.created, -1))'
      || ' AS x(date_time, organization_id, technician_id, device_serial_number, scan_type, is_positive, created, sign)'
      || ' WHERE (o.date_time, o.organization_id, o.technician_id, o.device_serial_number, o.scan_type, o.is_positive, o.created)'
      || ' IS DISTINCT FROM (n.date_time, n.organization_id, n.technician_id, n.device_serial_number, n.scan_type, n.is_positive, n.created)';
  END IF;
  EXECUTE format('SELECT EXISTS (%s)', src) INTO has_rows;
  IF NOT has_rows THEN
    RETURN NULL;
  END IF;

  EXECUTE format($q$
    INSERT INTO scan_stats_org_daily AS s (day, organization_id, scans, positives)
    SELECT (d.date_time AT TIME ZONE 'UTC')::date, d.organization_id, sum(d.sign), coalesce(sum(d.sign) FILTER (WHERE d.is_positive), 0)
    FROM (%s) d WHERE d.scan_type = 'SCAN'
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ON CONSTRAINT scan_stats_org_daily_key
    DO UPDATE SET scans = s.scans + excluded.scans, positives = s.positives + excluded.positives
  $q$, src);

  EXECUTE format($q$
    INSERT INTO scan_stats_technician_daily AS s (day, technician_id, organization_id, scans, positives)
    SELECT (d.date_time AT TIME ZONE 'UTC')::date, d.technician_id, d.organization_id, sum(d.sign), coalesce(sum(d.sign) FILTER (WHERE d.is_positive), 0)
    FROM (%s) d WHERE d.scan_type = 'SCAN' AND d.technician_id IS NOT NULL
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ON CONSTRAINT scan_stats_technician_daily_key
    DO UPDATE SET scans = s.scans + excluded.scans, positives = s.positives + excluded.positives
  $q$, src);

  EXECUTE format($q$
    INSERT INTO scan_stats_device_daily AS s (day, device_serial_number, organization_id, scans, positives)
    SELECT (d.date_time AT TIME ZONE 'UTC')::date, d.device_serial_number, d.organization_id, sum(d.sign), coalesce(sum(d.sign) FILTER (WHERE d.is_positive), 0)
    FROM (%s) d WHERE d.scan_type = 'SCAN' AND d.device_serial_number IS NOT NULL
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ON CONSTRAINT scan_stats_device_daily_key
    DO UPDATE SET scans = s.scans + excluded.scans, positives = s.positives + excluded.positives
  $q$, src);

  EXECUTE format($q$
    INSERT INTO scan_stats_org_total AS s (organization_id, scans, positives, last_sync)
    SELECT d.organization_id,
      coalesce(sum(d.sign) FILTER (WHERE d.scan_type = 'SCAN'), 0),
      coalesce(sum(d.sign) FILTER (WHERE d.scan_type = 'SCAN' AND d.is_positive), 0),
      max(d.created) FILTER (WHERE d.sign > 0)
    FROM (%s) d
    GROUP BY 1 ORDER BY 1
    ON CONFLICT ON CONSTRAINT scan_stats_org_total_key
    DO UPDATE SET scans = s.scans + excluded.scans, positives = s.positives + excluded.positives,
      last_sync = greatest(s.last_sync, excluded.last_sync)
  $q$, src);

  -- A removed (or moved) row that was the organization's latest sync: read the latest that is left.
  EXECUTE format($q$
    UPDATE scan_stats_org_total s SET last_sync = CASE WHEN s.organization_id IS NULL
        THEN (SELECT max(x.created) FROM scans x WHERE x.organization_id IS NULL)
        ELSE (SELECT max(x.created) FROM scans x WHERE x.organization_id = s.organization_id) END
    FROM (SELECT d.organization_id, max(d.created) AS removed FROM (%s) d WHERE d.sign < 0 GROUP BY 1) r
    WHERE s.organization_id IS NOT DISTINCT FROM r.organization_id AND r.removed >= s.last_sync
  $q$, src);

  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION scan_stats_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE scan_stats_org_daily, scan_stats_technician_daily, scan_stats_device_daily, scan_stats_org_total;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Recomputes every statistics table from scans in one statement: `SELECT scan_stats_rebuild();` after a bulk
-- load that ran with the triggers disabled (npm run demo -- --scale N).
CREATE FUNCTION scan_stats_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE scans IN SHARE MODE;
  TRUNCATE scan_stats_org_daily, scan_stats_technician_daily, scan_stats_device_daily, scan_stats_org_total;
  INSERT INTO scan_stats_org_daily (day, organization_id, scans, positives)
    SELECT (date_time AT TIME ZONE 'UTC')::date, organization_id, count(*), count(*) FILTER (WHERE is_positive)
    FROM scans WHERE scan_type = 'SCAN' GROUP BY 1, 2;
  INSERT INTO scan_stats_technician_daily (day, technician_id, organization_id, scans, positives)
    SELECT (date_time AT TIME ZONE 'UTC')::date, technician_id, organization_id, count(*), count(*) FILTER (WHERE is_positive)
    FROM scans WHERE scan_type = 'SCAN' AND technician_id IS NOT NULL GROUP BY 1, 2, 3;
  INSERT INTO scan_stats_device_daily (day, device_serial_number, organization_id, scans, positives)
    SELECT (date_time AT TIME ZONE 'UTC')::date, device_serial_number, organization_id, count(*), count(*) FILTER (WHERE is_positive)
    FROM scans WHERE scan_type = 'SCAN' AND device_serial_number IS NOT NULL GROUP BY 1, 2, 3;
  INSERT INTO scan_stats_org_total (organization_id, scans, positives, last_sync)
    SELECT organization_id, count(*) FILTER (WHERE scan_type = 'SCAN'),
      count(*) FILTER (WHERE scan_type = 'SCAN' AND is_positive), max(created)
    FROM scans GROUP BY 1;
END
$$;
--> statement-breakpoint
CREATE TRIGGER scan_stats_insert AFTER INSERT ON scans REFERENCING NEW TABLE AS scan_stats_new
  FOR EACH STATEMENT EXECUTE FUNCTION scan_stats_apply();
--> statement-breakpoint
CREATE TRIGGER scan_stats_update AFTER UPDATE ON scans REFERENCING OLD TABLE AS scan_stats_old NEW TABLE AS scan_stats_new
  FOR EACH STATEMENT EXECUTE FUNCTION scan_stats_apply();
--> statement-breakpoint
CREATE TRIGGER scan_stats_delete AFTER DELETE ON scans REFERENCING OLD TABLE AS scan_stats_old
  FOR EACH STATEMENT EXECUTE FUNCTION scan_stats_apply();
--> statement-breakpoint
CREATE TRIGGER scan_stats_truncate AFTER TRUNCATE ON scans FOR EACH STATEMENT EXECUTE FUNCTION scan_stats_clear();
--> statement-breakpoint
SELECT scan_stats_rebuild();
