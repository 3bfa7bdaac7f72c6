import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, renderWithProviders } from '../test/render.tsx';
import { browser } from './browser.ts';
import { ApiError, api, buildUrl, fieldErrorList } from './client.ts';
import { IMPERSONATION_TOKEN_KEY, TOKEN_KEY } from './storage.ts';

const headersOf = (fetchMock: ReturnType<typeof mockFetch>, index = 0) =>
  (fetchMock.mock.calls[index]?.[1]?.headers ?? {}) as Record<string, string>;

describe('api client', () => {
  it('sends the token, JSON and time-zone headers', async () => {
    localStorage.setItem(TOKEN_KEY, 'abc');
    const fetchMock = mockFetch({ 'GET /api/v1/user/': { body: { id: 1 } } });
    await expect(api.get('user/')).resolves.toEqual({ id: 1 });
    const headers = headersOf(fetchMock);
    expect(headers.Authorization).toBe('Token abc');
    expect(headers.Accept).toBe('application/json');
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers.Timezone).toBeTruthy();
    expect(Number.isInteger(Number(headers['Timezone-Offset']))).toBe(true);
  });

  it('uses the impersonation token for reads only', async () => {
    localStorage.setItem(TOKEN_KEY, 'real');
    localStorage.setItem(IMPERSONATION_TOKEN_KEY, 'seen-as');
    const fetchMock = mockFetch({ 'GET /api/v1/scan/': { body: [] }, 'POST /api/v1/scan/': { body: {} } });
    await api.get('scan/');
    await api.post('scan/', {});
    expect(headersOf(fetchMock, 0).Authorization).toBe('Token seen-as');
    expect(headersOf(fetchMock, 1).Authorization).toBe('Token real');
  });

  it('sends using_read_db=true on every list read, and not on other reads', async () => {
    const fetchMock = mockFetch({ 'GET /api/v1/organization/': { body: { count: 0, results: [] } }, 'GET /api/v1/organization/3/': { body: {} } });
    await api.list('organization/', { query: { page: 2, search: 'north' } });
    await api.get('organization/3/');
    const queryOf = (i: number) => Object.fromEntries(new URL(String(fetchMock.mock.calls[i]?.[0]), 'http://x').searchParams);
    expect(queryOf(0)).toEqual({ page: '2', search: 'north', using_read_db: 'true' });
    expect(queryOf(1)).toEqual({});
  });

  it('builds query strings without empty values', () => {
    expect(buildUrl('organization/', { page: 2, search: '', ids: [1, 2], day: undefined, using_read_db: true })).toBe(
      '/api/v1/organization/?page=2&ids=1%2C2&using_read_db=true',
    );
  });

  it('opens the Expired User Session dialog on a 401, then clears storage and goes to login after 3 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    localStorage.setItem(TOKEN_KEY, 'stale');
    mockFetch({ 'GET /api/v1/user/': { status: 401, body: { detail: 'Invalid token.' } } });
    renderWithProviders(<p>page</p>);

    await act(async () => {
      await expect(api.get('user/')).rejects.toBeInstanceOf(ApiError);
    });
    expect(await screen.findByText('Expired User Session')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(3_000);
    });
    // The sign-in page says why (issue 23.11); from '/' there is no page to return to.
    expect(assign).toHaveBeenCalledWith('/login?expired=1');
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('does not report an expired session for a call made without a token', async () => {
    mockFetch({ 'POST /api/v1/user/login/': { status: 401, body: { detail: 'Invalid token.' } } });
    renderWithProviders(<p>page</p>);
    await act(async () => {
      await expect(api.post('user/login/', {})).rejects.toMatchObject({ status: 401 });
    });
    expect(screen.queryByText('Expired User Session')).not.toBeInTheDocument();
  });

  it("logs 'Not allowed' with the detail on a 403", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    localStorage.setItem(TOKEN_KEY, 'abc');
    mockFetch({ 'GET /api/v1/firmware/': { status: 403, body: { detail: 'You do not have permission to perform this action.' } } });
    renderWithProviders(<p>page</p>);
    await act(async () => {
      await expect(api.get('firmware/')).rejects.toMatchObject({ status: 403 });
    });
    expect(warn).toHaveBeenCalledWith('Not allowed', 'You do not have permission to perform this action.');
  });

  it('alerts the status code and message on a server error', async () => {
    const alert = vi.spyOn(browser, 'alert').mockImplementation(() => undefined);
    mockFetch({ 'GET /api/v1/scan/': { status: 500, body: { detail: 'A server error occurred.' } } });
    await expect(api.get('scan/')).rejects.toMatchObject({ status: 500 });
    expect(alert).toHaveBeenCalledWith('Error 500: A server error occurred.');
  });

  it('turns DRF field errors into titled lines', () => {
    expect(
      fieldErrorList({ company_info: { zip_code: ['This field is required.'] }, webhook_url: ['Enter a valid URL.'] }),
    ).toEqual([
      { title: 'company info', text: 'This field is required.' },
      { title: 'webhook url', text: 'Enter a valid URL.' },
    ]);
  });
});
