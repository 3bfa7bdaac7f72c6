import { describe, expect, it } from 'vitest';
import { BOOKING_MESSAGES } from './bookings.ts';
import * as constants from './constants.ts';
import { BOOKING_STATUS_LABELS, ENUM_LABEL_TABLES, labelOf } from './labels.ts';

// A code of the API: upper case words joined by underscores ('PENDING_PAYMENT', 'IN_VALID').
const CODE = /^[A-Z]+(?:_[A-Z]+)+$/;

describe('label tables (issue 23 item 9)', () => {
  it.each(ENUM_LABEL_TABLES.map((t) => [t.name, t] as const))('gives every %s its words', (_name, table) => {
    for (const code of table.codes) {
      const label = table.labels[code];
      expect(label, code).toBeTruthy();
      // Words, not the code again: no underscore, and not the code itself unless it is a name (IBE, ORCA, UPI).
      expect(label, code).not.toMatch(/_/);
      expect(label === code && CODE.test(code), code).toBe(false);
    }
    expect(Object.keys(table.labels).sort()).toEqual([...table.codes].sort());
  });

  it('covers every enum of the constants a person sees', () => {
    // Constants that are enums of upper case codes; each must appear in ENUM_LABEL_TABLES (or be listed here as
    // shown nowhere: ORCA exam keys and day ids are rendered by their own words elsewhere).
    const notShown = new Set([
      'DAYS_OF_WEEK',
      'ORCA_EXAMS',
      'TOBACCO_FREQUENCIES',
      'DAY_FILTERS',
      'MONTH_FILTERS',
    ]);
    const tabled = new Set(ENUM_LABEL_TABLES.map((t) => t.codes));
    const enums = Object.entries(constants).filter(
      ([name, value]) =>
        !notShown.has(name) &&
        Array.isArray(value) &&
        value.length > 0 &&
        value.every((v) => typeof v === 'string' && /^[A-Z_]+$/.test(v)),
    );
    expect(enums.length).toBeGreaterThan(5);
    for (const [name, value] of enums) expect(tabled.has(value as readonly string[]), name).toBe(true);
  });

  it('speaks of statuses by their words in messages', () => {
    expect(BOOKING_STATUS_LABELS.PENDING_PAYMENT).toBe('Pending payment');
    expect(BOOKING_MESSAGES.statusMove('PENDING_PAYMENT', 'NEW')).toBe(
      'A booking that is pending payment cannot be moved to new.',
    );
    expect(BOOKING_MESSAGES.offlineStatus).not.toMatch(CODE);
    expect(BOOKING_MESSAGES.offlineStatus).not.toContain('PENDING_PAYMENT');
  });

  it('falls back to the code for one it does not know, and a dash for none', () => {
    expect(labelOf(BOOKING_STATUS_LABELS, 'PAID')).toBe('Paid');
    expect(labelOf(BOOKING_STATUS_LABELS, 'REFUNDED')).toBe('REFUNDED');
    expect(labelOf(BOOKING_STATUS_LABELS, null)).toBe('—');
  });
});
