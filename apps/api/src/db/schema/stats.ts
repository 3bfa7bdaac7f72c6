// Pre-aggregated scan statistics (issue 9 "Speed"): the dashboard, leaderboards and organization figures read
// these instead of grouping the scans table. Days are UTC calendar days of `scans.date_time`; a period read in
// the caller's time zone takes the whole UTC days inside it from here and counts its two partial edge days from
// scans directly (modules/dashboard/scan-stats.queries.ts), so every zone is exact.
// Kept exact by statement-level triggers on scans (migration 0005): every insert, COPY, update and delete,
// whatever code path runs it. `scan_stats_rebuild()` recomputes all of them in one statement after bulk loads.
// Daily tables count SCAN-type scans only (architecture §7); positives are scans with a finding on either side.
// organization_id is NULL for scans without an organization (the key treats NULLs as equal).
import { date, index, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

export const scanStatsOrgDaily = pgTable(
  'scan_stats_org_daily',
  {
    day: date('day').notNull(),
    organizationId: integer('organization_id'),
    scans: integer('scans').notNull().default(0),
    positives: integer('positives').notNull().default(0),
  },
  (t) => [
    unique('scan_stats_org_daily_key').on(t.day, t.organizationId).nullsNotDistinct(),
    index('scan_stats_org_daily_org_idx').on(t.organizationId, t.day),
  ],
);

export const scanStatsTechnicianDaily = pgTable(
  'scan_stats_technician_daily',
  {
    day: date('day').notNull(),
    /** The organization the scans belong to (the row's organization, in the caller's scope or not). */
    organizationId: integer('organization_id'),
    technicianId: integer('technician_id').notNull(),
    scans: integer('scans').notNull().default(0),
    positives: integer('positives').notNull().default(0),
  },
  (t) => [
    unique('scan_stats_technician_daily_key').on(t.day, t.technicianId, t.organizationId).nullsNotDistinct(),
    index('scan_stats_technician_daily_org_idx').on(t.organizationId, t.day),
    // One technician's days (the re-certification modal's summary, GET scan/technician-summary/).
    index('scan_stats_technician_daily_tech_idx').on(t.technicianId, t.day),
  ],
);

export const scanStatsDeviceDaily = pgTable(
  'scan_stats_device_daily',
  {
    day: date('day').notNull(),
    organizationId: integer('organization_id'),
    deviceSerialNumber: text('device_serial_number').notNull(),
    scans: integer('scans').notNull().default(0),
    positives: integer('positives').notNull().default(0),
  },
  (t) => [
    unique('scan_stats_device_daily_key').on(t.day, t.deviceSerialNumber, t.organizationId).nullsNotDistinct(),
    index('scan_stats_device_daily_org_idx').on(t.organizationId, t.day),
    // One device's days: its all-time scan count in the device list (GET device/, devices.queries.ts).
    index('scan_stats_device_daily_device_idx').on(t.deviceSerialNumber, t.day),
  ],
);

/**
 * The same per UTC hour (migration 0007): a period's partial edge days are read from here for their whole hours, so
 * only the minutes before the first whole hour (a :30 or :45 zone) are counted from scans.
 */
export const scanStatsOrgHourly = pgTable(
  'scan_stats_org_hourly',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    organizationId: integer('organization_id'),
    scans: integer('scans').notNull().default(0),
    positives: integer('positives').notNull().default(0),
  },
  (t) => [
    unique('scan_stats_org_hourly_key').on(t.hour, t.organizationId).nullsNotDistinct(),
    index('scan_stats_org_hourly_org_idx').on(t.organizationId, t.hour),
  ],
);

/** All-time figures of an organization: SCAN-type counts and the last time any scan of it reached the server. */
export const scanStatsOrgTotal = pgTable(
  'scan_stats_org_total',
  {
    organizationId: integer('organization_id'),
    scans: integer('scans').notNull().default(0),
    positives: integer('positives').notNull().default(0),
    /** Latest `scans.created` (Synced On) of any type; NULL once the organization has no scans. */
    lastSync: timestamp('last_sync', { withTimezone: true }),
  },
  (t) => [unique('scan_stats_org_total_key').on(t.organizationId).nullsNotDistinct()],
);
