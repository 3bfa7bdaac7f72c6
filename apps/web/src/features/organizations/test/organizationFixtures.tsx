// Fixtures of the organization page tests: list rows, a full organization, and a router with the
// list and detail routes inside a signed-in user's context.
import type { ReactNode } from 'react';
import type { TSessionUser } from '@sc/shared/auth';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { renderRoutes, type mockFetch } from '../../../test/render.tsx';
import { OrganizationDetailPage } from '../pages/OrganizationDetailPage.tsx';
import { OrganizationListPage } from '../pages/OrganizationListPage.tsx';

export { fullOrganization, orgRow, page, reference } from './organizationBuilders.ts';

export function renderOrganizationRoutes(user: TSessionUser, path: string) {
  const withUser = (element: ReactNode) => <SessionUserContext.Provider value={user}>{element}</SessionUserContext.Provider>;
  return renderRoutes(
    [
      { path: '/organization', element: withUser(<OrganizationListPage />) },
      { path: '/organization/:id', element: withUser(<OrganizationDetailPage />) },
    ],
    path,
  );
}

/** The query of the last call to `path` (e.g. '/api/v1/organization/'). */
export function lastQuery(fetchMock: ReturnType<typeof mockFetch>, path: string, method = 'GET'): Record<string, string> | undefined {
  const calls = fetchMock.mock.calls.filter(([input, init]) => {
    const url = String(input);
    return (init?.method ?? 'GET') === method && url.split('?')[0] === path;
  });
  const last = calls.at(-1);
  if (!last) return undefined;
  return Object.fromEntries(new URL(String(last[0]), 'http://localhost').searchParams);
}

