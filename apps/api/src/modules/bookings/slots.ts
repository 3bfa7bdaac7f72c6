// Slot arithmetic of the public booking page (issue 12; part 1 §3 available_days, total_bookings_per_slot): the
// next BOOKING_DAYS_AHEAD days on which the organization takes bookings, and the slots of one day, in the
// organization's time zone. Pure: the caller passes the zone, the settings and the clock. Slot times are local
// wall-clock hours turned into instants by dayjs's timezone plugin, so a daylight-saving change moves the UTC
// instant, never the local hour a patient reads.
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
import {
  BOOKING_DAY_END,
  BOOKING_DAY_START,
  BOOKING_DAYS_AHEAD,
  BOOKING_SLOT_MINUTES,
  weekdayId,
} from '@sc/shared/bookings';

dayjs.extend(utc);
dayjs.extend(timezone);

export type SlotSettings = { timezone: string; availableDays: readonly number[] };
export type SlotTime = { start: Date; end: Date };

/** Today's date (YYYY-MM-DD) in `zone`. */
export const localToday = (now: Date, zone: string): string => dayjs(now).tz(zone).format('YYYY-MM-DD');

/** The available_days id (MON 0 … SUN 6) of a calendar date; computed in UTC so no zone can shift it. */
export const weekdayOf = (date: string): number => weekdayId(dayjs.utc(date).day());

/** The open days from today (in the organization's zone) through the next BOOKING_DAYS_AHEAD - 1 days. */
export function bookingDays(settings: SlotSettings, now: Date): string[] {
  const open = new Set(settings.availableDays);
  const today = localToday(now, settings.timezone);
  const days: string[] = [];
  for (let i = 0; i < BOOKING_DAYS_AHEAD; i++) {
    const date = dayjs.utc(today).add(i, 'day').format('YYYY-MM-DD');
    if (open.has(weekdayOf(date))) days.push(date);
  }
  return days;
}

const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

function localInstant(date: string, minutes: number, zone: string): Date {
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return dayjs.tz(`${date} ${hh}:${mm}`, zone).toDate();
}

/** Every slot of `date` (local BOOKING_DAY_START to BOOKING_DAY_END), whether or not it has begun. */
export function slotsOfDate(date: string, zone: string): SlotTime[] {
  const slots: SlotTime[] = [];
  const last = minutesOf(BOOKING_DAY_END);
  for (let m = minutesOf(BOOKING_DAY_START); m + BOOKING_SLOT_MINUTES <= last; m += BOOKING_SLOT_MINUTES) {
    slots.push({ start: localInstant(date, m, zone), end: localInstant(date, m + BOOKING_SLOT_MINUTES, zone) });
  }
  return slots;
}

/** The slots of `date` a patient may still choose: an open day inside the window, slots not yet started. */
export function offeredSlots(date: string, settings: SlotSettings, now: Date): SlotTime[] {
  if (!bookingDays(settings, now).includes(date)) return [];
  return slotsOfDate(date, settings.timezone).filter((s) => s.start.getTime() > now.getTime());
}

/** The offered slot that starts at `start`, or null (not an open day, not a slot boundary, past, too far). */
export function findOfferedSlot(start: Date, settings: SlotSettings, now: Date): SlotTime | null {
  const date = dayjs(start).tz(settings.timezone).format('YYYY-MM-DD');
  return offeredSlots(date, settings, now).find((s) => s.start.getTime() === start.getTime()) ?? null;
}
