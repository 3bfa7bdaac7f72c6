import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../../api/browser.ts';
import { IMPERSONATION_TOKEN_KEY, TOKEN_KEY } from '../../../api/storage.ts';
import { makeUser, mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { ImpersonationBanner } from './ImpersonationBanner.tsx';

const seen = makeUser('ORG_ADMIN', {
  first_name: 'Meera',
  last_name: 'Kulkarni',
  is_impersonated: true,
  impersonator: { id: 1, email: 'admin@demo.test' },
});

describe('ImpersonationBanner', () => {
  it('shows Impersonation Mode and who is seen, with the As seen By switch on', () => {
    renderWithProviders(<ImpersonationBanner user={seen} />);
    expect(screen.getByText('Impersonation Mode')).toBeInTheDocument();
    expect(screen.getByTestId('impersonation-seen-as')).toHaveTextContent('Meera Kulkarni (ORG Admin)');
    expect(screen.getByTestId('impersonation-banner')).toHaveTextContent('As seen By');
    expect(screen.getByRole('switch', { name: 'As seen By' })).toBeChecked();
  });

  it('switching off calls DELETE with the impersonation token, clears the key and reloads', async () => {
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => undefined);
    localStorage.setItem(TOKEN_KEY, 'real');
    localStorage.setItem(IMPERSONATION_TOKEN_KEY, 'seen-as');
    const fetchMock = mockFetch({ 'DELETE /api/v1/user/impersonation/': { status: 204 } });
    renderWithProviders(<ImpersonationBanner user={seen} />);

    fireEvent.click(screen.getByRole('switch', { name: 'As seen By' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init?.method).toBe('DELETE');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Token seen-as');
    expect(localStorage.getItem(IMPERSONATION_TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBe('real');
  });

  it('ends the impersonation with a plain Stop impersonating button, once however often it is clicked', async () => {
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => undefined);
    localStorage.setItem(TOKEN_KEY, 'real');
    localStorage.setItem(IMPERSONATION_TOKEN_KEY, 'seen-as');
    const fetchMock = mockFetch({ 'DELETE /api/v1/user/impersonation/': { status: 204 } });
    renderWithProviders(<ImpersonationBanner user={seen} />);

    const stop = screen.getByRole('button', { name: 'Stop impersonating' });
    fireEvent.click(stop);
    fireEvent.click(stop);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![1]?.method).toBe('DELETE');
    expect(localStorage.getItem(IMPERSONATION_TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBe('real');
    // The switch follows: it is off and disabled while the console reloads.
    expect(screen.getByRole('switch', { name: 'As seen By' })).not.toBeChecked();
  });

  it('returns to the real user even when the impersonation token has already expired', async () => {
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => undefined);
    localStorage.setItem(TOKEN_KEY, 'real');
    localStorage.setItem(IMPERSONATION_TOKEN_KEY, 'stale');
    mockFetch({ 'DELETE /api/v1/user/impersonation/': { status: 401, body: { detail: 'Invalid token.' } } });
    renderWithProviders(<ImpersonationBanner user={seen} />);
    fireEvent.click(screen.getByRole('switch', { name: 'As seen By' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(localStorage.getItem(IMPERSONATION_TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBe('real');
    expect(screen.queryByText('Expired User Session')).not.toBeInTheDocument();
  });
});
