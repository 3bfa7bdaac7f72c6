// The rules every input schema shares (issue 6): the character rule of every text field and the one mobile parser.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ZMobileWithCountry, ZOtpVerify, ZPasswordLogin, ZLastDashboardPath } from './auth.ts';
import { ZOrganizationInput, ZOrganizationUpdate } from './organization-input.ts';
import { ZReferenceInput, ZReferencePatch } from './references.ts';
import { ZListQuery } from './list.ts';
import { ZPatientCreate } from './patients.ts';
import { TUTORIAL_MESSAGES, ZContentInput, ZModuleInput, ZQuizCreate } from './tutorials.ts';
import { MESSAGES, TEXT_MESSAGES, isBlankText, isValidMobile, parseMobile, textField, textProblem } from './validation.ts';

const company = { name: 'Acme', city: 'Pune', zip_code: '411001', state: 'MH', address: '1 MG Road' };
const organization = { name: 'Clinic', country: 'India', company_info: company };
const patient = { first_name: 'Asha', last_name: 'Rao', age: 40, technician: 1 };
/** A value's code points, for a failing assertion's label. */
const escape = (v: string) => [...v].map((c) => `U+${c.codePointAt(0)!.toString(16)}`).join(' ');

/** The field errors of a failed parse, keyed by dotted path. */
function fieldErrors(schema: z.ZodType, value: unknown): Record<string, string[]> {
  const r = schema.safeParse(value);
  if (r.success) return {};
  const out: Record<string, string[]> = {};
  for (const issue of r.error.issues) (out[issue.path.join('.')] ??= []).push(issue.message);
  return out;
}

const LONE_SURROGATE = 'Acme \ud83d Care';
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];

describe('the character rule of every text field', () => {
  it('refuses a lone UTF-16 surrogate, which PostgreSQL cannot store', () => {
    expect(textProblem(LONE_SURROGATE)).toBe(TEXT_MESSAGES.invalidChars);
    expect(textProblem('Acme 🙂 Care')).toBeNull();
  });

  it('refuses every bidirectional control character, in one-line and multi-line text', () => {
    for (const c of BIDI) {
      expect(textProblem(`Acme${c}Care`), c.codePointAt(0)?.toString(16)).toBe(TEXT_MESSAGES.bidiControl);
      expect(textProblem(`Acme${c}Care`, { multiline: true })).toBe(TEXT_MESSAGES.bidiControl);
    }
  });

  it('refuses line breaks in one-line fields only', () => {
    for (const br of ['\n', '\r', '\r\n', '\u2028', '\u2029', '\u0085']) {
      expect(textProblem(`Acme${br}Care`)).toBe(TEXT_MESSAGES.lineBreak);
    }
    expect(textProblem('Line one\r\nLine two\tend', { multiline: true })).toBeNull();
  });

  it('refuses other control characters everywhere', () => {
    for (const c of ['\u0001', '\u0007', '\u001b', '\u007f', '\u009b']) {
      expect(textProblem(`a${c}b`)).toBe(TEXT_MESSAGES.controlChar);
      expect(textProblem(`a${c}b`, { multiline: true })).toBe(TEXT_MESSAGES.controlChar);
    }
  });

  it('reports the refused character alone, not the field rules that follow it', () => {
    expect(fieldErrors(textField().trim().min(1, MESSAGES.required), '\n')).toEqual({ '': [TEXT_MESSAGES.lineBreak] });
  });

  it('normalizes names to NFC, so a name typed with combining accents is stored composed', () => {
    const r = ZOrganizationInput.parse({ ...organization, name: 'Clı\u0301nica Sa\u0303o Joa\u0303o' });
    expect(r.name).toBe('Clı\u0301nica São João'.normalize('NFC'));
    expect(ZReferencePatch.parse({ name: 'Jose\u0301' }).name).toBe('José');
  });

  it('keeps a webhook token byte for byte (no NFC on secrets)', () => {
    const token = 'tok-e\u0301';
    expect(ZOrganizationUpdate.parse({ webhook_auth_token: token }).webhook_auth_token).toBe(token);
  });

  it.each([
    ['a lone surrogate', LONE_SURROGATE, TEXT_MESSAGES.invalidChars],
    ['a right-to-left override', 'Acme\u202eCare', TEXT_MESSAGES.bidiControl],
    ['an isolate', 'Acme\u2066Care', TEXT_MESSAGES.bidiControl],
    ['a line break', 'Acme\r\nCare', TEXT_MESSAGES.lineBreak],
  ])('refuses %s in every text field of the organization, company info and references', (_label, bad, message) => {
    for (const field of ['name', 'address_1', 'address_2', 'address_3', 'country', 'state', 'zipcode']) {
      expect(fieldErrors(ZOrganizationUpdate, { [field]: bad }), field).toEqual({ [field]: [message] });
    }
    for (const field of ['name', 'city', 'zip_code', 'state', 'address']) {
      expect(
        fieldErrors(ZOrganizationInput, { ...organization, company_info: { ...company, [field]: bad } }),
        field,
      ).toEqual({ [`company_info.${field}`]: [message] });
    }
    expect(fieldErrors(ZOrganizationUpdate, { webhook_auth_token: bad })).toEqual({ webhook_auth_token: [message] });
    expect(fieldErrors(ZReferenceInput, { name: bad, organization: 1 })).toEqual({ name: [message] });
    expect(fieldErrors(ZListQuery, { search: bad })).toEqual({ search: [message] });
  });

  it('refuses a lone surrogate or a bidi control in multi-line texts, but not their line breaks', () => {
    expect(fieldErrors(ZOrganizationUpdate, { customized_message: `Hello${LONE_SURROGATE}` })).toEqual({
      customized_message: [TEXT_MESSAGES.invalidChars],
    });
    expect(fieldErrors(ZOrganizationUpdate, { ibe_consent_form: ['I agree\u202e'] })).toEqual({
      'ibe_consent_form.0': [TEXT_MESSAGES.bidiControl],
    });
    expect(ZOrganizationUpdate.parse({ customized_message: 'Line one\nLine two' }).customized_message).toBe(
      'Line one\nLine two',
    );
  });

  it('refuses them in sign-in fields too', () => {
    expect(Object.keys(fieldErrors(ZPasswordLogin, { email: 'a\u202e@example.com', password: 'x' }))).toEqual(['email']);
    expect(fieldErrors(ZLastDashboardPath, { url: '/organization\u2066' })).toEqual({ url: [TEXT_MESSAGES.bidiControl] });
  });
});

/** Values that show nothing (issue 22): zero-width space, non-joiner, joiner, word joiner, BOM, soft hyphen, fillers. */
const INVISIBLE_ONLY = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u034f', '\u3164', ' \u200b\u00a0', '\u3000\u200b'];

describe('required, not whitespace only', () => {
  it('takes invisible format characters for whitespace: a value made only of them is blank', () => {
    for (const v of INVISIBLE_ONLY) expect(isBlankText(v), escape(v)).toBe(true);
    for (const v of ['a\u200db', '\u200bAsha', '\u0915\u094d\u200d\u0937', '0']) expect(isBlankText(v), escape(v)).toBe(false);
  });

  it('refuses an invisible-only value in every required text field with its required message', () => {
    for (const v of INVISIBLE_ONLY) {
      expect(fieldErrors(textField().trim().min(1, MESSAGES.required), v), escape(v)).toEqual({ '': [MESSAGES.required] });
      expect(fieldErrors(ZReferenceInput, { name: v, organization: 1 }), escape(v)).toEqual({ name: [MESSAGES.required] });
      expect(fieldErrors(ZOrganizationInput, { ...organization, company_info: { ...company, city: v } })).toEqual({
        'company_info.city': [MESSAGES.required],
      });
      expect(fieldErrors(ZPatientCreate, { ...patient, first_name: v })).toEqual({ first_name: [MESSAGES.required] });
      expect(fieldErrors(ZModuleInput, { name: v, z_order: 1 })).toEqual({ name: [TUTORIAL_MESSAGES.blank] });
    }
  });

  it('stores none for an invisible-only optional text', () => {
    expect(ZPatientCreate.parse({ ...patient, physician_name: '\u200b\u2060' }).physician_name).toBeNull();
  });

  it('keeps the tutorial texts other than a content’s primary text to one line', () => {
    for (const field of ['pass_text', 're_take_question_text', 're_take_module_text', 're_take_module_again_text']) {
      expect(fieldErrors(ZModuleInput, { name: 'Module', z_order: 1, [field]: 'One\r\nTwo' })).toEqual({
        [field]: [TEXT_MESSAGES.lineBreak],
      });
    }
    expect(fieldErrors(ZQuizCreate, { module: 1, question: 'One\nTwo', z_order: 1 })).toEqual({ question: [TEXT_MESSAGES.lineBreak] });
    expect(fieldErrors(ZContentInput, { module: 1, title: 'T', z_order: 1, primary_text: 'One\nTwo' })).toEqual({});
  });
});

describe('mobile numbers', () => {
  it('reads a number typed with its country code as the same number', () => {
    for (const typed of ['8681562330', '08681562330', '+918681562330', '+91 86815 62330', '+91-8681562330', '(868) 156-2330']) {
      expect(parseMobile(typed, 'IN'), typed).toEqual({
        national: '8681562330',
        dialCode: '+91',
        country: 'IN',
        stored: '+91-8681562330',
      });
    }
  });

  it.each([
    ['a short number', '+1555'],
    ['zeros', '0000000000'],
    ['20 digits', '12345678901234567890'],
    ['two numbers joined by a comma', '8681562330,9876500001'],
    ['two numbers joined by a comma and space', '8681562330, 9876500001'],
    ['two numbers on two lines', '8681562330\n9876500001'],
    ['fullwidth digits', '８６８１５６２３３０'],
    ['Arabic-Indic digits', '٨٦٨١٥٦٢٣٣٠'],
    ['a number of another country', '+12025550123'],
    ['letters', '98765abcde'],
  ])('refuses %s', (_label, typed) => {
    expect(parseMobile(typed, 'IN')).toBeNull();
    expect(isValidMobile(typed, 'IN')).toBe(false);
  });

  it('needs the country code in the number when no country is given', () => {
    expect(parseMobile('2025550123')).toBeNull();
    expect(parseMobile('+1 202 555 0123')?.stored).toBe('+1-2025550123');
  });

  it('accepts every typed form at sign-in and refuses the bad ones with the phone message', () => {
    for (const mobile of ['+918681562330', '+91 86815 62330', '+91-8681562330']) {
      expect(ZMobileWithCountry.safeParse({ mobile, mobile_country_code: 'IN' }).success, mobile).toBe(true);
      expect(ZOtpVerify.safeParse({ mobile, mobile_country_code: 'IN', code: '123456' }).success).toBe(true);
    }
    for (const mobile of ['+1555', '0000000000', '12345678901234567890', '8681562330\n9876500001', '８６８１５６２３３０']) {
      expect(fieldErrors(ZMobileWithCountry, { mobile, mobile_country_code: 'IN' }), mobile).toEqual({
        mobile: [MESSAGES.invalidPhone],
      });
    }
  });

  it('stores the organization mobile and the company contact number in one form however typed', () => {
    const r = ZOrganizationInput.parse({
      ...organization,
      mobile: '+91 86815 62330',
      company_info: { ...company, contact_number: '+91-8681562330', country_code: 'IN' },
    });
    expect(r.mobile).toBe('+91-8681562330');
    expect(r.company_info?.contact_number).toBe('+91-8681562330');
    expect(ZOrganizationUpdate.parse({ mobile: '712345678', country_code: 'KE' }).mobile).toBe('+254-712345678');
  });

  it.each(['+1555', '0000000000', '12345678901234567890', '8681562330, 9876500001', '8681562330\n9876500001', '٨٦٨١٥٦٢٣٣٠'])(
    'refuses the organization mobile and contact number %j',
    (bad) => {
      expect(fieldErrors(ZOrganizationUpdate, { mobile: bad })).toEqual({ mobile: [MESSAGES.invalidPhone] });
      expect(
        fieldErrors(ZOrganizationInput, { ...organization, company_info: { ...company, contact_number: bad, country_code: 'IN' } }),
      ).toEqual({ 'company_info.contact_number': [MESSAGES.invalidPhone] });
    },
  );
});
