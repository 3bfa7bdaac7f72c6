import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
import { DEMO_BOOKING_DAYS, demoSlotTimes } from './booking-slots.ts';
import { findOfferedSlot } from '../modules/bookings/slots.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

describe('demo booking slots', () => {
  it('keeps the local hours across a daylight-saving change, as the public page offers them', () => {
    // New York moves to summer time on Sunday 2026-03-08; the demo lays out the week around it.
    const settings = { timezone: 'America/New_York', availableDays: [0, 1, 2, 3, 4, 5, 6] };
    const now = new Date('2026-03-04T12:00:00Z');
    const slots = demoSlotTimes(settings, now, 0, 7);
    const local = (d: Date) => dayjs(d).tz(settings.timezone).format('YYYY-MM-DD HH:mm');
    const saturday = slots.filter((s) => s.date === '2026-03-07').map((s) => local(s.start));
    const sunday = slots.filter((s) => s.date === '2026-03-08').map((s) => local(s.start));
    const hours = ['09:00', '10:00', '11:00', '14:00', '15:00', '16:00'];
    expect(saturday).toEqual(hours.map((h) => `2026-03-07 ${h}`));
    expect(sunday).toEqual(hours.map((h) => `2026-03-08 ${h}`));
    // The same local hour is an hour earlier in UTC after the change.
    expect(slots.find((s) => s.date === '2026-03-07')?.start.toISOString()).toBe('2026-03-07T14:00:00.000Z');
    expect(slots.find((s) => s.date === '2026-03-08')?.start.toISOString()).toBe('2026-03-08T13:00:00.000Z');
    for (const slot of slots.filter((s) => s.start.getTime() > now.getTime())) {
      expect(findOfferedSlot(slot.start, settings, now), local(slot.start)).toEqual({
        start: slot.start,
        end: slot.end,
      });
    }
  });

  it('skips the days the organization is closed, counted in its own zone', () => {
    // 2026-03-01 22:00Z is Sunday in London but already Monday in Manila.
    const now = new Date('2026-03-01T22:00:00Z');
    const london = demoSlotTimes({ timezone: 'Europe/London', availableDays: DEMO_BOOKING_DAYS }, now, 0, 0);
    const manila = demoSlotTimes({ timezone: 'Asia/Manila', availableDays: DEMO_BOOKING_DAYS }, now, 0, 0);
    expect(london).toEqual([]);
    expect(manila.map((s) => s.date)).toEqual(Array(6).fill('2026-03-02'));
    expect(manila[0]?.start.toISOString()).toBe('2026-03-02T01:00:00.000Z');
  });
});
