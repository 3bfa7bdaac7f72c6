// Organization rows → API shapes (snake_case). What is not presented here is never sent (tree_path stays inside).
// Two rules of issue 6 live here: write-only secrets (webhook_auth_token) are shown only to a caller who may edit
// the organization, and a row saved without a country presents the country of its country codes.
import { positivityPercent } from '@sc/shared/dashboard';
import { canEditOrganization } from '@sc/shared/organization-input';
import { ZCompanyInfo, type TCompanyInfo, type TOrganization, type TOrganizationListItem } from '@sc/shared/organizations';
import type { TCountry } from '@sc/shared/list';
import type { TUserType } from '@sc/shared/roles';
import type { CompanyInfo } from '../../db/schema/organizations.ts';
import { listAllCountries } from '../lookups/lookups.service.ts';
import type { OrganizationFigures, OrganizationListRow, OrganizationRow } from './organizations.queries.ts';

const COMPANY_INFO_KEYS = Object.keys(ZCompanyInfo.shape) as (keyof TCompanyInfo)[];

let countriesByCode: Map<string, TCountry> | undefined;
let countriesByName: Map<string, TCountry> | undefined;

/** The country of an ISO code in the country list of `GET country/` ('IN' → India's entry), or null. */
function countryOfCode(code: string | null | undefined): TCountry | null {
  if (!code) return null;
  countriesByCode ??= new Map(listAllCountries().map((c) => [c.code, c]));
  return countriesByCode.get(code.toUpperCase()) ?? null;
}

/** The name of an ISO country code in the country list of `GET country/` ('IN' → 'India'), or null. */
function countryNameOf(code: string | null | undefined): string | null {
  return countryOfCode(code)?.name ?? null;
}

/** The country list's entry of a country name, in any case ('india' → India's entry), or null. */
function countryOfName(name: string | null | undefined): TCountry | null {
  if (!name?.trim()) return null;
  countriesByName ??= new Map(listAllCountries().map((c) => [c.name.toLowerCase(), c]));
  return countriesByName.get(name.trim().toLowerCase()) ?? null;
}

/**
 * country_data (part 2 §3): the entry of the organization's country_code, else of its country's name, else of its
 * company_info's country code — the same fallbacks `country` presents, so the two never disagree.
 */
function presentCountryData(
  country: string | null,
  countryCode: string | null,
  companyCountryCode: string | null | undefined,
): TCountry | null {
  if (country?.trim()) return countryOfCode(countryCode) ?? countryOfName(country);
  return countryOfCode(countryCode) ?? countryOfCode(companyCountryCode);
}

/**
 * The organization's country. Organizations saved before the country was required may have none: they present
 * the country of their own country_code, else of their company_info's (docs/decisions.md "Organization fields").
 */
function presentCountry(country: string | null, countryCode: string | null, companyCountryCode: string | null | undefined) {
  return country?.trim() ? country : (countryNameOf(countryCode) ?? countryNameOf(companyCountryCode));
}

/** Every company_info key, null when empty or missing (a form can tell "empty" from "not sent" no other way). */
export function presentCompanyInfo(info: CompanyInfo): TCompanyInfo {
  const out = {} as TCompanyInfo;
  for (const key of COMPANY_INFO_KEYS) {
    const value = info[key];
    out[key] = typeof value === 'string' && value.trim() !== '' ? value : null;
  }
  return out;
}

export function presentOrganizationListItem(r: OrganizationListRow): TOrganizationListItem {
  return {
    id: r.id,
    name: r.name,
    country: presentCountry(r.country, r.countryCode, r.companyCountryCode),
    country_code: r.countryCode,
    country_data: presentCountryData(r.country, r.countryCode, r.companyCountryCode),
    state: r.state,
    address_1: r.address1,
    address_2: r.address2,
    address_3: r.address3,
    zipcode: r.zipcode,
    timezone: r.timezone,
    language: r.languageId,
    parent: r.parentId,
    can_create_organization: r.canCreateOrganization,
    created: r.created.toISOString(),
    scans_count: r.scansCount,
    dynamic_positivity_percentage: positivityPercent(r.positiveScans, r.scansCount),
    last_sync_date: r.statsLastSync?.toISOString() ?? null,
  };
}

/** The full organization as `viewer` (the caller's role) may see it, with its figures. */
export function presentOrganization(r: OrganizationRow, viewer: TUserType, figures: OrganizationFigures): TOrganization {
  return {
    ...presentOrganizationListItem({ ...r, ...figures, companyCountryCode: r.companyInfo.country_code ?? null }),
    latitude: r.latitude,
    longitude: r.longitude,
    mobile: r.mobile,
    has_web_access: r.hasWebAccess,
    webhook_url: r.webhookUrl,
    // Write-only: those who may not edit the organization (CERVAICAL_REVIEWER) never read its token.
    webhook_auth_token: canEditOrganization(viewer) ? r.webhookAuthToken : null,
    webhook_switch: r.webhookSwitch,
    qr_enabled_for_training: r.qrEnabledForTraining,
    is_orca_navigation_allowed: r.isOrcaNavigationAllowed,
    is_cervaical_navigation_allowed: r.isCervaicalNavigationAllowed,
    enable_send_sms_to_patient: r.enableSendSmsToPatient,
    enable_send_email_to_patient: r.enableSendEmailToPatient,
    include_consent_form_in_report: r.includeConsentFormInReport,
    automatic_tile_selection_enabled: r.automaticTileSelectionEnabled,
    is_storage_optimised: r.isStorageOptimised,
    is_booking_enabled: r.isBookingEnabled,
    allow_offline_payment: r.allowOfflinePayment,
    price: r.price,
    currency: r.currency,
    total_bookings_per_slot: r.totalBookingsPerSlot,
    can_be_cancel_before: r.canBeCancelBefore,
    customized_message: r.customizedMessage,
    customized_message_qr_path: r.customizedMessageQrPath,
    ibe_consent_form: r.ibeConsentForm,
    available_days: r.availableDays,
    localize: r.localize,
    company_info: presentCompanyInfo(r.companyInfo),
    modified: r.modified.toISOString(),
    created_by: r.createdBy,
    modified_by: r.modifiedBy,
  };
}
