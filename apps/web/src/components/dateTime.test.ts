import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { DATE_DISPLAY_FORMAT } from '@sc/shared/constants';
import { formatDateTime, isViewerTime } from './dateTime.ts';

const AT = '2026-11-27T05:39:00Z';

describe('formatDateTime (issue 23.7)', () => {
  it("writes a time of another zone in that zone with the zone's name", () => {
    expect(formatDateTime(AT, 'Asia/Kolkata', 'Europe/London')).toBe('27 Nov 2026 11:09 AM GMT+5:30');
    expect(formatDateTime(AT, 'America/Mexico_City', 'Asia/Kolkata')).toMatch(/^26 Nov 2026 11:39 PM (CST|GMT-6)$/);
  });

  it("writes a time of the viewer's zone (or one that reads the same) without a zone", () => {
    const plain = dayjs(AT).format(DATE_DISPLAY_FORMAT);
    expect(formatDateTime(AT)).toBe(plain);
    const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(formatDateTime(AT, here, here)).toBe(plain);
    expect(isViewerTime(new Date(AT), 'Asia/Calcutta', 'Asia/Kolkata')).toBe(true);
    expect(isViewerTime(new Date(AT), 'Europe/London', 'UTC')).toBe(true);
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('not a date', 'Asia/Kolkata')).toBe('—');
  });
});
