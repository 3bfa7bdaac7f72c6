import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FOLLOW_UP_MESSAGES } from '@sc/shared/follow-up';
import type { TUserType } from '@sc/shared/roles';
import { makeUser, mockFetch } from '../../../test/render.tsx';
import { lastQuery } from '../../organizations/test/organizationFixtures.tsx';
import { renderScanRoutes } from '../../scans/test/scanFixtures.tsx';
import { FollowUpPage } from '../pages/FollowUpPage.tsx';
import { caseDetail, casePage, caseRow } from '../test/followUpFixtures.ts';
import { followUpQuery, ZFollowUpListParams } from './FollowUpList.tsx';

const LIST = '/api/v1/follow-up/';

function setup(
  role: TUserType,
  path = '/follow-up',
  results = [caseRow(1), caseRow(2, { overdue: false, days_overdue: 0, status: 'CONTACTED' })],
) {
  const fetchMock = mockFetch({
    [`GET ${LIST}`]: { body: casePage(results) },
    'GET /api/v1/follow-up/assignees/': { body: [{ id: 12, name: 'Nurse Cruz', user_type: 'ORG_ADMIN' }] },
    'GET /api/v1/follow-up/1/': { body: caseDetail(1) },
  });
  renderScanRoutes(makeUser(role), path, { '/follow-up': <FollowUpPage /> });
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('FollowUpList', () => {
  it('asks for overdue first by default and shows the overdue due date in words', async () => {
    const fetchMock = setup('ADMIN');
    expect(await screen.findByText('Maria Santos 1')).toBeInTheDocument();
    expect(lastQuery(fetchMock, LIST)).toMatchObject({ ordering: 'next_due', page: '1' });
    const due = screen.getAllByTestId('follow-up-next-due');
    expect(due[0]).toHaveTextContent('08 Nov 2026');
    expect(due[0]).toHaveTextContent('3 days overdue');
    expect(due[1]).not.toHaveTextContent('overdue');
  });

  it('sends the filters of the URL to the API', async () => {
    const fetchMock = setup(
      'ADMIN',
      '/follow-up?status=active&overdue=true&modality=CERVICAL&organization=3&assigned_user=none&due_from=2026-11-01&due_to=2026-11-30&search=maria',
    );
    await screen.findByText('Maria Santos 1');
    expect(lastQuery(fetchMock, LIST)).toMatchObject({
      status: 'active',
      overdue: 'true',
      modality: 'CERVICAL',
      organization: '3',
      assigned_user: 'none',
      due_after: '2026-11-01',
      due_before: '2026-11-30',
      search: 'maria',
    });
  });

  it('turns the status select and the Overdue only switch into query params', async () => {
    const fetchMock = setup('ORG_ADMIN');
    await screen.findByText('Maria Santos 1');
    await userEvent.click(screen.getByTestId('follow-up-overdue-filter'));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)?.overdue).toBe('true'));
    await userEvent.click(screen.getByTestId('follow-up-status-filter'));
    await userEvent.click(await screen.findByRole('option', { name: 'Closing' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)?.status).toBe('closing'));
    expect(lastQuery(fetchMock, LIST)?.overdue).toBe('true');
  });

  it('gives ADMIN the organization filter and column, and an ORG_ADMIN neither', async () => {
    setup('ADMIN');
    await screen.findByText('Maria Santos 1');
    expect(screen.getByTestId('follow-up-organization-filter')).toBeInTheDocument();
    expect([...document.querySelectorAll('thead th')].map((th) => th.textContent)).toContain('Organization');
  });

  it('leaves the organization filter out for an ORG_ADMIN', async () => {
    setup('ORG_ADMIN');
    await screen.findByText('Maria Santos 1');
    expect(screen.queryByTestId('follow-up-organization-filter')).not.toBeInTheDocument();
    expect([...document.querySelectorAll('thead th')].map((th) => th.textContent)).not.toContain(
      'Organization',
    );
  });

  it('says no cases yet, and no cases found once filtered', async () => {
    setup('ADMIN', '/follow-up', []);
    expect(await screen.findByText(FOLLOW_UP_MESSAGES.emptyNone)).toBeInTheDocument();
  });

  it('says no cases found when a filter is on', async () => {
    setup('ADMIN', '/follow-up?status=SEEN', []);
    expect(await screen.findByText(FOLLOW_UP_MESSAGES.emptyFiltered)).toBeInTheDocument();
  });

  it('opens the case dialog on a row click', async () => {
    setup('ADMIN');
    await userEvent.click(await screen.findByText('Maria Santos 1'));
    const dialog = await screen.findByTestId('follow-up-case');
    expect(within(dialog).getByText('Case opened', { exact: false })).toBeInTheDocument();
    expect(within(dialog).getByTestId('follow-up-source')).toHaveTextContent('Breast scan 900');
  });
});

describe('followUpQuery', () => {
  it('leaves out filters at their defaults and reads a one-day due window', () => {
    const params = ZFollowUpListParams.parse({ due_from: '2026-11-05' });
    expect(followUpQuery({ ...params, ordering: 'next_due' })).toEqual({
      page: 1,
      limit: params.limit,
      ordering: 'next_due',
      due_after: '2026-11-05',
      due_before: '2026-11-05',
    });
  });

  it('falls back on a hand-edited URL instead of breaking', () => {
    const params = ZFollowUpListParams.parse({
      status: 'NOPE',
      modality: 'LUNG',
      assigned_user: 'x',
      organization: '-1',
    });
    expect(params).toMatchObject({
      status: 'all',
      modality: undefined,
      assigned_user: undefined,
      organization: undefined,
    });
  });
});
