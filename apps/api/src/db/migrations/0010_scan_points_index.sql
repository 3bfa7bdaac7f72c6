-- The scan map's packed points (GET scan/lat-long/, scan-list.queries.ts packScanPointsBatch) read scans in id order,
-- 100,000 at a time, with their coordinates. This covering partial index answers that with an index-only scan of
-- about 30 MB instead of visiting the 550 MB table at a million scans (when no other filter is set). Not in the
-- Drizzle schema (drizzle cannot express INCLUDE), like scans_stats_edge_idx of 0006.
CREATE INDEX IF NOT EXISTS "scans_points_idx" ON "scans" USING btree ("id") INCLUDE ("latitude", "longitude")
  WHERE "latitude" IS NOT NULL AND "longitude" IS NOT NULL;