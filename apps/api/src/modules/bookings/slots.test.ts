import { describe, expect, it } from 'vitest';
import { BOOKING_DAYS_AHEAD } from '@sc/shared/bookings';
import { bookingDays, findOfferedSlot, localToday, offeredSlots, slotsOfDate, weekdayOf } from './slots.ts';

const ALL_DAYS = [0, 1, 2, 3, 4, 5, 6];

describe('slot arithmetic', () => {
  it('maps dates to available_days ids MON 0 … SUN 6', () => {
    expect(weekdayOf('2026-03-02')).toBe(0); // Monday
    expect(weekdayOf('2026-03-07')).toBe(5); // Saturday
    expect(weekdayOf('2026-03-08')).toBe(6); // Sunday
  });

  it('offers the open days of the next 30 days, today first, in the organization zone', () => {
    const now = new Date('2026-03-01T20:00:00Z'); // Sunday evening in UTC, Monday 01:30 in Kolkata
    const kolkata = bookingDays({ timezone: 'Asia/Kolkata', availableDays: ALL_DAYS }, now);
    expect(kolkata).toHaveLength(BOOKING_DAYS_AHEAD);
    expect(kolkata[0]).toBe('2026-03-02');
    expect(kolkata.at(-1)).toBe('2026-03-31');
    // The same instant is still Sunday morning in Los Angeles.
    expect(localToday(now, 'America/Los_Angeles')).toBe('2026-03-01');
    const mondays = bookingDays({ timezone: 'America/Los_Angeles', availableDays: [0] }, now);
    expect(mondays).toEqual(['2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23', '2026-03-30']);
    expect(bookingDays({ timezone: 'UTC', availableDays: [] }, now)).toEqual([]);
  });

  it('puts the slots at the same local hours across a daylight-saving change', () => {
    // New York moves to summer time on Sunday 2026-03-08: 09:00 local is 14:00Z the day before, 13:00Z that day.
    const before = slotsOfDate('2026-03-07', 'America/New_York');
    const after = slotsOfDate('2026-03-08', 'America/New_York');
    expect(before[0]?.start.toISOString()).toBe('2026-03-07T14:00:00.000Z');
    expect(after[0]?.start.toISOString()).toBe('2026-03-08T13:00:00.000Z');
    expect(after).toHaveLength(8);
    expect(after.at(-1)?.end.toISOString()).toBe('2026-03-08T21:00:00.000Z'); // 17:00 EDT
    // London goes back on 2026-10-25: 09:00 BST is 08:00Z, the next day 09:00 GMT is 09:00Z.
    expect(slotsOfDate('2026-10-24', 'Europe/London')[0]?.start.toISOString()).toBe('2026-10-24T08:00:00.000Z');
    expect(slotsOfDate('2026-10-25', 'Europe/London')[0]?.start.toISOString()).toBe('2026-10-25T09:00:00.000Z');
    // Every slot lasts an hour even on the short and the long day.
    for (const s of [...after, ...slotsOfDate('2026-10-25', 'Europe/London')]) {
      expect(s.end.getTime() - s.start.getTime()).toBe(3_600_000);
    }
  });

  it('offers only slots not yet started, on open days inside the window', () => {
    const settings = { timezone: 'Asia/Kolkata', availableDays: [0, 2] }; // MON, WED
    const now = new Date('2026-03-02T06:10:00Z'); // Monday 11:40 in Kolkata
    const today = offeredSlots('2026-03-02', settings, now);
    expect(today.map((s) => s.start.toISOString())).toEqual([
      '2026-03-02T06:30:00.000Z', // 12:00 IST
      '2026-03-02T07:30:00.000Z',
      '2026-03-02T08:30:00.000Z',
      '2026-03-02T09:30:00.000Z',
      '2026-03-02T10:30:00.000Z', // 16:00 IST, the last one
    ]);
    expect(offeredSlots('2026-03-03', settings, now)).toEqual([]); // Tuesday: closed
    expect(offeredSlots('2026-04-01', settings, now)).toEqual([]); // a Wednesday past the 30 days
    expect(findOfferedSlot(new Date('2026-03-04T03:30:00Z'), settings, now)).not.toBeNull(); // Wed 09:00 IST
    expect(findOfferedSlot(new Date('2026-03-04T03:45:00Z'), settings, now)).toBeNull(); // not a slot boundary
    expect(findOfferedSlot(new Date('2026-03-02T05:30:00Z'), settings, now)).toBeNull(); // started already
  });
});
