import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ZLastDashboardPath } from '@sc/shared/auth';
import { RECORD_PATH_DELAY_MS, useRecordDashboardPath } from './useRecordDashboardPath.ts';

const wrapper =
  (path: string) =>
  ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>;

describe('useRecordDashboardPath', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.useFakeTimers();
    localStorage.setItem('dashboard_token', 'token');
    fetchMock = vi.fn(async () => new Response(JSON.stringify({ url: '/x' }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.useRealTimers());

  it('sends the current path once the page has been still for a moment', async () => {
    renderHook(() => useRecordDashboardPath({ last_used_dashboard_path: null }), {
      wrapper: wrapper('/organization?filter=distributor'),
    });
    expect(fetchMock).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(RECORD_PATH_DELAY_MS);
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toContain('/api/v1/user/last_dashboard_path/');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(String(init.body))).toEqual({ url: '/organization?filter=distributor' });
  });

  it('does not send the path the server already holds, nor anything before the user is loaded', async () => {
    renderHook(() => useRecordDashboardPath({ last_used_dashboard_path: '/organization' }), {
      wrapper: wrapper('/organization'),
    });
    renderHook(() => useRecordDashboardPath(undefined), { wrapper: wrapper('/dashboard') });
    await act(async () => {
      vi.advanceTimersByTime(RECORD_PATH_DELAY_MS * 2);
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('records nothing while impersonating', async () => {
    localStorage.setItem('impersonation_token', 'imp');
    renderHook(() => useRecordDashboardPath({ last_used_dashboard_path: null }), { wrapper: wrapper('/organization') });
    await act(async () => {
      vi.advanceTimersByTime(RECORD_PATH_DELAY_MS * 2);
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('stores a path the API takes: a long search is left out, the other filters kept (issue 23.2)', async () => {
    // 150 emoji are within the search limit, but percent-encoded (12 characters each) far over the path's 500.
    const search = encodeURIComponent('🙂'.repeat(150));
    renderHook(() => useRecordDashboardPath({ last_used_dashboard_path: null }), {
      wrapper: wrapper(`/scan?search=${search}&period=30&positive=yes`),
    });
    await act(async () => {
      vi.advanceTimersByTime(RECORD_PATH_DELAY_MS);
    });
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    const { url } = JSON.parse(String(init.body)) as { url: string };
    expect(url).toBe('/scan?period=30&positive=yes');
    expect(ZLastDashboardPath.safeParse({ url }).success).toBe(true);
  });
});
