// Period tabs of every list (architecture §4, §7b) and how they become API query parameters.
// 'today' is the original's value of the All Time tab and means no date filter at all.
import dayjs from 'dayjs';
import { API_DATE_FORMAT } from '@sc/shared/constants';
import type { TPeriodQuery } from '@sc/shared/list';

export const PERIOD_VALUES = ['today', 'yesterday', '30', 'this_month', 'last_month', 'custom_range'] as const;
export type PeriodValue = (typeof PERIOD_VALUES)[number];

/** The tabs most lists show: All Time, Last 30 Days, Custom Range. */
export const DEFAULT_PERIODS: readonly PeriodValue[] = ['today', '30', 'custom_range'];

export const PERIOD_LABELS: Record<PeriodValue, string> = {
  today: 'All Time',
  yesterday: 'Yesterday',
  '30': 'Last 30 Days',
  this_month: 'This Month',
  last_month: 'Last Month',
  custom_range: 'Custom Range',
};

/** A chosen custom range, YYYY-MM-DD; a start without an end is that one day. */
export type DateRange = { from?: string; to?: string };

export type PeriodParams = { period: PeriodValue } & DateRange;

/** Which pair of date parameters a list's API reads: scans use date_time_*, others created_*. */
export type PeriodField = 'date_time' | 'created';

/** Last 30 Days = today minus 30 days through today (part 2 §9, part 3 §9). */
export const LAST_DAYS = 30;
/** The custom range dialog opens on the last 10 days to today (part 1 §9). */
export const DEFAULT_RANGE_DAYS = 10;

export const toApiDate = (d: dayjs.ConfigType): string => dayjs(d).format(API_DATE_FORMAT);

export function defaultCustomRange(now: dayjs.ConfigType = new Date()): Required<DateRange> {
  const today = dayjs(now);
  return { from: toApiDate(today.subtract(DEFAULT_RANGE_DAYS, 'day')), to: toApiDate(today) };
}

/**
 * The API parameters of a period: `{}` for All Time, `date_time_after/before` (or `created_*`) for
 * Last 30 Days and a custom range, `day` for yesterday, `month` for this or last month. Dates are
 * the browser's calendar days; the API reads them in the `Timezone` header's zone.
 */
export function periodToQuery(
  { period, from, to }: PeriodParams,
  field: PeriodField = 'date_time',
  now: dayjs.ConfigType = new Date(),
): Partial<TPeriodQuery> {
  const after = `${field}_after` as const;
  const before = `${field}_before` as const;
  switch (period) {
    case 'today':
      return {};
    case 'yesterday':
      return { day: 'yesterday' };
    case 'this_month':
      return { month: 'this_month' };
    case 'last_month':
      return { month: 'last_month' };
    case '30': {
      const today = dayjs(now);
      return { [after]: toApiDate(today.subtract(LAST_DAYS, 'day')), [before]: toApiDate(today) };
    }
    case 'custom_range':
      // A custom tab without a start (a hand-edited URL) filters nothing rather than failing.
      if (!from) return {};
      return to && to !== from ? { [after]: from, [before]: to } : { [after]: from };
  }
}

/** '12 Jan 2026 – 20 Jan 2026', or one date for a one-day range. */
export function formatRange({ from, to }: DateRange): string {
  if (!from) return '';
  const start = dayjs(from).format('DD MMM YYYY');
  if (!to || to === from) return start;
  return `${start} – ${dayjs(to).format('DD MMM YYYY')}`;
}
