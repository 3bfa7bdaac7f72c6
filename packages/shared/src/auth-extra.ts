// Sign-in contracts added beside auth.ts: response shapes of the auth calls and the stored-mobile rule.
import { z } from 'zod';
import { ZIdTokenResponse } from './auth.ts';
import { decimalIntParam } from './list.ts';
import { parseMobile, textField } from './validation.ts';
import { parsePhoneNumberFromString, getCountryCallingCode, type CountryCode } from 'libphonenumber-js/mobile';

/** POST auth/otp/ (and the password step when a second factor is required): a code was sent. */
export const ZOtpSent = z.object({ detail: z.string(), resend_after: z.number() });
export type TOtpSent = z.infer<typeof ZOtpSent>;

/**
 * POST auth/password/ answers either {id_token} or, when the account must pass a second factor,
 * {second_factor_required: true, mobile, mobile_country_code, resend_after}: a code went to that mobile
 * and POST auth/otp/verify/ {mobile, mobile_country_code, code} then answers the id_token.
 */
export const ZSecondFactorRequired = z.object({
  second_factor_required: z.literal(true),
  /** National number (digits only), to show and to send back to auth/otp/verify/. */
  mobile: z.string(),
  mobile_country_code: z.string(),
  resend_after: z.number(),
});
export type TSecondFactorRequired = z.infer<typeof ZSecondFactorRequired>;

export const ZPasswordLoginResponse = z.union([z.object({ id_token: z.string() }), ZSecondFactorRequired]);
export type TPasswordLoginResponse = z.infer<typeof ZPasswordLoginResponse>;

/**
 * POST auth/otp/verify/ answers either {id_token} or, when a privileged account must pass a second factor and began
 * with the mobile code, {password_required: true, email, code_token}: POST auth/password/ {email, password,
 * code_token} then answers the id_token.
 */
export const ZPasswordRequired = z.object({
  password_required: z.literal(true),
  /** The account's e-mail, to fill in the password step (null: the account has none and cannot finish). */
  email: z.string().nullable(),
  /** Single use, as long-lived as an id_token: proves the code was verified. */
  code_token: z.string(),
});
export type TPasswordRequired = z.infer<typeof ZPasswordRequired>;

export const ZOtpVerifyResponse = z.union([ZIdTokenResponse, ZPasswordRequired]);
export type TOtpVerifyResponse = z.infer<typeof ZOtpVerifyResponse>;

export const ZDetail = z.object({ detail: z.string() });
export type TDetail = z.infer<typeof ZDetail>;

/** GET dev/outbox/ query (embedded mode only). */
export const ZOutboxQuery = z.object({
  to: textField().trim().max(254).optional(),
  /** ISO country of a national mobile number given in `to` (default IN). */
  country: textField()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'Please select a country code.')
    .transform((c) => c.toUpperCase())
    .optional(),
  limit: decimalIntParam('limit', 1, 200).default(50),
});

/** Dial code of an ISO country ('IN' → '+91'), or null when the country is unknown. */
export function dialCodeOf(countryCode: string): string | null {
  try {
    return `+${getCountryCallingCode(countryCode.toUpperCase() as CountryCode)}`;
  } catch {
    return null;
  }
}

/**
 * The stored forms a mobile typed with its country may have (part 1 §3: dial code, hyphen, number):
 * the normalised national number first ('09876500001' in IN → '+91-9876500001'), then the digits as typed.
 */
export function storedMobileCandidates(mobile: string, countryCode: string): string[] {
  const dial = dialCodeOf(countryCode);
  if (!dial) return [];
  const digits = mobile.replace(/[\s\-()]/g, '').replace(/^\+\d{1,4}-/, '');
  const out: string[] = [];
  // A valid mobile, however typed ('+91 98765 00001', '09876500001'), has one stored form.
  const valid = parseMobile(mobile, countryCode);
  if (valid) out.push(valid.stored);
  const parsed = parsePhoneNumberFromString(digits, countryCode.toUpperCase() as CountryCode);
  const loose = parsed ? `+${parsed.countryCallingCode}-${parsed.nationalNumber}` : null;
  if (loose && !out.includes(loose)) out.push(loose);
  const typed = `${dial}-${digits.replace(/^\+/, '')}`;
  if (!out.includes(typed)) out.push(typed);
  return out;
}

/** '+91-9876500001' → '+91-******0001'; 'jane@example.com' → 'j***@example.com'. For logs and notices. */
export function maskRecipient(to: string): string {
  const at = to.indexOf('@');
  if (at > 0) return `${to[0]}***${to.slice(at)}`;
  const dash = to.indexOf('-');
  const prefix = dash > 0 ? to.slice(0, dash + 1) : '';
  const rest = dash > 0 ? to.slice(dash + 1) : to;
  return `${prefix}${'*'.repeat(Math.max(0, rest.length - 4))}${rest.slice(-4)}`;
}

/** Stored '+91-9876500001' → national '9876500001' and its ISO country (the stored country when known). */
export function splitStoredMobile(
  stored: string,
  countryCode: string | null,
): { national: string; country: string } {
  const parsed = parsePhoneNumberFromString(stored.replace('-', ''));
  return {
    national: parsed?.nationalNumber ?? stored.slice(stored.indexOf('-') + 1),
    country: countryCode ?? parsed?.country ?? 'IN',
  };
}
