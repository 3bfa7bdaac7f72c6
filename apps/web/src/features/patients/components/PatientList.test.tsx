import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { SEARCH_COUNT_AHEAD } from '@sc/shared/list';
import { PATIENT_MESSAGES } from '@sc/shared/patients';
import type { TUserType } from '@sc/shared/roles';
import { PHONE_QUERY } from '../../../components/list/usePhoneLayout.ts';
import { matchMediaFor } from '../../../test/media.ts';
import { makeUser, mockFetch, renderRoutes } from '../../../test/render.tsx';
import { PatientListPage } from '../pages/PatientListPage.tsx';
import { lastQuery } from '../../organizations/test/organizationFixtures.tsx';
import { patientPage, patientRow, renderPatientRoutes, withUser } from '../test/patientFixtures.tsx';

const LIST = '/api/v1/patient/';
const meera = patientRow(1, 'Meera');
const unassigned = patientRow(2, 'Una', { organization: null, organization_data: null, technician: null, technician_data: null, mobile: null });

function setup(role: TUserType, extra = {}) {
  const fetchMock = mockFetch({ [`GET ${LIST}`]: { body: patientPage([meera, unassigned], 12) }, ...extra });
  const view = renderPatientRoutes(makeUser(role));
  return { fetchMock, ...view };
}

async function actionsOf(name: string) {
  await userEvent.click(screen.getByRole('button', { name: `Actions for ${name}` }));
  const menu = await screen.findByRole('menu');
  return within(menu).getAllByRole('menuitem').map((item) => item.textContent);
}

describe('PatientList', () => {
  it('shows the §2.5 columns with the organization link, from the read replica, newest first', async () => {
    const { fetchMock } = setup('ADMIN');
    expect(await screen.findByText('Meera Nair')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Patients' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'North Hospital' })).toHaveAttribute('href', '/organization/2');
    expect(screen.getByText('Unassigned')).toBeInTheDocument();
    expect(screen.getByText('Kavya Tech')).toBeInTheDocument();
    expect(screen.getByTestId('list-total')).toHaveTextContent('12 items');
    expect(lastQuery(fetchMock, LIST)).toEqual({ page: '1', limit: '10', ordering: '-created', using_read_db: 'true' });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['All Time', 'Last 30 Days', 'Custom Range']);
  });

  it("says 'More than 200 items' and offers the page past the counted ones when a search's count is capped", async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup('ADMIN', {
      [`GET ${LIST}`]: { body: { ...patientPage([meera], SEARCH_COUNT_AHEAD), count_capped: true } },
    });
    await screen.findByText('Meera Nair');
    expect(screen.getByTestId('list-total')).toHaveTextContent(/^More than 200 items$/);
    await user.click(within(screen.getByTestId('list-pagination')).getByRole('button', { name: 'last page' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ page: '21' }));
  });

  it("says '200 items' without the cap", async () => {
    setup('ADMIN', { [`GET ${LIST}`]: { body: patientPage([meera], SEARCH_COUNT_AHEAD) } });
    await screen.findByText('Meera Nair');
    expect(screen.getByTestId('list-total')).toHaveTextContent(/^200 items$/);
  });

  it('on a phone keeps name, created and the actions, with the mobile under the name', async () => {
    vi.stubGlobal('matchMedia', matchMediaFor(PHONE_QUERY));
    setup('ADMIN');
    expect(await screen.findByText('Meera Nair')).toBeInTheDocument();
    expect([...document.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['Name', 'Created', 'Actions']);
    expect(screen.getByTestId('patient-mobile-1').closest('td')).toBe(screen.getByText('Meera Nair').closest('td'));
  });

  it("gives admins the filter panel: gender and assigned/unassigned with a count badge, and clear", async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup('SUB_ADMIN');
    await screen.findByText('Meera Nair');
    await user.click(screen.getByTestId('patient-filter-button'));
    const panel = await screen.findByTestId('patient-filter-panel');
    await user.click(within(panel).getByRole('radio', { name: 'Unassigned' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ is_organization_id: 'false' }));
    await user.click(within(panel).getByRole('combobox', { name: 'Gender' }));
    await user.click(await screen.findByRole('option', { name: 'Male' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ gender: 'MALE', is_organization_id: 'false' }));
    expect(screen.getByTestId('patient-filter-button')).toHaveAccessibleName('Filter, 2 active');
    await user.click(within(panel).getByRole('radio', { name: 'Assigned' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ is_organization_id: 'true' }));
    await user.click(within(panel).getByTestId('patient-filter-clear'));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toEqual({ page: '1', limit: '10', ordering: '-created', using_read_db: 'true' }));
    expect(screen.getByTestId('patient-filter-button')).toHaveAccessibleName('Filter');
  });

  it('gives other roles a plain gender filter and no assigned filter', async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup('MANAGER');
    await screen.findByText('Meera Nair');
    expect(screen.queryByTestId('patient-filter-button')).not.toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Gender' }));
    await user.click(await screen.findByRole('option', { name: 'Other' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ gender: 'OTHER' }));
    expect(lastQuery(fetchMock, LIST)).not.toHaveProperty('is_organization_id');
  });

  it('searches by name after the debounce', async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup('ADMIN');
    await screen.findByText('Meera Nair');
    await user.type(screen.getByTestId('list-search'), 'mee');
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ search: 'mee' }));
  });

  const WITH_RECORDS = ['Details', 'Breast Scans', 'Cervical Exams', 'ORCA Exams'] as const;

  it('offers Delete to ADMIN only, with the §8 confirm, and announces it', async () => {
    const user = userEvent.setup();
    const del = vi.fn(() => ({ body: { detail: PATIENT_MESSAGES.deleted } }));
    setup('ADMIN', { 'DELETE /api/v1/patient/1/': del });
    await screen.findByText('Meera Nair');
    expect(await actionsOf('Meera Nair')).toEqual([...WITH_RECORDS, 'Transfer', 'Delete']);
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(await screen.findByText(PATIENT_MESSAGES.deleteConfirm('Meera Nair'))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(PATIENT_MESSAGES.deleted)).toBeInTheDocument();
    expect(del).toHaveBeenCalledTimes(1);
  });

  // The record lists follow the role's menu (issue 23.10): ORG_ADMIN has no Scans menu, so no links.
  it.each([
    ['SUB_ADMIN', [...WITH_RECORDS, 'Transfer']],
    ['ORG_ADMIN', ['Details', 'Transfer']],
  ] as const)('gives %s the row actions %j', async (role, expected) => {
    setup(role);
    await screen.findByText('Meera Nair');
    expect(await actionsOf('Meera Nair')).toEqual(expected);
  });

  it('says "No patients yet!" without a filter', async () => {
    mockFetch({ [`GET ${LIST}`]: { body: patientPage([]) } });
    renderPatientRoutes(makeUser('ADMIN'));
    expect(await screen.findByText('No patients yet!')).toBeInTheDocument();
  });
});

describe('PatientList: from a patient to their scans and exams (issue 23.10)', () => {
  function Landed() {
    const location = useLocation();
    return <p data-testid="landed">{location.pathname + location.search}</p>;
  }
  function render(role: TUserType) {
    mockFetch({ [`GET ${LIST}`]: { body: patientPage([meera], 1) }, 'GET /api/v1/patient/1/': { body: meera } });
    const user = makeUser(role);
    return renderRoutes(
      [
        { path: '/patient', element: withUser(user, <PatientListPage />) },
        ...['/scan', '/cervaical', '/orca'].map((path) => ({ path, element: <Landed /> })),
      ],
      '/patient',
    );
  }

  it('offers the breast scans, cervical exams and ORCA exams of the patient in the row menu', async () => {
    render('MANAGER');
    await screen.findByText('Meera Nair');
    expect(await actionsOf('Meera Nair')).toEqual(expect.arrayContaining(['Breast Scans', 'Cervical Exams', 'ORCA Exams']));
    await userEvent.click(screen.getByTestId('row-action-records-scan'));
    expect(await screen.findByTestId('landed')).toHaveTextContent('/scan?patient=1&patient_name=Meera+Nair');
  });

  it('offers nothing a role may not open', async () => {
    render('CERVAICAL_REVIEWER');
    await screen.findByText('Meera Nair');
    expect(await actionsOf('Meera Nair')).not.toContain('Breast Scans');
  });

  it('links the patient dialog to the filtered lists, and the link closes the dialog', async () => {
    const { router } = render('ADMIN');
    await userEvent.click(await screen.findByRole('button', { name: 'Meera Nair' }));
    const records = await screen.findByTestId('patient-records');
    expect(within(records).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Breast Scans', '/scan?patient=1&patient_name=Meera+Nair'],
      ['Cervical Exams', '/cervaical?patient=1&patient_name=Meera+Nair'],
      ['ORCA Exams', '/orca?patient=1&patient_name=Meera+Nair'],
    ]);
    await userEvent.click(within(records).getByRole('link', { name: 'ORCA Exams' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/orca'));
    await waitFor(() => expect(screen.queryByTestId('patient-details')).not.toBeInTheDocument());
  });
});
