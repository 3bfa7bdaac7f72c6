import { describe, expect, it } from 'vitest';
import { defaultCustomRange, formatRange, periodToQuery } from './periods.ts';

const now = new Date(2026, 2, 15, 10, 0); // 15 Mar 2026, local time

describe('periodToQuery', () => {
  it('sends no date filter for All Time (value today)', () => {
    expect(periodToQuery({ period: 'today' }, 'date_time', now)).toEqual({});
  });

  it('sends today minus 30 days through today for Last 30 Days, as the spec defines it', () => {
    expect(periodToQuery({ period: '30' }, 'date_time', now)).toEqual({
      date_time_after: '2026-02-13',
      date_time_before: '2026-03-15',
    });
  });

  it('uses created_after/created_before for lists filtered by creation date', () => {
    expect(periodToQuery({ period: 'custom_range', from: '2026-01-02', to: '2026-01-09' }, 'created', now)).toEqual({
      created_after: '2026-01-02',
      created_before: '2026-01-09',
    });
  });

  it('sends a one-day custom range as its start only', () => {
    expect(periodToQuery({ period: 'custom_range', from: '2026-01-02', to: '2026-01-02' })).toEqual({ date_time_after: '2026-01-02' });
    expect(periodToQuery({ period: 'custom_range', from: '2026-01-02' })).toEqual({ date_time_after: '2026-01-02' });
  });

  it('filters nothing for a custom range without a start', () => {
    expect(periodToQuery({ period: 'custom_range' })).toEqual({});
  });

  it('maps yesterday to day and the month tabs to month', () => {
    expect(periodToQuery({ period: 'yesterday' })).toEqual({ day: 'yesterday' });
    expect(periodToQuery({ period: 'this_month' })).toEqual({ month: 'this_month' });
    expect(periodToQuery({ period: 'last_month' })).toEqual({ month: 'last_month' });
  });
});

describe('custom range helpers', () => {
  it('defaults the dialog to the last 10 days up to today', () => {
    expect(defaultCustomRange(now)).toEqual({ from: '2026-03-05', to: '2026-03-15' });
  });

  it('labels a range, or a single day', () => {
    expect(formatRange({ from: '2026-01-02', to: '2026-01-09' })).toBe('02 Jan 2026 – 09 Jan 2026');
    expect(formatRange({ from: '2026-01-02', to: '2026-01-02' })).toBe('02 Jan 2026');
    expect(formatRange({})).toBe('');
  });
});
