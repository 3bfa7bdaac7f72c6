// Dashboard use cases (part 2 §2.1, §6, §7 Dashboard; part 1 leaderboard): tiles, chart, By Device, By Technician
// and the leaderboard with its CSV. Roles come from DASHBOARD_ACTIONS; the scope is the caller's organizations
// (ADMIN/SUB_ADMIN all, DISTRIBUTOR_ADMIN its tree, ORG_ADMIN its own). Figures come from the statistics tables
// (scan-stats.queries.ts), exact in the caller's time zone.
import type { Readable } from 'node:stream';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
import {
  CHART_MAX_DAYS,
  DEVICE_STATS_DEFAULT_ORDERING,
  LEADERBOARD_CSV_BATCH,
  LEADERBOARD_CSV_COLUMNS,
  LEADERBOARD_CSV_TIME_COLUMNS,
  LEADERBOARD_DEFAULT_ORDERING,
  TECHNICIAN_DEFAULT_ORDERING,
  canDashboard,
  positivityPercent,
  type TDashboardAction,
  type TDashboardChart,
  type TDashboardStats,
  type TDashboardStatsQuery,
  type TDeviceStats,
  type TLeaderboardQuery,
  type TLeaderboardRow,
  type TStatsListQuery,
  type TStatsPeriodQuery,
  type TTechnicianStats,
} from '@sc/shared/dashboard';
import type { TPaginated } from '@sc/shared/list';
import type { AppContext } from '../../app.ts';
import type { Db } from '../../db/client.ts';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { csvFile, csvHeaderIn } from '../../http/csv-stream.ts';
import { AppError } from '../../http/errors.ts';
import { parseOrdering } from '../../http/ordering.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import {
  customRangePeriod,
  intersect,
  hasPeriodFilter,
  localDate,
  periodRange,
  startOfLocalDay,
  readerZone,
  timezoneFromHeader,
  type PeriodRange,
} from '../../http/period.ts';
import { resolveScope, type Scope } from '../../http/scope.ts';
import { insertReportLog } from '../devices/devices.queries.ts';
import {
  leaderboardCsvRecord,
  presentDeviceStats,
  presentLeaderboardRow,
  presentTechnicianStats,
} from './dashboard.presenter.ts';
import * as q from './scan-stats.queries.ts';
import { readerFor } from '../../db/replica.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

export type DashboardContext = Pick<AppContext, 'database' | 'services' | 'now'>;
type ListRequest = { url: string; timezone: string | string[] | undefined };
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

function assertCan(actor: Actor, action: TDashboardAction): void {
  if (!canDashboard(actor.userType, action)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
}

const hasAnyPeriod = (query: TStatsPeriodQuery) => hasPeriodFilter(query) || query.custom_range !== undefined;

/** The period of a dashboard call: day, month, date_time_after/before and custom_range, intersected (architecture §4). */
export function statsPeriod(
  query: TStatsPeriodQuery,
  timezoneHeader: ListRequest['timezone'],
  now: Date,
): PeriodRange {
  if (!hasAnyPeriod(query)) return {};
  const zone = timezoneFromHeader(timezoneHeader);
  const range = periodRange(
    {
      date_time_after: query.date_time_after,
      date_time_before: query.date_time_before,
      day: query.day,
      month: query.month,
    },
    zone,
    now,
  );
  if (!query.custom_range) return range;
  return intersect([range, customRangePeriod(query.custom_range, zone)]);
}

async function readScope(
  ctx: DashboardContext,
  actor: Actor,
  usingReadDb: boolean | undefined,
): Promise<{ db: Db; scope: Scope }> {
  const db = readerFor(ctx.database, usingReadDb);
  return { db, scope: await resolveScope(ctx.database.db, actor) };
}

/** GET scan/dashboard/: the three tiles. */
export async function getDashboardStats(
  ctx: DashboardContext,
  actor: Actor,
  query: TDashboardStatsQuery,
  request: ListRequest,
): Promise<TDashboardStats> {
  assertCan(actor, 'dashboard.read');
  const window = q.splitPeriod(statsPeriod(query, request.timezone, ctx.now()));
  const { db, scope } = await readScope(ctx, actor, query.using_read_db);
  const totals = await q.countTotals(db, scope, window);
  return {
    scans_in_data_range_count: totals.scans,
    positive_scans_in_data_range_count: totals.positives,
    positivity_rate_in_data_range_count: positivityPercent(totals.positives, totals.scans),
  };
}

/**
 * GET scan/dashboard/chart/: scans and positives per day (periods up to CHART_MAX_DAYS days) or per month, in the
 * caller's time zone. All time starts at the month of the first scan in scope and ends today.
 */
export async function getDashboardChart(
  ctx: DashboardContext,
  actor: Actor,
  query: TDashboardStatsQuery,
  request: ListRequest,
): Promise<TDashboardChart> {
  assertCan(actor, 'dashboard.read');
  const now = ctx.now();
  const zone = timezoneFromHeader(request.timezone);
  const range = statsPeriod(query, request.timezone, now);
  const { db, scope } = await readScope(ctx, actor, query.using_read_db);
  let from = range.from;
  // Open-ended: up to the end of today (a zone lookup, ~0.1 ms, only when needed).
  const to =
    range.to ?? startOfLocalDay(dayjs.utc(localDate(now, zone)).add(1, 'day').format('YYYY-MM-DD'), zone);
  if (!from) {
    const first = await q.firstStatsDay(db, scope);
    if (!first) return { interval: 'month', points: [] };
    // The UTC day's start may fall on the previous local day (west of UTC): begin at that local month.
    const firstLocal = localDate(new Date(`${first}T00:00:00Z`), zone);
    from = startOfLocalDay(dayjs.utc(firstLocal).startOf('month').format('YYYY-MM-DD'), zone);
  }
  if (from >= to) return { interval: 'day', points: [] };
  const days = Math.round((to.getTime() - from.getTime()) / DAY_MS);
  const interval = days <= CHART_MAX_DAYS ? 'day' : 'month';
  const plan = chartPlan(from, to, zone, interval);
  const counts = await countBuckets(db, scope, plan);
  return {
    interval,
    points: plan.labels.map((date, i) => ({
      date,
      scans: counts[i]!.scans,
      positives: counts[i]!.positives,
    })),
  };
}

/** A zone's offset from UTC at an instant, in ms (one formatter per zone, kept). */
const offsetFormats = new Map<string, Intl.DateTimeFormat>();
function zoneOffsetMs(zone: string, t: number): number {
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormats.set(zone, format);
  }
  const part: Record<string, number> = {};
  for (const p of format.formatToParts(t)) part[p.type] = Number(p.value);
  const wall = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
  return wall - (t - (((t % 1000) + 1000) % 1000));
}

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Bucket boundaries (instants) and their labels (local dates): local midnights or local month starts. After the
 * first boundary, the next local midnight is the previous one plus the calendar days between them whenever the
 * zone's offset is the same at both (no daylight-saving change between); only around a change is it looked up
 * (a dayjs lookup formats the instant several times: ~2.5 ms of a 30-day chart's Node time in a CPU profile).
 */
export function chartBuckets(
  from: Date,
  to: Date,
  zone: string,
  interval: 'day' | 'month',
): { bounds: Date[]; labels: string[] } {
  const bounds: Date[] = [from];
  const labels: string[] = [localDate(from, zone)];
  let cursor = Date.parse(`${labels[0]}T00:00:00Z`);
  let previous: number | undefined;
  for (;;) {
    const day = new Date(cursor);
    const nextCursor =
      interval === 'day' ? cursor + DAY_MS : Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1);
    const label = utcDate(nextCursor);
    let next: number;
    if (previous === undefined) next = startOfLocalDay(label, zone).getTime();
    else {
      // `previous` must be a local midnight itself (a day whose midnight is skipped starts at 01:00), and no change
      // may follow within 3 hours (a midnight that clocks turned back to happens twice: the lookup's choice wins).
      const offset = zoneOffsetMs(zone, previous);
      const guess = previous + (nextCursor - cursor);
      next =
        (previous + offset) % DAY_MS === 0 &&
        zoneOffsetMs(zone, guess) === offset &&
        zoneOffsetMs(zone, guess + 3 * HOUR_MS) === offset
          ? guess
          : startOfLocalDay(label, zone).getTime();
    }
    if (next >= to.getTime()) break;
    bounds.push(new Date(next));
    labels.push(label);
    previous = next;
    cursor = nextCursor;
  }
  bounds.push(to);
  return { bounds, labels };
}

/** A count read for some hours or minutes: added to bucket `plus` and taken from bucket `minus` (-1: neither). */
type Share = { plus: number; minus: number };

/** What a chart reads and where each count goes: a pure function of the buckets' boundaries (see chartPlan). */
export type ChartPlan = {
  labels: string[];
  pieces: q.ChartPieces;
  /** The bucket of each run of days (-1: none). */
  runBuckets: number[];
  /** Per hour (ms since the epoch) read from the hourly table, where its count goes. */
  hourShares: Map<number, Share>;
  /** Per raw interval, in the order of pieces.raw, where its count goes. */
  rawShares: Share[];
};

/**
 * The plan of a chart's counts. A UTC day inside one bucket comes from the daily table. A day that a bucket boundary
 * (or either end of the range) cuts into pieces is read as its daily total, given to its longest piece, with the
 * other pieces counted and moved to their own buckets (or out of the range): their whole hours from the hourly table
 * and only the minutes a boundary cuts off an hour (zones such as +5:30) from scans. In Asia/Kolkata, whose days
 * start at 18:30 UTC, a day chart reads each UTC day, five and a half hours of it, and half an hour of scans.
 */
function planChart(bounds: Date[], labels: string[]): ChartPlan {
  const times = bounds.map((b) => b.getTime());
  const first = times[0]!;
  const last = times[times.length - 1]!;
  /** The bucket of the piece starting at t, or -1 outside the range. */
  const bucketOf = (t: number) => {
    if (t < first || t >= last) return -1;
    let lo = 0;
    let hi = times.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (times[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  const dayKey = (t: number) => new Date(t).toISOString().slice(0, 10);
  // Runs of consecutive days given to the same bucket, met in order: SQL sums each run, so a month chart reads a row
  // per month. A day left out (none inside the range is) would start a run of no bucket.
  const runs: string[] = [];
  const runBuckets: number[] = [];
  let lastDay: number | undefined;
  const addDay = (d: number, bucket: number) => {
    if (lastDay !== undefined && d !== lastDay + DAY_MS) {
      runs.push(dayKey(lastDay + DAY_MS));
      runBuckets.push(-1);
    }
    if (bucket !== runBuckets[runBuckets.length - 1]) {
      runs.push(dayKey(d));
      runBuckets.push(bucket);
    }
    lastDay = d;
  };
  const hourShares = new Map<number, Share>();
  const raw: Required<PeriodRange>[] = [];
  const rawShares: Share[] = [];
  const addRaw = (from: number, to: number, share: Share) => {
    raw.push({ from: new Date(from), to: new Date(to) });
    rawShares.push(share);
  };
  let b = 0;
  for (let d = Math.floor(first / DAY_MS) * DAY_MS; d < last; d += DAY_MS) {
    // The day's pieces: cut at every boundary inside it (the range's ends are boundaries too).
    while (b < times.length && times[b]! <= d) b++;
    const cuts = [d];
    for (let i = b; i < times.length && times[i]! < d + DAY_MS; i++) cuts.push(times[i]!);
    cuts.push(d + DAY_MS);
    const pieces = cuts.slice(1).map((end, i) => ({ from: cuts[i]!, to: end, bucket: bucketOf(cuts[i]!) }));
    const main = pieces.reduce((m, p) => (p.to - p.from > m.to - m.from ? p : m));
    if (main.bucket >= 0) addDay(d, main.bucket);
    for (const piece of pieces) {
      if (piece === main || (piece.bucket < 0 && main.bucket < 0)) continue;
      const share = { plus: piece.bucket, minus: main.bucket };
      const firstHour = Math.ceil(piece.from / HOUR_MS) * HOUR_MS;
      const endHour = Math.floor(piece.to / HOUR_MS) * HOUR_MS;
      if (firstHour >= endHour) {
        addRaw(piece.from, piece.to, share);
        continue;
      }
      // The pieces of a day do not overlap: an hour belongs to one piece.
      for (let h = firstHour; h < endHour; h += HOUR_MS) hourShares.set(h, share);
      if (piece.from < firstHour) addRaw(piece.from, firstHour, share);
      if (endHour < piece.to) addRaw(endHour, piece.to, share);
    }
  }
  return {
    labels,
    pieces: {
      days: lastDay === undefined ? null : { runs, to: dayKey(lastDay + DAY_MS) },
      hours: [...hourShares.keys()].map((h) => new Date(h)),
      raw,
    },
    runBuckets,
    hourShares,
    rawShares,
  };
}

/**
 * Plans of recent charts, by zone, interval and range: every caller of the same period in the same zone (a
 * dashboard's 30 days, today, this month) shares one; computing it (local midnights, pieces) was about a third of a
 * 30-day chart's Node time. Plans do not depend on the data or the caller, only on the boundaries; the oldest is
 * dropped past CHART_PLANS_KEPT.
 */
const CHART_PLANS_KEPT = 500;
const chartPlans = new Map<string, ChartPlan>();
export function chartPlan(from: Date, to: Date, zone: string, interval: 'day' | 'month'): ChartPlan {
  const key = `${zone} ${interval} ${from.getTime()} ${to.getTime()}`;
  let plan = chartPlans.get(key);
  if (!plan) {
    const { bounds, labels } = chartBuckets(from, to, zone, interval);
    plan = planChart(bounds, labels);
    if (chartPlans.size >= CHART_PLANS_KEPT) chartPlans.delete(chartPlans.keys().next().value!);
    chartPlans.set(key, plan);
  }
  return plan;
}

/** Exact counts per bucket of a plan: one statement (countChartPieces), each count added where the plan says. */
async function countBuckets(
  db: Db,
  scope: Scope,
  plan: ChartPlan,
): Promise<{ scans: number; positives: number }[]> {
  const out = plan.labels.map(() => ({ scans: 0, positives: 0 }));
  const apply = (share: Share, scans: number, positives: number) => {
    if (share.plus >= 0) {
      out[share.plus]!.scans += scans;
      out[share.plus]!.positives += positives;
    }
    if (share.minus >= 0) {
      out[share.minus]!.scans -= scans;
      out[share.minus]!.positives -= positives;
    }
  };
  for (const r of await q.countChartPieces(db, scope, plan.pieces)) {
    const share =
      r.kind === 'day'
        ? { plus: plan.runBuckets[r.key - 1] ?? -1, minus: -1 }
        : r.kind === 'hour'
          ? plan.hourShares.get(r.key * HOUR_MS)
          : plan.rawShares[r.key - 1];
    if (share) apply(share, r.scans, r.positives);
  }
  return out;
}

const orderingOf = (query: TStatsListQuery) => query.ordering ?? query.order;

/** GET organization/technician-positive/ */
export async function listTechnicianStats(
  ctx: DashboardContext,
  actor: Actor,
  query: TStatsListQuery,
  request: ListRequest,
): Promise<TPaginated<TTechnicianStats>> {
  assertCan(actor, 'dashboard.read');
  const orderBy = parseOrdering(orderingOf(query), q.technicianOrderingFields, TECHNICIAN_DEFAULT_ORDERING, {
    tieBreaker: q.technicianTieBreaker,
  });
  const window = q.splitPeriod(statsPeriod(query, request.timezone, ctx.now()));
  const { db, scope } = await readScope(ctx, actor, query.using_read_db);
  const page = toPageParams(query);
  const { rows, count } = await q.listTechnicianStats(db, scope, window, {
    search: query.search,
    orderBy,
    page,
  });
  return paginate(request, page, count, rows.map(presentTechnicianStats));
}

/** GET scan/device-positive/ */
export async function listDeviceStats(
  ctx: DashboardContext,
  actor: Actor,
  query: TStatsListQuery,
  request: ListRequest,
): Promise<TPaginated<TDeviceStats>> {
  assertCan(actor, 'dashboard.read');
  const orderBy = parseOrdering(
    orderingOf(query),
    q.deviceStatsOrderingFields,
    DEVICE_STATS_DEFAULT_ORDERING,
    {
      tieBreaker: q.deviceStatsTieBreaker,
    },
  );
  const window = q.splitPeriod(statsPeriod(query, request.timezone, ctx.now()));
  const { db, scope } = await readScope(ctx, actor, query.using_read_db);
  const page = toPageParams(query);
  const { rows, count } = await q.listDeviceStats(db, scope, window, { search: query.search, orderBy, page });
  return paginate(request, page, count, rows.map(presentDeviceStats));
}

/** GET organization/leaderboard/ */
export async function listLeaderboard(
  ctx: DashboardContext,
  actor: Actor,
  query: TLeaderboardQuery,
  request: ListRequest,
): Promise<TPaginated<TLeaderboardRow>> {
  assertCan(actor, 'dashboard.leaderboard');
  const orderBy = parseOrdering(orderingOf(query), q.leaderboardOrderingFields, LEADERBOARD_DEFAULT_ORDERING);
  const window = q.splitPeriod(statsPeriod(query, request.timezone, ctx.now()));
  const { db, scope } = await readScope(ctx, actor, query.using_read_db);
  const page = toPageParams(query);
  const { rows, count } = await q.listLeaderboard(db, scope, window, { search: query.search, orderBy, page });
  return paginate(request, page, count, rows.map(presentLeaderboardRow));
}

/**
 * GET organization/leaderboard/?format=csv: leaderboard.csv with every row of the same filters in the list's order,
 * read in pages of LEADERBOARD_CSV_BATCH while the response streams. Recorded in the report log.
 */
export async function streamLeaderboardCsv(
  ctx: DashboardContext,
  actor: Actor,
  query: TLeaderboardQuery,
  request: ListRequest & { path: string; meta: Pick<RequestMeta, 'userAgent'> },
): Promise<Readable> {
  assertCan(actor, 'dashboard.leaderboard');
  const orderBy = parseOrdering(orderingOf(query), q.leaderboardOrderingFields, LEADERBOARD_DEFAULT_ORDERING);
  const window = q.splitPeriod(statsPeriod(query, request.timezone, ctx.now()));
  const { db, scope } = await readScope(ctx, actor, query.using_read_db);
  await insertReportLog(ctx.database.db, {
    api: request.path,
    apiQp: {
      ...query,
      custom_range: query.custom_range ? `${query.custom_range.start},${query.custom_range.end}` : undefined,
    },
    userAgent: request.meta.userAgent,
    userId: actor.id,
    userType: actor.userType,
    at: ctx.now(),
  });

  async function* records() {
    for (let offset = 0; ; offset += LEADERBOARD_CSV_BATCH) {
      const { rows } = await q.listLeaderboard(db, scope, window, {
        search: query.search,
        orderBy,
        page: { limit: LEADERBOARD_CSV_BATCH, offset },
      });
      for (const row of rows) yield leaderboardCsvRecord(presentLeaderboardRow(row), zone);
      if (rows.length < LEADERBOARD_CSV_BATCH) return;
    }
  }

  const zone = readerZone(request.timezone);
  const columns = csvHeaderIn(LEADERBOARD_CSV_COLUMNS, LEADERBOARD_CSV_TIME_COLUMNS, zone);
  return csvFile(columns, records(), ctx.services.log, 'leaderboard CSV');
}
