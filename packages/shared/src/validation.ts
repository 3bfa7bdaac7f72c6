// Validation patterns and field messages shared by API and console (part 1 §5).
import { z } from 'zod';
import {
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js/mobile';
import { OTP_LENGTH } from './constants.ts';

export const MESSAGES = {
  orgText: 'Only alphabets, numbers and special characters are allowed',
  referenceText: 'Only alphabets, numbers and special characters are allowed.',
  customizedMessageMax: 'Only 1500 Characters are allowed',
  consentMaxWords: 'Only 400 words are allowed',
  selectLanguage: 'Please select a language',
  languageAlreadySelected: 'Language already selected',
  languageNotInList: 'Language not in the list',
  deleteValueConfirm: 'Are you sure you want to delete this value? Please SUBMIT to save the changes.',
  invalidPhone: 'Please enter a valid Phone Number.',
  selectCountryCode: 'Please select a country code.',
  invalidOtp: 'Please enter a valid otp.',
  required: 'This field is required.',
  invalidEmail: 'Enter a valid email address.',
  passwordRequired: 'Password is required.',
  invalidChars: 'Invalid characters are not allowed.',
  firmwareTooLarge: 'Image size need less than 2Mb',
  selectOrganization: 'Select an organization',
  emailOrMobile: 'need any one of E-mail Or Mobile number',
  consentChars: 'Only English letters, numbers, accented letters and common punctuation are allowed.',
  consentTooLong: 'Ensure this field has no more than 10000 characters.',
  webhookUrlRequired: 'Enter the webhook URL to switch the webhook on.',
  webhookUrlPrivate: 'This URL points to a private or local address.',
  invalidUrl: 'Enter a valid URL.',
  invalidTimezone: 'Select a valid time zone.',
  invalidCurrency: 'Select a valid currency.',
  invalidCountryCode: 'Select a valid country code.',
  duplicateDays: 'A day can be chosen only once.',
  noFieldPermission: 'You do not have permission to change this field.',
  ownParent: 'An organization cannot be its own parent.',
  parentNotDistributor: 'The parent organization must be a distributor.',
  parentRequired: 'Select a parent organization.',
  hasSubOrganizations: 'This organization has sub-organizations.',
  invalidFilePath: 'Upload the image again: this file was not found.',
} as const;

/** Letters (accented too), digits, spaces and common punctuation; not whitespace only. */
export const ORG_TEXT_PATTERN = /^(?!\s*$)[\p{L}\p{M}\d\s.,'"&()\-_/#@!?:;+%*[\]{}|~`^$=<>]+$/u;

/** Part 2 §5: local part, at sign, domain, a 2-to-4-letter ending. */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,4}$/;

/** Characters forbidden by the generic rule (slash, backslash, comma, dot, space, at, dollar, hash, percent, ampersand, exclamation). */
export const FORBIDDEN_CHARS_PATTERN = /[/\\,. @$#%&!]/;

export const OTP_PATTERN = new RegExp(`^\\d{${OTP_LENGTH}}$`);

// ---- Characters every text field refuses (issue 6) ----------------------------------------------------------
// One rule for every string a client types: PostgreSQL cannot store a lone UTF-16 surrogate in JSONB (it used to
// answer 500), a line break in a one-line field breaks exports and headers, and bidirectional controls can make a
// name read differently from what is stored ("Trojan source"). NUL is refused earlier, for every field, by the API
// validator (DRF's 'Null characters are not allowed.').

export const TEXT_MESSAGES = {
  /** A lone UTF-16 surrogate (half of an emoji, or garbage): no character at all. */
  invalidChars: MESSAGES.invalidChars,
  lineBreak: 'Line breaks are not allowed in this field.',
  bidiControl: 'Text direction control characters are not allowed.',
  controlChar: 'Control characters are not allowed.',
} as const;

/** A UTF-16 code unit that is half of a pair standing alone (in a `u` regex only lone halves match). */
const LONE_SURROGATE = /\p{Cs}/u;
/** U+202A–U+202E (embeddings, overrides), U+2066–U+2069 (isolates), U+200E/U+200F (marks), U+061C (Arabic mark). */
export const BIDI_CONTROL_PATTERN = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
/** Line breaks of every kind: CR, LF, NEL, line and paragraph separators (and the other vertical spaces). */
const LINE_BREAK = /[\n\r\v\f\u0085\u2028\u2029]/u;
/** C0 and C1 control characters and DEL, except tab and the line breaks (reported as line breaks). */
const CONTROL_CHAR = /(?![\t\n\r\v\f\u0085])\p{Cc}/u;

export type TextRuleOptions = {
  /** Multi-line text (messages, consent texts) may hold line breaks and tabs. Default: one line. */
  multiline?: boolean;
};

/** The message for the first forbidden character class in `value`, or null when the text is acceptable. */
export function textProblem(value: string, { multiline = false }: TextRuleOptions = {}): string | null {
  if (LONE_SURROGATE.test(value)) return TEXT_MESSAGES.invalidChars;
  if (BIDI_CONTROL_PATTERN.test(value)) return TEXT_MESSAGES.bidiControl;
  if (!multiline && LINE_BREAK.test(value)) return TEXT_MESSAGES.lineBreak;
  if (CONTROL_CHAR.test(value) || (!multiline && value.includes('\t'))) return TEXT_MESSAGES.controlChar;
  return null;
}

/**
 * A client's value as text for an error message: a string, number or boolean as itself, anything else null. Never
 * `String(value)` on what a client sent: a JSON object may carry its own `toString` (`{"toString": 1}`), and
 * converting it throws.
 */
export const inputText = (input: unknown): string | null =>
  typeof input === 'string' ? input : typeof input === 'number' || typeof input === 'boolean' ? String(input) : null;

/**
 * Nothing but characters that show nothing: whitespace of every kind and the invisible format characters (zero-width
 * space and joiners, word joiner, byte order mark, soft hyphen, fillers…). Such a value is blank: every 'required,
 * not whitespace only' field refuses it as it refuses '   ', and an optional field stores none.
 */
const INVISIBLE_ONLY = /^[\s\p{Z}\p{Cf}\p{Default_Ignorable_Code_Point}]*$/u;
export const isBlankText = (value: string): boolean => INVISIBLE_ONLY.test(value);

/** True when a string is well-formed UTF-16 (no lone surrogate): what PostgreSQL can store. */
export const isWellFormedText = (value: string): boolean => !LONE_SURROGATE.test(value);

export type TextFieldOptions = TextRuleOptions & {
  /** Message when the value is not a string (default 'Not a valid string.'). */
  error?: string | ((issue: { input: unknown }) => string);
  /** Normalize to Unicode NFC (default true). Off for secrets and URLs, which are kept byte for byte. */
  normalize?: boolean;
};

/**
 * The start of every text field of every input schema: a string, the character rule above (first, and alone:
 * a refused character is the one message), a blank value (`isBlankText`) made '', then NFC so 'é' typed two ways
 * is stored one way. Chain the field's own rules after it: `textField().trim().min(1, MESSAGES.required).max(255,
 * …).regex(…)`; `.trim()` alone would keep a zero-width space, which `min(1)` then takes for text.
 */
export function textField({ error = 'Not a valid string.', normalize = true, multiline = false }: TextFieldOptions = {}) {
  const base = z
    .string({ error: typeof error === 'string' ? error : (issue) => error(issue) })
    .check((ctx) => {
      const problem = textProblem(ctx.value, { multiline });
      if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value, continue: false });
    })
    .overwrite((v) => (isBlankText(v) ? '' : v));
  return normalize ? base.normalize('NFC') : base;
}

export const orgTextField = (message: string = MESSAGES.orgText) =>
  textField({ error: MESSAGES.required }).trim().min(1, MESSAGES.required).regex(ORG_TEXT_PATTERN, message);

export const emailField = () =>
  textField({ error: MESSAGES.required }).trim().min(1, MESSAGES.required).regex(EMAIL_PATTERN, MESSAGES.invalidEmail);

// ---- Mobile numbers (part 1 §3, §5; issue 6) -----------------------------------------------------------------
// One parser for every mobile a person types (sign-in, organization, company info, users), on the API and in the
// console. A number may be typed nationally ('8681562330', '08681562330') or with its country code
// ('+918681562330', '+91 86815 62330', '+91-8681562330'): all are the same number, stored '+91-8681562330'.

/**
 * What may be typed: ASCII digits, an optional leading '+', spaces, hyphens, dots and brackets; one number only.
 * Checked before libphonenumber, which would otherwise read fullwidth or Arabic-Indic digits, or pick the first
 * of two numbers joined by a comma.
 */
const TYPED_MOBILE = /^\+?[0-9(][0-9 ().-]*$/;

export type TMobile = {
  /** National significant number, digits only: '8681562330'. */
  national: string;
  /** Calling code with its plus: '+91'. */
  dialCode: string;
  /** ISO country of the number (the one asked for when given): 'IN'. */
  country: string;
  /** The stored form (part 1 §3): dial code, a hyphen, the national number: '+91-8681562330'. */
  stored: string;
};

/**
 * The mobile number typed in `raw`, or null when it is not a valid mobile number (mobile numbering plans).
 * With `countryCode` (ISO, 'IN') the number must belong to that country's calling code, typed with or without it;
 * without one, it must be typed with its country code ('+…').
 */
export function parseMobile(raw: string, countryCode?: string | null): TMobile | null {
  const typed = raw.trim();
  if (typed.length > 32 || !TYPED_MOBILE.test(typed)) return null;
  const digits = typed.replace(/\D/g, '');
  if (digits.length < 4 || digits.length > 17) return null;
  const country = countryCode ? countryCode.trim().toUpperCase() : null;
  if (country !== null && !isSupportedCountry(country)) return null;
  if (country === null && !typed.startsWith('+')) return null;
  const parsed = parsePhoneNumberFromString(typed, {
    ...(country ? { defaultCountry: country as CountryCode } : {}),
    extract: false,
  });
  if (!parsed?.isValid()) return null;
  if (country !== null && parsed.countryCallingCode !== getCountryCallingCode(country as CountryCode)) return null;
  const dialCode = `+${parsed.countryCallingCode}`;
  return {
    national: parsed.nationalNumber,
    dialCode,
    country: country ?? parsed.country ?? '',
    stored: `${dialCode}-${parsed.nationalNumber}`,
  };
}

/** True when `number` is a valid mobile number of the country with ISO code `countryCode`. */
export const isValidMobile = (number: string, countryCode: string): boolean => parseMobile(number, countryCode) !== null;

/**
 * The text field of a typed mobile number. It does not take `textField`'s messages: parseMobile accepts digits and
 * separators only, so any other character (a line break between two numbers, a control) is 'Please enter a valid
 * Phone Number.', the message a person typing a number understands.
 */
export const mobileTextField = () =>
  z.string({ error: MESSAGES.invalidPhone }).trim().max(32, MESSAGES.invalidPhone);

/** Stored mobile form (part 1 §3): dial code, a hyphen, then the number. */
export const formatStoredMobile = (dialCode: string, number: string): string =>
  `${dialCode.startsWith('+') ? dialCode : `+${dialCode}`}-${number.replace(/[\s-]/g, '')}`;

export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

/**
 * Consent texts (part 1 §5): English letters, digits, accented Latin letters (Latin-1 Supplement, Latin
 * Extended-A/B, Latin Extended Additional, combining accents), the Spanish inverted marks ¡ ¿, whitespace and
 * common punctuation and symbols. Everything else (other scripts, emoji, control characters) is refused.
 */
export const CONSENT_TEXT_PATTERN =
  /^[A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F\u1E00-\u1EFF\p{Mn}¡¿ \t\r\n.,;:!?'"‘’‚“”„()[\]{}<>\-‐–—_/\\|&@#%*+=~^`$€£¥₹¢°§¶©®™•·…«»ªº±×÷]+$/u;

/** Before saving: newlines become a space, each text is trimmed, empty texts are dropped (part 1 §5). */
export function normalizeConsentList(items: readonly string[]): string[] {
  return items.map((s) => s.replace(/\r\n|\r|\n/g, ' ').trim()).filter((s) => s !== '');
}
