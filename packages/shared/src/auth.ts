// Sign-in contracts (part 1 §2.2, §5, §7, §8; architecture §5).
import { z } from 'zod';
import { DEFAULT_COUNTRY_CODE } from './constants.ts';
import { LOGIN_SOURCES } from './constants.ts';
import { ZUserType } from './roles.ts';
import { EMAIL_PATTERN, MESSAGES, OTP_PATTERN, isValidMobile, mobileTextField, textField } from './validation.ts';
import { mobileProblem } from './phone.ts';

/** Sign-in calls the API allows per client address per minute, each sign-in route counting on its own. */
export const SIGN_IN_PER_IP_PER_MINUTE = 20;

/** Login messages of part 1 §8, used verbatim. */
export const AUTH_MESSAGES = {
  userDisabled: 'The user corresponding to the given email has been disabled.',
  wrongPassword:
    'Password is invalid for the given email, or the account corresponding to the email does not have a password set.',
  invalidEmail: 'Email address is not valid.',
  userNotFound: 'There is no user corresponding to the given email.',
  otpInvalid: 'The code is invalid. Please check it and try again.',
  otpExpired: 'The code has expired. Please request a new one.',
  otpTooManyTries: 'Too many wrong codes. Please request a new one.',
  otpResendTooEarly: (seconds: number) => `Please wait ${seconds} seconds before requesting a new code.`,
  otpHourlyLimit: 'Too many codes requested for this number. Please try again later.',
  idTokenInvalid: 'The sign-in token is invalid or has expired. Please sign in again.',
  resetLinkInvalid: 'This password reset link is invalid or has expired.',
  resetLinkSent: (email: string) =>
    `Password link sent to email ${email}. Tip: check spam/junk folders if not found in inbox.`,
  passwordUpdated: 'Your password has been set. You can now log in.',
  tooManyAttempts: 'Too many attempts. Please try again later.',
  sessionExpired: 'Expired User Session',
  /** On the login page after the session-expired dialog (issue 23.11). */
  sessionExpiredSignIn: 'Your session expired. Sign in again.',
  consoleNotAllowed: 'This account cannot use the console.',
  accountDeleted: 'User Deleted Successfully',
  deleteAccountConfirm: 'Are you sure you want to delete your account',
} as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_RULE_MESSAGE =
  'Password must be at least 8 characters and contain a letter and a number.';

export const ZPassword = z
  .string({ error: MESSAGES.passwordRequired })
  .min(PASSWORD_MIN_LENGTH, PASSWORD_RULE_MESSAGE)
  .max(128, 'Password must be at most 128 characters.')
  .regex(/[A-Za-z]/, PASSWORD_RULE_MESSAGE)
  .regex(/\d/, PASSWORD_RULE_MESSAGE);

const loginEmail = textField({ error: AUTH_MESSAGES.invalidEmail })
  .trim()
  .max(254, AUTH_MESSAGES.invalidEmail)
  .regex(EMAIL_PATTERN, AUTH_MESSAGES.invalidEmail)
  .transform((e) => e.toLowerCase());

export const ZPasswordLogin = z.object({
  email: loginEmail,
  password: z.string({ error: MESSAGES.passwordRequired }).min(1, MESSAGES.passwordRequired).max(128),
  /** The code_token of a verified sign-in code, when the password is the second step (auth-extra ZPasswordRequired). */
  code_token: z.string().max(200).optional(),
});
export type TPasswordLogin = z.infer<typeof ZPasswordLogin>;

const countryCode = textField({ error: MESSAGES.selectCountryCode })
  .trim()
  .regex(/^[A-Za-z]{2}$/, MESSAGES.selectCountryCode)
  .transform((c) => c.toUpperCase())
  .default(DEFAULT_COUNTRY_CODE);

const typedMobile = mobileTextField().min(1, MESSAGES.invalidPhone);

/**
 * Mobile with its ISO country (`mobile_country_code`, e.g. IN). The number may be typed with its country code
 * ('+91 86815 62330'); it must belong to the chosen country. Sign-in looks it up by its stored form.
 */
export const ZMobileWithCountry = z
  .object({ mobile: typedMobile, mobile_country_code: countryCode })
  .superRefine((v, ctx) => {
    if (!isValidMobile(v.mobile, v.mobile_country_code)) {
      const message = mobileProblem(v.mobile, v.mobile_country_code) ?? MESSAGES.invalidPhone;
      ctx.addIssue({ code: 'custom', path: ['mobile'], message });
    }
  });

export const ZOtpRequest = ZMobileWithCountry;
export type TOtpRequest = z.infer<typeof ZOtpRequest>;

export const ZOtpCode = z
  .string({ error: MESSAGES.invalidOtp })
  .trim()
  // OTP_PATTERN already means exactly OTP_LENGTH digits; a second check would repeat the message.
  .regex(OTP_PATTERN, MESSAGES.invalidOtp);

export const ZOtpVerify = z
  .object({
    mobile: typedMobile,
    mobile_country_code: countryCode,
    code: ZOtpCode,
  })
  .superRefine((v, ctx) => {
    if (!isValidMobile(v.mobile, v.mobile_country_code)) {
      const message = mobileProblem(v.mobile, v.mobile_country_code) ?? MESSAGES.invalidPhone;
      ctx.addIssue({ code: 'custom', path: ['mobile'], message });
    }
  });
export type TOtpVerify = z.infer<typeof ZOtpVerify>;

export const ZPasswordResetRequest = z.object({ email: loginEmail });
export const ZPasswordResetConfirm = z.object({
  token: z.string({ error: AUTH_MESSAGES.resetLinkInvalid }).min(10, AUTH_MESSAGES.resetLinkInvalid).max(200),
  password: ZPassword,
});

export const ZIdTokenResponse = z.object({ id_token: z.string() });

export const ZUserLogin = z.object({
  id_token: z.string({ error: AUTH_MESSAGES.idTokenInvalid }).min(1, AUTH_MESSAGES.idTokenInvalid),
  mobile_country_code: textField().trim().max(4).optional().nullable(),
  source: z.enum(LOGIN_SOURCES).default('DASHBOARD'),
  user_type: ZUserType.optional(),
  is_login: z.boolean().default(true),
});
export type TUserLogin = z.infer<typeof ZUserLogin>;

export const ZLoginResponse = z.object({ token: z.string(), id: z.number(), is_trainer: z.boolean() });
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

export const LAST_DASHBOARD_PATH_MAX = 500;

export const ZLastDashboardPath = z.object({
  url: textField({ normalize: false })
    .trim()
    .max(LAST_DASHBOARD_PATH_MAX)
    .regex(/^\/[^\s]*$/, 'Enter a path that starts with /.'),
});

/**
 * The path the console stores for a page (issue 23.2): the path and query as they are when ZLastDashboardPath takes
 * them; else without the lists' searches (`search`, `dev_search`: a search percent-encodes to several times its
 * length, 12 characters an emoji), keeping the other filters; else the bare path; null when even that is refused.
 * The console never sends a path the API answers 400 to.
 */
export function storableDashboardPath(pathname: string, search: string): string | null {
  const fits = (url: string) => ZLastDashboardPath.safeParse({ url }).success;
  const full = `${pathname}${search}`;
  if (fits(full)) return full;
  const params = new URLSearchParams(search);
  for (const key of [...params.keys()]) if (key === 'search' || key.endsWith('_search')) params.delete(key);
  const rest = params.toString();
  const withoutSearch = rest ? `${pathname}?${rest}` : pathname;
  if (fits(withoutSearch)) return withoutSearch;
  return fits(pathname) ? pathname : null;
}

export const ZSessionOrganization = z.object({
  id: z.number(),
  name: z.string(),
  can_create_organization: z.boolean(),
});

/** GET user/ — the signed-in user (part 1 §3 "User (session and lists)"). */
export const ZSessionUser = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  mobile: z.string().nullable(),
  mobile_country_code: z.string().nullable(),
  user_type: ZUserType,
  is_trainer: z.boolean(),
  is_valid: z.boolean(),
  organization: z.number().nullable(),
  organization_data: ZSessionOrganization.nullable(),
  organizations: z.array(ZSessionOrganization),
  organizations_count: z.number(),
  scans_count: z.number(),
  dynamic_positivity_percentage: z.number(),
  created: z.string(),
  last_used_dashboard_path: z.string().nullable(),
  is_impersonated: z.boolean(),
  impersonator: z.object({ id: z.number(), email: z.string().nullable() }).nullable(),
  /** Set by Reset Pin (part 2 §7) until the device app sets a new PIN; the API always sends it. */
  pin_reset_request: z.boolean().optional(),
});
export type TSessionUser = z.infer<typeof ZSessionUser>;

export const ZOutboxMessage = z.object({
  id: z.number(),
  channel: z.enum(['email', 'sms']),
  to: z.string(),
  subject: z.string().nullable(),
  body: z.string(),
  code: z.string().nullable(),
  link: z.string().nullable(),
  created: z.string(),
});
export type TOutboxMessage = z.infer<typeof ZOutboxMessage>;
