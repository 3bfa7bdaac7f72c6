// Period tabs of every list (architecture §4, §7b) and how they become API query parameters.
// 'today' is the original's value of the All Time tab and means no date filter at all.
import dayjs from 'dayjs';
import { API_DATE_FORMAT } from '@sc/shared/constants';
import type { TPeriodQuery } from '@sc/shared/list';

export const PERIOD_VALUES = ['today', 'yesterday', '30', 'this_month', 'last_month', 'custom_range'] as const;
export type PeriodValue = (typeof PERIOD_VALUES)[number];

/** A kind of period control: its tabs in order and the tab selected when the URL names none. */
export type PeriodKindDefinition = { options: readonly PeriodValue[]; default: PeriodValue };

/**
 * The period control of each kind of list (issue 23.15), the one place a list's tabs come from. The spec names
 * them: most lists All Time, Last 30 Days, Custom Range (part 1 §2, part 2 §2.1, §2.5, §2.7, §2.10, part 3); the
 * device list also Yesterday, This Month and Last Month (part 2 §2.4, §8); the booking list inside an organization
 * hides All Time (part 3 Booking list), so Last 30 Days is its default and a tab is always selected.
 */
export const PERIOD_KINDS = {
  standard: { options: ['today', '30', 'custom_range'], default: 'today' },
  device: { options: ['today', 'yesterday', '30', 'this_month', 'last_month', 'custom_range'], default: 'today' },
  organizationBooking: { options: ['30', 'custom_range'], default: '30' },
} as const satisfies Record<string, PeriodKindDefinition>;
export type PeriodKind = keyof typeof PERIOD_KINDS;

/** The tabs most lists show: All Time, Last 30 Days, Custom Range. */
export const DEFAULT_PERIODS: readonly PeriodValue[] = PERIOD_KINDS.standard.options;

/**
 * What the days of a date filter are (issue 23.1), and so how far its calendar reaches: `recorded` things have
 * happened (scans, exams, reports, created and synced dates), so nothing after today can match; `scheduled` things
 * lie ahead as well (booking slots, certificate expiry dates), so any day may be chosen. A date of birth is past
 * only: the patient form takes its bounds from @sc/shared/patients (earliestBirthDate, latestBirthDate).
 */
export type DateFilterKind = 'recorded' | 'scheduled';

/** The last day a date filter's calendar offers: today for recorded things, none for scheduled ones. */
export function latestFilterDate(kind: DateFilterKind, now: dayjs.ConfigType = new Date()): string | undefined {
  switch (kind) {
    case 'recorded':
      return toApiDate(now);
    case 'scheduled':
      return undefined;
  }
}

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
