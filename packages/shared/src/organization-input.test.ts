import { describe, expect, it } from 'vitest';
import {
  ZLocalizeRows,
  ZOrganizationInput,
  canCreateOrganizationUnder,
  editableOrganizationFields,
  localizeFromRows,
} from './organization-input.ts';
import { CONSENT_TEXT_PATTERN, MESSAGES, normalizeConsentList } from './validation.ts';

const company = { name: 'Acme', city: 'Pune', zip_code: '411001', state: 'MH', address: '1 MG Road' };

describe('editableOrganizationFields', () => {
  it('gives the admin-only flags, the parent and the distributor flag to ADMIN and SUB_ADMIN only', () => {
    expect(Object.values(editableOrganizationFields('ADMIN')).every(Boolean)).toBe(true);
    expect(Object.values(editableOrganizationFields('SUB_ADMIN')).every(Boolean)).toBe(true);
    expect(editableOrganizationFields('DISTRIBUTOR_ADMIN')).toMatchObject({ is_storage_optimised: false, parent: false, has_web_access: true });
    expect(editableOrganizationFields('MANAGER')).toMatchObject({ enable_send_sms_to_patient: false, has_web_access: true });
    expect(editableOrganizationFields('ORG_ADMIN')).toMatchObject({ has_web_access: false, can_create_organization: false });
  });
});

describe('canCreateOrganizationUnder', () => {
  const distributor = { id: 5, can_create_organization: true };
  const plain = { id: 6, can_create_organization: false };
  it('follows architecture §7b', () => {
    expect(canCreateOrganizationUnder('ADMIN', null)).toBe(true);
    expect(canCreateOrganizationUnder('SUB_ADMIN', distributor)).toBe(true);
    expect(canCreateOrganizationUnder('ADMIN', plain)).toBe(false);
    expect(canCreateOrganizationUnder('MANAGER', null)).toBe(false);
    expect(canCreateOrganizationUnder('DISTRIBUTOR_ADMIN', distributor)).toBe(true);
    expect(canCreateOrganizationUnder('ORG_ADMIN', distributor, 5)).toBe(true);
    expect(canCreateOrganizationUnder('ORG_ADMIN', distributor, 7)).toBe(false);
    expect(canCreateOrganizationUnder('CERVAICAL_REVIEWER', distributor)).toBe(false);
    expect(canCreateOrganizationUnder('TECHNICIAN', null)).toBe(false);
  });
});

describe('consent texts', () => {
  it('normalises lists: newlines become spaces, blank items go', () => {
    expect(normalizeConsentList(['a\nb', ' ', '', 'c\r\nd '])).toEqual(['a b', 'c d']);
  });
  it('allows accented Latin letters and Spanish marks, refuses other scripts and emoji', () => {
    expect(CONSENT_TEXT_PATTERN.test('¿Acepta? ¡Sí! Ça, naïve — 100% «ok»')).toBe(true);
    expect(CONSENT_TEXT_PATTERN.test('नमस्ते')).toBe(false);
    expect(CONSENT_TEXT_PATTERN.test('ok 🙂')).toBe(false);
  });
});

describe('ZOrganizationInput', () => {
  it('stores the contact number as dial code, hyphen, number', () => {
    const r = ZOrganizationInput.parse({ name: 'X', country: 'India', company_info: { ...company, contact_number: '98765 43210', country_code: 'in' } });
    expect(r.company_info).toMatchObject({ contact_number: '+91-9876543210', country_code: 'IN' });
  });
  it('requires the organization country on create (never an organization without one)', () => {
    const r = ZOrganizationInput.safeParse({ name: 'X', is_booking_enabled: true });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['country', MESSAGES.required]]);
  });
  it('drops the required company_info fields in booking mode', () => {
    expect(ZOrganizationInput.safeParse({ name: 'X', country: 'India', is_booking_enabled: true }).success).toBe(true);
    expect(ZOrganizationInput.safeParse({ name: 'X', country: 'India' }).success).toBe(false);
  });
});

describe('localize rows', () => {
  it('reports a language chosen twice on the second row, and English as not in the list', () => {
    const empty = { ibe_consent_form: [], cervaical_consent_form: [], orca_consent_form: [] };
    const r = ZLocalizeRows.safeParse([
      { iso_code: 'es', name: 'Spanish', ...empty },
      { iso_code: 'es', name: 'Spanish', ...empty },
      { iso_code: 'en', name: 'English', ...empty },
      { iso_code: '', name: '', ...empty },
    ]);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['3.iso_code', MESSAGES.selectLanguage],
      ['1.iso_code', MESSAGES.languageAlreadySelected],
      ['2.iso_code', MESSAGES.languageNotInList],
    ]);
  });
  it('turns rows into the localize object', () => {
    expect(localizeFromRows([{ iso_code: 'ES', name: 'Spanish', ibe_consent_form: ['Sí'] }])).toEqual({
      es: { name: 'Spanish', ibe_consent_form: ['Sí'] },
    });
  });
});
