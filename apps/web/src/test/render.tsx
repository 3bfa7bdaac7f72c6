// Test helpers: the app's providers (Mantine in test mode: no transitions, no portals), a fresh
// query client and a memory router; plus a fetch mock keyed by "METHOD path".
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import type { TSessionUser } from '@sc/shared/auth';
import type { TUserType } from '@sc/shared/roles';
import { AppProviders } from '../app/AppProviders.tsx';
import { AppHosts } from '../app/hosts.tsx';

export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } } });
}

export function renderWithProviders(ui: ReactElement, queryClient = createTestQueryClient()) {
  return { queryClient, ...render(
      <AppProviders queryClient={queryClient} hosts={<AppHosts />} env="test">
        {ui}
      </AppProviders>,
    ) };
}

export function renderRoutes(routes: RouteObject[], initialPath: string, queryClient = createTestQueryClient()) {
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const result = renderWithProviders(<RouterProvider router={router} />, queryClient);
  return { router, ...result };
}

type MockReply = { status?: number; body?: unknown } | ((init: RequestInit | undefined) => { status?: number; body?: unknown });

/** Stubs global fetch. Keys: "POST /api/v1/auth/otp/" (the query string is ignored). */
export function mockFetch(replies: Record<string, MockReply>) {
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.split('?')[0] ?? url;
    const key = `${init?.method ?? 'GET'} ${path}`;
    const reply = replies[key];
    if (!reply) return new Response(JSON.stringify({ detail: 'Not found.' }), { status: 404, headers: { 'content-type': 'application/json' } });
    const { status = 200, body } = typeof reply === 'function' ? reply(init) : reply;
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

export const bodyOf = (fetchMock: ReturnType<typeof mockFetch>, key: string): unknown => {
  const call = fetchMock.mock.calls.find(([input, init]) => `${init?.method ?? 'GET'} ${String(input).split('?')[0]}` === key);
  return call?.[1]?.body ? (JSON.parse(String(call[1].body)) as unknown) : undefined;
};

export function makeUser(userType: TUserType, overrides: Partial<TSessionUser> = {}): TSessionUser {
  return {
    id: 7,
    first_name: 'Asha',
    last_name: 'Rao',
    username: 'asha',
    email: 'asha@example.org',
    mobile: '+91-9876543210',
    mobile_country_code: 'IN',
    user_type: userType,
    is_trainer: false,
    is_valid: true,
    organization: 1,
    organization_data: { id: 1, name: 'City Clinic', can_create_organization: false },
    organizations: [
      { id: 1, name: 'City Clinic', can_create_organization: false },
      { id: 2, name: 'North Hospital', can_create_organization: true },
      { id: 3, name: 'South Centre', can_create_organization: false },
      { id: 4, name: 'East Unit', can_create_organization: false },
    ],
    organizations_count: 4,
    scans_count: 0,
    dynamic_positivity_percentage: 0,
    created: '2026-01-01T00:00:00Z',
    last_used_dashboard_path: null,
    is_impersonated: false,
    impersonator: null,
    ...overrides,
  };
}
