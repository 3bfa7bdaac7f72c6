import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import {
  daysRange,
  isKnownTimezone,
  listTimezoneNames,
  localDate,
  periodRange,
  requestPeriod,
  startOfLocalDay,
  timezoneFromHeader,
} from './period.ts';

const iso = (r: { from?: Date; to?: Date }) => ({ from: r.from?.toISOString(), to: r.to?.toISOString() });

function fieldsOf(fn: () => unknown): Record<string, string[]> | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e.fields;
    throw e;
  }
  throw new Error('expected an AppError');
}

describe('timezoneFromHeader', () => {
  it('defaults to Asia/Kolkata when the header is absent or blank', () => {
    expect(timezoneFromHeader(undefined)).toBe('Asia/Kolkata');
    expect(timezoneFromHeader('  ')).toBe('Asia/Kolkata');
  });

  it('accepts canonical IANA names, deprecated aliases and UTC', () => {
    expect(timezoneFromHeader('Europe/Paris')).toBe('Europe/Paris');
    expect(timezoneFromHeader('Asia/Calcutta')).toBe('Asia/Calcutta');
    expect(timezoneFromHeader(['UTC'])).toBe('UTC');
  });

  it.each(['Mars/Olympus', '+05:30', 'asia/kolkata', 'IST', 'Factory'])(
    'refuses %s with a Timezone field error',
    (zone) => {
      expect(fieldsOf(() => timezoneFromHeader(zone))).toEqual({ Timezone: ['Unknown time zone.'] });
    },
  );
});

describe('timezone names', () => {
  it('lists canonical names, sorted, including the default zone and without aliases', () => {
    const names = listTimezoneNames();
    expect(names).toContain('Asia/Kolkata');
    expect(names).toContain('America/Mexico_City');
    expect(names).not.toContain('Asia/Calcutta');
    expect([...names].sort()).toEqual(names);
    expect(names.length).toBeGreaterThan(300);
    expect(names.every(isKnownTimezone)).toBe(true);
  });
});

describe('startOfLocalDay and localDate', () => {
  it('reads Asia/Kolkata days at +05:30', () => {
    expect(startOfLocalDay('2024-06-15', 'Asia/Kolkata').toISOString()).toBe('2024-06-14T18:30:00.000Z');
    expect(localDate(new Date('2024-06-14T18:29:59Z'), 'Asia/Kolkata')).toBe('2024-06-14');
    expect(localDate(new Date('2024-06-14T18:30:00Z'), 'Asia/Kolkata')).toBe('2024-06-15');
  });

  it('gives a 23-hour day when Europe/Paris springs forward and a 25-hour day when it falls back', () => {
    const spring = daysRange('2024-03-31', '2024-03-31', 'Europe/Paris');
    expect(iso(spring)).toEqual({ from: '2024-03-30T23:00:00.000Z', to: '2024-03-31T22:00:00.000Z' });
    const autumn = daysRange('2024-10-27', '2024-10-27', 'Europe/Paris');
    expect(iso(autumn)).toEqual({ from: '2024-10-26T22:00:00.000Z', to: '2024-10-27T23:00:00.000Z' });
  });

  it('follows America/Mexico_City before and after it abolished daylight saving time in 2022', () => {
    // Summer 2021 was CDT (-05:00); summer 2023 is CST (-06:00) all year.
    expect(startOfLocalDay('2021-07-01', 'America/Mexico_City').toISOString()).toBe(
      '2021-07-01T05:00:00.000Z',
    );
    expect(startOfLocalDay('2023-07-01', 'America/Mexico_City').toISOString()).toBe(
      '2023-07-01T06:00:00.000Z',
    );
  });

  it('starts the day at 01:00 where DST began at midnight (America/Sao_Paulo, 2018-11-04)', () => {
    expect(startOfLocalDay('2018-11-04', 'America/Sao_Paulo').toISOString()).toBe('2018-11-04T03:00:00.000Z');
  });
});

describe('periodRange', () => {
  const now = new Date('2024-03-15T12:00:00Z');

  it('is open on both sides when no filter is given (All Time)', () => {
    expect(periodRange({}, 'Asia/Kolkata', now)).toEqual({});
  });

  it('reads date_time_after alone as that one whole day', () => {
    expect(iso(periodRange({ date_time_after: '2024-03-01' }, 'Asia/Kolkata', now))).toEqual({
      from: '2024-02-29T18:30:00.000Z',
      to: '2024-03-01T18:30:00.000Z',
    });
  });

  it('includes both days of a custom range', () => {
    expect(
      iso(periodRange({ created_after: '2024-03-01', created_before: '2024-03-03' }, 'UTC', now)),
    ).toEqual({
      from: '2024-03-01T00:00:00.000Z',
      to: '2024-03-04T00:00:00.000Z',
    });
  });

  it('leaves a bound past the calendar open, in any zone (9999-12-31 west of UTC ends in the year 10000)', () => {
    expect(iso(periodRange({ date_time_before: '9999-12-31' }, 'America/Los_Angeles', now))).toEqual({
      from: undefined,
      to: undefined,
    });
    expect(iso(periodRange({ date_time_after: '9999-12-31' }, 'America/Los_Angeles', now))).toEqual({
      from: '9999-12-31T08:00:00.000Z',
      to: undefined,
    });
  });

  it('reads date_time_before alone as everything up to the end of that day', () => {
    expect(iso(periodRange({ date_time_before: '2024-03-01' }, 'UTC', now))).toEqual({
      from: undefined,
      to: '2024-03-02T00:00:00.000Z',
    });
  });

  it('allows a range of one day given as start and end', () => {
    expect(
      iso(periodRange({ date_time_after: '2024-02-29', date_time_before: '2024-02-29' }, 'UTC', now)),
    ).toEqual({
      from: '2024-02-29T00:00:00.000Z',
      to: '2024-03-01T00:00:00.000Z',
    });
  });

  it('crosses a leap day and a year end', () => {
    expect(
      iso(periodRange({ date_time_after: '2024-02-28', date_time_before: '2024-02-29' }, 'UTC', now)).to,
    ).toBe('2024-03-01T00:00:00.000Z');
    expect(iso(periodRange({ date_time_after: '2023-12-31' }, 'UTC', now)).to).toBe(
      '2024-01-01T00:00:00.000Z',
    );
  });

  it('refuses an end before its start with a field error on the end', () => {
    expect(
      fieldsOf(() =>
        periodRange({ date_time_after: '2024-03-05', date_time_before: '2024-03-04' }, 'UTC', now),
      ),
    ).toEqual({
      date_time_before: ['End date must not be before the start date.'],
    });
    expect(
      fieldsOf(() => periodRange({ created_after: '2024-03-05', created_before: '2024-01-01' }, 'UTC', now)),
    ).toEqual({
      created_before: ['End date must not be before the start date.'],
    });
  });

  it('reads day=today and day=yesterday in the caller zone', () => {
    // 2024-03-15T20:00Z is already 16 March in Kolkata (01:30) but still 15 March in UTC.
    const late = new Date('2024-03-15T20:00:00Z');
    expect(iso(periodRange({ day: 'today' }, 'Asia/Kolkata', late))).toEqual({
      from: '2024-03-15T18:30:00.000Z',
      to: '2024-03-16T18:30:00.000Z',
    });
    expect(iso(periodRange({ day: 'today' }, 'UTC', late))).toEqual({
      from: '2024-03-15T00:00:00.000Z',
      to: '2024-03-16T00:00:00.000Z',
    });
    expect(iso(periodRange({ day: 'yesterday' }, 'Asia/Kolkata', late))).toEqual({
      from: '2024-03-14T18:30:00.000Z',
      to: '2024-03-15T18:30:00.000Z',
    });
  });

  it('reads yesterday across a month boundary and a leap day', () => {
    expect(iso(periodRange({ day: 'yesterday' }, 'UTC', new Date('2024-03-01T08:00:00Z')))).toEqual({
      from: '2024-02-29T00:00:00.000Z',
      to: '2024-03-01T00:00:00.000Z',
    });
  });

  it('reads month=this_month and month=last_month as whole calendar months of the caller zone', () => {
    // 2024-02-29T20:00Z is 1 March 01:30 in Kolkata: this month is March there, February in UTC.
    const t = new Date('2024-02-29T20:00:00Z');
    expect(iso(periodRange({ month: 'this_month' }, 'Asia/Kolkata', t))).toEqual({
      from: '2024-02-29T18:30:00.000Z',
      to: '2024-03-31T18:30:00.000Z',
    });
    expect(iso(periodRange({ month: 'last_month' }, 'Asia/Kolkata', t))).toEqual({
      from: '2024-01-31T18:30:00.000Z',
      to: '2024-02-29T18:30:00.000Z',
    });
    expect(iso(periodRange({ month: 'this_month' }, 'UTC', t))).toEqual({
      from: '2024-02-01T00:00:00.000Z',
      to: '2024-03-01T00:00:00.000Z',
    });
  });

  it('reads last_month in January as December of the previous year', () => {
    expect(iso(periodRange({ month: 'last_month' }, 'UTC', new Date('2024-01-10T00:00:00Z')))).toEqual({
      from: '2023-12-01T00:00:00.000Z',
      to: '2024-01-01T00:00:00.000Z',
    });
  });

  it('gives a month that contains a DST change its true length (Europe/Paris, March 2024)', () => {
    const r = periodRange({ month: 'this_month' }, 'Europe/Paris', new Date('2024-03-20T12:00:00Z'));
    expect(iso(r)).toEqual({ from: '2024-02-29T23:00:00.000Z', to: '2024-03-31T22:00:00.000Z' });
    expect(r.to!.getTime() - r.from!.getTime()).toBe((31 * 24 - 1) * 3600 * 1000);
  });

  it('reads month=yesterday as yesterday', () => {
    expect(periodRange({ month: 'yesterday' }, 'Asia/Kolkata', now)).toEqual(
      periodRange({ day: 'yesterday' }, 'Asia/Kolkata', now),
    );
  });

  it('intersects several filters given together', () => {
    const r = periodRange(
      { month: 'this_month', date_time_after: '2024-02-20', date_time_before: '2024-03-05' },
      'UTC',
      now,
    );
    expect(iso(r)).toEqual({ from: '2024-03-01T00:00:00.000Z', to: '2024-03-06T00:00:00.000Z' });
  });
});

describe('requestPeriod', () => {
  const now = new Date('2024-03-15T12:00:00Z');

  it('does not read the Timezone header when no period is asked for', () => {
    expect(requestPeriod({}, 'Mars/Olympus', now)).toEqual({});
  });

  it('reads the period in the header zone, Asia/Kolkata when absent', () => {
    expect(requestPeriod({ day: 'today' }, 'UTC', now)).toEqual(periodRange({ day: 'today' }, 'UTC', now));
    expect(requestPeriod({ day: 'today' }, undefined, now)).toEqual(
      periodRange({ day: 'today' }, 'Asia/Kolkata', now),
    );
  });

  it('refuses an unknown zone when a period is asked for', () => {
    expect(fieldsOf(() => requestPeriod({ day: 'today' }, 'Mars/Olympus', now))).toEqual({
      Timezone: ['Unknown time zone.'],
    });
  });
});
