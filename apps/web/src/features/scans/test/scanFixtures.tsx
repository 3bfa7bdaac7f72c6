// Fixtures of the scan tests: a list row, a detail, a page of rows, and a route tree with the user's context.
import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import type { TSessionUser } from '@sc/shared/auth';
import type { TPaginated } from '@sc/shared/list';
import { scanIdLabel, type TScanDetail, type TScanRow } from '@sc/shared/scans';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { renderRoutes } from '../../../test/render.tsx';

export function scanRow(id: number, overrides: Partial<TScanRow> = {}): TScanRow {
  const scanType = overrides.scan_type ?? 'SCAN';
  return {
    id,
    display_id: scanIdLabel(scanType, id),
    patient: {
      id: 100 + id,
      first_name: 'Meera',
      last_name: `Patil${id}`,
      mobile: '+91-9876500000',
      age: 44,
      date_of_birth: '1982-02-01',
      email: null,
      mobile_country_code: 'IN',
      clinic_patient_id: null,
      physician_name: null,
      physician_email: null,
      reference_name: null,
      created: '2026-01-01T10:00:00Z',
      organization: 2,
      most_recent_mammogram_report: [],
    },
    first_name: 'Meera',
    device_serial_number: 'IBE241071',
    sensor_serial_number: 'SEN-77',
    tablet_serial_number: 'TAB-9',
    hardware_version: 'h3',
    software_version: 'v2.14',
    organization: 2,
    organization_name: 'North Hospital',
    organization_data: { id: 2, name: 'North Hospital' },
    technician_data: { id: 9, first_name: 'Tara', last_name: 'Nair', username: 'tara', user_type: 'TECHNICIAN' },
    date_time: '2026-03-01T10:00:00Z',
    created: '2026-03-01T10:05:00Z',
    scan_type: scanType,
    parent_scan_id: null,
    is_replay_available: true,
    scan_files_path: { reports: [{ path: 'reports/r.pdf' }], assessment_files: [], consent_form: [{ path: 'consent_forms/c.pdf' }] },
    assessment_result: 'NO_ASSESSMENT',
    assessment_approved: null,
    training_scan_observation: {},
    breast_type: 2,
    left_breast_finding: ['mass'],
    right_breast_finding: [],
    is_positive: true,
    notes: {},
    is_survivor: false,
    has_family_history: true,
    has_symptoms: false,
    send_report_to_patient: true,
    sent_report_to_patient: false,
    next_appointment_date: null,
    under_bust: null,
    over_bust: null,
    latitude: 18.52,
    longitude: 73.85,
    local_db_id: 's-1',
    metadata: {},
    device_id: 5,
    duplicates_count: 0,
    review: null,
    ...overrides,
  };
}

export function scanDetail(id: number, overrides: Partial<TScanDetail> = {}): TScanDetail {
  return {
    ...scanRow(id),
    device_table: {
      device_serial_number: 'IBE241071',
      hardware_version: 'h3',
      software_version: 'v2.14',
      tablet_serial_number: 'TAB-9',
      sensor_serial_number: 'SEN-77',
      mobile_model: 'Galaxy Tab S9',
      manufacturer: 'Samsung',
      os_version: '14',
    },
    patient_gender: 'FEMALE',
    parent: null,
    ...overrides,
  };
}

export const scanPage = (results: TScanRow[], count = results.length): TPaginated<TScanRow> => ({
  count,
  next: null,
  previous: null,
  results,
});

export function renderScanRoutes(user: TSessionUser, path: string, routes: Record<string, ReactNode>) {
  const withUser = (element: ReactNode) => <SessionUserContext.Provider value={user}>{element}</SessionUserContext.Provider>;
  const tree: RouteObject[] = Object.entries(routes).map(([p, element]) => ({ path: p, element: withUser(element) }));
  return renderRoutes(tree, path);
}
