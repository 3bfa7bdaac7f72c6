// Dashboard statistics (part 2 §2.1, §3 Dashboard stats / Technician stats row / Device stats row, §6, §7
// Dashboard; part 1 §7 leaderboard): the contracts of scan/dashboard/, scan/dashboard/chart/,
// scan/device-positive/, organization/technician-positive/ and organization/leaderboard/, who may call them, and
// the one rounding rule of a positivity rate. Statistics count SCAN-type scans; positive = a finding on either side.
import { z } from 'zod';
import { ZListQuery, ZPeriodQuery, isIsoDate } from './list.ts';
import { DASHBOARD_ROLES, type TUserType } from './roles.ts';

// ---- Who may do what -------------------------------------------------------------------------------------------
export const DASHBOARD_ACTIONS = {
  /** Tiles, chart, By Device, By Technician (part 2 §2.1, §6). */
  'dashboard.read': DASHBOARD_ROLES,
  /** The leaderboard box, its CSV and the technician table's organization column (part 1 §6, part 2 §6). */
  'dashboard.leaderboard': ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN'],
} as const satisfies Record<string, readonly TUserType[]>;
export type TDashboardAction = keyof typeof DASHBOARD_ACTIONS;

export const canDashboard = (role: TUserType, action: TDashboardAction): boolean =>
  (DASHBOARD_ACTIONS[action] as readonly TUserType[]).includes(role);

// ---- Constants and texts ---------------------------------------------------------------------------------------
export const TECHNICIAN_DEFAULT_ORDERING = '-scans_count';
export const DEVICE_STATS_DEFAULT_ORDERING = '-positivity_percentage';
export const LEADERBOARD_DEFAULT_ORDERING = '-scans_count';
export const LEADERBOARD_CSV_FILENAME = 'leaderboard.csv';
/** Part 1 §9: Organization name, Scans, Positivity, Last sync date, Location. */
export const LEADERBOARD_CSV_COLUMNS = [
  'Organization name',
  'Scans',
  'Positivity',
  'Last sync date',
  'Location',
] as const;
/** The leaderboard CSV's columns of times, whose headers name the zone (csvHeader). */
export const LEADERBOARD_CSV_TIME_COLUMNS: readonly string[] = ['Last sync date'];
/** Rows read per query while the leaderboard CSV streams. */
export const LEADERBOARD_CSV_BATCH = 500;
/** The console refetches the figures this often (and when the window regains focus). */
export const DASHBOARD_REFRESH_MS = 10_000;
/** A chart over more days than this shows months instead of days. */
export const CHART_MAX_DAYS = 62;

export const DASHBOARD_MESSAGES = {
  noDevices: 'No devices yet!',
  noTechnicians: 'No technicians yet!',
  noOrganizations: 'No organizations yet!',
  customRange: 'Enter the range as two dates: YYYY-MM-DD,YYYY-MM-DD.',
  endBeforeStart: 'End date must not be before the start date.',
} as const;

/** Positivity as the API answers and the console shows it: a percent with one decimal, 0 when there are no scans. */
export function positivityPercent(positives: number, scans: number): number {
  if (scans <= 0) return 0;
  return Math.round((positives * 1000) / scans) / 10;
}

/** '12.5%' (one decimal always, part 2 §9). */
export const formatPositivity = (percent: number): string => `${percent.toFixed(1)}%`;

// ---- Queries -----------------------------------------------------------------------------------------------------

/**
 * `custom_range=start,end` (part 2 §7): both days included, read in the caller's time zone like
 * date_time_after/before. The original console added a day to the end for technicians because its server read the
 * end as exclusive; here every endpoint reads it inclusive, so nothing needs extending.
 */
export const ZCustomRange = z.string().transform((raw, ctx) => {
  const parts = raw.split(',').map((p) => p.trim());
  const [start, end] = parts;
  if (parts.length !== 2 || !start || !end || !isIsoDate(start) || !isIsoDate(end)) {
    ctx.addIssue({ code: 'custom', message: DASHBOARD_MESSAGES.customRange });
    return z.NEVER;
  }
  if (end < start) {
    ctx.addIssue({ code: 'custom', message: DASHBOARD_MESSAGES.endBeforeStart });
    return z.NEVER;
  }
  return { start, end };
});

/** The period parameters of the dashboard calls (part 2 §7): day, month, date_time_after/before, custom_range. */
export const ZStatsPeriodQuery = ZPeriodQuery.pick({
  date_time_after: true,
  date_time_before: true,
  day: true,
  month: true,
}).extend({ custom_range: ZCustomRange.optional() });
export type TStatsPeriodQuery = z.infer<typeof ZStatsPeriodQuery>;

export const ZDashboardStatsQuery = ZStatsPeriodQuery.extend({
  using_read_db: ZListQuery.shape.using_read_db,
});
export type TDashboardStatsQuery = z.infer<typeof ZDashboardStatsQuery>;

/** The list calls: page, limit, ordering (or the original's `order`), search, using_read_db and the period. */
export const ZStatsListQuery = ZListQuery.extend(ZStatsPeriodQuery.shape).extend({
  /** The original console's name for `ordering` (part 2 §7); `ordering` wins when both are sent. */
  order: ZListQuery.shape.ordering,
});
export type TStatsListQuery = z.infer<typeof ZStatsListQuery>;

export const ZLeaderboardQuery = ZStatsListQuery.extend({
  /** `csv` streams leaderboard.csv with every row of the same filters (recorded in the report log). */
  format: z.enum(['json', 'csv'], { error: 'Select a valid choice: json, csv.' }).optional(),
});
export type TLeaderboardQuery = z.infer<typeof ZLeaderboardQuery>;

// ---- Responses ---------------------------------------------------------------------------------------------------

/** Part 2 §3 Dashboard stats (the spelling is the spec's). */
export const ZDashboardStats = z.object({
  scans_in_data_range_count: z.number(),
  positive_scans_in_data_range_count: z.number(),
  positivity_rate_in_data_range_count: z.number(),
});
export type TDashboardStats = z.infer<typeof ZDashboardStats>;

export const ZChartPoint = z.object({
  /** The first day of the bucket (YYYY-MM-DD) in the caller's time zone. */
  date: z.string(),
  scans: z.number(),
  positives: z.number(),
});
export const ZDashboardChart = z.object({
  interval: z.enum(['day', 'month']),
  points: z.array(ZChartPoint),
});
export type TDashboardChart = z.infer<typeof ZDashboardChart>;

const ZStatsOrganization = z.object({ id: z.number(), name: z.string(), country: z.string().nullable() });

/** Part 2 §3 Technician stats row: one technician's SCAN-type work for one organization. */
export const ZTechnicianStats = z.object({
  id: z.number(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  username: z.string().nullable(),
  organization: ZStatsOrganization.nullable(),
  scans_count: z.number(),
  positive_scans_count: z.number(),
  dynamic_positivity_percentage: z.number(),
});
export type TTechnicianStats = z.infer<typeof ZTechnicianStats>;

/** Part 2 §3 Device stats row. */
export const ZDeviceStats = z.object({
  device_serial_number: z.string(),
  scans_count: z.number(),
  positive_scans_count: z.number(),
  positivity_percentage: z.number(),
  /** The registered device, when the serial number is registered; organization is its current one. */
  device_data: z
    .object({
      id: z.number(),
      serial_number: z.string(),
      organization: z.number().nullable(),
      organization_name: z.string().nullable(),
    })
    .nullable(),
});
export type TDeviceStats = z.infer<typeof ZDeviceStats>;

/** A leaderboard row (part 1 §9 CSV columns): organization, scans, positivity, last sync, location. */
export const ZLeaderboardRow = z.object({
  id: z.number(),
  name: z.string(),
  country: z.string().nullable(),
  location: z.string(),
  scans_count: z.number(),
  positive_scans_count: z.number(),
  dynamic_positivity_percentage: z.number(),
  last_sync_date: z.string().nullable(),
});
export type TLeaderboardRow = z.infer<typeof ZLeaderboardRow>;
