// Builders of organization and reference records for tests, with no page or router imports, so the list,
// detail and form tests share one definition of a complete organization.
import type { TCompanyInfo, TOrganization, TOrganizationListItem } from '@sc/shared/organizations';
import type { TReference } from '@sc/shared/references';

export function orgRow(id: number, name: string, overrides: Partial<TOrganizationListItem> = {}): TOrganizationListItem {
  return {
    id,
    name,
    country: 'India',
    country_code: 'IN',
    country_data: { name: 'India', dial_code: '+91', code: 'IN', currency_code: 'INR' },
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
    scans_count: 0,
    dynamic_positivity_percentage: 0,
    last_sync_date: null,
    ...overrides,
  };
}

export const page = <T,>(results: T[], count = results.length) => ({ count, next: null, previous: null, results });

/** company_info as the API presents it: every key, null when empty. */
export const emptyCompanyInfo = (): TCompanyInfo => ({
  name: null,
  city: null,
  zip_code: null,
  state: null,
  address: null,
  email: null,
  contact_number: null,
  country_code: null,
  profile_image_path: null,
});

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
    company_info: emptyCompanyInfo(),
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
