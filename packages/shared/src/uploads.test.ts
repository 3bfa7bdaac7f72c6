// Pure rules of the device upload API and the patient record: certification, scan types, ages and birth dates,
// the Idempotency-Key header.
import { describe, expect, it } from 'vitest';
import { SCAN_TYPES } from './constants.ts';
import {
  PATIENT_MESSAGES,
  ZPatientUpload,
  ageOn,
  birthDateProblem,
  earliestBirthDate,
  latestBirthDate,
  minusYears,
} from './patients.ts';
import { SCAN_MESSAGES, ZScanUpload } from './scans.ts';
import {
  UNCERTIFIED_SCAN_TYPES,
  UPLOAD_MESSAGES,
  ZIdempotencyKey,
  allowedScanTypes,
  canUploadScans,
  isCertifiedOn,
} from './uploads.ts';

describe('certification and scan types', () => {
  const certified = { ibeTrainingStatus: 'CERTIFIED' as const, certificateExpiryDate: '2026-06-30' };
  it('is certified up to and including the expiry date', () => {
    expect(isCertifiedOn(certified, '2026-06-30')).toBe(true);
    expect(isCertifiedOn(certified, '2026-07-01')).toBe(false);
    expect(isCertifiedOn({ ...certified, certificateExpiryDate: null }, '2099-01-01')).toBe(true);
    expect(isCertifiedOn({ ibeTrainingStatus: 'PRACTICE', certificateExpiryDate: null }, '2026-01-01')).toBe(
      false,
    );
  });
  it('gives every scan type to the certified and the training types to the others', () => {
    expect(allowedScanTypes(certified, '2026-01-01')).toEqual([...SCAN_TYPES]);
    expect(allowedScanTypes(certified, '2027-01-01')).toEqual([...UNCERTIFIED_SCAN_TYPES]);
  });
  it('lets technicians, organization admins and distributor admins upload, nobody else', () => {
    expect(['TECHNICIAN', 'ORG_ADMIN', 'DISTRIBUTOR_ADMIN'].every((r) => canUploadScans(r as never))).toBe(
      true,
    );
    expect(
      ['ADMIN', 'SUB_ADMIN', 'MANAGER', 'CERVAICAL_REVIEWER'].some((r) => canUploadScans(r as never)),
    ).toBe(false);
  });
});

describe('ages and birth dates (part 2 §5)', () => {
  it('counts whole years, the birthday included', () => {
    expect(ageOn('1980-04-12', '2026-04-11')).toBe(45);
    expect(ageOn('1980-04-12', '2026-04-12')).toBe(46);
  });
  it('subtracts years, 29 February becoming 28 February', () => {
    expect(minusYears('2024-02-29', 12)).toBe('2012-02-29');
    expect(minusYears('2024-02-29', 1)).toBe('2023-02-28');
  });
  it('accepts 1900-01-01 (or the day the age would pass 120) to today minus 12 years', () => {
    expect(latestBirthDate('2026-03-01')).toBe('2014-03-01');
    expect(earliestBirthDate('2026-03-01')).toBe('1905-03-02');
    expect(ageOn('1905-03-02', '2026-03-01')).toBe(120);
    expect(earliestBirthDate('2010-01-01')).toBe('1900-01-01');
    expect(birthDateProblem('1905-03-01', '2026-03-01')).toBe(
      PATIENT_MESSAGES.birthDate('1905-03-02', '2014-03-01'),
    );
    expect(birthDateProblem('2014-03-01', '2026-03-01')).toBeNull();
    expect(birthDateProblem('2014-03-02', '2026-03-01')).not.toBeNull();
  });
  it('stores the mobile in its stored form and the age from the date of birth', () => {
    const parsed = ZPatientUpload.parse({
      first_name: ' Asha ',
      last_name: 'Rao',
      date_of_birth: '1980-04-12',
      age: 99,
      mobile: '+91 98765 43210',
      device_serial_number: 'IBE-1',
    });
    expect(parsed).toMatchObject({
      first_name: 'Asha',
      mobile: '+91-9876543210',
      mobile_country_code: 'IN',
      gender: 'FEMALE',
    });
    expect(parsed.age).toBe(ageOn('1980-04-12', new Date().toISOString().slice(0, 10)));
  });
});

describe('the scan upload schema', () => {
  it('needs latitude and longitude together', () => {
    const base = {
      patient: 1,
      device_serial_number: 'IBE-1',
      local_db_id: 's',
      scan_type: 'SCAN',
      date_time: '2026-03-01T10:00:00Z',
    };
    expect(ZScanUpload.safeParse(base).success).toBe(true);
    const r = ZScanUpload.safeParse({ ...base, longitude: 3 });
    expect(r.success ? null : r.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['latitude', SCAN_MESSAGES.coordinatesTogether],
    ]);
  });
});

describe('the Idempotency-Key header', () => {
  it.each([
    [undefined, UPLOAD_MESSAGES.keyRequired],
    ['', UPLOAD_MESSAGES.keyRequired],
    ['1234567', UPLOAD_MESSAGES.keyMalformed],
    ['a key with spaces', UPLOAD_MESSAGES.keyMalformed],
    ['k'.repeat(256), UPLOAD_MESSAGES.keyMalformed],
  ])('refuses %j', (value, message) => {
    const r = ZIdempotencyKey.safeParse(value);
    expect(r.success ? null : r.error.issues[0]?.message).toBe(message);
  });
  it('takes a UUID and opaque tokens', () => {
    for (const key of ['0d554f85-9b74-4cc7-83c3-3bd026bd28d1', 'scan:IBE-1:s-305', 'k'.repeat(255)]) {
      expect(ZIdempotencyKey.safeParse(key).success).toBe(true);
    }
  });
});
