// Organization create/edit contracts (part 1 §2.5, §3, §5, §6): the body of `POST organization/`,
// `PUT organization/{id}/` and `PATCH organization/{id}/`, validated with the same rules and messages by the
// console form and the API. Rules that need the database (language ids and iso codes, the parent, uploaded
// files, webhook address resolution) and rules that depend on the caller's role are applied by the API.
import { z } from 'zod';
import { isSupportedCountry } from 'libphonenumber-js/mobile';
import { CONSENT_MAX_WORDS, CUSTOMIZED_MESSAGE_MAX, DEFAULT_COUNTRY_CODE } from './constants.ts';
import { idField } from './list.ts';
import { maxValueMessage, minValueMessage } from './numbers.ts';
import { ZOrganization } from './organizations.ts';
import { can } from './permissions.ts';
import type { TUserType } from './roles.ts';
import {
  CONSENT_TEXT_PATTERN,
  EMAIL_PATTERN,
  MESSAGES,
  ORG_TEXT_PATTERN,
  countWords,
  mobileTextField,
  normalizeConsentList,
  parseMobile,
  textField,
} from './validation.ts';
import { mobileProblem } from './phone.ts';

export const ORGANIZATION_MESSAGES = {
  created: 'Organization created Successfully',
  updated: 'Organization updated Successfully',
} as const;

export const ORG_NAME_MAX = 255;
export const ORG_TEXT_MAX = 255;
export const WEBHOOK_URL_MAX = 500;
export const WEBHOOK_TOKEN_MAX = 500;
export const FILE_PATH_MAX = 500;
export const CONSENT_TEXT_MAX_CHARS = 10_000;
export const CONSENT_MAX_ITEMS = 50;
export const PRICE_MAX = 1_000_000_000;
export const BOOKINGS_PER_SLOT_MAX = 10_000;
export const CANCEL_BEFORE_MAX_HOURS = 24 * 365;

const maxChars = (n: number) => `Ensure this field has no more than ${n} characters.`;
const INT_MSG = 'A valid integer is required.';
const BOOL_MSG = 'Must be a valid boolean.';
const NUMBER_MSG = 'A valid number is required.';

// ---- Field builders ---------------------------------------------------------------------------------------

/** Optional free text: '' and whitespace become null (the form sends empty inputs as ''). */
const optionalText = (max = ORG_TEXT_MAX) =>
  textField()
    .trim()
    .max(max, maxChars(max))
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));

/** An optional typed mobile number ('' becomes null); checked with its country by the object's rules. */
const optionalMobile = () =>
  mobileTextField()
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));

/** Required text with the organization pattern ('Only alphabets, numbers and special characters are allowed'). */
const orgName = () =>
  textField({ error: (issue) => (issue.input == null ? MESSAGES.required : 'Not a valid string.') })
    .trim()
    .min(1, { error: MESSAGES.required, abort: true })
    .max(ORG_NAME_MAX, { error: maxChars(ORG_NAME_MAX), abort: true })
    .regex(ORG_TEXT_PATTERN, MESSAGES.orgText);

const bool = () => z.boolean({ error: BOOL_MSG }).optional();

const id = () => idField(INT_MSG);

const intIn = (min: number, max: number) =>
  z
    .number({ error: INT_MSG })
    .int(INT_MSG)
    .min(min, minValueMessage(min))
    .max(max, maxValueMessage(max));

const coordinate = (limit: number) =>
  z
    .number({ error: NUMBER_MSG })
    .min(-limit, `Ensure this value is greater than or equal to -${limit}.`)
    .max(limit, `Ensure this value is less than or equal to ${limit}.`)
    .nullable()
    .optional();

/** An IANA time zone name the runtime knows ('Asia/Kolkata', 'UTC'); offsets and free text are refused. */
export function isKnownTimezone(name: string): boolean {
  if (name.length > 64 || !/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** ISO 4217 code the runtime knows (INR, USD, EUR…). */
export function isKnownCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  const supported = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf;
  return supported ? supported('currency').includes(code) : true;
}

/** ISO 3166-1 alpha-2 code with a telephone dial code (IN, US, ES…). */
export const isKnownCountryCode = (code: string): boolean => /^[A-Z]{2}$/.test(code) && isSupportedCountry(code);

const countryCode = () =>
  textField({ error: MESSAGES.invalidCountryCode })
    .trim()
    .transform((v) => v.toUpperCase())
    .refine((v) => v === '' || isKnownCountryCode(v), MESSAGES.invalidCountryCode)
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));

/** http(s) URL, at most 500 characters; '' becomes null. Private addresses are refused by the API. */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** Stored path of an upload (`POST file/upload/` → path), in the given folder. */
const uploadPath = (folder: 'companylogo' | 'customized') =>
  textField({ error: MESSAGES.invalidFilePath, normalize: false })
    .trim()
    .max(FILE_PATH_MAX, maxChars(FILE_PATH_MAX))
    .refine((v) => v === '' || v.startsWith(`${folder}/`), MESSAGES.invalidFilePath)
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));

// ---- Consent texts ----------------------------------------------------------------------------------------

/** One consent text as the form validates it: required, not blank, the consent characters, ≤ 400 words. */
export const ZConsentText = textField({ error: MESSAGES.required, multiline: true })
  .trim()
  .min(1, { error: MESSAGES.required, abort: true })
  .max(CONSENT_TEXT_MAX_CHARS, { error: MESSAGES.consentTooLong, abort: true })
  .regex(CONSENT_TEXT_PATTERN, MESSAGES.consentChars)
  .refine((s) => countWords(s) <= CONSENT_MAX_WORDS, MESSAGES.consentMaxWords);

/**
 * A list of consent texts as saved: blank items are dropped and newlines become a space (`normalizeConsentList`);
 * each other item is checked where it stands, so an error points at the item the user typed.
 */
export const ZConsentList = z
  .array(textField({ multiline: true }), { error: 'Expected a list of items.' })
  .max(CONSENT_MAX_ITEMS, `Ensure this field has no more than ${CONSENT_MAX_ITEMS} elements.`)
  .superRefine((items, ctx) => {
    items.forEach((item, i) => {
      if (item.trim() === '') return;
      const r = ZConsentText.safeParse(item);
      if (!r.success) for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [i] });
    });
  })
  .transform((items) => normalizeConsentList(items));

/** iso_code of a language ('es', 'pt-BR'). English is the base and never a localize entry. */
export const LOCALIZE_ISO_PATTERN = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})?$/i;
export const BASE_LANGUAGE_ISO = 'en';

export const ZLocalizedConsentInput = z.object({
  /** The language's name; the API fills it from the languages table. */
  name: textField().trim().max(100, maxChars(100)).optional(),
  ibe_consent_form: ZConsentList.default([]),
  cervaical_consent_form: ZConsentList.default([]),
  orca_consent_form: ZConsentList.default([]),
});

/** `localize`: keyed by iso code; keys are lower-cased, each language at most once, never 'en'. */
export const ZLocalizeInput = z
  .record(z.string(), ZLocalizedConsentInput, { error: 'Expected an object keyed by language code.' })
  .superRefine((rec, ctx) => {
    const seen = new Set<string>();
    const keys = Object.keys(rec);
    if (keys.length > 200) ctx.addIssue({ code: 'custom', message: 'Too many languages.', path: [] });
    for (const key of keys) {
      const iso = key.trim().toLowerCase();
      if (!LOCALIZE_ISO_PATTERN.test(iso) || iso === BASE_LANGUAGE_ISO) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.languageNotInList, path: [key] });
      } else if (seen.has(iso)) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.languageAlreadySelected, path: [key] });
      }
      seen.add(iso);
    }
  })
  .transform((rec) =>
    Object.fromEntries(Object.entries(rec).map(([k, v]) => [k.trim().toLowerCase(), v])),
  );
export type TLocalizeInput = z.output<typeof ZLocalizeInput>;

/** One row of the language section of the form (part 1 §2.5): a language picker and its three lists. */
export const ZLocalizeRow = ZLocalizedConsentInput.extend({
  iso_code: textField({ error: MESSAGES.selectLanguage }).trim().min(1, MESSAGES.selectLanguage),
});
export type TLocalizeRow = z.input<typeof ZLocalizeRow>;

/** The rows of the form: a language chosen twice reports 'Language already selected' on the second row. */
export const ZLocalizeRows = z.array(ZLocalizeRow).superRefine((rows, ctx) => {
  const seen = new Set<string>();
  rows.forEach((r, i) => {
    const iso = r.iso_code.toLowerCase();
    if (iso === BASE_LANGUAGE_ISO) ctx.addIssue({ code: 'custom', message: MESSAGES.languageNotInList, path: [i, 'iso_code'] });
    else if (seen.has(iso)) ctx.addIssue({ code: 'custom', message: MESSAGES.languageAlreadySelected, path: [i, 'iso_code'] });
    seen.add(iso);
  });
});

/** Form rows → the `localize` object the API takes. */
export function localizeFromRows(rows: readonly TLocalizeRow[]): Record<string, z.input<typeof ZLocalizedConsentInput>> {
  return Object.fromEntries(
    rows.map(({ iso_code, ...rest }) => [iso_code.trim().toLowerCase(), rest]),
  );
}

/** Stored `localize` → form rows. */
export function localizeToRows(
  localize: Record<string, { name: string; ibe_consent_form: string[]; cervaical_consent_form: string[]; orca_consent_form: string[] }>,
): TLocalizeRow[] {
  return Object.entries(localize).map(([iso_code, v]) => ({ iso_code, ...v }));
}

// ---- Company info -----------------------------------------------------------------------------------------

const companyInfoShape = {
  name: optionalText(),
  city: optionalText(),
  zip_code: optionalText(32),
  state: optionalText(),
  address: optionalText(500),
  email: textField({ error: MESSAGES.invalidEmail })
    .trim()
    .max(254, maxChars(254))
    .refine((v) => v === '' || EMAIL_PATTERN.test(v), MESSAGES.invalidEmail)
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v)),
  contact_number: optionalMobile(),
  country_code: countryCode(),
  profile_image_path: uploadPath('companylogo'),
};

/** The company_info fields required outside booking mode (part 1 §5). */
export const COMPANY_INFO_REQUIRED = ['name', 'city', 'zip_code', 'state', 'address'] as const;

/**
 * company_info (part 1 §3, §5), formats only: the name pattern, a valid email, a contact number valid for the
 * country's dial code (stored as '+91-9876543210'). The required fields are checked by ZOrganizationInput,
 * outside booking mode only.
 */
export const ZCompanyInfoInput = z
  .object(companyInfoShape, { error: 'Expected an object.' })
  .superRefine((c, ctx) => {
    if (c.name && !ORG_TEXT_PATTERN.test(c.name)) ctx.addIssue({ code: 'custom', message: MESSAGES.orgText, path: ['name'] });
    if (c.contact_number) {
      if (!c.country_code) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.selectCountryCode, path: ['country_code'] });
      } else if (isKnownCountryCode(c.country_code) && !parseMobile(c.contact_number, c.country_code)) {
        const message = mobileProblem(c.contact_number, c.country_code) ?? MESSAGES.invalidPhone;
        ctx.addIssue({ code: 'custom', message, path: ['contact_number'] });
      }
    }
  })
  .transform((c) => {
    // The stored form '+91-9876543210', however it was typed ('+91 98765 43210', '09876543210').
    const mobile = c.contact_number && c.country_code ? parseMobile(c.contact_number, c.country_code) : null;
    return mobile ? { ...c, contact_number: mobile.stored } : c;
  });
export type TCompanyInfoInput = z.input<typeof ZCompanyInfoInput>;

// ---- The organization ---------------------------------------------------------------------------------------

const fields = {
  name: orgName(),
  address_1: optionalText(),
  address_2: optionalText(),
  /** The city. */
  address_3: optionalText(),
  country: optionalText(100),
  country_code: countryCode(),
  state: optionalText(),
  zipcode: optionalText(32),
  latitude: coordinate(90),
  longitude: coordinate(180),
  /** A mobile number of the organization's `country_code` (IN when none is sent); stored '+91-9876543210'. */
  mobile: optionalMobile(),
  timezone: textField({ error: MESSAGES.invalidTimezone })
    .trim()
    .refine(isKnownTimezone, MESSAGES.invalidTimezone)
    .optional(),
  /** Tutorial language id; new organizations get DEFAULT_LANGUAGE_ID when none is given. */
  language: id().nullable().optional(),
  /** Parent organization id (a distributor), or null for a top-level organization. */
  parent: id().nullable().optional(),
  has_web_access: bool(),
  can_create_organization: bool(),
  qr_enabled_for_training: bool(),
  is_orca_navigation_allowed: bool(),
  is_cervaical_navigation_allowed: bool(),
  enable_send_sms_to_patient: bool(),
  enable_send_email_to_patient: bool(),
  include_consent_form_in_report: bool(),
  automatic_tile_selection_enabled: bool(),
  is_storage_optimised: bool(),
  is_booking_enabled: bool(),
  allow_offline_payment: bool(),
  webhook_url: textField({ error: MESSAGES.invalidUrl, normalize: false })
    .trim()
    .max(WEBHOOK_URL_MAX, { error: maxChars(WEBHOOK_URL_MAX), abort: true })
    .refine((v) => v === '' || isHttpUrl(v), MESSAGES.invalidUrl)
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v)),
  // A secret, kept byte for byte (no NFC); one line, since it travels in an HTTP header.
  webhook_auth_token: textField({ normalize: false })
    .max(WEBHOOK_TOKEN_MAX, maxChars(WEBHOOK_TOKEN_MAX))
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v)),
  webhook_switch: bool(),
  /** Minor units (amount × 100), as stored and as `GET organization/{id}/` returns it. */
  price: intIn(0, PRICE_MAX).nullable().optional(),
  currency: textField({ error: MESSAGES.invalidCurrency })
    .trim()
    .transform((v) => v.toUpperCase())
    .refine((v) => v === '' || isKnownCurrency(v), MESSAGES.invalidCurrency)
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v)),
  total_bookings_per_slot: intIn(1, BOOKINGS_PER_SLOT_MAX).nullable().optional(),
  /** Hours before a slot. */
  can_be_cancel_before: intIn(0, CANCEL_BEFORE_MAX_HOURS).nullable().optional(),
  /** MON..SUN as 0..6, each at most once. */
  available_days: z
    .array(intIn(0, 6), { error: 'Expected a list of items.' })
    .max(7, 'Ensure this field has no more than 7 elements.')
    .refine((d) => new Set(d).size === d.length, MESSAGES.duplicateDays)
    .optional(),
  customized_message: textField({ multiline: true })
    .max(CUSTOMIZED_MESSAGE_MAX, { error: MESSAGES.customizedMessageMax, abort: true })
    .refine((v) => v.trim() === '' || ORG_TEXT_PATTERN.test(v), MESSAGES.orgText)
    .nullable()
    .optional()
    .transform((v) => (typeof v === 'string' && v.trim() === '' ? null : v)),
  customized_message_qr_path: uploadPath('customized'),
  ibe_consent_form: ZConsentList.optional(),
  localize: ZLocalizeInput.optional(),
  company_info: ZCompanyInfoInput.optional(),
};

type CrossFields = {
  country?: string | null;
  mobile?: string | null;
  country_code?: string | null;
  is_booking_enabled?: boolean;
  company_info?: Partial<Record<(typeof COMPANY_INFO_REQUIRED)[number], string | null | undefined>>;
  webhook_switch?: boolean;
  webhook_url?: string | null;
};

/**
 * Cross-field rules. `whole` (POST, PUT): the country, company_info's required fields unless in booking mode, and
 * a switched-on webhook needs a URL in the body. PATCH checks only what is sent (a country sent empty is refused);
 * the API checks the stored URL.
 */
function refineOrganization(o: CrossFields, ctx: z.RefinementCtx, whole: boolean): void {
  // A saved organization always has a country (issue 6): required on POST and PUT, never cleared by PATCH.
  if (o.country === null || (whole && o.country === undefined)) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.required, path: ['country'] });
  }
  if (o.mobile && !organizationMobile(o)) {
    const message = mobileProblem(o.mobile, o.country_code ?? DEFAULT_COUNTRY_CODE) ?? MESSAGES.invalidPhone;
    ctx.addIssue({ code: 'custom', message, path: ['mobile'] });
  }
  if (o.webhook_switch === true && (o.webhook_url === null || (whole && o.webhook_url === undefined))) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.webhookUrlRequired, path: ['webhook_url'] });
  }
  if (o.is_booking_enabled === true || (!whole && o.company_info === undefined)) return;
  for (const key of COMPANY_INFO_REQUIRED) {
    if (!o.company_info?.[key]) ctx.addIssue({ code: 'custom', message: MESSAGES.required, path: ['company_info', key] });
  }
}

const organizationObject = z.object(fields, { error: 'Expected an object.' });

/**
 * The organization's mobile, read in its `country_code` as sent (or IN, the spec's default mobile country, when
 * none is sent); a number typed with '+' must belong to that country too.
 */
function organizationMobile(o: Pick<CrossFields, 'mobile' | 'country_code'>) {
  return o.mobile ? parseMobile(o.mobile, o.country_code ?? DEFAULT_COUNTRY_CODE) : null;
}

/** The mobile in its stored form ('+91-9876543210'), however it was typed. */
function withStoredMobile<T extends Pick<CrossFields, 'mobile' | 'country_code'>>(o: T): T {
  const mobile = organizationMobile(o);
  return mobile ? { ...o, mobile: mobile.stored } : o;
}

/**
 * `POST organization/` and `PUT organization/{id}/`: name and country (the organization's address) required;
 * company_info required (its name, city,
 * zip_code, state and address) unless `is_booking_enabled` is true. Omitted fields keep their stored value on
 * PUT and take the defaults on POST (language 1, Asia/Kolkata, QR for training on, everything else off/empty).
 */
export const ZOrganizationInput = organizationObject
  .superRefine((o, ctx) => refineOrganization(o, ctx, true))
  .overwrite(withStoredMobile);
export type TOrganizationInput = z.output<typeof ZOrganizationInput>;
/** What the console form holds and sends (before the schema's normalisation). */
export type TOrganizationFormValues = z.input<typeof ZOrganizationInput>;

/**
 * `PATCH organization/{id}/`: every field optional; a company_info that is sent is checked whole (required
 * fields unless `is_booking_enabled: true` is sent with it) and replaces the stored one.
 */
export const ZOrganizationUpdate = organizationObject
  .partial({ name: true })
  .superRefine((o, ctx) => refineOrganization(o, ctx, false))
  .overwrite(withStoredMobile);
export type TOrganizationUpdate = z.output<typeof ZOrganizationUpdate>;

/** The answer of create and save: the full organization (as `GET organization/{id}/`) and the success text. */
export const ZOrganizationSaved = ZOrganization.extend({ detail: z.string() });
export type TOrganizationSaved = z.infer<typeof ZOrganizationSaved>;

// ---- Who may change what (part 1 §6, architecture §7b) ------------------------------------------------------------

/** Editable by ADMIN and SUB_ADMIN only (`organization.editAdminFlags`); others see Yes or No. */
export const ORG_ADMIN_FLAGS = [
  'is_orca_navigation_allowed',
  'is_cervaical_navigation_allowed',
  'enable_send_sms_to_patient',
  'is_storage_optimised',
] as const;

/** Roles that may change has_web_access (`organization.editWebAccess`). */
export const WEB_ACCESS_ROLES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN', 'MANAGER', 'DISTRIBUTOR_ADMIN'];

/**
 * The fields whose editing depends on the role. `parent` and `can_create_organization` shape the tree and
 * follow `organization.chooseParent` (ADMIN, SUB_ADMIN): a DISTRIBUTOR_ADMIN or MANAGER sends the fixed parent
 * it creates under, and nobody else can turn their organization into a distributor.
 */
export const RESTRICTED_ORGANIZATION_FIELDS = [...ORG_ADMIN_FLAGS, 'has_web_access', 'parent', 'can_create_organization'] as const;
export type TRestrictedOrganizationField = (typeof RESTRICTED_ORGANIZATION_FIELDS)[number];

/** For the form: true = editable, false = shown read-only as Yes or No (or, for parent, fixed). */
export function editableOrganizationFields(role: TUserType): Record<TRestrictedOrganizationField, boolean> {
  const adminFlags = can(role, 'organization.editAdminFlags');
  const tree = can(role, 'organization.chooseParent');
  return {
    is_orca_navigation_allowed: adminFlags,
    is_cervaical_navigation_allowed: adminFlags,
    enable_send_sms_to_patient: adminFlags,
    is_storage_optimised: adminFlags,
    has_web_access: can(role, 'organization.editWebAccess'),
    parent: tree,
    can_create_organization: tree,
  };
}

export type TParentCandidate = { id: number; can_create_organization: boolean };

/**
 * Whether `role` may create an organization under `parent` (null = top level). The API also checks that the
 * parent is in the caller's scope. A parent must be a distributor (can_create_organization).
 */
export function canCreateOrganizationUnder(
  role: TUserType,
  parent: TParentCandidate | null,
  actorOrganizationId: number | null = null,
): boolean {
  if (!can(role, 'organization.create')) return false;
  if (parent !== null && !parent.can_create_organization) return false;
  switch (role) {
    case 'ADMIN':
    case 'SUB_ADMIN':
      return true;
    case 'DISTRIBUTOR_ADMIN':
    case 'MANAGER':
      return parent !== null;
    case 'ORG_ADMIN':
      return parent !== null && parent.id === actorOrganizationId;
    case 'CERVAICAL_REVIEWER':
    case 'TECHNICIAN':
      return false;
  }
}

/** Roles that may edit an organization in their scope (ORG_ADMIN: its own). */
export const ORGANIZATION_EDIT_ROLES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'];

/**
 * Whether `role` may edit the organizations it can read (its scope is the same for both). The API's edit guard
 * and the presenter's write-only secrets use this one rule.
 */
export const canEditOrganization = (role: TUserType): boolean => ORGANIZATION_EDIT_ROLES.includes(role);

/**
 * Fields written but never read back by those who may not edit them: `GET organization/{id}/` shows them as null
 * to a CERVAICAL_REVIEWER (and to any role outside ORGANIZATION_EDIT_ROLES).
 */
export const WRITE_ONLY_ORGANIZATION_FIELDS = ['webhook_auth_token'] as const;
