-- The statistics read the partial days at a period's edges from scans (scan-stats.queries.ts). This index answers
-- those slices by technician, device and organization with an index-only scan, without visiting the table.
-- It is not declared in db/schema/scans.ts on purpose: drizzle cannot express INCLUDE; drizzle-kit's snapshots
-- never see it, so no generated migration drops it.
CREATE INDEX IF NOT EXISTS "scans_stats_edge_idx" ON "scans" USING btree ("scan_type", "date_time")
  INCLUDE ("organization_id", "technician_id", "device_serial_number", "is_positive");