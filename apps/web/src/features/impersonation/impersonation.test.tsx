// The shell's side of impersonation: the Impersonation button (ADMIN only), the banner while impersonating, and
// a rejected impersonation token falling back to the real user instead of signing out.
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TUserType } from '@sc/shared/roles';
import { browser } from '../../api/browser.ts';
import { ApiError, api } from '../../api/client.ts';
import { IMPERSONATION_TOKEN_KEY, TOKEN_KEY } from '../../api/storage.ts';
import { ShellLayout } from '../../app/shell/ShellLayout.tsx';
import { makeUser, mockFetch, renderRoutes, renderWithProviders } from '../../test/render.tsx';

const emptyList = { body: { count: 0, next: null, previous: null, results: [] } };

function renderShell(user: ReturnType<typeof makeUser>) {
  localStorage.setItem(TOKEN_KEY, 'real');
  mockFetch({ 'GET /api/v1/user/': { body: user }, 'GET /api/v1/organization/user/': emptyList });
  return renderRoutes(
    [{ path: '/', element: <ShellLayout />, children: [{ index: true, element: <p>home</p> }] }],
    '/',
  );
}

describe('Impersonation in the shell', () => {
  it('offers the Impersonation button to an ADMIN and opens the modal', async () => {
    renderShell(makeUser('ADMIN'));
    fireEvent.click(await screen.findByTestId('user-card'));
    fireEvent.click(await screen.findByTestId('user-card-impersonation'));
    // The modal is lazy-loaded with its data table: the first import may be slow on a busy machine.
    expect(
      await screen.findByPlaceholderText('Search by name, mobile no, email'),
    ).toBeInTheDocument();
    expect(await screen.findByText('No users')).toBeInTheDocument();
  });

  it.each<TUserType>(['SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'])(
    'hides the button from %s',
    async (role) => {
      renderShell(makeUser(role));
      fireEvent.click(await screen.findByTestId('user-card'));
      expect(await screen.findByTestId('sign-out')).toBeInTheDocument();
      expect(screen.queryByTestId('user-card-impersonation')).not.toBeInTheDocument();
    },
  );

  it('shows the banner while impersonating, and neither the button nor account deletion', async () => {
    localStorage.setItem(IMPERSONATION_TOKEN_KEY, 'seen-as');
    renderShell(
      makeUser('ORG_ADMIN', {
        first_name: 'Meera',
        last_name: 'Kulkarni',
        is_impersonated: true,
        impersonator: { id: 1, email: 'admin@demo.test' },
      }),
    );
    expect(await screen.findByTestId('impersonation-banner')).toHaveTextContent('Impersonation Mode');
    expect(screen.getByTestId('impersonation-seen-as')).toHaveTextContent('Meera Kulkarni (ORG Admin)');
    fireEvent.click(screen.getByTestId('user-card'));
    expect(await screen.findByTestId('sign-out')).toBeInTheDocument();
    expect(screen.queryByTestId('user-card-impersonation')).not.toBeInTheDocument();
    expect(screen.queryByTestId('user-card-delete-account')).not.toBeInTheDocument();
  });

  it('shows no banner to a user who is not impersonated', async () => {
    renderShell(makeUser('ADMIN'));
    await screen.findByTestId('user-card');
    expect(screen.queryByTestId('impersonation-banner')).not.toBeInTheDocument();
  });

  it('drops a rejected impersonation token and reloads as the real user instead of signing out', async () => {
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => undefined);
    localStorage.setItem(TOKEN_KEY, 'real');
    localStorage.setItem(IMPERSONATION_TOKEN_KEY, 'expired');
    mockFetch({ 'GET /api/v1/scan/': { status: 401, body: { detail: 'Invalid token.' } } });
    renderWithProviders(<p>page</p>);
    await act(async () => {
      await expect(api.get('scan/')).rejects.toBeInstanceOf(ApiError);
    });
    expect(localStorage.getItem(IMPERSONATION_TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBe('real');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Expired User Session')).not.toBeInTheDocument();
  });
});
