import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CERVICAL_MESSAGES, type TCervicalRow } from '@sc/shared/cervical';
import type { TUserType } from '@sc/shared/roles';
import { makeUser, mockFetch } from '../../../test/render.tsx';
import { lastQuery } from '../../organizations/test/organizationFixtures.tsx';
import { renderScanRoutes } from '../../scans/test/scanFixtures.tsx';
import { CervaicalListPage } from '../pages/CervaicalListPage.tsx';

vi.setConfig({ testTimeout: 45_000 });

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
});
