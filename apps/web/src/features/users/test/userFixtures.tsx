// Fixtures of the user tests: a user row, a page of them, and the user list routes inside a user's context.
import type { ReactNode } from 'react';
import type { TSessionUser } from '@sc/shared/auth';
import type { TPaginated } from '@sc/shared/list';
import type { TOrganizationUser, TUserDetail } from '@sc/shared/users';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { renderRoutes } from '../../../test/render.tsx';
import { UserList } from '../components/UserList.tsx';
import { UserListPage } from '../pages/UserListPage.tsx';

export function userRow(id: number, first: string, last: string, overrides: Partial<TOrganizationUser> = {}): TOrganizationUser {
  return {
    id,
    first_name: first,
    last_name: last,
    username: `${first.toLowerCase()}${id}`,
    email: `${first.toLowerCase()}@example.org`,
    mobile: '+91-9876500000',
    mobile_country_code: 'IN',
    user_type: 'TECHNICIAN',
    is_trainer: false,
    is_available_demo: false,
    is_valid: true,
    organization: 2,
    organization_data: { id: 2, name: 'North Hospital', can_create_organization: false },
    ibe_training_status: 'TRAINING',
    certificate_issue_date: null,
    certificate_expiry_date: null,
    created: '2026-01-05T09:30:00Z',
    ...overrides,
  };
}

export const userPage = (results: TOrganizationUser[], count = results.length): TPaginated<TOrganizationUser> => ({
  count,
  next: null,
  previous: null,
  results,
});

export function renderUserRoutes(user: TSessionUser, path: string) {
  const withUser = (element: ReactNode) => <SessionUserContext.Provider value={user}>{element}</SessionUserContext.Provider>;
  return renderRoutes([{ path: '/user', element: withUser(<UserListPage />) }], path);
}

/** One user's detail (GET organization/user/{id}/). */
export const userDetail = (row: TOrganizationUser, overrides: Partial<TUserDetail> = {}): TUserDetail => ({
  ...row,
  pin_reset_request: false,
  ...overrides,
});

/** The user list embedded as an organization page's Users tab. */
export function renderOrganizationUsers(user: TSessionUser, organization: { id: number; name: string; can_create_organization: boolean }) {
  return renderRoutes(
    [
      {
        path: '/organization/:id',
        element: (
          <SessionUserContext.Provider value={user}>
            <UserList mode="organization" organization={organization} title="Users" />
          </SessionUserContext.Provider>
        ),
      },
    ],
    `/organization/${organization.id}?tab=users`,
  );
}
