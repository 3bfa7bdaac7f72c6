-- The statistics lists and the chart read a period's days of every organization in scope (ADMIN: all of them): a
-- covering index on the day makes each daily table an index-only scan instead of a bitmap scan that visits one heap
-- page per few rows. PostgreSQL backend CPU at a million scans, 30 days: organizations 0.47 → 0.27 ms (chart,
-- tiles, leaderboard), technicians 1.33 → 0.87 ms (By Technician), devices 0.67 → 0.47 ms (By Device). Not declared
-- in db/schema/stats.ts on purpose (as scan_stats_org_hourly_hour_idx, migration 0014): drizzle cannot express
-- INCLUDE, so drizzle-kit's snapshots never see these and never drop them.
CREATE INDEX IF NOT EXISTS "scan_stats_org_daily_day_idx" ON "scan_stats_org_daily" USING btree ("day")
  INCLUDE ("organization_id", "scans", "positives");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "scan_stats_technician_daily_day_idx" ON "scan_stats_technician_daily" USING btree ("day")
  INCLUDE ("technician_id", "organization_id", "scans", "positives");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "scan_stats_device_daily_day_idx" ON "scan_stats_device_daily" USING btree ("day")
  INCLUDE ("device_serial_number", "organization_id", "scans", "positives");
