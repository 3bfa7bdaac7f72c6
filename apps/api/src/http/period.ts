// Period filters of every list (architecture §4, §7b): whole days read in the caller's time zone (the `Timezone`
// header, default Asia/Kolkata). Pure functions: the caller passes the zone and the clock.
// A range is half-open, `from <= t < to`, so "the whole of 2024-03-31" is [local midnight, next local midnight).
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
import { getAllTimezones } from 'countries-and-timezones';
import { and, gte, lt, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import { DEFAULT_TIMEZONE } from '@sc/shared/constants';
import type { TPeriodQuery } from '@sc/shared/list';
import { badRequest, fieldError, type FieldErrors } from './errors.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

export type PeriodRange = { from?: Date; to?: Date };

let zoneNames: Set<string> | undefined;

/** Every IANA name we accept: canonical and deprecated aliases (Asia/Calcutta) that the runtime's Intl knows. */
function acceptedZones(): Set<string> {
  if (!zoneNames) {
    const names = [...Object.keys(getAllTimezones({ deprecated: true })), 'UTC'];
    zoneNames = new Set(names.filter((n) => n !== 'Factory' && isIntlZone(n)));
  }
  return zoneNames;
}

function isIntlZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

let canonicalList: string[] | undefined;

/** The canonical IANA names (no deprecated aliases), sorted: the `GET timezone/` list. */
export function listTimezoneNames(): string[] {
  canonicalList ??= Object.keys(getAllTimezones())
    .filter((n) => acceptedZones().has(n))
    .sort();
  return canonicalList;
}

/** Exact IANA names only ('Asia/Kolkata', 'Europe/Paris', 'UTC'); no offsets, no lower-case spellings. */
export function isKnownTimezone(name: string): boolean {
  return acceptedZones().has(name);
}

/** The `Timezone` request header: absent or empty → Asia/Kolkata; unknown → 400 {Timezone: ['Unknown time zone.']}. */
export function timezoneFromHeader(value: string | string[] | undefined): string {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return DEFAULT_TIMEZONE;
  if (!isKnownTimezone(raw)) throw fieldError('Timezone', 'Unknown time zone.');
  return raw;
}

const localMidnights = new Map<string, number>();
const LOCAL_MIDNIGHTS_MAX = 4096;

/**
 * The instant local midnight starts `date` (YYYY-MM-DD) in `zone`. Kept per date and zone (a fact of the zone's
 * rules, never of data; dayjs's zone conversion costs ~0.04 ms and every period filter of every list asks it).
 */
export function startOfLocalDay(date: string, zone: string): Date {
  const key = `${date} ${zone}`;
  let ms = localMidnights.get(key);
  if (ms === undefined) {
    ms = dayjs.tz(date, zone).valueOf();
    if (localMidnights.size >= LOCAL_MIDNIGHTS_MAX) localMidnights.clear();
    localMidnights.set(key, ms);
  }
  return new Date(ms);
}

/** The calendar date (YYYY-MM-DD) that `instant` falls on in `zone`. */
export function localDate(instant: Date, zone: string): string {
  return dayjs(instant).tz(zone).format('YYYY-MM-DD');
}

/** Calendar arithmetic on YYYY-MM-DD strings, done in UTC so no DST shift can move the date. */
function addDays(date: string, days: number): string {
  return dayjs.utc(date).add(days, 'day').format('YYYY-MM-DD');
}
function firstOfMonth(date: string, monthsToAdd = 0): string {
  return dayjs.utc(date).startOf('month').add(monthsToAdd, 'month').format('YYYY-MM-DD');
}

/** Whole local days `first`..`last`, both inclusive. */
export function daysRange(first: string, last: string, zone: string): Required<PeriodRange> {
  return { from: startOfLocalDay(first, zone), to: startOfLocalDay(addDays(last, 1), zone) };
}

/**
 * `custom_range` (ZCustomRange, @sc/shared/dashboard) as instants: from local midnight of `start` up to, not
 * including, local midnight of `end` — the end is exclusive, as the spec's client sends it (part 2 §7).
 */
export function customRangePeriod(range: { start: string; end: string }, zone: string): PeriodRange {
  return withinCalendar({ from: startOfLocalDay(range.start, zone), to: startOfLocalDay(range.end, zone) });
}

/** The first and last instants PostgreSQL and JavaScript both write as four-digit years (0001-01-01 … 9999-12-31). */
const CALENDAR_FIRST = new Date('0001-01-01T00:00:00.000Z').getTime();
const CALENDAR_END = new Date('9999-12-31T23:59:59.999Z').getTime();

/**
 * A bound past the calendar's ends is no bound: the day after 9999-12-31 west of UTC is in the year 10000, which
 * JavaScript writes `+010000-…` and PostgreSQL refuses (a 500 for a valid date). No record lies beyond either end.
 */
function withinCalendar({ from, to }: PeriodRange): PeriodRange {
  return {
    ...(from && from.getTime() >= CALENDAR_FIRST && { from }),
    ...(to && to.getTime() <= CALENDAR_END && { to }),
  };
}

type DatePair = { after?: string; before?: string; beforeField: string };

/** A start without an end is that one day; an end without a start is everything up to the end of that day. */
function pairRange(p: DatePair, zone: string): PeriodRange | undefined {
  if (!p.after && !p.before) return undefined;
  if (p.after) return daysRange(p.after, p.before ?? p.after, zone);
  return { to: startOfLocalDay(addDays(p.before!, 1), zone) };
}

/** `day`: today or yesterday, in the caller's zone. */
function dayRange(day: NonNullable<TPeriodQuery['day']>, zone: string, now: Date): PeriodRange {
  const today = localDate(now, zone);
  switch (day) {
    case 'today':
      return daysRange(today, today, zone);
    case 'yesterday': {
      const yesterday = addDays(today, -1);
      return daysRange(yesterday, yesterday, zone);
    }
  }
}

/** `month`: this_month, last_month, or yesterday (architecture §7b: month=yesterday means yesterday). */
function monthRange(month: NonNullable<TPeriodQuery['month']>, zone: string, now: Date): PeriodRange {
  const today = localDate(now, zone);
  switch (month) {
    case 'this_month':
      return {
        from: startOfLocalDay(firstOfMonth(today), zone),
        to: startOfLocalDay(firstOfMonth(today, 1), zone),
      };
    case 'last_month':
      return {
        from: startOfLocalDay(firstOfMonth(today, -1), zone),
        to: startOfLocalDay(firstOfMonth(today), zone),
      };
    case 'yesterday':
      return dayRange('yesterday', zone, now);
  }
}

/** The narrowest range that satisfies every range given (filters combine with AND, as django-filter does). */
export function intersect(ranges: PeriodRange[]): PeriodRange {
  const out: PeriodRange = {};
  for (const r of ranges) {
    if (r.from && (!out.from || r.from > out.from)) out.from = r.from;
    if (r.to && (!out.to || r.to < out.to)) out.to = r.to;
  }
  return out;
}

/**
 * The period a list query asks for: `date_time_after/before`, `created_after/before` (YYYY-MM-DD, whole days,
 * inclusive), `day` and `month`. Several given → their intersection. None → {} (All Time).
 * Throws 400 with a field error when an end date is before its start date.
 */
export function periodRange(query: Partial<TPeriodQuery>, zone: string, now: Date): PeriodRange {
  const ranges: PeriodRange[] = [];
  const errors: FieldErrors = {};
  const pairs: DatePair[] = [
    { after: query.date_time_after, before: query.date_time_before, beforeField: 'date_time_before' },
    { after: query.created_after, before: query.created_before, beforeField: 'created_before' },
  ];
  for (const p of pairs) {
    if (p.after && p.before && p.before < p.after) {
      errors[p.beforeField] = ['End date must not be before the start date.'];
      continue;
    }
    const r = pairRange(p, zone);
    if (r) ranges.push(r);
  }
  if (Object.keys(errors).length) throw badRequest(errors);
  if (query.day) ranges.push(dayRange(query.day, zone, now));
  if (query.month) ranges.push(monthRange(query.month, zone, now));
  return withinCalendar(intersect(ranges));
}

/** `column >= from AND column < to` for the bounds present; undefined when the range is open on both sides. */
export function periodCondition(column: AnyColumn | SQLWrapper, range: PeriodRange): SQL | undefined {
  return and(range.from ? gte(column, range.from) : undefined, range.to ? lt(column, range.to) : undefined);
}

/** Whether the query asks for any period at all. */
export function hasPeriodFilter(query: Partial<TPeriodQuery>): boolean {
  return Boolean(
    query.date_time_after ||
    query.date_time_before ||
    query.created_after ||
    query.created_before ||
    query.day ||
    query.month,
  );
}

/**
 * The zone a file's times are written in when the request has no period to read: the `Timezone` header's, or
 * Asia/Kolkata when it is absent or unknown (an odd browser zone never breaks a download that does not filter by
 * date; the file's header names the zone used).
 */
export function readerZone(value: string | string[] | undefined): string {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  return raw && isKnownTimezone(raw) ? raw : DEFAULT_TIMEZONE;
}

/**
 * periodRange with the raw `Timezone` header: the header is only read (and only refused when unknown) when the
 * query has a period filter, so an odd browser zone never breaks a list that does not filter by date.
 */
export function requestPeriod(
  query: Partial<TPeriodQuery>,
  timezoneHeader: string | string[] | undefined,
  now: Date,
): PeriodRange {
  if (!hasPeriodFilter(query)) return {};
  return periodRange(query, timezoneFromHeader(timezoneHeader), now);
}
