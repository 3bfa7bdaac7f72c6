// Request bodies and messages of the users area (part 2 §2.3, §5, §7, §8). The console validates the user dialog
// with the same schemas the API validates the body with, so every §5 message is written once, here.
import { z } from 'zod';
import { isSupportedCountry } from 'libphonenumber-js/mobile';
import { idField } from './list.ts';
import { ZUserType, type TUserType } from './roles.ts';
import { EMAIL_PATTERN, MESSAGES, inputText, mobileTextField, parseMobile, textField } from './validation.ts';
import { mobileProblem } from './phone.ts';

export const USER_NAME_MAX = 150;
export const USER_EMAIL_MAX = 254;
/** A set-password link for a new user (architecture §5): longer than a reset link, a new user may read mail later. */
export const SET_PASSWORD_TTL_SECONDS = 7 * 24 * 3600;

/** Part 2 §5 and §8 texts, used verbatim; those marked (ours) are not in the spec. */
export const USER_FORM_MESSAGES = {
  emailOrMobile: MESSAGES.emailOrMobile,
  invalidPhone: MESSAGES.invalidPhone,
  selectOrganization: MESSAGES.selectOrganization,
  invalidEmail: MESSAGES.invalidEmail,
  required: MESSAGES.required,
  // (ours) below
  nameText: "Only letters, numbers, spaces and . ' - ( ) are allowed.",
  nameTooLong: `Ensure this field has no more than ${USER_NAME_MAX} characters.`,
  emailTooLong: `Ensure this field has no more than ${USER_EMAIL_MAX} characters.`,
  selectCountry: 'Select a country.',
  invalidCountry: 'Select a valid country.',
  userType: 'Select a user type.',
  boolean: 'Must be a valid boolean.',
  integer: 'A valid integer is required.',
  pinResetTrue: 'Send pin_reset_request: true to reset the PIN.',
} as const;

export const USER_MESSAGES = {
  cannotImpersonate: 'You cannot impersonate this user.',
  notImpersonating: 'This token is not an impersonation token: there is no impersonation to end.',
  // Part 2 §8 success texts.
  created: 'User created successfully',
  updated: 'User updated Successfully',
  certified: 'User certified successfully',
  unassigned: 'User unassigned Successfully',
  transferred: 'User Transferred Successfully',
  pinReset: 'Successfully Reset Pin',
  /** After creating, or resetting the password of, a user with an e-mail (part 2 §8; the admin's text, architecture §7b). */
  passwordLinkSent: (email: string) =>
    `Password link sent to email ${email}. Tip: request user to check spam/junk folders if not found in inbox.`,
  // Part 2 §5 and §8 errors and prompts.
  emailOrMobile: MESSAGES.emailOrMobile,
  invalidPhone: MESSAGES.invalidPhone,
  selectOrganization: MESSAGES.selectOrganization,
  accessDenied: 'Access denied for your permission level.',
  /** The Unauthorized access panel of a user get that answers 404 (part 2 §2.3). */
  notInOrganization: 'This particular user does not appear to belong to this organization.',
  unauthorizedAccessTitle: 'Unauthorized access',
  resetPinConfirm: 'Are you sure you want to reset this PIN?',
  resetPasswordConfirm:
    'Are you sure you want to reset password? A link to reset password will be sent by email to this user.',
  // (ours) below: the spec shows no text for these.
  certifyConfirm: (name: string) => `Are you sure you want to certify ${name}?`,
  unassignConfirm: (name: string) => `Are you sure you want to unassign ${name}?`,
  removeOrganizationConfirm: (organization: string) =>
    `Are you sure you want to remove ${organization} from this manager?`,
  reCertified: 'User re-certified successfully',
  assigned: 'User assigned Successfully',
  linkAdded: 'Organization added Successfully',
  linkRemoved: 'Organization removed Successfully',
  duplicateEmail: 'user with this email already exists.',
  duplicateMobile: 'user with this mobile already exists.',
  locked: 'This field cannot be changed once the user is created.',
  typeNotAllowed: 'You cannot give a user this type.',
  distributorNeedsDistributorOrganization: 'A Distributor user must belong to a distributor organization.',
  typeWithoutOrganization: 'A Manager or Super Admin user does not belong to an organization.',
  sameOrganization: 'The user already belongs to this organization.',
  notAssigned: 'This user is not assigned to an organization.',
  ownTypeOrOrganization: 'You cannot change your own user type or organization.',
  alreadyCertified: 'This user is already certified.',
  certifyType: 'This user type cannot be certified.',
  certifyNeedsOrganization: 'Assign the user to an organization before certifying.',
  notCertified: 'Only a certified user can be re-certified.',
  noEmail: 'This user has no e-mail address: a password link cannot be sent.',
  userDisabled: 'This user is disabled.',
  managerLinksOnly: 'Organization links are for Manager users only.',
  duplicateLink: 'This organization is already linked to this user.',
  searchPlaceholder: 'Search by name, mobile no, email',
  emptyNoun: 'users',
  titleOrganization: 'Users',
  titleAll: 'All Users',
  titleUnassigned: 'Unassigned Users',
} as const;

/** Part 2 §2.2: Users inside an organization, All Users with `all`, Unassigned Users with `unassign`. */
export function userListTitle(view: { all?: boolean; unassign?: boolean }): string {
  if (view.unassign) return USER_MESSAGES.titleUnassigned;
  if (view.all) return USER_MESSAGES.titleAll;
  return USER_MESSAGES.titleOrganization;
}

// ---- Field builders -----------------------------------------------------------------------------------------------

/** Letters of any script, digits, spaces and . ' ’ - ( ); not blank. */
export const USER_NAME_PATTERN = /^(?!\s*$)[\p{L}\p{M}\p{N} .'’()-]+$/u;

/** One message per field, and no `abort`: an aborting issue would keep the object's rules from running. */
const oneMessage =
  (messageFor: (v: string) => string | null) =>
  (v: string, ctx: z.RefinementCtx): void => {
    const message = messageFor(v);
    if (message) ctx.addIssue({ code: 'custom', message });
  };

const nameField = () =>
  textField({ error: (issue) => (issue.input == null ? MESSAGES.required : 'Not a valid string.') })
    .trim()
    .superRefine(
      oneMessage((v) =>
        v.length === 0
          ? MESSAGES.required
          : v.length > USER_NAME_MAX
            ? USER_FORM_MESSAGES.nameTooLong
            : USER_NAME_PATTERN.test(v)
              ? null
              : USER_FORM_MESSAGES.nameText,
      ),
    );

/** Optional e-mail: '' and null mean none; stored lower-case (part 2 §5 pattern). */
const emailInput = () =>
  textField({ error: MESSAGES.invalidEmail })
    .trim()
    .superRefine(
      oneMessage((v) =>
        v.length > USER_EMAIL_MAX
          ? USER_FORM_MESSAGES.emailTooLong
          : v === '' || EMAIL_PATTERN.test(v)
            ? null
            : MESSAGES.invalidEmail,
      ),
    )
    .transform((v) => (v === '' ? null : v.toLowerCase()))
    .nullable()
    .optional();

/** Optional typed mobile ('' and null mean none); read in `mobile_country_code` by the object's rules. */
const mobileInput = () =>
  mobileTextField()
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

/** The user's country (the form's country select, the mobile's country): ISO code with a dial code. */
const countryInput = () =>
  textField({
    error: (issue) =>
      issue.input == null ? USER_FORM_MESSAGES.selectCountry : USER_FORM_MESSAGES.invalidCountry,
  })
    .trim()
    .superRefine(
      oneMessage((v) =>
        v.length === 0
          ? USER_FORM_MESSAGES.selectCountry
          : /^[A-Za-z]{2}$/.test(v) && isSupportedCountry(v.toUpperCase())
            ? null
            : USER_FORM_MESSAGES.invalidCountry,
      ),
    )
    .transform((v) => v.toUpperCase());

const userType = () =>
  z.enum(ZUserType.options, {
    error: (issue) => {
      const text = inputText(issue.input);
      return text === null ? USER_FORM_MESSAGES.userType : `"${text.slice(0, 30)}" is not a valid choice.`;
    },
  });

const pk = () => idField(USER_FORM_MESSAGES.integer);

/** `organization`: an id, or null for none (unassigned). Absent = unchanged on edit, none on create. */
const organizationInput = () => pk().nullable().optional();

const bool = () => z.boolean({ error: USER_FORM_MESSAGES.boolean });

const userFields = {
  first_name: nameField(),
  last_name: nameField(),
  user_type: userType(),
  email: emailInput(),
  mobile: mobileInput(),
  mobile_country_code: countryInput(),
  organization: organizationInput(),
  /** Only ADMIN and SUB_ADMIN may set these (part 2 §6); others may send the current value (or leave them out). */
  is_trainer: bool().optional(),
  is_available_demo: bool().optional(),
};

type MobileFields = { mobile?: string | null; mobile_country_code?: string | null };

/**
 * Object rules run even when a field already failed (zod skips them by default), so a form shows every error at
 * the first submit: the either-or message and 'Select an organization' beside a missing name. Field values may
 * then be the raw input, so each rule reads them defensively.
 */
const EVEN_WITH_FIELD_ERRORS = {
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null,
};

/** At least one of e-mail or mobile ('need any one of E-mail Or Mobile number', on both fields). */
function requireEmailOrMobile(o: { email?: unknown; mobile?: unknown }, ctx: z.RefinementCtx): void {
  if (!o.email && !o.mobile) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.emailOrMobile, path: ['email'] });
    ctx.addIssue({ code: 'custom', message: MESSAGES.emailOrMobile, path: ['mobile'] });
  }
}

/** Part 2 §5: 'Select an organization' when `actorType` must give one and `organization` is null (or absent). */
const requireOrganizationFor =
  (actorType: TUserType, absentCounts: boolean) =>
  (o: { organization?: unknown }, ctx: z.RefinementCtx): void => {
    if (!organizationRequiredFor(actorType)) return;
    if (o.organization === null || (absentCounts && o.organization === undefined)) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.selectOrganization, path: ['organization'] });
    }
  };

/** The mobile in its stored form ('+91-8681562330'), read in the user's country; a +91… form is accepted too. */
function withStoredMobile<T extends MobileFields>(o: T, ctx: z.RefinementCtx): T {
  if (!o.mobile || !o.mobile_country_code) return o;
  const parsed = parseMobile(o.mobile, o.mobile_country_code);
  if (!parsed) {
    const message = mobileProblem(o.mobile, o.mobile_country_code) ?? MESSAGES.invalidPhone;
    ctx.addIssue({ code: 'custom', message, path: ['mobile'] });
    return o;
  }
  return { ...o, mobile: parsed.stored };
}

/**
 * `POST organization/user/` (part 2 §5, §7): first_name, last_name, country (`mobile_country_code`) and user_type
 * required; at least one of e-mail or mobile ('need any one of E-mail Or Mobile number', on both fields); the
 * mobile valid for the country. Who may give which type in which organization is the API's (user-permissions.ts):
 * the console uses `userInputSchemaFor(actorType)`, which adds 'Select an organization' for MANAGER and
 * DISTRIBUTOR_ADMIN actors.
 */
export const ZUserInput = z
  .object(userFields)
  .superRefine(requireEmailOrMobile, EVEN_WITH_FIELD_ERRORS)
  .transform((o, ctx) => withStoredMobile(o, ctx));
export type TUserInput = z.infer<typeof ZUserInput>;
/** What the form sends (before the schema's transforms). */
export type TUserInputBody = z.input<typeof ZUserInput>;

/**
 * `PUT organization/user/{id}/`: the create fields, with e-mail, mobile and country locked (part 2 §2.3): they may
 * be sent (the form sends every field) but must equal the stored values ('This field cannot be changed once the
 * user is created.'), which the API checks. `organization` different from the current one assigns, unassigns (null)
 * or transfers; `is_update_scan_organization` true moves the user's scans to the new organization (part 2 §7).
 */
export const ZUserUpdate = z.object({
  ...userFields,
  mobile_country_code: countryInput().optional(),
  is_update_scan_organization: bool().optional(),
});
export type TUserUpdate = z.infer<typeof ZUserUpdate>;
export type TUserUpdateBody = z.input<typeof ZUserUpdate>;

/**
 * `PATCH organization/user/{id}/`: any of the PUT fields; the list's Assign / Unassign / Transfer send
 * `{organization: id | null}` (and Transfer may add `is_update_scan_organization`).
 */
export const ZUserPatch = ZUserUpdate.partial();
export type TUserPatch = z.infer<typeof ZUserPatch>;

/** `PUT organization/user/{id}/reset/pin/` */
export const ZPinResetInput = z.object({
  pin_reset_request: z.literal(true, { error: USER_FORM_MESSAGES.pinResetTrue }),
});
export type TPinResetInput = z.infer<typeof ZPinResetInput>;

/** `POST user/organizations/` (a MANAGER's organization link). */
export const ZUserOrganizationLinkInput = z.object({
  organization: pk(),
  user: pk(),
});
export type TUserOrganizationLinkInput = z.infer<typeof ZUserOrganizationLinkInput>;

// ---- Rules that depend on who is filling the form ------------------------------------------------------------------

/** Part 2 §5: for MANAGER and DISTRIBUTOR_ADMIN actors an organization is mandatory on create or edit. */
export const organizationRequiredFor = (actorType: TUserType): boolean =>
  actorType === 'MANAGER' || actorType === 'DISTRIBUTOR_ADMIN';

/** ZUserInput plus the actor's own rule ('Select an organization' on `organization`): the console's create form. */
export function userInputSchemaFor(actorType: TUserType) {
  return z
    .object(userFields)
    .superRefine(requireEmailOrMobile, EVEN_WITH_FIELD_ERRORS)
    .superRefine(requireOrganizationFor(actorType, true), EVEN_WITH_FIELD_ERRORS)
    .transform((o, ctx) => withStoredMobile(o, ctx));
}

/** ZUserUpdate plus the actor's own rule: the console's edit form. */
export function userUpdateSchemaFor(actorType: TUserType) {
  return ZUserUpdate.superRefine(requireOrganizationFor(actorType, false), EVEN_WITH_FIELD_ERRORS);
}
