// Fixtures of the organization page tests: list rows, a full organization, and a router with the
// list and detail routes inside a signed-in user's context.
import type { ReactNode } from 'react';
import type { TSessionUser } from '@sc/shared/auth';
import type { TOrganization, TOrganizationListItem } from '@sc/shared/organizations';
import type { TReference } from '@sc/shared/references';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { renderRoutes, type mockFetch } from '../../../test/render.tsx';
import { OrganizationDetailPage } from '../pages/OrganizationDetailPage.tsx';
import { OrganizationListPage } from '../pages/OrganizationListPage.tsx';

export function orgRow(id: number, name: string, overrides: Partial<TOrganizationListItem> = {}): TOrganizationListItem {
  return {
    id,
    name,
    country: 'India',
    country_code: 'IN',
    state: 'Karnataka',
    address_1: '1 Main Road',
    address_2: null,
    address_3: 'Bengaluru',
    zipcode: '560001',
    timezone: 'Asia/Kolkata',
    language: 1,
    parent: null,
    can_create_organization: false,
    created: '2026-01-05T09:30:00Z',
    ...overrides,
  };
}

export const page = <T,>(results: T[], count = results.length) => ({ count, next: null, previous: null, results });

export function fullOrganization(overrides: Partial<TOrganization> = {}): TOrganization {
  return {
    ...orgRow(2, 'North Hospital', { can_create_organization: true }),
    latitude: null,
    longitude: null,
    mobile: null,
    has_web_access: true,
    webhook_url: null,
    webhook_auth_token: null,
    webhook_switch: false,
    qr_enabled_for_training: true,
    is_orca_navigation_allowed: false,
    is_cervaical_navigation_allowed: false,
    enable_send_sms_to_patient: false,
    enable_send_email_to_patient: false,
    include_consent_form_in_report: false,
    automatic_tile_selection_enabled: false,
    is_storage_optimised: false,
    is_booking_enabled: false,
    allow_offline_payment: false,
    price: null,
    currency: null,
    total_bookings_per_slot: null,
    can_be_cancel_before: null,
    customized_message: null,
    customized_message_qr_path: null,
    ibe_consent_form: [],
    available_days: [],
    localize: {},
    company_info: {},
    last_sync_date: null,
    modified: '2026-01-05T09:30:00Z',
    created_by: null,
    modified_by: null,
    ...overrides,
  };
}

export function reference(id: number, name: string, isActive = true): TReference {
  return { id, name, is_active: isActive, organization: 2, created: '2026-01-05T09:30:00Z', modified: '2026-01-05T09:30:00Z' };
}

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

