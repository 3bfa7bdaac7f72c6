import { useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { PATIENT_MESSAGES, ageOn, earliestBirthDate, latestBirthDate, todayIso, type TPatient } from '@sc/shared/patients';
import type { TUserType } from '@sc/shared/roles';
import { MESSAGES } from '@sc/shared/validation';
import { bodyOf, makeUser, mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { patientRow, withUser } from '../test/patientFixtures.tsx';
import { PatientFormDialog, PatientViewDialog, type PatientFormView } from './PatientFormDialog.tsx';
import { PatientTransferDialog } from './PatientTransferDialog.tsx';

const existing = patientRow(5, 'Meera', { date_of_birth: '1985-06-01', age: 41 });
const page = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

function Harness({ initial, organization, onClose }: { initial: PatientFormView; organization?: { id: number; name: string }; onClose: (saved: boolean) => void }) {
  const [view, setView] = useState(initial);
  return <PatientFormDialog opened view={view} onViewChange={setView} organization={organization} onClose={onClose} />;
}

function renderForm(role: TUserType, initial: PatientFormView, replies: Parameters<typeof mockFetch>[0] = {}, organization?: { id: number; name: string }) {
  const fetchMock = mockFetch({
    'GET /api/v1/patient/5/': { body: existing },
    'GET /api/v1/organization/reference/': { body: page([]) },
    'GET /api/v1/country/': { body: [] },
    ...replies,
  });
  const onClose = vi.fn();
  // The details link to the patient's scan and exam lists (issue 23.10): the dialog lives inside the console's router.
  renderWithProviders(
    <MemoryRouter>{withUser(makeUser(role), <Harness initial={initial} organization={organization} onClose={onClose} />)}</MemoryRouter>,
  );
  return { fetchMock, onClose };
}

describe('PatientFormDialog', () => {
  it('shows the §5 messages on their fields after a submit and sends nothing', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderForm('ADMIN', { mode: 'create' });
    expect(screen.getByRole('heading', { name: 'Create' })).toBeInTheDocument();
    await user.click(screen.getByTestId('patient-submit'));
    expect(await screen.findAllByText(MESSAGES.required)).toHaveLength(2);
    expect(screen.getByText(PATIENT_MESSAGES.ageRequired)).toBeInTheDocument();
    expect(screen.getByText(PATIENT_MESSAGES.organizationRequired)).toBeInTheDocument();
    expect(screen.getByText(PATIENT_MESSAGES.technicianRequired)).toBeInTheDocument();
    await user.type(screen.getByTestId('patient-email'), 'meera@example');
    expect(await screen.findByText(MESSAGES.invalidEmail)).toBeInTheDocument();
    await user.type(screen.getByTestId('patient-mobile'), '12345');
    expect(await screen.findByText(MESSAGES.invalidPhone)).toBeInTheDocument();
    await user.clear(screen.getByTestId('patient-age'));
    await user.type(screen.getByTestId('patient-age'), '11');
    expect(await screen.findByText(PATIENT_MESSAGES.age)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('keeps an out-of-range age as typed with its message, and sends nothing (issue 23.4)', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderForm('ADMIN', { mode: 'create' });
    const age = screen.getByTestId('patient-age');
    await user.type(age, '-5');
    await user.click(screen.getByTestId('patient-first-name'));
    expect(age).toHaveValue('-5');
    expect(await screen.findByText(PATIENT_MESSAGES.age)).toBeInTheDocument();
    await user.click(screen.getByTestId('patient-submit'));
    expect(age).toHaveValue('-5');
    await user.clear(age);
    await user.type(age, '250');
    await user.click(screen.getByTestId('patient-first-name'));
    expect(age).toHaveValue('250');
    expect(screen.getByText(PATIENT_MESSAGES.age)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('says a future date of birth is wrong on the date field and fills no age (issue 23.4)', async () => {
    const user = userEvent.setup();
    renderForm('ADMIN', { mode: 'create' });
    const nextYear = `${Number(todayIso().slice(0, 4)) + 1}-01-15`;
    await user.type(screen.getByTestId('patient-dob'), nextYear);
    const today = todayIso();
    expect(await screen.findByText(PATIENT_MESSAGES.birthDate(earliestBirthDate(today), latestBirthDate(today)))).toBeInTheDocument();
    expect(screen.getByTestId('patient-age')).toHaveValue('');
    expect(screen.queryByText('Computed from the date of birth')).not.toBeInTheDocument();
  });

  it('computes the age from the date of birth and creates in the fixed organization with the technician picked', async () => {
    const user = userEvent.setup();
    const { fetchMock, onClose } = renderForm(
      'ORG_ADMIN',
      { mode: 'create' },
      {
        'GET /api/v1/organization/user/': { body: page([{ id: 9, first_name: 'Kavya', last_name: 'Tech', username: 'kavya', user_type: 'TECHNICIAN' }]) },
        'POST /api/v1/patient/': { status: 201, body: { ...existing, detail: PATIENT_MESSAGES.created } },
      },
      { id: 2, name: 'North Hospital' },
    );
    expect(screen.getByTestId('patient-organization-fixed')).toHaveValue('North Hospital');
    await user.type(screen.getByTestId('patient-first-name'), 'Meera');
    await user.type(screen.getByTestId('patient-last-name'), 'Nair');
    await user.type(screen.getByTestId('patient-dob'), '1985-06-01');
    await waitFor(() => expect(screen.getByTestId('patient-age')).toHaveValue(String(ageOn('1985-06-01', todayIso()))));
    await user.type(screen.getByTestId('patient-technician'), 'kav');
    await user.click(await screen.findByRole('option', { name: 'Kavya Tech (kavya)' }));
    await user.click(screen.getByTestId('patient-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(bodyOf(fetchMock, 'POST /api/v1/patient/')).toMatchObject({
      first_name: 'Meera',
      last_name: 'Nair',
      date_of_birth: '1985-06-01',
      age: null,
      gender: 'FEMALE',
      mobile_country_code: 'IN',
      organization: 2,
      technician: 9,
    });
    expect(await screen.findByText(PATIENT_MESSAGES.created)).toBeInTheDocument();
  });

  it('lists server errors under the form', async () => {
    const user = userEvent.setup();
    renderForm('ADMIN', { mode: 'edit', patientId: 5 }, { 'PATCH /api/v1/patient/5/': { status: 400, body: { reference: ['Invalid pk "3" - object does not exist.'] } } });
    await user.click(await screen.findByTestId('patient-submit'));
    expect(await screen.findByTestId('patient-form-errors')).toHaveTextContent('Invalid pk "3" - object does not exist.');
  });

  it.each([
    ['MANAGER', false],
    ['ORG_ADMIN', true],
  ] as const)('edit as %s: the technician is locked=%s; sends the patch', async (role, locked) => {
    const user = userEvent.setup();
    const { fetchMock } = renderForm(role, { mode: 'details', patientId: 5 }, { 'PATCH /api/v1/patient/5/': { body: { ...existing, detail: PATIENT_MESSAGES.updated } } });
    await user.click(await screen.findByTestId('patient-edit'));
    expect(await screen.findByText('Edit')).toBeInTheDocument();
    const technician = screen.getByTestId('patient-technician');
    expect(technician.hasAttribute('readonly')).toBe(locked);
    await user.clear(screen.getByTestId('patient-last-name'));
    await user.type(screen.getByTestId('patient-last-name'), 'Menon');
    await user.click(screen.getByTestId('patient-submit'));
    expect(await screen.findByText(PATIENT_MESSAGES.updated)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PATCH /api/v1/patient/5/')).toMatchObject({ last_name: 'Menon', date_of_birth: '1985-06-01' });
    expect(bodyOf(fetchMock, 'PATCH /api/v1/patient/5/')).not.toHaveProperty('technician');
  });

  it('opens read-only from a scan: Details, no Edit', async () => {
    mockFetch({ 'GET /api/v1/patient/5/': { body: existing } });
    renderWithProviders(
      <MemoryRouter>{withUser(makeUser('ADMIN'), <PatientViewDialog opened patientId={5} onClose={vi.fn()} />)}</MemoryRouter>,
    );
    expect(await screen.findByTestId('patient-details')).toHaveTextContent('Meera Nair');
    expect(screen.queryByTestId('patient-edit')).not.toBeInTheDocument();
  });
});

describe('PatientTransferDialog', () => {
  const patient: TPatient = existing;
  const report = { id: 77, patient_name: 'Meera Nair', mobile: null, device_serial_number: 'IBE1', organization: 2, organization_name: 'North Hospital', technician: 9, technician_name: 'Kavya Tech', date_time: '2026-01-05T09:30:00Z', created: '2026-01-05T09:35:00Z' };

  it('lists the reports and sends organization and technician for admin-type roles', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      'GET /api/v1/patient/5/reports/': { body: { scans: [report], cervical: [], orca: [] } },
      'GET /api/v1/organization/': { body: page([{ id: 3, name: 'South Centre', country: null, can_create_organization: false }]) },
      'GET /api/v1/organization/user/': { body: page([{ id: 11, first_name: 'Ravi', last_name: 'Tech', username: 'ravi', user_type: 'ORG_ADMIN' }]) },
      'POST /api/v1/patient/transfer/5/': { body: { ...existing, detail: PATIENT_MESSAGES.transferred } },
    });
    const onClose = vi.fn();
    renderWithProviders(withUser(makeUser('MANAGER'), <PatientTransferDialog opened patient={patient} onClose={onClose} />));
    expect(await screen.findByTestId('patient-transfer-scans')).toHaveTextContent('IBE1');
    expect(screen.getByTestId('patient-transfer-summary')).toHaveTextContent('Meera Nair');
    expect(screen.getByTestId('patient-transfer-submit')).toBeDisabled();
    await user.type(screen.getByTestId('patient-transfer-organization'), 'sou');
    await user.click(await screen.findByRole('option', { name: 'South Centre' }));
    await user.type(screen.getByTestId('patient-transfer-technician'), 'rav');
    await user.click(await screen.findByRole('option', { name: 'Ravi Tech (ravi)' }));
    const query = new URL(String(fetchMock.mock.calls.filter(([u]) => String(u).includes('organization/user/')).at(-1)?.[0]), 'http://localhost').searchParams;
    expect(query.get('user_type')).toBe('TECHNICIAN,ORG_ADMIN,DISTRIBUTOR_ADMIN');
    expect(query.get('organization_id')).toBe('3');
    await user.click(screen.getByTestId('patient-transfer-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(bodyOf(fetchMock, 'POST /api/v1/patient/transfer/5/')).toEqual({ organization_id: 3, technician_id: 11 });
    expect(await screen.findByText(PATIENT_MESSAGES.transferred)).toBeInTheDocument();
  });

  it('says there are no reports, and gives an ORG_ADMIN only the technician of its organization', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      'GET /api/v1/patient/5/reports/': { body: { scans: [], cervical: [], orca: [] } },
      'GET /api/v1/organization/user/': { body: page([{ id: 12, first_name: 'Asha', last_name: 'Tech', username: 'asha2', user_type: 'TECHNICIAN' }]) },
      'POST /api/v1/patient/transfer/5/': { status: 400, body: { technician_id: ['Invalid pk "12" - object does not exist.'] } },
    });
    renderWithProviders(withUser(makeUser('ORG_ADMIN'), <PatientTransferDialog opened patient={patient} onClose={vi.fn()} />));
    expect(await screen.findByText(PATIENT_MESSAGES.noReports)).toBeInTheDocument();
    expect(screen.queryByTestId('patient-transfer-organization')).not.toBeInTheDocument();
    await user.type(screen.getByTestId('patient-transfer-technician'), 'ash');
    await user.click(await screen.findByRole('option', { name: 'Asha Tech (asha2)' }));
    await user.click(screen.getByTestId('patient-transfer-submit'));
    expect(await screen.findByTestId('patient-transfer-errors')).toHaveTextContent('Invalid pk "12"');
    expect(bodyOf(fetchMock, 'POST /api/v1/patient/transfer/5/')).toEqual({ technician_id: 12 });
  });
});
