// The organization form's state and its mapping to and from the API (part 1 §2.5, §3, §4, §5). The rules
// themselves are the shared ZOrganizationInput; this file only shapes values and errors.
import { DEFAULT_COUNTRY_CODE, DEFAULT_LANGUAGE_ID, DEFAULT_TIMEZONE } from '@sc/shared/constants';
import { outOfRangeMessage } from '@sc/shared/numbers';
import {
  COMPANY_INFO_REQUIRED,
  PRICE_MAX,
  ZCompanyInfoInput,
  ZOrganizationInput,
  editableOrganizationFields,
  type TOrganizationFormValues,
} from '@sc/shared/organization-input';
import type { TLocalize, TOrganization } from '@sc/shared/organizations';
import { nationalPartOf } from '@sc/shared/phone';
import type { TUserType } from '@sc/shared/roles';
import { MESSAGES, isBlankText, normalizeConsentList } from '@sc/shared/validation';

export type CompanyInfoValues = {
  name: string;
  city: string;
  zip_code: string;
  state: string;
  address: string;
  email: string;
  /** The national number only; the dial code comes from country_code. */
  contact_number: string;
  country_code: string | null;
  profile_image_path: string;
};

export type OrganizationFormValues = {
  name: string;
  address_1: string;
  address_2: string;
  address_3: string;
  country: string;
  country_code: string;
  state: string;
  zipcode: string;
  latitude: number | null;
  longitude: number | null;
  timezone: string;
  language: number | null;
  parent: number | null;
  can_create_organization: boolean;
  include_consent_form_in_report: boolean;
  enable_send_email_to_patient: boolean;
  qr_enabled_for_training: boolean;
  automatic_tile_selection_enabled: boolean;
  has_web_access: boolean;
  is_orca_navigation_allowed: boolean;
  is_cervaical_navigation_allowed: boolean;
  enable_send_sms_to_patient: boolean;
  is_storage_optimised: boolean;
  is_booking_enabled: boolean;
  allow_offline_payment: boolean;
  /** Shown in major units (stored ÷ 100). */
  price: number | string;
  currency: string;
  total_bookings_per_slot: number | string;
  can_be_cancel_before: number | string;
  available_days: number[];
  customized_message: string;
  customized_message_qr_path: string;
  webhook_url: string;
  webhook_auth_token: string;
  webhook_switch: boolean;
  ibe_consent_form: string[];
  localize: TLocalize;
  company_info: CompanyInfoValues;
};

/** Flags of Basic info in the order of part 1 §2.5, with their labels. */
export const FLAG_FIELDS = [
  { key: 'include_consent_form_in_report', label: 'Include consent form in report' },
  { key: 'enable_send_email_to_patient', label: 'Enable send email to patient' },
  { key: 'qr_enabled_for_training', label: 'QR enabled for training' },
  { key: 'automatic_tile_selection_enabled', label: 'Automatic tile selection' },
  { key: 'has_web_access', label: 'Has web access' },
  { key: 'is_orca_navigation_allowed', label: 'Cross-app navigation ORCA' },
  { key: 'is_cervaical_navigation_allowed', label: 'Cross-app navigation Cervical' },
  { key: 'enable_send_sms_to_patient', label: 'Enable send SMS to patient' },
  { key: 'is_storage_optimised', label: 'Enable storage optimise' },
] as const satisfies readonly { key: keyof OrganizationFormValues; label: string }[];
export type FlagField = (typeof FLAG_FIELDS)[number]['key'];

/** Roles that send parent: null when no parent is chosen (part 1 §5). */
const NULL_PARENT_ROLES: readonly TUserType[] = ['SUB_ADMIN', 'ADMIN', 'MANAGER'];

const emptyCompanyInfo = (): CompanyInfoValues => ({
  name: '',
  city: '',
  zip_code: '',
  state: '',
  address: '',
  email: '',
  contact_number: '',
  country_code: DEFAULT_COUNTRY_CODE,
  profile_image_path: '',
});

export function emptyValues(parentId?: number): OrganizationFormValues {
  return {
    name: '',
    address_1: '',
    address_2: '',
    address_3: '',
    country: '',
    country_code: '',
    state: '',
    zipcode: '',
    latitude: null,
    longitude: null,
    timezone: DEFAULT_TIMEZONE,
    language: DEFAULT_LANGUAGE_ID,
    parent: parentId ?? null,
    can_create_organization: false,
    include_consent_form_in_report: false,
    enable_send_email_to_patient: false,
    qr_enabled_for_training: true,
    automatic_tile_selection_enabled: false,
    has_web_access: false,
    is_orca_navigation_allowed: false,
    is_cervaical_navigation_allowed: false,
    enable_send_sms_to_patient: false,
    is_storage_optimised: false,
    is_booking_enabled: false,
    allow_offline_payment: false,
    price: '',
    currency: '',
    total_bookings_per_slot: '',
    can_be_cancel_before: '',
    available_days: [],
    customized_message: '',
    customized_message_qr_path: '',
    webhook_url: '',
    webhook_auth_token: '',
    webhook_switch: false,
    ibe_consent_form: [''],
    localize: {},
    company_info: emptyCompanyInfo(),
  };
}

export function valuesFromOrganization(org: TOrganization): OrganizationFormValues {
  const base = emptyValues();
  const c = org.company_info;
  return {
    ...base,
    name: org.name,
    address_1: org.address_1 ?? '',
    address_2: org.address_2 ?? '',
    address_3: org.address_3 ?? '',
    country: org.country ?? '',
    country_code: org.country_code ?? '',
    state: org.state ?? '',
    zipcode: org.zipcode ?? '',
    latitude: org.latitude,
    longitude: org.longitude,
    timezone: org.timezone || DEFAULT_TIMEZONE,
    language: org.language,
    parent: org.parent,
    can_create_organization: org.can_create_organization,
    include_consent_form_in_report: org.include_consent_form_in_report,
    enable_send_email_to_patient: org.enable_send_email_to_patient,
    qr_enabled_for_training: org.qr_enabled_for_training,
    automatic_tile_selection_enabled: org.automatic_tile_selection_enabled,
    has_web_access: org.has_web_access,
    is_orca_navigation_allowed: org.is_orca_navigation_allowed,
    is_cervaical_navigation_allowed: org.is_cervaical_navigation_allowed,
    enable_send_sms_to_patient: org.enable_send_sms_to_patient,
    is_storage_optimised: org.is_storage_optimised,
    is_booking_enabled: org.is_booking_enabled,
    allow_offline_payment: org.allow_offline_payment,
    price: org.price === null ? '' : org.price / 100,
    currency: org.currency ?? '',
    total_bookings_per_slot: org.total_bookings_per_slot ?? '',
    can_be_cancel_before: org.can_be_cancel_before ?? '',
    available_days: [...org.available_days].sort((a, b) => a - b),
    customized_message: org.customized_message ?? '',
    customized_message_qr_path: org.customized_message_qr_path ?? '',
    webhook_url: org.webhook_url ?? '',
    webhook_auth_token: org.webhook_auth_token ?? '',
    webhook_switch: org.webhook_switch,
    ibe_consent_form: org.ibe_consent_form.length > 0 ? [...org.ibe_consent_form] : [''],
    localize: org.localize,
    company_info: {
      name: c.name ?? '',
      city: c.city ?? '',
      zip_code: c.zip_code ?? '',
      state: c.state ?? '',
      address: c.address ?? '',
      email: c.email ?? '',
      // '+91-9876543210' → '9876543210' (the picker holds the country).
      contact_number: nationalPartOf(c.contact_number),
      country_code: c.country_code ?? (c.contact_number ? null : DEFAULT_COUNTRY_CODE),
      profile_image_path: c.profile_image_path ?? '',
    },
  };
}

/** An empty or blank input (whitespace or invisible characters only) → null. */
const orNull = (v: string): string | null => (isBlankText(v) ? null : v);

const numberOrNull = (v: number | string): number | null => {
  if (v === '' || v === null) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
};

/**
 * Form values → the request body. Fields the role may not change are left out (the API keeps them);
 * in booking mode the consent, customized message and webhook sections are hidden and not sent.
 */
export function toPayload(values: OrganizationFormValues, role: TUserType, fixedParentId?: number): TOrganizationFormValues {
  const editable = editableOrganizationFields(role);
  const booking = values.is_booking_enabled;
  const price = numberOrNull(values.price);
  const c = values.company_info;
  const payload: TOrganizationFormValues = {
    name: values.name,
    address_1: values.address_1,
    address_2: values.address_2,
    address_3: values.address_3,
    country: values.country,
    country_code: values.country_code,
    state: values.state,
    zipcode: values.zipcode,
    latitude: values.latitude,
    longitude: values.longitude,
    timezone: values.timezone,
    language: values.language,
    include_consent_form_in_report: values.include_consent_form_in_report,
    enable_send_email_to_patient: values.enable_send_email_to_patient,
    qr_enabled_for_training: values.qr_enabled_for_training,
    automatic_tile_selection_enabled: values.automatic_tile_selection_enabled,
    // Every company_info key is sent; an empty one as null (part 1 §3 lists them all), never left out.
    company_info: {
      name: orNull(c.name),
      city: orNull(c.city),
      zip_code: orNull(c.zip_code),
      state: orNull(c.state),
      address: orNull(c.address),
      email: orNull(c.email),
      contact_number: orNull(c.contact_number),
      country_code: c.country_code || null,
      profile_image_path: orNull(c.profile_image_path),
    },
  };
  for (const key of ['has_web_access', 'is_orca_navigation_allowed', 'is_cervaical_navigation_allowed', 'enable_send_sms_to_patient', 'is_storage_optimised'] as const) {
    if (editable[key]) payload[key] = values[key];
  }
  const parent = fixedParentId ?? values.parent;
  if (parent !== null) payload.parent = parent;
  else if (NULL_PARENT_ROLES.includes(role)) payload.parent = null;
  // Choosing a parent turns the flag off in the form (part 1 §4) and a sub-organization cannot switch it on; an
  // existing sub-distributor keeps the flag it has, so saving it unchanged does not demote it.
  if (editable.can_create_organization) payload.can_create_organization = values.can_create_organization;
  if (editable.parent) payload.is_booking_enabled = booking;
  if (booking) {
    payload.price = price === null ? null : Math.round(price * 100);
    payload.currency = values.currency;
    payload.total_bookings_per_slot = numberOrNull(values.total_bookings_per_slot);
    payload.can_be_cancel_before = numberOrNull(values.can_be_cancel_before);
    payload.allow_offline_payment = values.allow_offline_payment;
    payload.available_days = [...values.available_days].sort((a, b) => a - b);
  } else {
    payload.ibe_consent_form = normalizeConsentList(values.ibe_consent_form);
    payload.localize = Object.fromEntries(
      Object.entries(values.localize).map(([iso, v]) => [
        iso,
        {
          name: v.name,
          ibe_consent_form: normalizeConsentList(v.ibe_consent_form),
          cervaical_consent_form: normalizeConsentList(v.cervaical_consent_form),
          orca_consent_form: normalizeConsentList(v.orca_consent_form),
        },
      ]),
    );
    payload.customized_message = values.customized_message;
    payload.customized_message_qr_path = values.customized_message_qr_path;
    payload.webhook_url = values.webhook_url;
    payload.webhook_auth_token = values.webhook_auth_token;
    payload.webhook_switch = values.webhook_switch;
  }
  return payload;
}

export type FormErrors = Record<string, string>;

/**
 * Client validation with the shared schema. Consent items are checked where they stand in the form (the
 * schema's list rule reports the index it was given), so the form validates the raw list, not the normalised one.
 */
export function validateValues(values: OrganizationFormValues, role: TUserType, fixedParentId?: number): FormErrors {
  const payload = toPayload(values, role, fixedParentId);
  if (!values.is_booking_enabled) payload.ibe_consent_form = values.ibe_consent_form;
  const errors: FormErrors = {};
  const collect = (issues: readonly { path: PropertyKey[]; message: string }[], prefix: string[] = []) => {
    for (const issue of issues) {
      const key = [...prefix, ...issue.path.map(String)].join('.') || 'non_field_errors';
      errors[key] ??= issue.message;
    }
  };
  const result = ZOrganizationInput.safeParse(payload);
  if (!result.success) collect(result.error.issues);
  // The schema's cross-field rules (company_info's required fields) run only once every plain field passes; the
  // form shows all errors at once, so it asks for them here too, from the same shared list and message.
  // The schema judges the price in cents; the field holds units: its range is said in the units typed (issue 23.4).
  if (errors.price) errors.price = outOfRangeMessage(values.price, { min: 0, max: PRICE_MAX / 100 }) ?? errors.price;
  const company = ZCompanyInfoInput.safeParse(payload.company_info);
  if (!company.success) collect(company.error.issues, ['company_info']);
  if (!values.is_booking_enabled) {
    for (const key of COMPANY_INFO_REQUIRED) {
      if (isBlankText(values.company_info[key])) errors[`company_info.${key}`] ??= MESSAGES.required;
    }
  }
  return errors;
}

/** DRF field errors ({'company_info.email': ['…'], company_info: {email: ['…']}}) → flat dotted keys. */
export function flattenServerErrors(body: Record<string, unknown>, prefix = ''): FormErrors {
  const out: FormErrors = {};
  for (const [key, value] of Object.entries(body)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] ??= value;
    else if (Array.isArray(value)) {
      if (value.every((v) => typeof v === 'string')) {
        if (value.length > 0) out[path] = value.join(' ');
      } else {
        value.forEach((v, i) => {
          if (typeof v === 'string') out[`${path}.${i}`] = v;
          else if (v && typeof v === 'object') Object.assign(out, flattenServerErrors(v as Record<string, unknown>, `${path}.${i}`));
        });
      }
    } else if (value && typeof value === 'object') Object.assign(out, flattenServerErrors(value as Record<string, unknown>, path));
  }
  return out;
}

/** Field errors of the customized message section: the section opens when one of them is set. */
export const CUSTOMIZED_MESSAGE_FIELDS = ['customized_message', 'customized_message_qr_path'] as const;
export const WEBHOOK_FIELDS = ['webhook_url', 'webhook_auth_token', 'webhook_switch'] as const;

/**
 * Auto-copy (part 1 §4): organization name, address lines, city (address 3), zipcode and state are copied into
 * company_info name, address, city, zip_code and state while the target is empty or still equal to the value its
 * source had before the change.
 */
function autoCopySources(v: OrganizationFormValues) {
  return {
    name: v.name,
    address: [v.address_1, v.address_2].map((s) => s.trim()).filter(Boolean).join(', '),
    city: v.address_3,
    zip_code: v.zipcode,
    state: v.state,
  } satisfies Partial<Record<keyof CompanyInfoValues, string>>;
}

/** The company_info fields to overwrite after the form went from `previous` to `next`. */
export function autoCopyPatch(previous: OrganizationFormValues, next: OrganizationFormValues): Partial<CompanyInfoValues> {
  const before = autoCopySources(previous);
  const after = autoCopySources(next);
  const patch: Partial<CompanyInfoValues> = {};
  for (const target of Object.keys(after) as (keyof typeof after)[]) {
    if (before[target] === after[target]) continue;
    const current = next.company_info[target];
    if (current === '' || current === before[target]) patch[target] = after[target];
  }
  return patch;
}
