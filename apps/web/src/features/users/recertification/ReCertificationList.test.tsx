import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import type { TUserType } from '@sc/shared/roles';
import { RECERTIFICATION_MESSAGES, addIsoDays, type TTechnicianSummary } from '@sc/shared/scans';
import { USER_MESSAGES } from '@sc/shared/user-input';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { bodyOf, makeUser, mockFetch, renderRoutes } from '../../../test/render.tsx';
import { lastQuery } from '../../organizations/test/organizationFixtures.tsx';
import { scanPage, scanRow } from '../../scans/test/scanFixtures.tsx';
import { userDetail, userPage, userRow } from '../test/userFixtures.tsx';
import { ReCertificationPage } from '../pages/ReCertificationPage.tsx';
import { expiryWindow, toReCertificationQuery } from './recertificationParams.ts';

// jsdom has no Worker for the cluster map: the map is a placeholder here (the browser journey shows the real one).
vi.mock('../../scans/map/ScanClusterMap.tsx', () => ({ ScanClusterMap: () => <div data-testid="map-placeholder" /> }));

const LIST = '/api/v1/organization/user/';
const SUMMARY = '/api/v1/scan/technician-summary/';
const today = dayjs().format('YYYY-MM-DD');
const expiry = addIsoDays(today, 10);
const tech = userRow(11, 'Meera', 'Nair', {
  ibe_training_status: 'CERTIFIED',
  certificate_issue_date: addIsoDays(expiry, -365),
  certificate_expiry_date: expiry,
});
const summary: TTechnicianSummary = {
  scans_in_data_range_count: 3,
  positive_scans_in_data_range_count: 1,
  positivity_rate_in_data_range_count: 33.3,
  most_recent_scan_date: '2026-03-14T06:00:00Z',
};
const empty = { count: 0, next: null, previous: null, results: [] };

function setup(role: TUserType = 'ADMIN', path = '/re-certification', results = [tech], extra = {}) {
  const fetchMock = mockFetch({
    [`GET ${LIST}`]: { body: userPage(results) },
    'GET /api/v1/organization/user/11/': { body: userDetail(tech) },
    [`GET ${SUMMARY}`]: { body: summary },
    'GET /api/v1/scan/': { body: empty },
    ...extra,
  });
  const view = renderRoutes(
    [
      {
        path: '/re-certification',
        element: (
          <SessionUserContext.Provider value={makeUser(role)}>
            <ReCertificationPage />
          </SessionUserContext.Provider>
        ),
      },
    ],
    path,
  );
  return { fetchMock, ...view };
}

const headers = () => Array.from(document.querySelectorAll('thead th'), (h) => h.textContent?.trim()).filter(Boolean);

describe('Re-certification list', () => {
  it('lists certified users by expiry, All Time from 2020-01-01 to 30 days ahead, with the §2.10 columns', async () => {
    const { fetchMock } = setup();
    expect(await screen.findByText('Meera Nair')).toBeInTheDocument();
    expect(screen.getByTestId('page-title')).toHaveTextContent('Re-Certification');
    expect(headers().slice(0, 8)).toEqual(['ID', 'Technician Name', 'Mobile', 'E-mail', 'Issue Date', 'Expiry Date', 'Organization', 'Actions']);
    expect(screen.getByPlaceholderText('Search by technician name')).toBeInTheDocument();
    expect(lastQuery(fetchMock, LIST)).toEqual({
      page: '1',
      limit: '10',
      ordering: 'certificate_expiry_date',
      ibe_training_status: 'CERTIFIED',
      certificate_expiry_date_after: '2020-01-01',
      certificate_expiry_date_before: addIsoDays(today, 30),
      using_read_db: 'true',
    });
  });

  it('reads Last 30 Days and a custom range on the expiry date', () => {
    expect(expiryWindow({ period: '30' }, '2026-04-15')).toEqual({ after: '2026-03-16', before: '2026-05-15' });
    expect(expiryWindow({ period: 'custom_range', from: '2026-01-01', to: '2026-02-01' }, '2026-04-15')).toEqual({
      after: '2026-01-01',
      before: '2026-02-01',
    });
    expect(expiryWindow({ period: 'custom_range', from: '2026-01-01' }, '2026-04-15')).toEqual({ after: '2026-01-01', before: '2026-01-01' });
    expect(toReCertificationQuery({ page: 2, limit: 20, search: 'meera', period: 'today', ordering: 'first_name' }, '2026-04-15')).toEqual({
      page: 2,
      limit: 20,
      ordering: 'first_name',
      search: 'meera',
      ibe_training_status: 'CERTIFIED',
      certificate_expiry_date_after: '2020-01-01',
      certificate_expiry_date_before: '2026-05-15',
    });
  });

  it("says 'No records found.' when nothing matches", async () => {
    setup('ADMIN', '/re-certification', []);
    expect(await screen.findByText(RECERTIFICATION_MESSAGES.empty)).toBeInTheDocument();
  });

  it('filters by organization with a badge, and Clear all filters removes it', async () => {
    const { fetchMock, router } = setup('MANAGER', '/re-certification?organization=2&organization_name=North%20Hospital');
    await screen.findByText('Meera Nair');
    expect(lastQuery(fetchMock, LIST)).toMatchObject({ organization_id: '2' });
    expect(screen.getByRole('button', { name: 'Filter, 1 active' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByTestId('recert-filter-button'));
    await user.click(await screen.findByTestId('recert-filter-clear'));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).not.toHaveProperty('organization_id'));
    expect(new URLSearchParams(router.state.location.search).has('organization')).toBe(false);
    expect(screen.getByRole('button', { name: 'Filter' })).toBeInTheDocument();
  });
});

describe('Technician scan modal', () => {
  it('shows the details and the counts of the window from 30 days before expiry, then re-certifies after a confirm', async () => {
    const renewed = { ...userDetail(tech), certificate_issue_date: today, certificate_expiry_date: addIsoDays(today, 365) };
    const { fetchMock } = setup('ADMIN', '/re-certification', [tech], {
      'POST /api/v1/organization/user/11/re-certify/': { body: { ...renewed, detail: USER_MESSAGES.reCertified, password_link_message: null } },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('recertify-11'));
    const modal = await screen.findByTestId('technician-scan-modal');
    const details = await within(modal).findByTestId('technician-details');
    expect(within(details).getByText('Meera Nair')).toBeInTheDocument();
    expect(within(details).getByText('North Hospital')).toBeInTheDocument();
    const counts = await within(modal).findByTestId('technician-summary');
    expect(within(counts).getByText('Scan Count').nextSibling).toHaveTextContent('3');
    expect(within(counts).getByText('Positive Scan').nextSibling).toHaveTextContent('1');
    expect(within(counts).getByText('Positivity Rate Count').nextSibling).toHaveTextContent('33.3%');
    expect(lastQuery(fetchMock, SUMMARY)).toMatchObject({
      technician: '11',
      date_time_after: addIsoDays(expiry, -30),
      date_time_before: today,
    });
    // The embedded list: the technician's SCAN-type scans with a replay, in the same window.
    await waitFor(() =>
      expect(lastQuery(fetchMock, '/api/v1/scan/')).toMatchObject({
        technician: '11',
        scan_type: 'SCAN',
        is_replay_available: 'true',
        date_time_after: addIsoDays(expiry, -30),
      }),
    );
    await user.click(within(modal).getByTestId('technician-recertify'));
    expect(await screen.findByText(RECERTIFICATION_MESSAGES.confirm('Meera Nair'))).toBeInTheDocument();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    expect(await screen.findByText(USER_MESSAGES.reCertified)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/v1/organization/user/11/re-certify/')).toEqual({});
  });

  it('switches the list to practice scans of the technician', async () => {
    const { fetchMock } = setup();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('recertify-11'));
    await screen.findByTestId('technician-details');
    await user.click(await screen.findByRole('radio', { name: 'Practice' }));
    await waitFor(() => expect(lastQuery(fetchMock, '/api/v1/scan/')).toMatchObject({ technician: '11', scan_type: 'PRACTICE' }));
    expect(lastQuery(fetchMock, '/api/v1/scan/')).not.toHaveProperty('date_time_after');
  });

  it('labels practice scans Unreviewed, Correct or Incorrect', async () => {
    const practice = (id: number, review: 'Unreviewed' | 'Correct' | 'Incorrect') =>
      scanRow(id, { scan_type: 'PRACTICE', display_id: `P-${id}`, review });
    setup('ADMIN', '/re-certification', [tech], {
      'GET /api/v1/scan/': { body: scanPage([practice(71, 'Correct'), practice(72, 'Incorrect'), practice(73, 'Unreviewed')]) },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('recertify-11'));
    expect(await screen.findByTestId('scan-review-71')).toHaveTextContent('Correct');
    expect(screen.getByTestId('scan-review-72')).toHaveTextContent('Incorrect');
    expect(screen.getByTestId('scan-review-73')).toHaveTextContent('Unreviewed');
  });

  it('has no Re-Certify button for a MANAGER (the API refuses it)', async () => {
    setup('MANAGER');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('recertify-11'));
    await screen.findByTestId('technician-details');
    expect(screen.queryByTestId('technician-recertify')).not.toBeInTheDocument();
  });

  it('shows a not-found state for a technician the API does not show', async () => {
    setup('ADMIN', '/re-certification', [tech], { 'GET /api/v1/organization/user/11/': { status: 404, body: { detail: 'Not found.' } } });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('recertify-11'));
    expect(await screen.findByTestId('technician-not-found')).toHaveTextContent(RECERTIFICATION_MESSAGES.notFound);
  });
});
