import { describe, expect, it } from 'vitest';
import {
  EMAIL_PATTERN,
  FORBIDDEN_CHARS_PATTERN,
  MESSAGES,
  ORG_TEXT_PATTERN,
  countWords,
  formatStoredMobile,
  isValidMobile,
  orgTextField,
} from './validation.ts';
import { ZOtpVerify, ZPassword, ZPasswordLogin, AUTH_MESSAGES } from './auth.ts';
import { ZListQuery, ZPeriodQuery } from './list.ts';

describe('organization text pattern', () => {
  it('accepts accented letters, digits and common punctuation', () => {
    expect(ORG_TEXT_PATTERN.test('Clínica São João (Pune) - Unit #4')).toBe(true);
    expect(ORG_TEXT_PATTERN.test("St. Mary's Hospital & Care")).toBe(true);
  });

  it('refuses whitespace only and emoji', () => {
    expect(ORG_TEXT_PATTERN.test('   ')).toBe(false);
    expect(ORG_TEXT_PATTERN.test('Clinic 🙂')).toBe(false);
  });

  it('reports the spec message on the field', () => {
    const r = orgTextField().safeParse('Clinic 🙂');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(MESSAGES.orgText);
  });
});

describe('phone numbers', () => {
  it('validates a number against the dial code of its country', () => {
    expect(isValidMobile('9876500001', 'IN')).toBe(true);
    expect(isValidMobile('12345', 'IN')).toBe(false);
    // Mobile metadata: the digits must be a mobile number of the country's plan, not only its length.
    expect(isValidMobile('1234567890', 'IN')).toBe(false);
    expect(isValidMobile('0000000000', 'IN')).toBe(false);
    expect(isValidMobile('712345678', 'KE')).toBe(true);
    expect(isValidMobile('9876500001', 'KE')).toBe(false);
    expect(isValidMobile('98765abc01', 'IN')).toBe(false);
    expect(isValidMobile('9876500001', 'XX')).toBe(false);
  });

  it('stores a mobile as dial code, hyphen, number', () => {
    expect(formatStoredMobile('91', '98765 00001')).toBe('+91-9876500001');
    expect(formatStoredMobile('+254', '712345678')).toBe('+254-712345678');
  });
});

describe('small rules', () => {
  it('counts words across spaces and newlines', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('  one\ntwo   three ')).toBe(3);
  });

  it('matches the basic e-mail pattern with a 2-to-4-letter ending', () => {
    expect(EMAIL_PATTERN.test('a.b@clinic.org')).toBe(true);
    expect(EMAIL_PATTERN.test('a@b.museum')).toBe(false);
    expect(EMAIL_PATTERN.test('not-an-email')).toBe(false);
  });

  it('finds the forbidden characters of the generic rule', () => {
    expect(FORBIDDEN_CHARS_PATTERN.test('video_01')).toBe(false);
    for (const c of ['/', '\\', ',', '.', ' ', '@', '$', '#', '%', '&', '!']) expect(FORBIDDEN_CHARS_PATTERN.test(`a${c}b`)).toBe(true);
  });
});

describe('sign-in contracts', () => {
  it('rejects a malformed e-mail with the spec message', () => {
    const r = ZPasswordLogin.safeParse({ email: 'nope', password: 'x' });
    expect(r.error?.issues[0]?.message).toBe(AUTH_MESSAGES.invalidEmail);
  });

  it('lower-cases the e-mail', () => {
    expect(ZPasswordLogin.parse({ email: 'Admin@Demo.Test', password: 'x' }).email).toBe('admin@demo.test');
  });

  it('requires a 6-digit code and a valid phone for its country', () => {
    const bad = ZOtpVerify.safeParse({ mobile: '9876500001', mobile_country_code: 'IN', code: '12345' });
    expect(bad.error?.issues.map((i) => i.message)).toContain(MESSAGES.invalidOtp);
    const badPhone = ZOtpVerify.safeParse({ mobile: '123', mobile_country_code: 'IN', code: '123456' });
    expect(badPhone.error?.issues.map((i) => i.path.join('.'))).toContain('mobile');
    expect(ZOtpVerify.parse({ mobile: '9876500001', code: '123456' }).mobile_country_code).toBe('IN');
  });

  it('asks for a password of 8+ characters with a letter and a number', () => {
    expect(ZPassword.safeParse('short1').success).toBe(false);
    expect(ZPassword.safeParse('longenough').success).toBe(false);
    expect(ZPassword.safeParse('longenough1').success).toBe(true);
  });
});

describe('list query', () => {
  it('defaults to page 1 and limit 10', () => {
    expect(ZListQuery.parse({})).toMatchObject({ page: 1, limit: 10 });
  });

  it('refuses limits outside 1..1000 and non-numbers', () => {
    expect(ZListQuery.safeParse({ limit: '0' }).success).toBe(false);
    expect(ZListQuery.safeParse({ limit: '1001' }).success).toBe(false);
    expect(ZListQuery.safeParse({ page: 'abc' }).success).toBe(false);
    expect(ZListQuery.parse({ limit: '1000' }).limit).toBe(1000);
  });

  it('refuses impossible dates and unknown month values', () => {
    expect(ZPeriodQuery.safeParse({ date_time_after: '2026-02-30' }).success).toBe(false);
    expect(ZPeriodQuery.safeParse({ month: 'next_month' }).success).toBe(false);
    expect(ZPeriodQuery.safeParse({ date_time_after: '2024-02-29', month: 'last_month' }).success).toBe(true);
  });
});
