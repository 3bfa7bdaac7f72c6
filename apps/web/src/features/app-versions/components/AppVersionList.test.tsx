import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { APP_VERSION_MESSAGES, type TAppVersion } from '@sc/shared/app-versions';
import { mockFetch, renderRoutes } from '../../../test/render.tsx';
import { AppVersionPage } from '../pages/AppVersionPage.tsx';

const LIST = '/api/v1/app_version/';
const row = (id: number, name: string): TAppVersion => ({
  id,
  name,
  code: name.replace(/\./g, ''),
  tutorial_version: null,
  notes: { note: 'n' },
  type: 'ORCA',
  created: '2026-01-02T10:00:00Z',
  modified: '2026-01-02T10:00:00Z',
});

function setup(path: string, results: TAppVersion[]) {
  const fetchMock = mockFetch({
    [`GET ${LIST}`]: { body: { count: results.length, next: null, previous: null, results } },
    'GET /api/v1/app_version/2/': { body: results[0] },
  });
  const view = renderRoutes([{ path: '/app-version', element: <AppVersionPage /> }], path);
  const lastQuery = () => {
    const calls = fetchMock.mock.calls.filter(([url]) => String(url).startsWith(LIST));
    return Object.fromEntries(new URL(String(calls.at(-1)?.[0]), 'http://x').searchParams);
  };
  return { fetchMock, lastQuery, ...view };
}

describe('Release Notes page', () => {
  it("lists the flagged app's versions (type in upper case), newest first, from the read replica", async () => {
    const { lastQuery } = setup('/app-version?orca=true', [row(2, '1.3.2'), row(1, '1.3.1')]);
    expect(await screen.findByText('1.3.2')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Release Notes – ORCA' })).toBeInTheDocument();
    expect(screen.getByText('Version Name')).toBeInTheDocument();
    expect(screen.getByText('Version code')).toBeInTheDocument();
    expect(lastQuery()).toEqual({ type: 'ORCA', page: '1', limit: '10', ordering: '-created', using_read_db: 'true' });
  });

  it('asks for the IBE app without a flag and CERVAICAL with its flag', async () => {
    const ibe = setup('/app-version', []);
    await waitFor(() => expect(ibe.lastQuery()).toMatchObject({ type: 'IBE' }));
    ibe.unmount();
    const cervical = setup('/app-version?cervaical=true', []);
    await waitFor(() => expect(cervical.lastQuery()).toMatchObject({ type: 'CERVAICAL' }));
  });

  it('searches by name keeping the app flag in the URL, sorts, and names both empty states', async () => {
    const user = userEvent.setup();
    const { lastQuery, router } = setup('/app-version?orca=true', []);
    expect(await screen.findByText(APP_VERSION_MESSAGES.emptyNone)).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText(APP_VERSION_MESSAGES.searchPlaceholder), '1.3');
    await waitFor(() => expect(lastQuery()).toMatchObject({ type: 'ORCA', search: '1.3' }));
    expect(new URLSearchParams(router.state.location.search).get('orca')).toBe('true');
    expect(await screen.findByText(APP_VERSION_MESSAGES.emptyFiltered)).toBeInTheDocument();
    await user.click(screen.getByText('Version code'));
    await waitFor(() => expect(lastQuery()).toMatchObject({ ordering: 'code' }));
  });

  it('opens a version read-only from its Details button', async () => {
    const user = userEvent.setup();
    setup('/app-version?orca=true', [row(2, '1.3.2')]);
    await user.click(await screen.findByRole('button', { name: 'Details of version 1.3.2' }));
    expect(await screen.findByTestId('app-version-name')).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });
});
