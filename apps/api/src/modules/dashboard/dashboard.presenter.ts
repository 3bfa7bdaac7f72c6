// Rows of the statistics queries → the API shapes of part 2 §3 and the leaderboard CSV record.
import {
  positivityPercent,
  type TDeviceStats,
  type TLeaderboardRow,
  type TTechnicianStats,
} from '@sc/shared/dashboard';
import { csvDateTime } from '../../http/csv-stream.ts';
import type { DeviceStatsRow, LeaderboardRow, TechnicianStatsRow } from './scan-stats.queries.ts';

const iso = (value: Date | string | null): string | null =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();

export function presentTechnicianStats(row: TechnicianStatsRow): TTechnicianStats {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    username: row.username,
    organization:
      row.org_id === null ? null : { id: row.org_id, name: row.org_name ?? '', country: row.org_country },
    scans_count: row.scans,
    positive_scans_count: row.positives,
    dynamic_positivity_percentage: positivityPercent(row.positives, row.scans),
  };
}

export function presentDeviceStats(row: DeviceStatsRow): TDeviceStats {
  return {
    device_serial_number: row.device_serial_number,
    scans_count: row.scans,
    positive_scans_count: row.positives,
    positivity_percentage: positivityPercent(row.positives, row.scans),
    device_data:
      row.device_id === null
        ? null
        : {
            id: row.device_id,
            serial_number: row.device_serial_number,
            organization: row.device_organization,
            organization_name: row.device_organization_name,
          },
  };
}

/** "City, State, Country" from the parts the organization has. */
export function locationOf(row: Pick<LeaderboardRow, 'address3' | 'state' | 'country'>): string {
  return [row.address3, row.state, row.country]
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(', ');
}

export function presentLeaderboardRow(row: LeaderboardRow): TLeaderboardRow {
  return {
    id: row.id,
    name: row.name,
    country: row.country,
    location: locationOf(row),
    scans_count: row.scans,
    positive_scans_count: row.positives,
    dynamic_positivity_percentage: positivityPercent(row.positives, row.scans),
    last_sync_date: iso(row.last_sync),
  };
}

/**
 * One leaderboard.csv record in LEADERBOARD_CSV_COLUMNS order; positivity with one decimal and a percent sign, the
 * last sync in `zone` (csvDateTime).
 */
export function leaderboardCsvRecord(row: TLeaderboardRow, zone: string): (string | number)[] {
  return [
    row.name,
    row.scans_count,
    `${row.dynamic_positivity_percentage.toFixed(1)}%`,
    csvDateTime(row.last_sync_date, zone),
    row.location,
  ];
}
