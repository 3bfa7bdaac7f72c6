// Organization rows → API shapes (snake_case). What is not presented here is never sent (tree_path stays inside).
import type { TOrganization, TOrganizationListItem } from '@sc/shared/organizations';
import type { OrganizationListRow, OrganizationRow } from './organizations.queries.ts';

export function presentOrganizationListItem(r: OrganizationListRow): TOrganizationListItem {
  return {
    id: r.id,
    name: r.name,
    country: r.country,
    country_code: r.countryCode,
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
  };
}

export function presentOrganization(r: OrganizationRow): TOrganization {
  return {
    ...presentOrganizationListItem(r),
    latitude: r.latitude,
    longitude: r.longitude,
    mobile: r.mobile,
    has_web_access: r.hasWebAccess,
    webhook_url: r.webhookUrl,
    webhook_auth_token: r.webhookAuthToken,
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
    company_info: r.companyInfo,
    last_sync_date: r.lastSyncDate?.toISOString() ?? null,
    modified: r.modified.toISOString(),
    created_by: r.createdBy,
    modified_by: r.modifiedBy,
  };
}
