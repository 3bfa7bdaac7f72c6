import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TReportLogRow } from '@sc/shared/scans';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { makeUser, mockFetch, renderRoutes } from '../../../test/render.tsx';
import { lastQuery } from '../../organizations/test/organizationFixtures.tsx';
import { ReportLogPage } from '../pages/ReportLogPage.tsx';
import { queryParamLines } from './ReportLogList.tsx';

const LIST = '/api/v1/scan/report-log/';
const row: TReportLogRow = {
  id: 41,
  api: '/api/v1/scan/',
  api_qp: { format: 'csv', device: 'IBE-7781', search: '' },
  requested_method: 'GET',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131',
  user: 5,
  user_data: { id: 5, first_name: 'Radha', last_name: 'Iyer', username: 'radha' },
  user_type: 'ADMIN',
  created: '2026-03-15T06:00:00Z',
};

function setup(results: TReportLogRow[] = [row], path = '/report-log') {
  const fetchMock = mockFetch({ [`GET ${LIST}`]: { body: { count: results.length ? 23 : 0, next: null, previous: null, results } } });
  const view = renderRoutes(
    [
      {
        path: '/report-log',
        element: (
          <SessionUserContext.Provider value={makeUser('ADMIN')}>
            <ReportLogPage />
          </SessionUserContext.Provider>
        ),
      },
    ],
    path,
  );
  return { fetchMock, ...view };
}

const headers = () => Array.from(document.querySelectorAll('thead th'), (h) => h.textContent?.trim()).filter(Boolean);

describe('ReportLogPage', () => {
  it('lists the downloads with the columns of part 3, newest first, from the read replica', async () => {
    const { fetchMock } = setup();
    expect(await screen.findByText('/api/v1/scan/')).toBeInTheDocument();
    expect(screen.getByTestId('page-title')).toHaveTextContent('Report Log');
    expect(headers()).toEqual(['API', 'API query params', 'User agent', 'Requested method', 'User ID', 'User Type', 'Download Date']);
    expect(screen.getByText('format=csv')).toBeInTheDocument();
    expect(screen.getByText('device=IBE-7781')).toBeInTheDocument();
    expect(screen.getByText('Radha Iyer')).toBeInTheDocument();
    expect(screen.getByText('Super Admin')).toBeInTheDocument();
    expect(screen.getByTestId('list-total')).toHaveTextContent('23 items');
    expect(lastQuery(fetchMock, LIST)).toEqual({ page: '1', limit: '10', ordering: '-created', using_read_db: 'true' });
  });

  it('searches by name, mobile or serial number and filters the last 30 days', async () => {
    const { fetchMock, router } = setup();
    const user = userEvent.setup();
    await screen.findByText('/api/v1/scan/');
    await user.type(screen.getByPlaceholderText('Search by name, mobile no, serial no'), 'IBE-77');
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ search: 'IBE-77' }));
    await user.click(screen.getByTestId('period-tab-30'));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toHaveProperty('date_time_after'));
    const q = lastQuery(fetchMock, LIST)!;
    expect(q.date_time_before).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new URLSearchParams(router.state.location.search).get('period')).toBe('30');
  });

  it("shows the spec's empty text 'No organizations yet!' without a filter", async () => {
    setup([]);
    expect(await screen.findByText('No organizations yet!')).toBeInTheDocument();
  });

  it("says 'No organizations found!' when a filter is active", async () => {
    setup([], '/report-log?search=nobody');
    expect(await screen.findByText('No organizations found!')).toBeInTheDocument();
  });

  it('writes a query as key=value lines, leaving out empty values', () => {
    expect(queryParamLines({ format: 'csv', search: '', ids: [1, 2], n: null })).toEqual(['format=csv', 'ids=1,2']);
  });
});
