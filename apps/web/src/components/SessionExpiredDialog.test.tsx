import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES } from '@sc/shared/auth';
import { SESSION_EXPIRED_REDIRECT_MS } from '@sc/shared/constants';
import { ApiError, api } from '../api/client.ts';
import { browser } from '../api/browser.ts';
import { TOKEN_KEY } from '../api/storage.ts';
import { mockFetch, renderWithProviders } from '../test/render.tsx';

describe('SessionExpiredDialog', () => {
  it('is a dialog named Expired User Session for screen readers, with no close button', async () => {
    vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    localStorage.setItem(TOKEN_KEY, 'stale');
    mockFetch({ 'GET /api/v1/user/': { status: 401, body: { detail: 'Invalid token.' } } });
    renderWithProviders(<p>page</p>);
    await act(async () => {
      await expect(api.get('user/')).rejects.toBeInstanceOf(ApiError);
    });
    expect(await screen.findByRole('dialog', { name: AUTH_MESSAGES.sessionExpired })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
  });
});

describe('SessionExpiredDialog: after the dialog (issue 23.11)', () => {
  it('goes to the login page saying why, with the page it was on to return to', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      window.history.pushState({}, '', '/scan?search=asha');
      const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
      localStorage.setItem(TOKEN_KEY, 'stale');
      mockFetch({ 'GET /api/v1/user/': { status: 401, body: { detail: 'Invalid token.' } } });
      renderWithProviders(<p>page</p>);
      await act(async () => {
        await expect(api.get('user/')).rejects.toBeInstanceOf(ApiError);
      });
      await screen.findByRole('dialog', { name: AUTH_MESSAGES.sessionExpired });
      await act(() => vi.advanceTimersByTimeAsync(SESSION_EXPIRED_REDIRECT_MS));
      expect(assign).toHaveBeenCalledWith('/login?expired=1&next=%2Fscan%3Fsearch%3Dasha');
      expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    } finally {
      window.history.pushState({}, '', '/');
      vi.useRealTimers();
    }
  });
});
