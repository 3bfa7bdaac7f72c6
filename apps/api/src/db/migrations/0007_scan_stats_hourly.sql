CREATE TABLE "scan_stats_org_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"organization_id" integer,
	"scans" integer DEFAULT 0 NOT NULL,
	"positives" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "scan_stats_org_hourly_key" UNIQUE NULLS NOT DISTINCT("hour","organization_id")
);
--> statement-breakpoint
CREATE INDEX "scan_stats_org_hourly_org_idx" ON "scan_stats_org_hourly" USING btree ("organization_id","hour");--> statement-breakpoint
-- Hourly counts per organization, kept like the daily ones (0005) by statement-level triggers of their own.
CREATE FUNCTION scan_stats_apply_hourly() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  src text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    src := 'SELECT date_time, organization_id, is_positive, 1 AS sign FROM scan_stats_new WHERE scan_type = ''SCAN''';
  ELSIF TG_OP = 'DELETE' THEN
    src := 'SELECT date_time, organization_id, is_positive, -1 AS sign FROM scan_stats_old WHERE scan_type = ''SCAN''';
  ELSE
    src := 'SELECT x.* FROM scan_stats_old o JOIN scan_stats_new n ON n.id = o.id'
      || ' CROSS JOIN LATERAL (VALUES (n.date_time, n.organization_id, n.is_positive, n.scan_type, 1),'
      || ' (o.date_time, o.organization_id, o.is_positive, o.scan_type, -1)) AS y(date_time, organization_id, is_positive, scan_type, sign)'
      || ' CROSS JOIN LATERAL (SELECT y.date_time, y.organization_id, y.is_positive, y.sign) AS x'
      || ' WHERE y.scan_type = ''SCAN'' AND (o.date_time, o.organization_id, o.is_positive, o.scan_type)'
      || ' IS DISTINCT FROM (n.date_time, n.organization_id, n.is_positive, n.scan_type)';
  END IF;
  EXECUTE format($q$
    INSERT INTO scan_stats_org_hourly AS s (hour, organization_id, scans, positives)
    SELECT date_trunc('hour', d.date_time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', d.organization_id,
      sum(d.sign), coalesce(sum(d.sign) FILTER (WHERE d.is_positive), 0)
    FROM (%s) d
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ON CONSTRAINT scan_stats_org_hourly_key
    DO UPDATE SET scans = s.scans + excluded.scans, positives = s.positives + excluded.positives
  $q$, src);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION scan_stats_clear_hourly() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE scan_stats_org_hourly;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION scan_stats_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE scans IN SHARE MODE;
  TRUNCATE scan_stats_org_daily, scan_stats_technician_daily, scan_stats_device_daily, scan_stats_org_total, scan_stats_org_hourly;
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
  INSERT INTO scan_stats_org_hourly (hour, organization_id, scans, positives)
    SELECT date_trunc('hour', date_time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', organization_id, count(*), count(*) FILTER (WHERE is_positive)
    FROM scans WHERE scan_type = 'SCAN' GROUP BY 1, 2;
END
$$;
--> statement-breakpoint
CREATE TRIGGER scan_stats_hourly_insert AFTER INSERT ON scans REFERENCING NEW TABLE AS scan_stats_new
  FOR EACH STATEMENT EXECUTE FUNCTION scan_stats_apply_hourly();
--> statement-breakpoint
CREATE TRIGGER scan_stats_hourly_update AFTER UPDATE ON scans REFERENCING OLD TABLE AS scan_stats_old NEW TABLE AS scan_stats_new
  FOR EACH STATEMENT EXECUTE FUNCTION scan_stats_apply_hourly();
--> statement-breakpoint
CREATE TRIGGER scan_stats_hourly_delete AFTER DELETE ON scans REFERENCING OLD TABLE AS scan_stats_old
  FOR EACH STATEMENT EXECUTE FUNCTION scan_stats_apply_hourly();
--> statement-breakpoint
CREATE TRIGGER scan_stats_hourly_truncate AFTER TRUNCATE ON scans FOR EACH STATEMENT EXECUTE FUNCTION scan_stats_clear_hourly();
--> statement-breakpoint
INSERT INTO scan_stats_org_hourly (hour, organization_id, scans, positives)
  SELECT date_trunc('hour', date_time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', organization_id, count(*), count(*) FILTER (WHERE is_positive)
  FROM scans WHERE scan_type = 'SCAN' GROUP BY 1, 2;
