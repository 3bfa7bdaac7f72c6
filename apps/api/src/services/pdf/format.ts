// Dates as reports print them, in the reader's time zone (the request's `Timezone` header).
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
import { getTimezone } from 'countries-and-timezones';
import { DATE_DISPLAY_FORMAT } from '@sc/shared/constants';

dayjs.extend(utc);
dayjs.extend(timezone);

export const REPORT_DATE_FORMAT = 'DD MMM YYYY';

/**
 * '05 Mar 2026 02:30 PM UTC+05:30' in `zone`: a report is read by people in other zones than the one it was made
 * for (a scan at 05:39 in the console of a viewer in London is 11:09 in the clinic's PDF), so each time says its
 * offset beside it, not only the footer (issue 23.7).
 */
export const formatDateTime = (date: Date, zone: string): string => {
  const local = dayjs(date).tz(zone);
  return `${local.format(DATE_DISPLAY_FORMAT)} UTC${local.format('Z')}`;
};

/** '05 Mar 2026 02:30 PM' in `zone`, for a table whose column header names the zone (zoneHeader). */
export const formatDateTimeInColumn = (date: Date, zone: string): string =>
  dayjs(date).tz(zone).format(DATE_DISPLAY_FORMAT);

/** A table's column header of times in `zone`: 'Date and time (Asia/Kolkata)'. */
export const zoneHeader = (header: string, zone: string): string => `${header} (${canonicalZone(zone)})`;

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
