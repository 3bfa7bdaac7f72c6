// The demo's booking slots, laid out with the API's own slot rules (modules/bookings/slots.ts): local wall-clock
// hours of the organization's open days in its time zone. A fixed UTC offset would put them an hour off the public
// page's slots across a daylight-saving change.
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { BOOKING_DAY_START, BOOKING_SLOT_MINUTES } from '@sc/shared/bookings';
import { localToday, slotsOfDate, weekdayOf, type SlotTime } from '../modules/bookings/slots.ts';

dayjs.extend(utc);

/** Open days of the demo's booking clinics: MON to SAT (available_days ids 0–5). */
export const DEMO_BOOKING_DAYS: readonly number[] = [0, 1, 2, 3, 4, 5];
/** Local hours the demo leaves free (a lunch break), so a day does not look booked solid. */
const LUNCH_HOURS = new Set([12, 13]);

export type DemoSlot = SlotTime & { date: string };

/**
 * The slots of the open days from `fromDay` to `toDay` days after today (in `zone`), both included, skipping the
 * lunch hours: each is a slot the API offers on its date.
 */
export function demoSlotTimes(
  settings: { timezone: string; availableDays: readonly number[] },
  now: Date,
  fromDay: number,
  toDay: number,
): DemoSlot[] {
  const open = new Set(settings.availableDays);
  const today = localToday(now, settings.timezone);
  const slots: DemoSlot[] = [];
  const [h = 0, m = 0] = BOOKING_DAY_START.split(':').map(Number);
  const firstMinute = h * 60 + m;
  for (let day = fromDay; day <= toDay; day++) {
    const date = dayjs.utc(today).add(day, 'day').format('YYYY-MM-DD');
    if (!open.has(weekdayOf(date))) continue;
    // Slot i starts i slot lengths after the day's first hour (local wall clock, as slotsOfDate lays them out).
    slotsOfDate(date, settings.timezone).forEach((slot, i) => {
      if (!LUNCH_HOURS.has(Math.floor((firstMinute + i * BOOKING_SLOT_MINUTES) / 60)))
        slots.push({ ...slot, date });
    });
  }
  return slots;
}
