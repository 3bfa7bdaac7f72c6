// Reads of the pre-aggregated scan statistics (db/schema/stats.ts). A period in the caller's time zone rarely starts
// at UTC midnight (Asia/Kolkata's day starts at 18:30 UTC), so a period is split: the whole UTC days inside it are
// summed from the daily tables, and the partial days at either edge (under a day each) are counted from scans
// through the statistics index. Every figure is exact in any zone, and no query reads more than two days of scans.
import { and, gte, lt, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  devices,
  organizationDevices,
  organizations,
  scanStatsDeviceDaily,
  scanStatsOrgDaily,
  scanStatsOrgHourly,
  scanStatsOrgTotal,
  scanStatsTechnicianDaily,
  scans,
  users,
} from '../../db/schema/index.ts';
import type { PageParams } from '../../http/pagination.ts';
import type { PeriodRange } from '../../http/period.ts';
import { orgScopeCondition, organizationScopeCondition, type Scope } from '../../http/scope.ts';
import { concatColumns, searchCondition } from '../../http/search.ts';

const DAY_MS = 86_400_000;

/** A period as whole UTC days (`days`, end exclusive; null = none, undefined = unbounded) plus raw edge intervals. */
export type StatsWindow = {
  days: { from?: string; to?: string } | null;
  raw: Required<PeriodRange>[];
};

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const floorDay = (d: Date) => Math.floor(d.getTime() / DAY_MS) * DAY_MS;
const ceilDay = (d: Date) => Math.ceil(d.getTime() / DAY_MS) * DAY_MS;

/** Splits a half-open period [from, to) into whole UTC days and the partial days at its edges. */
export function splitPeriod(range: PeriodRange): StatsWindow {
  const { from, to } = range;
  const firstDay = from ? ceilDay(from) : undefined;
  const endDay = to ? floorDay(to) : undefined;
  if (from && to && (firstDay === undefined || endDay === undefined || firstDay >= endDay)) {
    // Less than one whole UTC day: all of it from scans.
    return { days: null, raw: to > from ? [{ from, to }] : [] };
  }
  const raw: Required<PeriodRange>[] = [];
  if (from && firstDay !== undefined && from.getTime() < firstDay) raw.push({ from, to: new Date(firstDay) });
  if (to && endDay !== undefined && endDay < to.getTime()) raw.push({ from: new Date(endDay), to });
  return {
    days: {
      from: firstDay !== undefined ? utcDay(firstDay) : undefined,
      to: endDay !== undefined ? utcDay(endDay) : undefined,
    },
    raw,
  };
}

const HOUR_MS = 3_600_000;

/**
 * Organization-level reads go one step further: the whole UTC hours of each partial edge day come from
 * scan_stats_org_hourly, so only the minutes before the first whole hour (zones such as +5:30, +5:45) and after
 * the last one are counted from scans.
 */
export function splitEdgesByHour(window: StatsWindow): { days: StatsWindow['days']; hours: Required<PeriodRange>[]; raw: Required<PeriodRange>[] } {
  const hours: Required<PeriodRange>[] = [];
  const raw: Required<PeriodRange>[] = [];
  for (const edge of window.raw) {
    const first = Math.ceil(edge.from.getTime() / HOUR_MS) * HOUR_MS;
    const end = Math.floor(edge.to.getTime() / HOUR_MS) * HOUR_MS;
    if (first >= end) {
      raw.push(edge);
      continue;
    }
    hours.push({ from: new Date(first), to: new Date(end) });
    if (edge.from.getTime() < first) raw.push({ from: edge.from, to: new Date(first) });
    if (end < edge.to.getTime()) raw.push({ from: new Date(end), to: edge.to });
  }
  return { days: window.days, hours, raw };
}

/** One condition per whole-hour interval on the hourly table. */
function hourConditions(hours: Required<PeriodRange>[]): SQL[] {
  return hours.map((h) => and(gte(scanStatsOrgHourly.hour, h.from), lt(scanStatsOrgHourly.hour, h.to))!);
}

function dayCondition(column: SQLWrapper, days: NonNullable<StatsWindow['days']>): SQL | undefined {
  return and(
    days.from ? sql`${column} >= ${days.from}` : undefined,
    days.to ? sql`${column} < ${days.to}` : undefined,
  );
}

/**
 * One condition per raw edge interval: SCAN-type scans in it. Each interval is its own branch of a UNION ALL (an OR
 * of two ranges would be a bitmap scan that visits the table); alone, a range is an index-only scan of
 * scans_stats_edge_idx (type, date_time) INCLUDE (organization, technician, device, positive).
 */
function rawConditions(window: Pick<StatsWindow, 'raw'>): SQL[] {
  return window.raw.map((r) => and(sql`${scans.scanType} = 'SCAN'`, gte(scans.dateTime, r.from), lt(scans.dateTime, r.to))!);
}

/** No period at all: every day, no edges. */
export const isAllTime = (window: StatsWindow): boolean =>
  window.days !== null && !window.days.from && !window.days.to && window.raw.length === 0;

const rowsOf = async <T>(db: Db, query: SQL): Promise<T[]> => (await db.execute(query)).rows as T[];

// ---- Totals -------------------------------------------------------------------------------------------------------

export type Totals = { scans: number; positives: number };

/** SCAN-type scans and positives of the organizations in scope within the period. */
export async function countTotals(db: Db, scope: Scope, window: StatsWindow): Promise<Totals> {
  if (isAllTime(window)) {
    // All time: one row per organization in the all-time table instead of every day of every organization.
    const [row] = await rowsOf<Totals>(
      db,
      sql`SELECT coalesce(sum(${scanStatsOrgTotal.scans}), 0)::int AS scans, coalesce(sum(${scanStatsOrgTotal.positives}), 0)::int AS positives
        FROM ${scanStatsOrgTotal} WHERE ${orgScopeCondition(scope, scanStatsOrgTotal.organizationId)}`,
    );
    return row ?? { scans: 0, positives: 0 };
  }
  const split = splitEdgesByHour(window);
  const parts: SQL[] = [];
  for (const hours of hourConditions(split.hours)) {
    parts.push(sql`SELECT coalesce(sum(${scanStatsOrgHourly.scans}), 0)::int AS scans, coalesce(sum(${scanStatsOrgHourly.positives}), 0)::int AS positives
      FROM ${scanStatsOrgHourly} WHERE ${and(hours, orgScopeCondition(scope, scanStatsOrgHourly.organizationId))}`);
  }
  if (window.days) {
    parts.push(sql`SELECT coalesce(sum(${scanStatsOrgDaily.scans}), 0)::int AS scans, coalesce(sum(${scanStatsOrgDaily.positives}), 0)::int AS positives
      FROM ${scanStatsOrgDaily} WHERE ${and(sql`true`, dayCondition(scanStatsOrgDaily.day, window.days), orgScopeCondition(scope, scanStatsOrgDaily.organizationId))}`);
  }
  for (const raw of rawConditions(split)) {
    parts.push(sql`SELECT count(*)::int AS scans, (count(*) FILTER (WHERE ${scans.isPositive}))::int AS positives
      FROM ${scans} WHERE ${and(raw, orgScopeCondition(scope, scans.organizationId))}`);
  }
  if (!parts.length) return { scans: 0, positives: 0 };
  const [row] = await rowsOf<Totals>(
    db,
    sql`SELECT coalesce(sum(scans), 0)::int AS scans, coalesce(sum(positives), 0)::int AS positives FROM (${sql.join(parts, sql` UNION ALL `)}) s`,
  );
  return row ?? { scans: 0, positives: 0 };
}

/**
 * What a chart reads, each piece counted in scope: whole UTC days of the daily table, summed per run of consecutive
 * days (a run starts at each day of `days.runs` and ends at the next run or at `days.to`, exclusive); whole UTC hours
 * of the hourly table; and raw intervals (each under an hour) of scans.
 */
export type ChartPieces = {
  days: { runs: string[]; to: string } | null;
  hours: Date[];
  raw: Required<PeriodRange>[];
};

/** A count of a chart piece: the 1-based run for `day`, the hour since the epoch for `hour`, the 1-based interval for `raw`. */
export type ChartPieceCount = { kind: 'day' | 'hour' | 'raw'; key: number; scans: number; positives: number };

/**
 * Every piece of a chart in one statement (one round trip and one plan instead of three). The days are grouped by
 * run in SQL (an all-time chart sums some four hundred days into a row per month). The hours are `= ANY` of their
 * list, not ranges joined to an unnest: the planner then estimates the rows it reads, an index-only scan of
 * scan_stats_org_hourly_hour_idx; grouped by the hour itself, the key is computed once per hour, not per row
 * (numeric arithmetic on every row of a 30-day chart was half the statement's CPU). Each raw interval is an
 * index-only range scan of the statistics index on scans, one per row of an unnest of the intervals: a nested loop,
 * a plan of fixed size (~0.1 ms, where a UNION branch per interval took ~1.3 ms to plan for a 30-day chart). Its
 * estimate (~4,000 rows an interval, against ~100 read) keeps the cost far below jit_above_cost even for a
 * hundred intervals, and sessions run with jit=off anyway (db/client.ts).
 */
export async function countChartPieces(db: Db, scope: Scope, pieces: ChartPieces): Promise<ChartPieceCount[]> {
  const parts: SQL[] = [];
  const { days, hours, raw } = pieces;
  const lists = chartLists(pieces);
  if (days && days.runs.length) {
    parts.push(sql`SELECT 'day' AS kind, width_bucket(${scanStatsOrgDaily.day}, ${lists.runs}::date[]) AS key,
        sum(${scanStatsOrgDaily.scans})::int AS scans, sum(${scanStatsOrgDaily.positives})::int AS positives
      FROM ${scanStatsOrgDaily}
      WHERE ${scanStatsOrgDaily.day} >= ${days.runs[0]} AND ${scanStatsOrgDaily.day} < ${days.to}
        AND ${orgScopeCondition(scope, scanStatsOrgDaily.organizationId)}
      GROUP BY 2`);
  }
  if (hours.length) {
    parts.push(sql`SELECT 'hour' AS kind, (extract(epoch FROM ${scanStatsOrgHourly.hour}) / 3600)::int AS key,
        sum(${scanStatsOrgHourly.scans})::int AS scans, sum(${scanStatsOrgHourly.positives})::int AS positives
      FROM ${scanStatsOrgHourly}
      WHERE ${scanStatsOrgHourly.hour} = ANY(${lists.hours}::timestamptz[])
        AND ${orgScopeCondition(scope, scanStatsOrgHourly.organizationId)}
      GROUP BY ${scanStatsOrgHourly.hour}`);
  }
  if (raw.length) {
    parts.push(sql`SELECT 'raw' AS kind, r.i::int AS key, c.scans, c.positives
      FROM unnest(${lists.rawFrom}::timestamptz[], ${lists.rawTo}::timestamptz[]) WITH ORDINALITY AS r(f, t, i)
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS scans, (count(*) FILTER (WHERE ${scans.isPositive}))::int AS positives FROM ${scans}
        WHERE ${scans.scanType} = 'SCAN' AND ${scans.dateTime} >= r.f AND ${scans.dateTime} < r.t
          AND ${orgScopeCondition(scope, scans.organizationId)}
      ) c`);
  }
  if (!parts.length) return [];
  return rowsOf<ChartPieceCount>(db, sql.join(parts, sql` UNION ALL `));
}

/** A PostgreSQL array literal of plain values (dates, ISO instants: no quotes or commas inside), sent as one parameter. */
const pgArray = (values: string[]): string => `{${values.join(',')}}`;

/** The array parameters of a chart's pieces, written once per pieces object (the service keeps a chart's plan). */
const chartListsOf = new WeakMap<ChartPieces, { runs: string; hours: string; rawFrom: string; rawTo: string }>();
function chartLists(pieces: ChartPieces) {
  let lists = chartListsOf.get(pieces);
  if (!lists) {
    lists = {
      runs: pgArray(pieces.days?.runs ?? []),
      hours: pgArray(pieces.hours.map((h) => h.toISOString())),
      rawFrom: pgArray(pieces.raw.map((r) => r.from.toISOString())),
      rawTo: pgArray(pieces.raw.map((r) => r.to.toISOString())),
    };
    chartListsOf.set(pieces, lists);
  }
  return lists;
}

/** The first UTC day with SCAN-type scans in scope (the start of an all-time chart). */
export async function firstStatsDay(db: Db, scope: Scope): Promise<string | null> {
  const [row] = await rowsOf<{ day: string | null }>(
    db,
    sql`SELECT min(${scanStatsOrgDaily.day})::text AS day FROM ${scanStatsOrgDaily}
      WHERE ${scanStatsOrgDaily.scans} > 0 AND ${orgScopeCondition(scope, scanStatsOrgDaily.organizationId)}`,
  );
  return row?.day ?? null;
}

// ---- Grouped lists ------------------------------------------------------------------------------------------------

/**
 * `(key…, scans, positives)` per key over the period: the daily table's whole days plus the raw edges, grouped.
 * Only keys with at least one scan in the period.
 */
export function groupedSource(
  window: StatsWindow,
  scope: Scope,
  daily: {
    table: SQLWrapper;
    day: SQLWrapper;
    org: SQLWrapper;
    scans: SQLWrapper;
    positives: SQLWrapper;
    keys: SQLWrapper[];
  },
  rawKeys: SQLWrapper[],
  rawWhere: SQL | undefined,
  keyNames: string[],
  /** Organization-level lists: whole hours of the edge days from the hourly table (keyed by organization). */
  hourly = false,
): SQL {
  const names = sql.raw(keyNames.join(', '));
  const parts: SQL[] = [];
  const split = hourly ? splitEdgesByHour(window) : { hours: [], raw: window.raw };
  // Without hourly figures, an edge longer than half a UTC day is read as the whole day minus the rest of it: in
  // Asia/Kolkata a period ending at 18:30 UTC counts 5.5 hours of scans at that edge instead of 18.5.
  let days = window.days;
  const minus: Required<PeriodRange>[] = [];
  if (!hourly && days) {
    const kept: Required<PeriodRange>[] = [];
    for (const edge of split.raw) {
      const dayStart = floorDay(edge.from);
      const length = edge.to.getTime() - edge.from.getTime();
      if (length <= DAY_MS / 2 || ceilDay(edge.to) - dayStart !== DAY_MS) {
        kept.push(edge);
      } else if (days.to !== undefined && edge.from.getTime() === dayStart && days.to === utcDay(dayStart)) {
        days = { ...days, to: utcDay(dayStart + DAY_MS) };
        minus.push({ from: edge.to, to: new Date(dayStart + DAY_MS) });
      } else if (days.from !== undefined && edge.to.getTime() === dayStart + DAY_MS && days.from === utcDay(dayStart + DAY_MS)) {
        days = { ...days, from: utcDay(dayStart) };
        minus.push({ from: new Date(dayStart), to: edge.from });
      } else {
        kept.push(edge);
      }
    }
    split.raw = kept;
  }
  for (const hours of hourConditions(split.hours)) {
    parts.push(sql`SELECT ${scanStatsOrgHourly.organizationId} AS ${sql.raw(keyNames[0]!)}, ${scanStatsOrgHourly.scans} AS scans,
      ${scanStatsOrgHourly.positives} AS positives FROM ${scanStatsOrgHourly}
      WHERE ${and(hours, orgScopeCondition(scope, scanStatsOrgHourly.organizationId))}`);
  }
  if (days) {
    const keys = sql.join(
      daily.keys.map((k, i) => sql`${k} AS ${sql.raw(keyNames[i]!)}`),
      sql`, `,
    );
    parts.push(sql`SELECT ${keys}, ${daily.scans} AS scans, ${daily.positives} AS positives FROM ${daily.table}
      WHERE ${and(sql`true`, dayCondition(daily.day, days), orgScopeCondition(scope, daily.org))}`);
  }
  const rawPart = (raw: SQL, sign: '' | '-') => {
    const keys = sql.join(
      rawKeys.map((k, i) => sql`${k} AS ${sql.raw(keyNames[i]!)}`),
      sql`, `,
    );
    return sql`SELECT ${keys}, ${sql.raw(sign)}count(*)::int AS scans, ${sql.raw(sign)}(count(*) FILTER (WHERE ${scans.isPositive}))::int AS positives
      FROM ${scans} WHERE ${and(raw, rawWhere, orgScopeCondition(scope, scans.organizationId))}
      GROUP BY ${sql.raw(keyNames.map((_, i) => String(i + 1)).join(', '))}`;
  };
  for (const raw of rawConditions(split)) parts.push(rawPart(raw, ''));
  for (const raw of rawConditions({ raw: minus })) parts.push(rawPart(raw, '-'));
  if (!parts.length)
    return sql`SELECT ${sql.raw(keyNames.map((n) => `NULL::int AS ${n}`).join(', '))}, 0 AS scans, 0 AS positives WHERE false`;
  return sql`SELECT ${names}, sum(scans)::int AS scans, sum(positives)::int AS positives
    FROM (${sql.join(parts, sql` UNION ALL `)}) s GROUP BY ${names} HAVING sum(scans) > 0`;
}

export type TechnicianStatsRow = {
  id: number;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  org_id: number | null;
  org_name: string | null;
  org_country: string | null;
  scans: number;
  positives: number;
};

/** Ordering whitelist of the technician list: names refer to the columns of the grouped rows (`agg`). */
export const technicianOrderingFields = {
  scans_count: sql`agg.scans`,
  positive_scans_count: sql`agg.positives`,
  dynamic_positivity_percentage: sql`(agg.positives::float8 / agg.scans)`,
  first_name: users.firstName,
  id: sql`agg.technician_id`,
};
export const technicianTieBreaker = sql`ROW(agg.technician_id, coalesce(agg.organization_id, 0))`;

export type ListArgs = { search?: string; orderBy: SQL[]; page: Pick<PageParams, 'limit' | 'offset'> };

export async function pageWithCount<T>(
  db: Db,
  withAgg: SQL,
  select: SQL,
  page: ListArgs['page'],
): Promise<{ rows: T[]; count: number }> {
  const rows = await rowsOf<T & { total: number }>(
    db,
    sql`${withAgg} ${select} LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  if (rows.length) return { rows, count: Number(rows[0]!.total) };
  // Past the last page (or empty): the count decides between an empty first page and 404 'Invalid page.'.
  const [c] = await rowsOf<{ n: number }>(db, sql`${withAgg} SELECT count(*)::int AS n FROM (${select}) x`);
  return { rows: [], count: c?.n ?? 0 };
}

/** Technician stats rows: one per (technician, organization of the scans) with scans in the period. */
export async function listTechnicianStats(
  db: Db,
  scope: Scope,
  window: StatsWindow,
  args: ListArgs,
): Promise<{ rows: TechnicianStatsRow[]; count: number }> {
  const source = groupedSource(
    window,
    scope,
    {
      table: scanStatsTechnicianDaily,
      day: scanStatsTechnicianDaily.day,
      org: scanStatsTechnicianDaily.organizationId,
      scans: scanStatsTechnicianDaily.scans,
      positives: scanStatsTechnicianDaily.positives,
      keys: [scanStatsTechnicianDaily.technicianId, scanStatsTechnicianDaily.organizationId],
    },
    [scans.technicianId, scans.organizationId],
    sql`${scans.technicianId} IS NOT NULL`,
    ['technician_id', 'organization_id'],
  );
  const nameSearch = searchCondition(args.search, [
    concatColumns([users.firstName, users.lastName]),
    users.username,
    organizations.name,
  ]);
  // No table aliases: the search and ordering terms name the tables' own columns.
  const select = sql`SELECT agg.technician_id AS id, ${users.firstName} AS first_name, ${users.lastName} AS last_name,
      ${users.username} AS username, ${organizations.id} AS org_id, ${organizations.name} AS org_name,
      ${organizations.country} AS org_country, agg.scans, agg.positives, count(*) OVER () AS total
    FROM agg JOIN ${users} ON ${users.id} = agg.technician_id LEFT JOIN ${organizations} ON ${organizations.id} = agg.organization_id
    WHERE ${nameSearch ?? sql`true`}
    ORDER BY ${sql.join(args.orderBy, sql`, `)}`;
  return pageWithCount(db, sql`WITH agg AS (${source})`, select, args.page);
}

export type DeviceStatsRow = {
  device_serial_number: string;
  scans: number;
  positives: number;
  device_id: number | null;
  device_organization: number | null;
  device_organization_name: string | null;
};

export const deviceStatsOrderingFields = {
  scans_count: sql`agg.scans`,
  positive_scans_count: sql`agg.positives`,
  positivity_percentage: sql`(agg.positives::float8 / agg.scans)`,
  device_serial_number: sql`agg.device_serial_number`,
};
export const deviceStatsTieBreaker = sql`agg.device_serial_number`;

/** Device stats rows: one per device serial number with scans (of organizations in scope) in the period. */
export async function listDeviceStats(
  db: Db,
  scope: Scope,
  window: StatsWindow,
  args: ListArgs,
): Promise<{ rows: DeviceStatsRow[]; count: number }> {
  const perOrg = groupedSource(
    window,
    scope,
    {
      table: scanStatsDeviceDaily,
      day: scanStatsDeviceDaily.day,
      org: scanStatsDeviceDaily.organizationId,
      scans: scanStatsDeviceDaily.scans,
      positives: scanStatsDeviceDaily.positives,
      keys: [scanStatsDeviceDaily.deviceSerialNumber],
    },
    [scans.deviceSerialNumber],
    sql`${scans.deviceSerialNumber} IS NOT NULL`,
    ['device_serial_number'],
  );
  const search = searchCondition(args.search, [sql`agg.device_serial_number`]);
  // The device's current organization, from its active link.
  const select = sql`SELECT agg.device_serial_number, agg.scans, agg.positives, d.id AS device_id,
      l.organization_id AS device_organization, o.name AS device_organization_name, count(*) OVER () AS total
    FROM agg
    LEFT JOIN ${devices} d ON lower(d.serial_number) = lower(agg.device_serial_number)
    LEFT JOIN ${organizationDevices} l ON l.device_id = d.id AND l.is_active
    LEFT JOIN ${organizations} o ON o.id = l.organization_id
    WHERE ${search ?? sql`true`}
    ORDER BY ${sql.join(args.orderBy, sql`, `)}`;
  return pageWithCount(db, sql`WITH agg AS (${perOrg})`, select, args.page);
}

export type LeaderboardRow = {
  id: number;
  name: string;
  country: string | null;
  address3: string | null;
  state: string | null;
  scans: number;
  positives: number;
  last_sync: Date | string | null;
};

export const leaderboardOrderingFields = {
  scans_count: sql`coalesce(agg.scans, 0)`,
  positive_scans_count: sql`coalesce(agg.positives, 0)`,
  dynamic_positivity_percentage: sql`coalesce(agg.positives::float8 / nullif(agg.scans, 0), 0)`,
  name: organizations.name,
  last_sync_date: sql`coalesce(greatest(${scanStatsOrgTotal.lastSync}, ${organizations.lastSyncDate}), '-infinity'::timestamptz)`,
  id: organizations.id,
};

/**
 * Leaderboard: every organization in scope with its SCAN-type figures in the period (0 when none). The last sync is
 * all time: the later of its latest scan received and its latest device upload (as the organization list shows).
 */
export async function listLeaderboard(
  db: Db,
  scope: Scope,
  window: StatsWindow,
  args: ListArgs,
): Promise<{ rows: LeaderboardRow[]; count: number }> {
  // All time reads the all-time table; a period groups the daily table (and its raw edges).
  const source = isAllTime(window)
    ? sql`SELECT ${scanStatsOrgTotal.organizationId} AS organization_id, ${scanStatsOrgTotal.scans} AS scans, ${scanStatsOrgTotal.positives} AS positives FROM ${scanStatsOrgTotal}`
    : groupedSource(
        window,
        scope,
        {
          table: scanStatsOrgDaily,
          day: scanStatsOrgDaily.day,
          org: scanStatsOrgDaily.organizationId,
          scans: scanStatsOrgDaily.scans,
          positives: scanStatsOrgDaily.positives,
          keys: [scanStatsOrgDaily.organizationId],
        },
        [scans.organizationId],
        undefined,
        ['organization_id'],
        true,
      );
  const search = searchCondition(args.search, [organizations.name]);
  const select = sql`SELECT ${organizations.id} AS id, ${organizations.name} AS name, ${organizations.country} AS country,
      ${organizations.address3} AS address3, ${organizations.state} AS state,
      coalesce(agg.scans, 0)::int AS scans, coalesce(agg.positives, 0)::int AS positives,
      greatest(${scanStatsOrgTotal.lastSync}, ${organizations.lastSyncDate}) AS last_sync, count(*) OVER () AS total
    FROM ${organizations}
    LEFT JOIN agg ON agg.organization_id = ${organizations.id}
    LEFT JOIN ${scanStatsOrgTotal} ON ${scanStatsOrgTotal.organizationId} = ${organizations.id}
    WHERE ${and(organizationScopeCondition(scope), search)}
    ORDER BY ${sql.join(args.orderBy, sql`, `)}`;
  return pageWithCount(db, sql`WITH agg AS (${source})`, select, args.page);
}

/** The organization figures of part 1 §3 (all time) for the given organizations. */
export async function organizationFigures(
  db: Db,
  orgIds: number[],
): Promise<Map<number, { scans: number; positives: number; lastSync: Date | null }>> {
  const out = new Map<number, { scans: number; positives: number; lastSync: Date | null }>();
  if (!orgIds.length) return out;
  const rows = await db
    .select({
      id: scanStatsOrgTotal.organizationId,
      scans: scanStatsOrgTotal.scans,
      positives: scanStatsOrgTotal.positives,
      lastSync: scanStatsOrgTotal.lastSync,
    })
    .from(scanStatsOrgTotal)
    .where(
      sql`${scanStatsOrgTotal.organizationId} IN (${sql.join(
        orgIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  for (const r of rows)
    if (r.id !== null) out.set(r.id, { scans: r.scans, positives: r.positives, lastSync: r.lastSync });
  return out;
}
