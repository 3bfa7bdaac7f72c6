import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TUserType } from '@sc/shared/roles';
import { AUTOCOMPLETE_DEBOUNCE_MS } from '@sc/shared/constants';
import { ORCA_MESSAGES } from '@sc/shared/orca';
import { makeUser, mockFetch } from '../../../test/render.tsx';
import { lastQuery } from '../../organizations/test/organizationFixtures.tsx';
import { renderScanRoutes } from '../../scans/test/scanFixtures.tsx';
import { OrcaListPage } from '../pages/OrcaListPage.tsx';
import { orcaDetail, orcaPage, orcaRow } from '../test/orcaFixtures.ts';
import { OrcaList } from './OrcaList.tsx';

const LIST = '/api/v1/orca/';
const withReport = orcaRow(21);
const withoutReport = orcaRow(22, {
  file_path: { reports: [], consent_form: [{ path: 'reports/orca/consent_22.pdf' }] },
});

function setup(role: TUserType = 'ADMIN', path = '/orca', results = [withReport, withoutReport]) {
  const fetchMock = mockFetch({
    [`GET ${LIST}`]: { body: orcaPage(results, results.length ? 31 : 0) },
    [`GET ${LIST}21/`]: { body: orcaDetail(21) },
  });
  const view = renderScanRoutes(makeUser(role), path, {
    '/orca': <OrcaListPage />,
    '/organization/:id': <OrcaList embedded organizationId={2} />,
  });
  return { fetchMock, ...view };
}

async function actionsOf(label: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: `Actions for ORCA exam ${label}` }));
  const menu = await screen.findByRole('menu');
  const items = within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);
  await user.keyboard('{Escape}');
  return items;
}

describe('OrcaList', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the columns with the licence code, from the read replica, newest first', async () => {
    const { fetchMock } = setup();
    expect(await screen.findByText('ORC-1234-00021')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'ORCA Exams' })).toBeInTheDocument();
    const headers = [...document.querySelectorAll('thead th')].map((h) => h.textContent);
    expect(headers.slice(0, 8)).toEqual([
      'ID',
      'Patient Name',
      'Mobile',
      'Organization',
      'Technician',
      'Licence code',
      'Scan Time',
      'Synced On',
    ]);
    expect(screen.getByTestId('list-total')).toHaveTextContent('31 items');
    expect(lastQuery(fetchMock, LIST)).toEqual({
      page: '1',
      limit: '10',
      ordering: '-date_time',
      using_read_db: 'true',
    });
  });

  it('offers Summary and Report only on an exam with a report file', async () => {
    setup();
    await screen.findByText('ORC-1234-00021');
    expect(await actionsOf('21')).toEqual(['Details', 'Summary', 'Report']);
    expect(await actionsOf('22')).toEqual(['Details']);
  });

  it("opens the finding modal from Summary and the detail's cards from Details", async () => {
    const user = userEvent.setup();
    setup();
    await screen.findByText('ORC-1234-00021');
    await user.click(screen.getByRole('button', { name: 'Actions for ORCA exam 21' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Summary' }));
    expect(await screen.findByRole('dialog', { name: 'ORCA Finding' })).toBeInTheDocument();
    await user.click(
      within(screen.getByRole('dialog', { name: 'ORCA Finding' })).getByRole('button', { name: 'Close' }),
    );
    await user.click(screen.getByTestId('orca-id-21'));
    const dialog = await screen.findByRole('dialog', { name: 'ORCA Detail' });
    expect(await within(dialog).findByTestId('orca-licence-card')).toHaveTextContent('ORC-1234-00021');
    expect(within(dialog).getByTestId('orca-licence-card')).toHaveTextContent('Current report count: 12');
    expect(within(dialog).getByTestId('orca-mobile-card')).toHaveTextContent('Samsung');
    expect(within(dialog).getByTestId('orca-device-card')).toHaveTextContent('TAB-9');
  });

  it("opens the patient's dialog from the patient cell", async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup();
    await screen.findByText('ORC-1234-00021');
    await user.click(screen.getByTestId('orca-patient-21'));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([input]) => String(input).split('?')[0] === '/api/v1/patient/121/'),
      ).toBe(true),
    );
  });

  it("says 'No Exams yet!' without filters and 'No Exams found!' with one, and disables the CSV while empty", async () => {
    const user = userEvent.setup();
    setup('ADMIN', '/orca', []);
    expect(await screen.findByText(ORCA_MESSAGES.emptyNoFilters)).toBeInTheDocument();
    expect(screen.getByTestId('orca-csv')).toBeDisabled();
    await user.click(screen.getByTestId('period-tab-30'));
    expect(await screen.findByText(ORCA_MESSAGES.emptyFiltered)).toBeInTheDocument();
  });

  it("offers the organization's registry devices in the device picker and filters by the chosen serial number", async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      [`GET ${LIST}`]: { body: orcaPage([withReport], 1) },
      'GET /api/v1/device/': {
        body: { count: 2, next: null, previous: null, results: [{ serial_number: 'ORC-7' }, { serial_number: 'ORC-9' }] },
      },
    });
    renderScanRoutes(makeUser('MANAGER'), '/organization/2', {
      '/organization/:id': <OrcaList embedded organizationId={2} />,
    });
    await screen.findByText('ORC-1234-00021');
    await user.click(screen.getByTestId('orca-filter-button'));
    await user.type(screen.getByTestId('orca-filter-device'), 'orc');
    // The typed text searches the organization's registry once the debounce has passed.
    const deviceQueries = () =>
      fetchMock.mock.calls
        .map(([input]) => new URL(String(input), 'http://localhost'))
        .filter((url) => url.pathname === '/api/v1/device/')
        .map((url) => Object.fromEntries(url.searchParams));
    await waitFor(() =>
      expect(deviceQueries()).toContainEqual(expect.objectContaining({ search: 'orc', organization_id: '2', using_read_db: 'true' })),
    );
    await user.click(await screen.findByRole('option', { name: 'ORC-9' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ organization: '2', device: 'ORC-9' }));
    expect(screen.getByTestId('orca-filter-count')).toHaveTextContent('1');
    // The panel remounts on the new filter; reopened, its box holds the serial without reading the registry again:
    // each search term was read once, and the chosen serial is no search.
    await user.click(screen.getByTestId('orca-filter-button'));
    expect(screen.getByTestId('orca-filter-device')).toHaveValue('ORC-9');
    await act(() => new Promise((resolve) => setTimeout(resolve, AUTOCOMPLETE_DEBOUNCE_MS * 2)));
    const searches = deviceQueries().map((q) => q.search ?? '');
    expect(new Set(searches).size).toBe(searches.length);
    expect(searches).not.toContain('ORC-9');
  });

  it('inside an organization sends its id and shows no organization column; ?device= pre-fills the filter', async () => {
    const { fetchMock } = setup('ORG_ADMIN', '/organization/2?device=ORC-9');
    await screen.findByText('ORC-1234-00021');
    const headers = [...document.querySelectorAll('thead th')].map((h) => h.textContent);
    expect(headers).not.toContain('Organization');
    await waitFor(() =>
      expect(lastQuery(fetchMock, LIST)).toMatchObject({ organization: '2', device: 'ORC-9' }),
    );
    expect(screen.getByTestId('orca-filter-count')).toHaveTextContent('1');
  });
});
