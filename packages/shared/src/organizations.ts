// Organization contracts (part 1 §3, §7): the list query, the list row and the full organization.
// The list row is deliberately small (the list page shows Name, Country, Date, ID); the detail carries every field.
import { z } from 'zod';
import { MAX_ID, ZBoolParam, ZCountry, ZListQuery, ZPeriodQuery, idParam, paginated } from './list.ts';

/** PostgreSQL integer ids stop at 2^31 - 1; larger numbers can name no row. */
export { MAX_ID };

/**
 * `ids=1,2,3`: a comma list of organization ids (blank items ignored). The parameter may also be repeated
 * (`ids=1&ids=2,3`, which the query parser hands over as a list): a list parameter, never 'Only one value'.
 */
export const ZIdList = z
  .union([z.string().max(11_000), z.array(z.string().max(11_000)).max(1000)], {
    error: 'Enter a whole number.',
  })
  .transform((value, ctx) => {
    const parts = (Array.isArray(value) ? value : [value])
      .join(',')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const ids: number[] = [];
    for (const p of parts) {
      const n = Number(p);
      if (!/^\d+$/.test(p) || n < 1 || n > MAX_ID) {
        ctx.addIssue({ code: 'custom', message: 'Enter a whole number.' });
        return z.NEVER;
      }
      ids.push(n);
    }
    return [...new Set(ids)];
  });

/**
 * `GET organization/`. The filter dropdown of the list (part 1 §2.4) maps to these parameters:
 * - All Organizations: no filter;
 * - Stand-alone Organizations: `sub_organisation=false` (no parent and not a distributor);
 * - Distributors: `can_create_organization=true`;
 * - Sub-organizations: `sub_organisation=true` (has a parent).
 * `parent` lists the children of one organization (the Sub-Organization tab). Period filters apply to `created`.
 */
export const ZOrganizationListQuery = ZListQuery.extend(ZPeriodQuery.shape).extend({
  parent: idParam('parent').optional(),
  can_create_organization: ZBoolParam.optional(),
  sub_organisation: ZBoolParam.optional(),
  ids: ZIdList.optional(),
});
export type TOrganizationListQuery = z.infer<typeof ZOrganizationListQuery>;
/** The query as the web builds it (strings and numbers before coercion). */
export type TOrganizationListParams = z.input<typeof ZOrganizationListQuery>;

export const ORGANIZATION_ORDERING_FIELDS = ['name', 'created', 'id', 'country'] as const;
export const ORGANIZATION_DEFAULT_ORDERING = '-created';

export const ZOrganizationListItem = z.object({
  id: z.number().int(),
  name: z.string(),
  country: z.string().nullable(),
  /** The ISO code of `country` (part 1 §3: 'country code', a read-only extra); the form's country picker reads it. */
  country_code: z.string().nullable(),
  /**
   * Part 2 §3 Organization (lists and pickers): the country as the country list gives it (name, dial_code, code,
   * currency_code: the shape of `GET country/`), or null when the organization has no known country.
   */
  country_data: ZCountry.nullable(),
  state: z.string().nullable(),
  address_1: z.string().nullable(),
  address_2: z.string().nullable(),
  address_3: z.string().nullable(),
  zipcode: z.string().nullable(),
  timezone: z.string(),
  language: z.number().int().nullable(),
  parent: z.number().int().nullable(),
  can_create_organization: z.boolean(),
  created: z.string().describe('ISO 8601 date-time'),
  // Read-only figures of part 1 §3 (all time, from the statistics tables): SCAN-type scans, their positivity with
  // one decimal (0 when none), and the latest sync (a scan received or a device upload) of the organization.
  scans_count: z.number().int(),
  dynamic_positivity_percentage: z.number(),
  last_sync_date: z.string().nullable(),
});
export type TOrganizationListItem = z.infer<typeof ZOrganizationListItem>;

export const ZOrganizationList = paginated(ZOrganizationListItem);
export type TOrganizationList = z.infer<typeof ZOrganizationList>;

/** company_info as the API answers it: every key, null when empty (never left out). */
export const ZCompanyInfo = z.object({
  name: z.string().nullable(),
  city: z.string().nullable(),
  zip_code: z.string().nullable(),
  state: z.string().nullable(),
  address: z.string().nullable(),
  email: z.string().nullable(),
  /** Dial code, a hyphen, then the number: '+91-9876543210'. */
  contact_number: z.string().nullable(),
  country_code: z.string().nullable(),
  profile_image_path: z.string().nullable(),
});
export type TCompanyInfo = z.infer<typeof ZCompanyInfo>;

export const ZLocalizedConsent = z.object({
  name: z.string(),
  ibe_consent_form: z.array(z.string()),
  cervaical_consent_form: z.array(z.string()),
  orca_consent_form: z.array(z.string()),
});
/** Keyed by language iso_code. */
export const ZLocalize = z.record(z.string(), ZLocalizedConsent);
export type TLocalize = z.infer<typeof ZLocalize>;

/**
 * `GET organization/{id}/`: every field of part 1 §3. `country` is never null for an organization saved since
 * issue 6 (required); older rows present the country of their `country_code` or company_info's. `webhook_auth_token`
 * is write-only: null for a caller who may not edit the organization.
 */
export const ZOrganization = ZOrganizationListItem.extend({
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  mobile: z.string().nullable(),
  has_web_access: z.boolean(),
  webhook_url: z.string().nullable(),
  webhook_auth_token: z.string().nullable(),
  webhook_switch: z.boolean(),
  qr_enabled_for_training: z.boolean(),
  is_orca_navigation_allowed: z.boolean(),
  is_cervaical_navigation_allowed: z.boolean(),
  enable_send_sms_to_patient: z.boolean(),
  enable_send_email_to_patient: z.boolean(),
  include_consent_form_in_report: z.boolean(),
  automatic_tile_selection_enabled: z.boolean(),
  is_storage_optimised: z.boolean(),
  is_booking_enabled: z.boolean(),
  allow_offline_payment: z.boolean(),
  price: z
    .number()
    .int()
    .nullable()
    .describe('Minor units (amount × 100); the console shows it divided by 100.'),
  currency: z.string().nullable(),
  total_bookings_per_slot: z.number().int().nullable(),
  can_be_cancel_before: z.number().int().nullable().describe('Hours before the slot'),
  customized_message: z.string().nullable(),
  customized_message_qr_path: z.string().nullable(),
  ibe_consent_form: z.array(z.string()),
  available_days: z.array(z.number().int().min(0).max(6)).describe('MON..SUN as 0..6'),
  localize: ZLocalize,
  company_info: ZCompanyInfo,
  modified: z.string(),
  created_by: z.number().int().nullable(),
  modified_by: z.number().int().nullable(),
});
export type TOrganization = z.infer<typeof ZOrganization>;
