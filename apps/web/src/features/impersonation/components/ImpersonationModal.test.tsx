import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SEARCH_TOO_LONG_MESSAGE } from '@sc/shared/list';
import type { TOrganizationUser } from '@sc/shared/users';
import { browser } from '../../../api/browser.ts';
import { IMPERSONATION_TOKEN_KEY, TOKEN_KEY } from '../../../api/storage.ts';
import { mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { BREAKPOINTS } from '@sc/shared/constants';
import { ImpersonationModal } from './ImpersonationModal.tsx';
import { matchMediaFor } from '../../../test/media.ts';

const LIST = 'GET /api/v1/organization/user/';

function makeListUser(overrides: Partial<TOrganizationUser> = {}): TOrganizationUser {
  return {
    id: 12,
    first_name: 'Meera',
    last_name: 'Kulkarni',
    username: 'meera',
    email: 'meera@example.org',
    mobile: '+91-9876500012',
    mobile_country_code: 'IN',
    user_type: 'ORG_ADMIN',
    is_trainer: false,
    is_available_demo: false,
    is_valid: true,
    organization: 3,
    organization_data: { id: 3, name: 'Lotus Clinic', can_create_organization: false },
    ibe_training_status: 'NOT_STARTED',
    certificate_issue_date: null,
    certificate_expiry_date: null,
    created: '2026-02-03T09:15:00Z',
    ...overrides,
  };
}

const listUrls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((u) => u.pathname === '/api/v1/organization/user/');

describe('ImpersonationModal', () => {
  it('lists valid users of every impersonatable type but ADMIN, with the columns of §2.7', async () => {
    localStorage.setItem(TOKEN_KEY, 'real');
    const fetchMock = mockFetch({
      [LIST]: {
        body: {
          count: 2,
          next: null,
          previous: null,
          results: [
            makeListUser(),
            makeListUser({
              id: 13,
              first_name: 'Ravi',
              last_name: 'Desai',
              user_type: 'MANAGER',
              organization: null,
              organization_data: null,
              mobile: null,
            }),
          ],
        },
      },
    });
    renderWithProviders(<ImpersonationModal opened onClose={() => undefined} />);

    expect(await screen.findByText('Meera Kulkarni')).toBeInTheDocument();
    expect(screen.getByText('Impersonation')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Search by name, mobile no, email')).toBeInTheDocument();
    for (const title of ['ID', 'Name', 'Mobile/E-mail', 'Organization/User Type', 'Created']) {
      expect(screen.getByRole('columnheader', { name: title })).toBeInTheDocument();
    }
    const row = screen.getByText('Meera Kulkarni').closest('tr')!;
    expect(within(row).getByText('12')).toBeInTheDocument();
    expect(within(row).getByText('+91-9876500012')).toBeInTheDocument();
    expect(within(row).getByText('meera@example.org')).toBeInTheDocument();
    expect(within(row).getByText('Lotus Clinic')).toBeInTheDocument();
    expect(within(row).getByText('ORG Admin')).toBeInTheDocument();
    expect(within(row).getByText(/^03 Feb 2026 \d\d:\d\d (AM|PM)$/)).toBeInTheDocument();
    expect(screen.getByText('Manager')).toBeInTheDocument();
    expect(screen.getByTestId('list-total')).toHaveTextContent('2 items');
    // The empty-state text is not left in the page (where a screen reader would read it) next to real rows.
    expect(screen.queryByText('No users')).not.toBeInTheDocument();

    const [url] = listUrls(fetchMock);
    expect(url!.searchParams.get('user_type')!.split(',').sort()).toEqual(
      ['CERVAICAL_REVIEWER', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN', 'SUB_ADMIN'].sort(),
    );
    expect(url!.searchParams.get('is_valid')).toBe('true');
    expect(url!.searchParams.get('limit')).toBe('10');
    expect(url!.searchParams.get('page')).toBe('1');
  });

  it('keeps every Impersonate button on screen on a phone by folding the columns into one User cell', async () => {
    // A 390 px viewport: the phone media query matches.
    vi.stubGlobal('matchMedia', matchMediaFor(`(max-width: ${BREAKPOINTS.xs}px)`));
    mockFetch({ [LIST]: { body: { count: 1, next: null, previous: null, results: [makeListUser()] } } });
    renderWithProviders(<ImpersonationModal opened onClose={() => undefined} />);

    expect(await screen.findByText('Meera Kulkarni')).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers).toEqual(['User', 'Actions']);
    const row = screen.getByText('Meera Kulkarni').closest('tr')!;
    // The facts of the wide columns are all still there, in the one cell.
    for (const fact of ['#12', '+91-9876500012', 'meera@example.org', 'Lotus Clinic', 'ORG Admin']) {
      expect(within(row).getByText(fact)).toBeInTheDocument();
    }
    expect(within(row).getByText(/^Created 03 Feb 2026/)).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Impersonate Meera Kulkarni' })).toBeInTheDocument();
  });

  it("shows 'No users' when the list is empty", async () => {
    mockFetch({ [LIST]: { body: { count: 0, next: null, previous: null, results: [] } } });
    renderWithProviders(<ImpersonationModal opened onClose={() => undefined} />);
    expect(await screen.findByText('No users')).toBeInTheDocument();
  });

  it('searches 500 ms after typing stops', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = mockFetch({ [LIST]: { body: { count: 0, next: null, previous: null, results: [] } } });
    renderWithProviders(<ImpersonationModal opened onClose={() => undefined} />);
    await screen.findByText('No users');
    fireEvent.change(screen.getByPlaceholderText('Search by name, mobile no, email'), {
      target: { value: 'meer' },
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(300);
    });
    expect(listUrls(fetchMock).some((u) => u.searchParams.get('search') === 'meer')).toBe(false);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(250);
    });
    await waitFor(() =>
      expect(listUrls(fetchMock).some((u) => u.searchParams.get('search') === 'meer')).toBe(true),
    );
  });

  it('says a search of an emoji and 3,000 letters is too long and does not send it (issue 23.2)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = mockFetch({ [LIST]: { body: { count: 0, next: null, previous: null, results: [] } } });
    renderWithProviders(<ImpersonationModal opened onClose={() => undefined} />);
    await screen.findByText('No users');
    fireEvent.change(screen.getByPlaceholderText('Search by name, mobile no, email'), {
      target: { value: `🙂${'a'.repeat(3000)}` },
    });
    expect(screen.getByText(SEARCH_TOO_LONG_MESSAGE)).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(listUrls(fetchMock).some((u) => u.searchParams.has('search'))).toBe(false);
    vi.useRealTimers();
  });

  it('impersonates: calls the endpoint, stores the token and reloads after 1 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => undefined);
    localStorage.setItem(TOKEN_KEY, 'real');
    const fetchMock = mockFetch({
      [LIST]: { body: { count: 1, next: null, previous: null, results: [makeListUser()] } },
      'GET /api/v1/user/impersonation/12/': { body: { token: 'seen-as-token', id: 12 } },
    });
    renderWithProviders(<ImpersonationModal opened onClose={() => undefined} />);
    fireEvent.click(await screen.findByTestId('impersonate-12'));

    await waitFor(() => expect(localStorage.getItem(IMPERSONATION_TOKEN_KEY)).toBe('seen-as-token'));
    const call = fetchMock.mock.calls.find(([input]) => String(input).includes('user/impersonation/12/'));
    expect((call?.[1]?.headers as Record<string, string>).Authorization).toBe('Token real');
    expect(reload).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
