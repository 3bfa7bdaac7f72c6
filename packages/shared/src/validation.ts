// Validation patterns and field messages shared by API and console (part 1 §5).
import { z } from 'zod';
import { isValidPhoneNumber, type CountryCode } from 'libphonenumber-js/mobile';
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

export const orgTextField = (message: string = MESSAGES.orgText) =>
  z.string({ error: MESSAGES.required }).trim().min(1, MESSAGES.required).regex(ORG_TEXT_PATTERN, message);

export const emailField = () =>
  z.string({ error: MESSAGES.required }).trim().min(1, MESSAGES.required).regex(EMAIL_PATTERN, MESSAGES.invalidEmail);

/** True when `number` is a valid mobile number of the country with ISO code `countryCode` (mobile metadata). */
export function isValidMobile(number: string, countryCode: string): boolean {
  const digits = number.replace(/[\s-]/g, '');
  if (!/^\d{4,15}$/.test(digits)) return false;
  try {
    return isValidPhoneNumber(digits, countryCode.toUpperCase() as CountryCode);
  } catch {
    return false;
  }
}

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
