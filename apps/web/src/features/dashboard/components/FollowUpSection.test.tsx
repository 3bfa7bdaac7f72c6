// The dashboard's follow-up card and table per organization: the five figures for the period, the target badge,
// the overdue link to the worklist, the table's rows and CSV, and the period sent with each call.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TFollowUpFigures, TFollowUpFiguresOrgRow } from '@sc/shared/follow-up';
import { mockFetch, renderRoutes } from '../../../test/render.tsx';
import { lastQuery } from '../../organizations/test/organizationFixtures.tsx';
import { FollowUpSection } from './FollowUpSection.tsx';

const FIGURES: TFollowUpFigures = {
  screen_positives: 1200,
  completed: 1104,
  completion_pct: 92,
  lost: 36,
  lost_pct: 3,
  declined: 4,
  overdue: 17,
  median_days_to_diagnosis: 12.5,
};
const ROW: TFollowUpFiguresOrgRow = { ...FIGURES, id: 2, name: 'North Hospital', completion_pct: 61.5, completed: 8, screen_positives: 13 };

function setup(figures: TFollowUpFigures = FIGURES) {
  const fetchMock = mockFetch({
    'GET /api/v1/follow-up/figures/': { body: figures },
    'GET /api/v1/follow-up/figures/organizations/': { body: { count: 1, next: null, previous: null, results: [ROW] } },
  });
  renderRoutes(
    [
      {
        path: '/dashboard',
        element: (
          <FollowUpSection
            period={{ date_time_after: '2026-04-01', date_time_before: '2026-04-15' }}
            listPeriod={{ period: 'custom_range', from: '2026-04-01', to: '2026-04-15' }}
          />
        ),
      },
      { path: '/follow-up', element: <div>follow-up worklist</div> },
    ],
    '/dashboard',
  );
  return fetchMock;
}

describe('FollowUpSection', () => {
  it('shows the five figures for the period, on target at 92 %', async () => {
    const fetchMock = setup();
    const card = await screen.findByTestId('dashboard-follow-up');
    expect(await within(card).findByText('1,200')).toBeInTheDocument();
    expect(within(screen.getByTestId('follow-up-completed')).getByText('92.0%')).toBeInTheDocument();
    expect(within(screen.getByTestId('follow-up-completed')).getByText(/1,104 · target 90%/)).toBeInTheDocument();
    expect(screen.getByTestId('follow-up-target')).toHaveTextContent('On target');
    expect(within(screen.getByTestId('follow-up-lost')).getByText('3.0%')).toBeInTheDocument();
    expect(within(screen.getByTestId('follow-up-median')).getByText('12.5')).toBeInTheDocument();
    expect(lastQuery(fetchMock, '/api/v1/follow-up/figures/')).toMatchObject({
      date_time_after: '2026-04-01',
      date_time_before: '2026-04-15',
    });
  });

  it('links the overdue figure to the worklist of overdue cases', async () => {
    setup();
    const link = await within(screen.getByTestId('follow-up-overdue')).findByRole('link', { name: /Overdue now: 17/ });
    expect(link).toHaveAttribute('href', '/follow-up?overdue=true');
    await userEvent.click(link);
    expect(await screen.findByText('follow-up worklist')).toBeInTheDocument();
  });

  it('says below target under 90 %', async () => {
    setup({ ...FIGURES, completion_pct: 40 });
    expect(await screen.findByTestId('follow-up-target')).toHaveTextContent('Below target');
  });

  it('shows no percentages and no badge for a period without positives', async () => {
    setup({ ...FIGURES, screen_positives: 0, completed: 0, completion_pct: null, lost: 0, lost_pct: null, median_days_to_diagnosis: null, overdue: 0 });
    expect(await within(screen.getByTestId('follow-up-completed')).findByText('—')).toBeInTheDocument();
    expect(within(screen.getByTestId('follow-up-median')).getByText('—')).toBeInTheDocument();
    expect(screen.queryByTestId('follow-up-target')).not.toBeInTheDocument();
  });

  it('lists the organizations with their figures and a CSV button, most positives first', async () => {
    const fetchMock = setup();
    const table = await screen.findByTestId('dashboard-follow-up-organizations');
    expect(await within(table).findByText('North Hospital')).toBeInTheDocument();
    expect(within(table).getByText('61.5% (8)')).toBeInTheDocument();
    expect(within(table).getByTestId('follow-up-figures-csv')).toHaveTextContent('Download CSV');
    expect(lastQuery(fetchMock, '/api/v1/follow-up/figures/organizations/')).toMatchObject({
      ordering: '-screen_positives',
      date_time_after: '2026-04-01',
    });
  });
});
