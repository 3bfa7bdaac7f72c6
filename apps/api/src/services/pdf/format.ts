// Dates as reports print them, in the reader's time zone (the request's `Timezone` header).
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
import { getTimezone } from 'countries-and-timezones';
import { DATE_DISPLAY_FORMAT } from '@sc/shared/constants';

dayjs.extend(utc);
dayjs.extend(timezone);

export const REPORT_DATE_FORMAT = 'DD MMM YYYY';

/** '05 Mar 2026 02:30 PM' in `zone`. */
export const formatDateTime = (date: Date, zone: string): string => dayjs(date).tz(zone).format(DATE_DISPLAY_FORMAT);

/** '05 Mar 2026': the calendar day of `date` in `zone`. */
export const formatDay = (date: Date, zone: string): string => dayjs(date).tz(zone).format(REPORT_DATE_FORMAT);

/** A stored calendar date ('2026-03-05', no time zone) as '05 Mar 2026'; null stays null. */
export const formatCalendarDate = (ymd: string | null): string | null =>
  ymd === null ? null : dayjs(ymd).format(REPORT_DATE_FORMAT);

/**
 * The canonical name of a zone for print: browsers still send old aliases ('Asia/Calcutta'), which read as
 * out of date on a report. UTC stays UTC (its canonical name, Etc/UTC, reads worse).
 */
export function canonicalZone(zone: string): string {
  if (zone === 'UTC') return zone;
  return getTimezone(zone)?.aliasOf ?? zone;
}
