import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../../api/browser.ts';
import { TOKEN_KEY } from '../../../api/storage.ts';
import { appRoutes } from '../../../app/routes.tsx';
import { makeUser, mockFetch, renderRoutes } from '../../../test/render.tsx';

describe('UserDeletePage', () => {
  it('deletes the account after confirmation, signs out and reloads after 1.5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => undefined);
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    localStorage.setItem(TOKEN_KEY, 'session-1');
    const fetchMock = mockFetch({
      'GET /api/v1/user/': { body: makeUser('TECHNICIAN') },
      'DELETE /api/v1/user/delete/me/': { status: 204 },
      'POST /api/v1/user/logout/': { status: 401, body: { detail: 'Invalid token.' } },
    });
    renderRoutes(appRoutes, '/user-delete');

    await user.click(await screen.findByTestId('delete-account'));
    expect(await screen.findByText('Are you sure you want to delete your account')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText('User Deleted Successfully')).toBeInTheDocument();
    const calls = fetchMock.mock.calls.map(([url, init]) => `${init?.method} ${String(url)}`);
    expect(calls).toContain('DELETE /api/v1/user/delete/me/');
    expect(calls).toContain('POST /api/v1/user/logout/');
    // The failed sign-out call did not open the session-expired dialog.
    expect(screen.queryByText('Expired User Session')).not.toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_500);
    });
    expect(reload).toHaveBeenCalled();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('does nothing when the confirmation is cancelled', async () => {
    const user = userEvent.setup();
    localStorage.setItem(TOKEN_KEY, 'session-1');
    const fetchMock = mockFetch({ 'GET /api/v1/user/': { body: makeUser('TECHNICIAN') } });
    renderRoutes(appRoutes, '/user-delete');
    await user.click(await screen.findByTestId('delete-account'));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
  });
});
