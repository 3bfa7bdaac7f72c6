import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_COUNT_AHEAD } from '@sc/shared/list';
import type { TUserType } from '@sc/shared/roles';
import { SCAN_MESSAGES_CONSOLE } from '@sc/shared/scans';
import { bodyOf, makeUser, mockFetch } from '../../../test/render.tsx';
import { lastQuery } from '../../organizations/test/organizationFixtures.tsx';
import { ScanListPage } from '../pages/ScanListPage.tsx';
import { renderScanRoutes, scanPage, scanRow } from '../test/scanFixtures.tsx';
import { ScanList } from './ScanList.tsx';

const LIST = '/api/v1/scan/';
const original = scanRow(11, { duplicates_count: 1 });
const child = scanRow(12, { parent_scan_id: 11 });
const practice = scanRow(13, { scan_type: 'PRACTICE', is_replay_available: false, scan_files_path: { reports: [], assessment_files: [], consent_form: [] } });
const training = scanRow(14, {
  scan_type: 'TRAINING',
  assessment_result: 'CORRECT',
  scan_files_path: { reports: [], assessment_files: [{ path: 'assessment_files/a.pdf' }], consent_form: [] },
});

function setup(role: TUserType = 'ADMIN', path = '/scan', results = [original, child, practice, training], extra = {}) {
  const fetchMock = mockFetch({ [`GET ${LIST}`]: { body: scanPage(results, results.length ? 42 : 0) }, ...extra });
  const view = renderScanRoutes(makeUser(role), path, {
    '/scan': <ScanListPage />,
    '/organization/:id': <ScanList embedded organizationId={2} withMapToggle />,
  });
  const urlQuery = () => Object.fromEntries(new URLSearchParams(view.router.state.location.search));
  return { fetchMock, urlQuery, ...view };
}

async function actionsOf(label: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: `Actions for ${label}` }));
  const menu = await screen.findByRole('menu');
  const items = within(menu).getAllByRole('menuitem').map((item) => item.textContent);
  await user.keyboard('{Escape}');
  return items;
}

describe('ScanList', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the §2.7 columns with ID prefixes, the organization link and the assessment result, from the read replica', async () => {
    const { fetchMock } = setup();
    expect(await screen.findByText('S-11')).toBeInTheDocument();
    expect(screen.getByText('P-13')).toBeInTheDocument();
    expect(screen.getByText('T-14')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Breast Scans' })).toBeInTheDocument();
    const headers = [...document.querySelectorAll('thead th')].map((h) => h.textContent);
    expect(headers.slice(0, 10)).toEqual([
      'ID',
      'Patient Name',
      'Mobile',
      'Serial Number',
      'Sensor Serial No',
      'Organization',
      'Technician',
      'Scan Time',
      'Result',
      'Synced On',
    ]);
    // Issue 23.12: the result the list filters by, in the filter's words.
    expect(screen.getByTestId('scan-result-11')).toHaveTextContent(original.is_positive ? 'Positive' : 'Negative');
    expect(screen.getAllByRole('link', { name: 'North Hospital' })[0]).toHaveAttribute('href', '/organization/2');
    expect(screen.getByTestId('scan-unreviewed-13')).toHaveTextContent('Unreviewed');
    expect(screen.getByRole('button', { name: 'Assessment: Correct' })).toBeInTheDocument();
    expect(screen.getByTestId('list-total')).toHaveTextContent('42 items');
    expect(lastQuery(fetchMock, LIST)).toEqual({ page: '1', limit: '10', ordering: '-date_time', using_read_db: 'true' });
  });

  it("says 'More than 200 items' and offers the page past the counted ones when a search's count is capped", async () => {
    const { fetchMock } = setup('ADMIN', '/scan?search=ra', [original], {
      [`GET ${LIST}`]: { body: { ...scanPage([original], SEARCH_COUNT_AHEAD), count_capped: true } },
    });
    await screen.findByText('S-11');
    expect(lastQuery(fetchMock, LIST)).toMatchObject({ search: 'ra' });
    expect(screen.getByTestId('list-total')).toHaveTextContent(/^More than 200 items$/);
    const pager = within(screen.getByTestId('list-pagination'));
    await userEvent.click(pager.getByRole('button', { name: 'last page' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ page: '21' }));
  });

  it("says '200 items' without the cap", async () => {
    setup('ADMIN', '/scan?search=ra', [original], { [`GET ${LIST}`]: { body: scanPage([original], SEARCH_COUNT_AHEAD) } });
    await screen.findByText('S-11');
    expect(screen.getByTestId('list-total')).toHaveTextContent(/^200 items$/);
  });

  it('pre-selects the device filter from ?device= (the dashboard link) and counts it on the badge', async () => {
    const { fetchMock } = setup('ADMIN', '/scan?device=IBE241071');
    await screen.findByText('S-11');
    expect(lastQuery(fetchMock, LIST)).toMatchObject({ device: 'IBE241071' });
    expect(screen.getByTestId('scan-filter-count')).toHaveTextContent('1');
  });

  it('sends the panel filters, counts them, and clears them all', async () => {
    const user = userEvent.setup();
    const { fetchMock, urlQuery } = setup();
    await screen.findByText('S-11');
    await user.click(screen.getByTestId('scan-filter-button'));
    await user.click(screen.getByRole('combobox', { name: 'Symptoms' }));
    await user.click(screen.getByRole('option', { name: 'Yes' }));
    await user.click(screen.getByRole('combobox', { name: 'Scan result' }));
    await user.click(screen.getByRole('option', { name: 'Negative' }));
    await user.click(screen.getByRole('combobox', { name: 'Assigned' }));
    await user.click(screen.getByRole('option', { name: 'Unassigned scans' }));
    await user.click(screen.getByRole('combobox', { name: 'Duplicates' }));
    await user.click(screen.getByRole('option', { name: 'Duplicates only' }));
    await waitFor(() =>
      expect(lastQuery(fetchMock, LIST)).toMatchObject({
        symptoms: 'true',
        is_positive: 'false',
        is_organization_id: 'false',
        is_parent_scan_id: 'true',
      }),
    );
    expect(urlQuery()).toMatchObject({ symptoms: 'yes', positive: 'no', assigned: 'unassigned', duplicates: 'duplicates' });
    expect(screen.getByTestId('scan-filter-count')).toHaveTextContent('4');
    await user.click(screen.getByTestId('scan-filter-clear'));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toEqual({ page: '1', limit: '10', ordering: '-date_time', using_read_db: 'true' }));
  });

  it.each<TUserType>(['MANAGER', 'DISTRIBUTOR_ADMIN', 'ORG_ADMIN'])('offers a %s neither the assigned nor the duplicates filter', async (role) => {
    const user = userEvent.setup();
    setup(role);
    await screen.findByText('S-11');
    await user.click(screen.getByTestId('scan-filter-button'));
    expect(screen.getByRole('combobox', { name: 'Symptoms' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Assigned' })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Duplicates' })).not.toBeInTheDocument();
  });

  it('says "No scans yet!" without a filter and "No scans found!" with one', async () => {
    setup('ADMIN', '/scan', []);
    expect(await screen.findByText(SCAN_MESSAGES_CONSOLE.emptyNoFilters)).toBeInTheDocument();
  });

  it('says "No scans found!" when a filter is active', async () => {
    setup('ADMIN', '/scan?survivor=yes', []);
    expect(await screen.findByText(SCAN_MESSAGES_CONSOLE.emptyFiltered)).toBeInTheDocument();
  });

  it("says 'No data. Zoom in and try again.' once when the scans of a marker cannot be read", async () => {
    mockFetch({ 'POST /api/v1/scan/ids/': { status: 400, body: { ids_list: ['Send between 1 and 10000 scan ids.'] } } });
    renderScanRoutes(makeUser('ADMIN'), '/scan', { '/scan': <ScanList embedded prefix="m_" ids={[4, 5]} /> });
    expect(await screen.findByText(SCAN_MESSAGES_CONSOLE.idsLoadFailed)).toBeInTheDocument();
    expect(screen.getAllByText(SCAN_MESSAGES_CONSOLE.idsLoadFailed)).toHaveLength(1);
    expect(screen.queryByTestId('scan-list-error')).not.toBeInTheDocument();
  });

  it('gives ADMIN Show duplicates and Delete on a child scan, and no one else', async () => {
    setup('ADMIN');
    await screen.findByText('S-12');
    expect(await actionsOf('S-12')).toEqual(['Details', 'Scan replay', 'Report', 'Show duplicates', 'Delete', 'Transfer']);
    expect(await actionsOf('P-13')).toEqual(['Details', 'Transfer']);
    expect(await actionsOf('T-14')).toEqual(['Details', 'Scan replay', 'Assessment', 'Transfer']);
  });

  it('gives a MANAGER no duplicate actions', async () => {
    setup('MANAGER');
    await screen.findByText('S-12');
    expect(await actionsOf('S-12')).toEqual(['Details', 'Scan replay', 'Report', 'Transfer']);
  });

  it('asks "Are you sure you want to delete this scan?" before deleting a duplicate', async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup('ADMIN', '/scan', [child], {
      'DELETE /api/v1/scan/12/': { body: { detail: 'Scan Deleted Successfully', id: 12 } },
    });
    await screen.findByText('S-12');
    await user.click(screen.getByRole('button', { name: 'Actions for S-12' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    expect(await screen.findByText(SCAN_MESSAGES_CONSOLE.deleteConfirm)).toBeInTheDocument();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true));
    expect(await screen.findByText('Scan Deleted Successfully')).toBeInTheDocument();
  });

  it('opens the replay of a scan in a new tab', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const user = userEvent.setup();
    setup();
    await screen.findByText('S-11');
    await user.click(screen.getByRole('button', { name: 'Actions for S-11' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Scan replay' }));
    expect(open).toHaveBeenCalledWith('/chart/?id=11', '_blank', 'noopener');
  });

  it('inside an organization sends it and hides the organization column', async () => {
    const { fetchMock } = setup('ADMIN', '/organization/2');
    await screen.findByText('S-11');
    expect(lastQuery(fetchMock, LIST)).toMatchObject({ organization: '2' });
    expect([...document.querySelectorAll('thead th')].map((h) => h.textContent)).not.toContain('Organization');
    expect(screen.queryByRole('heading', { name: 'Breast Scans' })).not.toBeInTheDocument();
  });

  it('enables Update in the transfer dialog only with an organization and a technician', async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup('ADMIN', '/scan', [original], {
      'GET /api/v1/organization/': { body: { count: 1, next: null, previous: null, results: [{ id: 3, name: 'South Centre', country: 'IN', can_create_organization: false }] } },
      'GET /api/v1/organization/user/': { body: { count: 1, next: null, previous: null, results: [{ id: 21, first_name: 'Ravi', last_name: 'K', username: 'ravi' }] } },
      'POST /api/v1/scan/11/transfer/': { body: { ...original, organization: 3, detail: SCAN_MESSAGES_CONSOLE.transferred } },
    });
    await screen.findByText('S-11');
    await user.click(screen.getByRole('button', { name: 'Actions for S-11' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Transfer' }));
    const dialog = await screen.findByTestId('scan-transfer-dialog');
    const submit = within(dialog).getByTestId('scan-transfer-submit');
    expect(submit).toBeDisabled();
    await user.type(within(dialog).getByRole('combobox', { name: 'Organization' }), 'Sou');
    await user.click(await screen.findByRole('option', { name: /South Centre/ }));
    expect(submit).toBeDisabled();
    await user.type(within(dialog).getByRole('combobox', { name: 'Technician' }), 'Rav');
    await user.click(await screen.findByRole('option', { name: 'Ravi K (ravi)' }));
    expect(lastQuery(fetchMock, '/api/v1/organization/user/')).toMatchObject({
      organization_id: '3',
      user_type: 'TECHNICIAN,ORG_ADMIN,DISTRIBUTOR_ADMIN',
    });
    expect(submit).toBeEnabled();
    await user.click(submit);
    expect(await screen.findByText(SCAN_MESSAGES_CONSOLE.transferred)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/v1/scan/11/transfer/')).toEqual({ organization_id: 3, technician_id: 21 });
  });

  it('opens the patient (read-only), technician and device dialogs from their cells', async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup('ADMIN', '/scan', [original]);
    await screen.findByText('S-11');
    await user.click(screen.getByTestId('scan-patient-11'));
    expect(await screen.findByTestId('patient-form-dialog')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/api/v1/patient/111/'))).toBe(true));
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('scan-technician-11'));
    expect(await screen.findByTestId('user-form-dialog')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/9/'))).toBe(true));
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('scan-device-11'));
    expect(await screen.findByTestId('device-form-dialog')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/api/v1/device/5/'))).toBe(true));
  });
});

describe('ScanList: one patient’s scans (issue 23.10)', () => {
  it('sends the patient filter, shows it as a chip, and the chip’s × shows every patient again', async () => {
    const user = userEvent.setup();
    const { fetchMock, urlQuery } = setup('ORG_ADMIN', '/scan?patient=7&patient_name=Meera+Nair');
    await screen.findByText('S-11');
    expect(lastQuery(fetchMock, LIST)).toMatchObject({ patient: '7' });
    expect(screen.getByTestId('patient-filter-chip')).toHaveTextContent('Patient: Meera Nair');
    await user.click(screen.getByRole('button', { name: 'Remove filter Patient: Meera Nair' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).not.toHaveProperty('patient'));
    expect(urlQuery()).not.toHaveProperty('patient');
    expect(screen.queryByTestId('patient-filter-chip')).not.toBeInTheDocument();
  });
});
