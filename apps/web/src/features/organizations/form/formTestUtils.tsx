// Fixtures of the organization form tests: a signed-in user of any role around the dialog, and the lookups the
// form loads (countries, time zones, languages, distributors).
import type { ReactElement } from 'react';
import type { TLanguage } from '@sc/shared/languages';
import type { TOrganization } from '@sc/shared/organizations';
import type { TUserType } from '@sc/shared/roles';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { makeUser, mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { emptyCompanyInfo, fullOrganization } from '../test/organizationBuilders.ts';

export const LANGUAGES: TLanguage[] = [
  { id: 1, name: 'English', iso_code: 'en', is_tutorial_available: true, app_version: null, ibe_consent_form: [] },
  { id: 2, name: 'Hindi', iso_code: 'hi', is_tutorial_available: true, app_version: null, ibe_consent_form: [] },
  { id: 3, name: 'Spanish', iso_code: 'es', is_tutorial_available: false, app_version: null, ibe_consent_form: [] },
];

const envelope = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

/** The organization the form tests edit: a stand-alone clinic with one consent text and company info. */
export function makeOrganization(overrides: Partial<TOrganization> = {}): TOrganization {
  return fullOrganization({
    id: 5,
    name: 'City Clinic',
    state: 'Maharashtra',
    address_1: 'MG Road',
    address_3: 'Pune',
    zipcode: '411001',
    can_create_organization: false,
    created: '2026-01-01T00:00:00Z',
    modified: '2026-01-01T00:00:00Z',
    is_cervaical_navigation_allowed: true,
    ibe_consent_form: ['I agree to the breast examination.'],
    company_info: {
      ...emptyCompanyInfo(),
      name: 'City Clinic',
      city: 'Pune',
      zip_code: '411001',
      state: 'Maharashtra',
      address: 'MG Road',
    },
    ...overrides,
  });
}

type Replies = Parameters<typeof mockFetch>[0];

/** The lookups every form test needs, plus `extra` replies. Language search filters by name like the API. */
export function mockFormApi(extra: Replies = {}) {
  const base = mockFetch({
    'GET /api/v1/country/': { body: [{ name: 'India', dial_code: '+91', code: 'IN', currency_code: 'INR' }] },
    'GET /api/v1/timezone/': { body: ['Asia/Kolkata', 'Europe/Paris'] },
    'GET /api/v1/organization/': {
      body: envelope([{ id: 9, name: 'North Distributor', country: 'India', can_create_organization: true }]),
    },
    'GET /api/v1/organization/9/': { body: makeOrganization({ id: 9, name: 'North Distributor', can_create_organization: true }) },
    ...extra,
  });
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/v1/language/') {
      const term = (url.searchParams.get('search') ?? '').toLowerCase();
      const found = LANGUAGES.filter((l) => l.name.toLowerCase().includes(term) || l.iso_code.includes(term));
      return new Response(JSON.stringify(envelope(found)), { headers: { 'content-type': 'application/json' } });
    }
    return base(input, init);
  };
  globalThis.fetch = fetchFn as typeof fetch;
  return base;
}

export function renderAs(role: TUserType, ui: ReactElement) {
  return renderWithProviders(<SessionUserContext.Provider value={makeUser(role)}>{ui}</SessionUserContext.Provider>);
}
