import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CERVICAL_MESSAGES, type TCervicalRow } from '@sc/shared/cervical';
import { AUTOCOMPLETE_DEBOUNCE_MS } from '@sc/shared/constants';
import type { TUserType } from '@sc/shared/roles';
import { EXAM_MOBILE_UNDER_NAME_QUERY } from '../../../components/list/ExamColumns.tsx';
import { PHONE_QUERY } from '../../../components/list/usePhoneLayout.ts';
import { matchMediaFor } from '../../../test/media.ts';
import { makeUser, mockFetch } from '../../../test/render.tsx';
import { lastQuery } from '../../organizations/test/organizationFixtures.tsx';
import { renderScanRoutes } from '../../scans/test/scanFixtures.tsx';
import { CervaicalListPage } from '../pages/CervaicalListPage.tsx';
import { CervicalList } from './CervicalList.tsx';

const LIST = '/api/v1/cervaical/';
const row = (id: number, over: Partial<TCervicalRow> = {}): TCervicalRow => ({
  id,
  patient: null,
  organization_data: { id: 1, name: 'City Clinic' },
  technician_data: null,
  technician_name: 'Pooja Sharma',
  date_time: '2026-03-01T10:00:00Z',
  created: '2026-03-01T11:00:00Z',
  breast_type: null,
  left_breast_finding: [],
  right_breast_finding: [],
  is_positive: false,
  notes: {},
  is_survivor: false,
  has_family_history: false,
  has_symptoms: false,
  device_serial_number: 'CRV-1',
  device_id: null,
  sensor_serial_number: null,
  software_version: null,
  reviewer_one: { id: 3, first_name: 'Lakshmi', last_name: 'Nair' },
  reviewer_one_status: 'VALID',
  reviewer_two: { id: 4, first_name: 'Usha', last_name: 'Menon' },
  reviewer_two_status: 'IN_VALID',
  blinded: false,
  disagreement: true,
  adjudication: null,
  file_path: { reports: [{ path: 'reports/cervical/cervical_1.pdf' }], consent_form: [] },
  ...over,
});

function setup(role: TUserType, results: TCervicalRow[], path = '/cervaical') {
  const fetchMock = mockFetch({
    [`GET ${LIST}`]: { body: { count: results.length, next: null, previous: null, results } },
    'GET /api/v1/cervaical/reviewer-agreement/': { body: { results: [] } },
  });
  renderScanRoutes(makeUser(role), path, { '/cervaical': <CervaicalListPage /> });
  return fetchMock;
}

async function actionsOf(id: number) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: `Actions for cervical exam ${id}` }));
  const items = within(await screen.findByRole('menu'))
    .getAllByRole('menuitem')
    .map((i) => i.textContent);
  await user.keyboard('{Escape}');
  return items;
}

describe('CervicalList', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the spec columns with both reviewers and sends the filters of the URL', async () => {
    const fetchMock = setup('ADMIN', [row(1), row(2, { reviewer_one_status: null, blinded: true, disagreement: false })], '/cervaical?reviewer1=VALID&disagreement=pending');
    expect(await screen.findByTestId('reviewer-one-1')).toHaveTextContent('Valid');
    const headers = [...document.querySelectorAll('thead th')].map((h) => h.textContent);
    expect(headers.slice(0, 9)).toEqual(['ID', 'Patient Name', 'Mobile', 'Organization', 'Technician', 'Exam Time', 'Synced On', 'Reviewer 1', 'Reviewer 2']);
    expect(screen.getByTestId('reviewer-two-1')).toHaveTextContent('Disagree');
    expect(screen.getByTestId('reviewer-one-2')).toHaveTextContent('Hidden');
    expect(lastQuery(fetchMock, LIST)).toMatchObject({ reviewer_one_status: 'VALID', disagreement: 'true', adjudicated: 'false' });
  });

  it('below 1600 px puts the mobile under the patient name, so both reviewers stay beside the actions', async () => {
    vi.stubGlobal('matchMedia', matchMediaFor(EXAM_MOBILE_UNDER_NAME_QUERY));
    setup('ADMIN', [row(1)]);
    expect(await screen.findByTestId('reviewer-one-1')).toHaveTextContent('Valid');
    const headers = [...document.querySelectorAll('thead th')].map((h) => h.textContent);
    expect(headers.slice(0, 8)).toEqual(['ID', 'Patient Name', 'Organization', 'Technician', 'Exam Time', 'Synced On', 'Reviewer 1', 'Reviewer 2']);
    const mobile = screen.getByTestId('cervical-mobile-1');
    expect(mobile.closest('td')).toBe(screen.getByTestId('cervical-patient-1').closest('td'));
  });

  it('on a phone shows both reviewers in one column beside the name', async () => {
    vi.stubGlobal('matchMedia', matchMediaFor(PHONE_QUERY));
    setup('CERVAICAL_REVIEWER', [row(1)]);
    expect(await screen.findByTestId('reviewer-one-1')).toHaveTextContent('Valid');
    expect([...document.querySelectorAll('thead th')].map((h) => h.textContent)).toEqual(['Patient Name', 'Reviewers', 'Actions']);
    expect(screen.getByTestId('reviewer-two-1').closest('td')).toBe(screen.getByTestId('reviewer-one-1').closest('td'));
  });

  it('offers Review to the review roles and Final read to an ADMIN on a disagreement', async () => {
    setup('ADMIN', [row(1)]);
    await screen.findByTestId('reviewer-one-1');
    expect(await actionsOf(1)).toEqual(['Details', 'Report', 'Review', 'Final read']);
  });

  it('gives a MANAGER no Review, and no Report without a report file', async () => {
    setup('MANAGER', [row(1, { file_path: { reports: [], consent_form: [] } })]);
    await screen.findByTestId('reviewer-one-1');
    expect(await actionsOf(1)).toEqual(['Details']);
  });

  it("says 'No Exams yet!' without filters and 'No Exams found!' with one", async () => {
    const user = userEvent.setup();
    setup('CERVAICAL_REVIEWER', []);
    expect(await screen.findByText(CERVICAL_MESSAGES.emptyNoFilters)).toBeInTheDocument();
    expect(screen.getByTestId('cervical-csv')).toBeDisabled();
    await user.click(screen.getByTestId('period-tab-30'));
    expect(await screen.findByText(CERVICAL_MESSAGES.emptyFiltered)).toBeInTheDocument();
  });

  it('opens the patient (read-only), technician and device dialogs from their cells, as the scan list does', async () => {
    const user = userEvent.setup();
    const patient = {
      id: 111,
      first_name: 'Anita',
      last_name: 'Joshi',
      age: 41,
      date_of_birth: null,
      mobile_country_code: 'IN',
      mobile: '9800000001',
      email: null,
      physician_name: null,
      physician_email: null,
      created: null,
      gender: 'F',
    };
    const fetchMock = setup('ADMIN', [
      row(1, { patient, technician_data: { id: 9, first_name: 'Pooja', last_name: 'Sharma' }, device_id: 5 }),
    ]);
    await user.click(await screen.findByTestId('cervical-patient-1'));
    expect(await screen.findByTestId('patient-form-dialog')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/api/v1/patient/111/'))).toBe(true));
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('cervical-technician-1'));
    expect(await screen.findByTestId('user-form-dialog')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/9/'))).toBe(true));
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('cervical-device-1'));
    expect(await screen.findByTestId('device-form-dialog')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/api/v1/device/5/'))).toBe(true));
  });

  it('keeps the technician and device as text for a CERVAICAL_REVIEWER, who may not read users or devices', async () => {
    setup('CERVAICAL_REVIEWER', [
      row(1, { technician_data: { id: 9, first_name: 'Pooja', last_name: 'Sharma' }, device_id: 5 }),
    ]);
    await screen.findByTestId('reviewer-one-1');
    expect(screen.queryByTestId('cervical-technician-1')).not.toBeInTheDocument();
    expect(screen.queryByTestId('cervical-device-1')).not.toBeInTheDocument();
    expect(screen.getByText('CRV-1')).toBeInTheDocument();
  });

  const DEVICES = '/api/v1/device/';
  const deviceQueries = (fetchMock: ReturnType<typeof mockFetch>) =>
    fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://localhost'))
      .filter((url) => url.pathname === DEVICES)
      .map((url) => Object.fromEntries(url.searchParams));
  const registry = (...serials: string[]) => ({
    body: { count: serials.length, next: null, previous: null, results: serials.map((serial_number) => ({ serial_number })) },
  });
  it("offers the organization's registry devices in the device picker and filters by the chosen serial number", async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      [`GET ${LIST}`]: { body: { count: 1, next: null, previous: null, results: [row(1)] } },
      [`GET ${DEVICES}`]: registry('CRV-7', 'CRV-9'),
    });
    renderScanRoutes(makeUser('MANAGER'), '/organization/2', {
      '/organization/:id': <CervicalList embedded organizationId={2} />,
    });
    await screen.findByTestId('reviewer-one-1');
    await user.click(screen.getByTestId('cervical-filter-button'));
    expect(screen.getByTestId('cervical-filter-technician')).toBeInTheDocument();
    await user.type(screen.getByTestId('cervical-filter-device'), 'crv');
    // The typed text searches the organization's registry once the debounce has passed.
    await waitFor(() => expect(deviceQueries(fetchMock)).toContainEqual(expect.objectContaining({ search: 'crv', organization_id: '2' })));
    await user.click(await screen.findByRole('option', { name: 'CRV-9' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ organization: '2', device: 'CRV-9' }));
    expect(screen.getByTestId('cervical-filter-count')).toHaveTextContent('1');
    // The panel remounts on the new filter; reopened, its box holds the serial without reading the registry again:
    // each search term was read once, and the chosen serial is no search.
    await user.click(screen.getByTestId('cervical-filter-button'));
    expect(screen.getByTestId('cervical-filter-device')).toHaveValue('CRV-9');
    await act(() => new Promise((resolve) => setTimeout(resolve, AUTOCOMPLETE_DEBOUNCE_MS * 2)));
    const searches = deviceQueries(fetchMock).map((q) => q.search ?? '');
    expect(new Set(searches).size).toBe(searches.length);
    expect(searches).not.toContain('CRV-9');
  });

  it('sends a typed serial number that the registry does not offer (Enter), and an emptied box clears the filter', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      [`GET ${LIST}`]: { body: { count: 1, next: null, previous: null, results: [row(1)] } },
      'GET /api/v1/cervaical/reviewer-agreement/': { body: { results: [] } },
      [`GET ${DEVICES}`]: registry(),
    });
    renderScanRoutes(makeUser('ADMIN'), '/cervaical', { '/cervaical': <CervaicalListPage /> });
    await screen.findByTestId('reviewer-one-1');
    await user.click(screen.getByTestId('cervical-filter-button'));
    await user.type(screen.getByTestId('cervical-filter-device'), ' crv-404 {Enter}');
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ device: 'crv-404' }));
    // A new filter value re-keys the panel (its popover closes): open it again, the box holds the filter.
    await user.click(screen.getByTestId('cervical-filter-button'));
    expect(screen.getByTestId('cervical-filter-device')).toHaveValue('crv-404');
    await user.clear(screen.getByTestId('cervical-filter-device'));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)?.device).toBeUndefined());
  });

  it('gives a CERVAICAL_REVIEWER, who may not read devices, a plain text box: no registry request, the typed serial is sent', async () => {
    const user = userEvent.setup();
    const fetchMock = setup('CERVAICAL_REVIEWER', [row(1)]);
    await screen.findByTestId('reviewer-one-1');
    await user.click(screen.getByTestId('cervical-filter-button'));
    // Nor users: no technician picker, whose search would answer 403.
    expect(screen.queryByTestId('cervical-filter-technician')).not.toBeInTheDocument();
    const box = screen.getByTestId('cervical-filter-device');
    expect(box).toHaveAttribute('placeholder', 'Exact serial number');
    await user.type(box, 'CRV-1');
    await new Promise((resolve) => setTimeout(resolve, AUTOCOMPLETE_DEBOUNCE_MS * 3));
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    await user.tab();
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ device: 'CRV-1' }));
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes(DEVICES))).toBe(false);
  });

  it("lists exactly the exams of ?ids= through POST cervaical/ids/, and says 'No data. Zoom in and try again.' when that read fails", async () => {
    const fetchMock = mockFetch({
      'POST /api/v1/cervaical/ids/': { status: 400, body: { ids_list: ['Send between 1 and 10000 exam ids.'] } },
      'GET /api/v1/cervaical/reviewer-agreement/': { body: { results: [] } },
    });
    renderScanRoutes(makeUser('ADMIN'), '/cervaical?ids=4,5', { '/cervaical': <CervaicalListPage /> });
    expect(await screen.findByText(CERVICAL_MESSAGES.idsLoadFailed)).toBeInTheDocument();
    // Once: the empty table says it, no alert above it repeats it.
    expect(screen.getAllByText(CERVICAL_MESSAGES.idsLoadFailed)).toHaveLength(1);
    expect(screen.queryByTestId('cervical-list-error')).not.toBeInTheDocument();
    const sent = fetchMock.mock.calls.find(([input, init]) => init?.method === 'POST' && String(input).includes('/cervaical/ids/'));
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ ids_list: [4, 5] });
    expect(fetchMock.mock.calls.some(([input, init]) => (init?.method ?? 'GET') === 'GET' && new URL(String(input), 'http://x').pathname === LIST)).toBe(false);
    expect(screen.queryByTestId('cervical-csv')).not.toBeInTheDocument();
    expect(screen.queryByTestId('list-search')).not.toBeInTheDocument();
  });

  it('shows the exams of ?ids= when the read succeeds', async () => {
    mockFetch({
      'POST /api/v1/cervaical/ids/': { body: { count: 1, next: null, previous: null, results: [row(4)] } },
    });
    renderScanRoutes(makeUser('ADMIN'), '/cervaical?ids=4', { '/cervaical': <CervaicalListPage /> });
    expect(await screen.findByTestId('reviewer-one-4')).toHaveTextContent('Valid');
    expect(screen.queryByText(CERVICAL_MESSAGES.idsLoadFailed)).not.toBeInTheDocument();
  });
});
