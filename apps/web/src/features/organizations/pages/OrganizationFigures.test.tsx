// Part 1 §3's read-only figures in the console: the organization list's Scans, Positivity and Last sync columns
// (sortable on the server) and the same figures under the organization's name on its page.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { DATE_DISPLAY_FORMAT } from '@sc/shared/constants';
import { makeUser, mockFetch } from '../../../test/render.tsx';
import { fullOrganization, lastQuery, orgRow, page, renderOrganizationRoutes } from '../test/organizationFixtures.tsx';

const LIST = '/api/v1/organization/';

describe('organization figures', () => {
  it('shows scans, positivity with one decimal and the last sync in the list, and sorts by scans', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      [`GET ${LIST}`]: {
        body: page([
          orgRow(2, 'North Hospital', { scans_count: 1520, dynamic_positivity_percentage: 7, last_sync_date: '2026-04-14T10:00:00Z' }),
          orgRow(3, 'South Centre'),
        ]),
      },
    });
    renderOrganizationRoutes(makeUser('ADMIN'), '/organization');
    expect(await screen.findByText('1520')).toBeInTheDocument();
    expect(screen.getByText('7.0%')).toBeInTheDocument();
    expect(screen.getByText('0.0%')).toBeInTheDocument();
    expect(screen.getByText(dayjs('2026-04-14T10:00:00Z').format(DATE_DISPLAY_FORMAT))).toBeInTheDocument();
    await user.click(screen.getByText('Scans'));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ ordering: 'scans_count' }));
    await user.click(screen.getByText('Positivity'));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ ordering: 'dynamic_positivity_percentage' }));
  });

  it('shows the figures on the organization page', async () => {
    mockFetch({
      'GET /api/v1/organization/5/': {
        body: fullOrganization({ id: 5, scans_count: 12, dynamic_positivity_percentage: 8.3, last_sync_date: null }),
      },
      [`GET ${LIST}`]: { body: page([]) },
      'GET /api/v1/organization/user/': { body: page([]) },
    });
    renderOrganizationRoutes(makeUser('ORG_ADMIN'), '/organization/5');
    expect(await screen.findByTestId('organization-scans')).toHaveTextContent('12');
    expect(screen.getByTestId('organization-positivity')).toHaveTextContent('8.3%');
    expect(screen.getByTestId('organization-last-sync')).toHaveTextContent('Never');
  });
});
