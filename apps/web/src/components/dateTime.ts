// One way the console writes a date and time (issue 23.7): 'DD MMM YYYY hh:mm A' (part 1 §9) in the viewer's zone,
// or, for a time that belongs to another zone (a clinic's slot), in that zone followed by its short name
// ('27 Nov 2026 11:09 AM GMT+5:30'), so a time never reads as the viewer's when it is not.
import dayjs from 'dayjs';
import { clinicTime } from '@sc/shared/bookings';
import { DATE_DISPLAY_FORMAT } from '@sc/shared/constants';
import { clientTimezone } from '../api/client.ts';

/** The minutes `zone` is ahead of UTC at `at` (from Intl's 'GMT+5:30'); null for a zone Intl does not know. */
function offsetAt(at: Date, zone: string): number | null {
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    const m = /^GMT(?:([+-])(\d{1,2})(?::(\d{2}))?)?$/.exec(name ?? '');
    if (!m) return null;
    if (!m[1]) return 0;
    return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
  } catch {
    return null;
  }
}

/** Whether a time at `at` reads the same in `zone` as in the viewer's zone (same offset then). */
export const isViewerTime = (at: Date, zone: string, viewer: string = clientTimezone()): boolean =>
  zone === viewer || offsetAt(at, zone) === offsetAt(at, viewer);

/**
 * `value` as 'DD MMM YYYY hh:mm A': in the viewer's zone when `zone` is absent or reads the same; otherwise in
 * `zone` with the zone's short name after it. '—' for no date or one that does not parse.
 */
export function formatDateTime(
  value: string | Date | null | undefined,
  zone?: string,
  viewer: string = clientTimezone(),
): string {
  if (!value) return '—';
  const at = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(at.getTime())) return '—';
  if (!zone || isViewerTime(at, zone, viewer)) return dayjs(at).format(DATE_DISPLAY_FORMAT);
  const local = clinicTime(at.toISOString(), zone);
  return `${local.date} ${local.time} ${local.zone}`;
}
