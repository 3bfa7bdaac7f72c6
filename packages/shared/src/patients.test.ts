// Patient rules shared by the API and the console: who may do what, the edit schema (absent fields stay absent) and
// the merged-record check an edit runs.
import { describe, expect, it } from 'vitest';
import {
  PATIENT_MESSAGES,
  ZPatientCreate,
  ZPatientPatch,
  canPatient,
  checkPatientRecord,
  hasFixedPatientOrganization,
  patientName,
} from './patients.ts';
import { MESSAGES } from './validation.ts';

describe('patient roles (part 2 §6)', () => {
  it('lets only ADMIN delete and only the four roles change a technician', () => {
    expect(['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'].filter((r) => canPatient(r as never, 'patient.delete'))).toEqual(['ADMIN']);
    expect(canPatient('MANAGER', 'patient.editTechnician')).toBe(true);
    expect(canPatient('ORG_ADMIN', 'patient.editTechnician')).toBe(false);
    expect(canPatient('ORG_ADMIN', 'patient.transferOrganization')).toBe(false);
    expect(canPatient('ORG_ADMIN', 'patient.transfer')).toBe(true);
    expect(canPatient('TECHNICIAN', 'patient.read')).toBe(false);
    expect(canPatient('CERVAICAL_REVIEWER', 'patient.read')).toBe(false);
    expect(canPatient('SUB_ADMIN', 'patient.adminFilters')).toBe(true);
    expect(canPatient('DISTRIBUTOR_ADMIN', 'patient.adminFilters')).toBe(false);
    expect(canPatient(undefined, 'patient.read')).toBe(false);
    expect(hasFixedPatientOrganization('ORG_ADMIN')).toBe(true);
    expect(hasFixedPatientOrganization('MANAGER')).toBe(false);
  });
});

describe('ZPatientCreate', () => {
  it('requires the technician and defaults the gender and country', () => {
    const r = ZPatientCreate.safeParse({ first_name: 'A', last_name: 'B', age: 30 });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['technician', PATIENT_MESSAGES.technicianRequired]]);
    const ok = ZPatientCreate.parse({ first_name: 'A', last_name: 'B', age: 30, technician: 4, mobile: '9876543210' });
    expect(ok).toMatchObject({ gender: 'FEMALE', mobile_country_code: 'IN', mobile: '+91-9876543210', age: 30 });
  });
});

describe('ZPatientPatch', () => {
  it('leaves absent fields undefined (unchanged) and turns blanks into null (cleared)', () => {
    const p = ZPatientPatch.parse({ last_name: 'Rao' });
    expect(p).toEqual({ last_name: 'Rao' });
    expect(Object.values(p).filter((v) => v === null)).toEqual([]);
    expect(ZPatientPatch.parse({ email: '', clinic_patient_id: '', mobile: '' })).toEqual({ email: null, clinic_patient_id: null, mobile: null });
    expect(ZPatientPatch.parse({ email: 'A@Example.org' }).email).toBe('a@example.org');
    expect(ZPatientPatch.safeParse({ email: 'a@b' }).error?.issues[0]?.message).toBe(MESSAGES.invalidEmail);
  });
});

describe('checkPatientRecord', () => {
  it('computes the age from the date of birth and refuses a record with neither', () => {
    const ok = checkPatientRecord({ age: 99, date_of_birth: '2000-03-01', mobile: null, mobile_country_code: 'IN' }, '2026-02-28');
    expect(ok).toEqual({ ok: true, value: expect.objectContaining({ age: 25 }) });
    expect(checkPatientRecord({ age: null, date_of_birth: null, mobile: null, mobile_country_code: 'IN' }, '2026-02-28')).toEqual({
      ok: false,
      issues: [{ path: 'age', message: PATIENT_MESSAGES.ageRequired }],
    });
    expect(checkPatientRecord({ age: 40, date_of_birth: null, mobile: '12345', mobile_country_code: 'IN' })).toEqual({
      ok: false,
      issues: [{ path: 'mobile', message: MESSAGES.invalidPhone }],
    });
  });

  it('words the §8 confirm with the name', () => {
    expect(PATIENT_MESSAGES.deleteConfirm(patientName({ first_name: 'Meera', last_name: 'Nair' }))).toBe(
      "Are you sure you want to delete Meera Nair? Any pending report(s) in the app won't be uploaded after deletion.",
    );
  });
});
