// Dashboard statistics (part 2 §2.1, §3 Dashboard stats / Technician stats row / Device stats row, §6, §7
// Dashboard; part 1 §7 leaderboard): the contracts of scan/dashboard/, scan/dashboard/chart/,
// scan/device-positive/, organization/technician-positive/ and organization/leaderboard/, who may call them, and
// the one rounding rule of a positivity rate. Statistics count SCAN-type scans; positive = a finding on either side.
import { z } from 'zod';
import { ZListQuery, ZPeriodQuery, isIsoDate } from './list.ts';
import { DASHBOARD_ROLES, type TUserType } from './roles.ts';
import { addIsoDays } from './scans.ts';

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
  customRangeEnd: 'The end date must be after the start date: custom_range stops before its end date.',
} as const;

/** Positivity as the API answers and the console shows it: a percent with one decimal, 0 when there are no scans. */
export function positivityPercent(positives: number, scans: number): number {
  if (scans <= 0) return 0;
  return Math.round((positives * 1000) / scans) / 10;
}

/** '12.5%' (one decimal always, part 2 §9). */
export const formatPositivity = (percent: number): string => `${percent.toFixed(1)}%`;

// ---- Queries -----------------------------------------------------------------------------------------------------

/** The OpenAPI description of `custom_range` (issue 23.22). */
export const CUSTOM_RANGE_DESCRIPTION =
  'start,end (YYYY-MM-DD,YYYY-MM-DD), read in the Timezone header\'s zone: from the start of the start day up to, ' +
  'not including, the start of the end day. The end is exclusive, as the spec\'s client sends it (part 2 §7: the ' +
  'end extended by one day): the 30 days 2026-04-01 to 2026-04-30 are custom_range=2026-04-01,2026-05-01.';

/**
 * `custom_range=start,end` of the dashboard's lists and tiles (part 2 §7; the technician positivity list, the
 * leaderboard and the device positivity list): the one parser of the parameter. The end is exclusive, as the spec's
 * client sends it (it extends the chosen end by one day), so a client following the spec gets the days it chose;
 * the console sends it the same way (customRangeParam). `end` is the first day not included.
 */
export const ZCustomRange = z
  .string()
  .transform((raw, ctx) => {
    const parts = raw.split(',').map((p) => p.trim());
    const [start, end] = parts;
    if (parts.length !== 2 || !start || !end || !isIsoDate(start) || !isIsoDate(end)) {
      ctx.addIssue({ code: 'custom', message: DASHBOARD_MESSAGES.customRange });
      return z.NEVER;
    }
    if (end <= start) {
      ctx.addIssue({ code: 'custom', message: DASHBOARD_MESSAGES.customRangeEnd });
      return z.NEVER;
    }
    return { start, end };
  })
  .describe(CUSTOM_RANGE_DESCRIPTION);

/** `custom_range` for the chosen days `first`..`last` (both included, YYYY-MM-DD): the end goes one day past `last`. */
export function customRangeParam(first: string, last: string): string {
  return `${first},${addIsoDays(last, 1)}`;
}

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
