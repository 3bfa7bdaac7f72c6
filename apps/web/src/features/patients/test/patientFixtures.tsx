// Fixtures of the patient tests: a patient row, a page of them, and the patient list page inside a user's context.
import type { ReactNode } from 'react';
import type { TSessionUser } from '@sc/shared/auth';
import type { TPaginated } from '@sc/shared/list';
import type { TPatient } from '@sc/shared/patients';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { renderRoutes } from '../../../test/render.tsx';
import { PatientListPage } from '../pages/PatientListPage.tsx';

export function patientRow(id: number, first: string, overrides: Partial<TPatient> = {}): TPatient {
  return {
    id,
    first_name: first,
    last_name: 'Nair',
    mobile: '+91-9876543210',
    mobile_country_code: 'IN',
    age: 40,
    date_of_birth: null,
    email: `${first.toLowerCase()}@example.org`,
    gender: 'FEMALE',
    clinic_patient_id: null,
    physician_name: null,
    physician_email: null,
    reference: null,
    reference_name: null,
    organization: 2,
    organization_data: { id: 2, name: 'North Hospital' },
    technician: 9,
    technician_data: { id: 9, first_name: 'Kavya', last_name: 'Tech', username: 'kavya', user_type: 'TECHNICIAN' },
    created: '2026-01-05T09:30:00Z',
    date_time: null,
    synced: null,
    device_serial_number: null,
    local_db_id: null,
    most_recent_mammogram_report: [],
    reminder_consent: false,
    consent_language: null,
    ...overrides,
  };
}

export const patientPage = (results: TPatient[], count = results.length): TPaginated<TPatient> => ({
  count,
  next: null,
  previous: null,
  results,
});

export const withUser = (user: TSessionUser, element: ReactNode) => (
  <SessionUserContext.Provider value={user}>{element}</SessionUserContext.Provider>
);

export function renderPatientRoutes(user: TSessionUser, path = '/patient') {
  return renderRoutes([{ path: '/patient', element: withUser(user, <PatientListPage />) }], path);
}
