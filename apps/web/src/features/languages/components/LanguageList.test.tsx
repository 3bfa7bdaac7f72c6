import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_MESSAGES, type TLanguage } from '@sc/shared/languages';
import { mockFetch, renderRoutes } from '../../../test/render.tsx';
import { LanguageListPage } from '../pages/LanguageListPage.tsx';

const LIST = '/api/v1/language/';
const hindi: TLanguage = { id: 2, name: 'Hindi', iso_code: 'hi', is_tutorial_available: true, app_version: null, ibe_consent_form: [] };
const akan: TLanguage = { id: 8, name: 'Akan', iso_code: 'ak', is_tutorial_available: false, app_version: null, ibe_consent_form: [] };

function setup(results: TLanguage[]) {
  const fetchMock = mockFetch({
    [`GET ${LIST}`]: { body: { count: results.length, next: null, previous: null, results } },
    'GET /api/v1/language/2/': { body: hindi },
    'GET /api/v1/app_version/': { body: { count: 0, next: null, previous: null, results: [] } },
  });
  const view = renderRoutes([{ path: '/language', element: <LanguageListPage /> }], '/language');
  const lastQuery = () => {
    const calls = fetchMock.mock.calls.filter(([url]) => String(url).split('?')[0] === LIST);
    return Object.fromEntries(new URL(String(calls.at(-1)?.[0]), 'http://x').searchParams);
  };
  return { fetchMock, lastQuery, ...view };
}

describe('Languages page', () => {
  it('lists Name and ISO code sorted by name from the read replica, with a Details button per row', async () => {
    const { lastQuery } = setup([akan, hindi]);
    expect(await screen.findByText('Hindi')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Languages' })).toBeInTheDocument();
    expect(screen.getByText('ak')).toBeInTheDocument();
    expect(lastQuery()).toEqual({ page: '1', limit: '10', ordering: 'name', using_read_db: 'true' });
    expect(screen.getByRole('button', { name: 'Details of Hindi' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create' })).toBeInTheDocument();
  });

  it('searches by name or iso_code after the debounce and names both empty states', async () => {
    const user = userEvent.setup();
    const { lastQuery } = setup([]);
    expect(await screen.findByText(LANGUAGE_MESSAGES.emptyNone)).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText(LANGUAGE_MESSAGES.searchPlaceholder), 'hi');
    await waitFor(() => expect(lastQuery()).toMatchObject({ search: 'hi' }));
    expect(await screen.findByText(LANGUAGE_MESSAGES.emptyFiltered)).toBeInTheDocument();
  });

  it('opens Language details read-only from Details, and a new one in edit mode from Create', async () => {
    const user = userEvent.setup();
    setup([hindi]);
    await user.click(await screen.findByRole('button', { name: 'Details of Hindi' }));
    expect(await screen.findByTestId('language-name')).toHaveAttribute('readonly');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByTestId('language-name')).not.toHaveAttribute('readonly');
    expect(screen.getByTestId('language-name')).toHaveValue('');
  });
});
