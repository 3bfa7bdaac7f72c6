import type { ReactNode } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type {
  TDashboardChart,
  TDashboardStats,
  TDeviceStats,
  TLeaderboardRow,
  TTechnicianStats,
} from '@sc/shared/dashboard';
import type { TUserType } from '@sc/shared/roles';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { makeUser, mockFetch, renderRoutes } from '../../../test/render.tsx';
import { lastQuery } from '../../organizations/test/organizationFixtures.tsx';
import { DashboardPage } from './DashboardPage.tsx';

const page = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });
const STATS: TDashboardStats = {
  scans_in_data_range_count: 1234,
  positive_scans_in_data_range_count: 56,
  positivity_rate_in_data_range_count: 4.5,
};
const CHART: TDashboardChart = {
  interval: 'month',
  points: [{ date: '2026-03-01', scans: 10, positives: 2 }],
};
const DEVICE: TDeviceStats = {
  device_serial_number: 'IBE22 1001/A',
  scans_count: 30,
  positive_scans_count: 3,
  positivity_percentage: 10,
  device_data: { id: 1, serial_number: 'IBE22 1001/A', organization: 2, organization_name: 'North Hospital' },
};
const TECHNICIAN: TTechnicianStats = {
  id: 9,
  first_name: 'Asha',
  last_name: 'Rao',
  username: 'asha',
  organization: { id: 2, name: 'North Hospital', country: 'Kenya' },
  scans_count: 12,
  positive_scans_count: 1,
  dynamic_positivity_percentage: 8.3,
};
const LEADER: TLeaderboardRow = {
  id: 2,
  name: 'North Hospital',
  country: 'Kenya',
  location: 'Kisumu, Kenya',
  scans_count: 40,
  positive_scans_count: 5,
  dynamic_positivity_percentage: 12.5,
  last_sync_date: '2026-04-14T10:00:00Z',
};

function setup(role: TUserType, opts: { empty?: boolean; path?: string } = {}) {
  const fetchMock = mockFetch({
    'GET /api/v1/scan/dashboard/': {
      body: opts.empty
        ? {
            scans_in_data_range_count: 0,
            positive_scans_in_data_range_count: 0,
            positivity_rate_in_data_range_count: 0,
          }
        : STATS,
    },
    'GET /api/v1/scan/dashboard/chart/': { body: opts.empty ? { interval: 'day', points: [] } : CHART },
    'GET /api/v1/scan/device-positive/': { body: page(opts.empty ? [] : [DEVICE]) },
    'GET /api/v1/organization/technician-positive/': { body: page(opts.empty ? [] : [TECHNICIAN]) },
    'GET /api/v1/organization/leaderboard/': { body: page(opts.empty ? [] : [LEADER]) },
  });
  const withUser = (element: ReactNode) => (
    <SessionUserContext.Provider value={makeUser(role)}>{element}</SessionUserContext.Provider>
  );
  const view = renderRoutes(
    [
      { path: '/dashboard', element: withUser(<DashboardPage />) },
      { path: '/scan', element: <div>scan list</div> },
      { path: '/organization/:id', element: <div>organization page</div> },
    ],
    opts.path ?? '/dashboard',
  );
  const calledLeaderboard = () =>
    fetchMock.mock.calls.some(([input]) => String(input).includes('organization/leaderboard/'));
  return { fetchMock, calledLeaderboard, ...view };
}

describe('DashboardPage', () => {
  it('shows the title, the three tiles (positivity with one decimal) and the chart for an ADMIN', async () => {
    const { fetchMock } = setup('ADMIN');
    expect(screen.getByTestId('page-title')).toHaveTextContent('Dashboard');
    expect(await screen.findByTestId('tile-scans-value')).toHaveTextContent('1,234');
    expect(screen.getByTestId('tile-positive-value')).toHaveTextContent('56');
    expect(screen.getByTestId('tile-positivity-value')).toHaveTextContent('4.5%');
    expect(within(screen.getByTestId('tile-positivity')).getByText('Positivity Rate')).toBeInTheDocument();
    // The chart loads lazily after the tiles.
    expect(await screen.findByText('Scans per month')).toBeInTheDocument();
    expect(lastQuery(fetchMock, '/api/v1/scan/dashboard/')).toEqual({ using_read_db: 'true' });
    expect(lastQuery(fetchMock, '/api/v1/scan/device-positive/')).toMatchObject({
      ordering: '-positivity_percentage',
    });
    expect(lastQuery(fetchMock, '/api/v1/organization/technician-positive/')).toMatchObject({
      ordering: '-scans_count',
    });
  });

  it.each(['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN'] as const)(
    'shows %s the leaderboard and the technician organization column',
    async (role) => {
      setup(role);
      const leaderboard = await screen.findByTestId('dashboard-leaderboard');
      expect(await within(leaderboard).findByText('Kisumu, Kenya')).toBeInTheDocument();
      expect(within(leaderboard).getByText('12.5%')).toBeInTheDocument();
      expect(within(leaderboard).getByTestId('leaderboard-csv')).toHaveTextContent('Download CSV');
      const technicians = screen.getByTestId('dashboard-technicians');
      expect(within(technicians).getByText('Organization')).toBeInTheDocument();
      expect(await within(technicians).findByText('North Hospital')).toBeInTheDocument();
    },
  );

  it('hides the leaderboard and the organization column from an ORG_ADMIN, and never asks for the leaderboard', async () => {
    const { calledLeaderboard } = setup('ORG_ADMIN');
    const technicians = await screen.findByTestId('dashboard-technicians');
    expect(await within(technicians).findByText('Asha Rao')).toBeInTheDocument();
    // The row still shows the organization's country.
    expect(within(technicians).getByText('Kenya')).toBeInTheDocument();
    expect(within(technicians).queryByText('Organization')).not.toBeInTheDocument();
    expect(screen.queryByTestId('dashboard-leaderboard')).not.toBeInTheDocument();
    expect(calledLeaderboard()).toBe(false);
  });

  it('says what each tile counts and links Scans and Positive Scans to the list with the same filters (issue 23.13)', async () => {
    setup('ADMIN', { path: '/dashboard?period=custom_range&from=2026-03-01&to=2026-03-31' });
    await screen.findByText('1,234');
    expect(screen.getByTestId('tile-scans-caption')).toHaveTextContent('Type SCAN only · 01 Mar 2026 – 31 Mar 2026');
    expect(screen.getByTestId('tile-positivity-caption')).toHaveTextContent('Type SCAN only');
    expect(screen.getByTestId('tile-scans-value')).toHaveAttribute(
      'href',
      '/scan?scan_type=SCAN&period=custom_range&from=2026-03-01&to=2026-03-31',
    );
    expect(screen.getByTestId('tile-positive-value')).toHaveAttribute(
      'href',
      '/scan?scan_type=SCAN&positive=yes&period=custom_range&from=2026-03-01&to=2026-03-31',
    );
  });

  it('shows an ORG_ADMIN (no Breast Scans menu) what the tiles count, without a link', async () => {
    setup('ORG_ADMIN');
    await screen.findByText('1,234');
    expect(screen.getByTestId('tile-scans-caption')).toHaveTextContent('Type SCAN only · All Time');
    expect(screen.getByTestId('tile-scans-value').tagName).not.toBe('A');
  });

  it('opens /scan?device=<serial> from a device row and organization/{id} from a technician row', async () => {
    const user = userEvent.setup();
    const { router } = setup('ORG_ADMIN');
    await user.click(await screen.findByText('IBE22 1001/A'));
    expect(router.state.location.pathname).toBe('/scan');
    expect(new URLSearchParams(router.state.location.search).get('device')).toBe('IBE22 1001/A');
    // The row counts SCAN-type scans: the list opens with that type, so it shows the row's count.
    expect(new URLSearchParams(router.state.location.search).get('scan_type')).toBe('SCAN');
    await router.navigate('/dashboard');
    await user.click(await screen.findByText('Asha Rao'));
    expect(router.state.location.pathname).toBe('/organization/2');
  });

  it('sorts By Device by scans and sends the ordering', async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup('ADMIN');
    const devices = await screen.findByTestId('dashboard-devices');
    await within(devices).findByText('IBE22 1001/A');
    await user.click(within(devices).getByText('Scans'));
    await waitFor(() =>
      expect(lastQuery(fetchMock, '/api/v1/scan/device-positive/')).toMatchObject({
        ordering: 'scans_count',
      }),
    );
  });

  it('sends the period of the tabs to every call and shows the empty texts', async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup('DISTRIBUTOR_ADMIN', { empty: true });
    expect(await screen.findByText('No devices yet!')).toBeInTheDocument();
    expect(await screen.findByText('No technicians yet!')).toBeInTheDocument();
    expect(screen.getByTestId('tile-positivity-value')).toHaveTextContent('0.0%');
    await user.click(screen.getByRole('tab', { name: 'Last 30 Days' }));
    await waitFor(() =>
      expect(lastQuery(fetchMock, '/api/v1/scan/dashboard/')).toHaveProperty('date_time_after'),
    );
    for (const path of ['/api/v1/scan/dashboard/chart/', '/api/v1/scan/device-positive/']) {
      await waitFor(() => expect(lastQuery(fetchMock, path)).toHaveProperty('date_time_before'));
    }
    // The technician positivity list and the leaderboard take custom_range, the end exclusive (part 2 §7).
    for (const path of ['/api/v1/organization/technician-positive/', '/api/v1/organization/leaderboard/']) {
      await waitFor(() => expect(lastQuery(fetchMock, path)).toHaveProperty('custom_range'));
    }
  });

  it('reads a custom range from the URL and shows it on the tab', async () => {
    const { fetchMock } = setup('ADMIN', {
      path: '/dashboard?period=custom_range&from=2026-03-01&to=2026-03-31',
    });
    expect(await screen.findByTestId('period-tab-custom_range')).toHaveTextContent(
      '01 Mar 2026 – 31 Mar 2026',
    );
    await waitFor(() =>
      expect(lastQuery(fetchMock, '/api/v1/scan/dashboard/')).toMatchObject({
        date_time_after: '2026-03-01',
        date_time_before: '2026-03-31',
      }),
    );
    // The 31 days of March as the spec's client sends them: the end one day past the last (issue 23.22).
    for (const path of ['/api/v1/organization/technician-positive/', '/api/v1/organization/leaderboard/']) {
      await waitFor(() => expect(lastQuery(fetchMock, path)).toMatchObject({ custom_range: '2026-03-01,2026-04-01' }));
      expect(lastQuery(fetchMock, path)).not.toHaveProperty('date_time_before');
    }
  });
});
