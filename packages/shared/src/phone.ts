// Phone numbers as people type, paste and search them (issue 23.3). parseMobile (validation.ts) reads a number in
// its country; this file adds what the one phone input of the console and the list searches need on top of it:
// which characters a phone field keeps, why a number is refused (on the field, before submit, and by the API with
// the same words), and the form a search term takes when it is a phone number.
import {
  getCountries,
  getCountryCallingCode,
  isSupportedCountry,
  type CountryCode,
} from 'libphonenumber-js/mobile';
import { MESSAGES, parseMobile } from './validation.ts';

/** Every country calling code of the numbering plan ('1', '44', '91', '254'…). */
const CALLING_CODES: ReadonlySet<string> = new Set(getCountries().map((c) => getCountryCallingCode(c)));

/**
 * The calling code that `digits` (the digits after a '+') start with, or null. Calling codes are prefix-free
 * (E.164), so at most one of the first one, two or three digits is a code.
 */
export function leadingCallingCode(digits: string): string | null {
  for (let n = 1; n <= 3 && n <= digits.length; n += 1) {
    if (CALLING_CODES.has(digits.slice(0, n))) return digits.slice(0, n);
  }
  return null;
}

/** Dial code of an ISO country ('IN' → '+91'), or null for an unknown country. */
export function dialCodeOfCountry(countryCode: string | null | undefined): string | null {
  const code = countryCode?.trim().toUpperCase();
  if (!code || !isSupportedCountry(code)) return null;
  return `+${getCountryCallingCode(code as CountryCode)}`;
}

/**
 * What a phone field keeps of typed or pasted text: digits, spaces, hyphens, dots, brackets and one leading '+'.
 * Letters and other marks are dropped as they are typed (a pasted 'Tel: +91 98765 43210' keeps its number).
 */
export function keepPhoneCharacters(text: string): string {
  const kept = text.replace(/[^0-9+ ().-]/g, '').replace(/^\s+/, '');
  return kept.startsWith('+') ? `+${kept.slice(1).replace(/\+/g, '')}` : kept.replace(/\+/g, '');
}

/** The message when a number typed with a dial code belongs to another country than the one chosen. */
export const otherCountryMessage = (typedCode: string, countryCode: string): string =>
  `This number's dial code (${typedCode}) is not the chosen country's (${countryCode}). ` +
  'Choose the number’s country, or type it without the dial code.';

/**
 * Why a typed mobile is refused for the ISO country `countryCode`, or null when it is a valid mobile of that
 * country ('+91 98765 43210', '98765-43210' and '09876543210' are one number in IN). A '+' code of another
 * country is said so (the country is not switched behind the person's back); anything else is the spec's
 * 'Please enter a valid Phone Number.' (part 1 §5, part 2 §5).
 */
export function mobileProblem(raw: string, countryCode: string | null | undefined): string | null {
  if (parseMobile(raw, countryCode)) return null;
  const typed = raw.trim();
  const own = dialCodeOfCountry(countryCode);
  // Only a number that is valid in its own country is called another country's ('+1555' is just invalid).
  const elsewhere = own && typed.startsWith('+') ? parseMobile(typed) : null;
  if (own && elsewhere && elsewhere.dialCode !== own) return otherCountryMessage(elsewhere.dialCode, own);
  return MESSAGES.invalidPhone;
}

/** A term of only digits and phone separators (at least four digits): what a person types as a phone number. */
const PHONE_TERM = /^\+?[0-9 ().-]+$/;

/**
 * The form a search term is also looked for in, when it is a phone number, or null when it is not one or is
 * already in that form. Numbers are stored as dial code, hyphen, national number ('+91-9582814405', part 2 §6),
 * so separators go ('95828 14405' → '9582814405') and a leading '+' code is split off as stored
 * ('+91 95828 14405' and '+919582814405' → '+91-9582814405'; a partial '+91 958' → '+91-958').
 */
export function phoneSearchForm(term: string): string | null {
  const typed = term.trim();
  if (!PHONE_TERM.test(typed)) return null;
  const digits = typed.replace(/\D/g, '');
  if (digits.length < 4) return null;
  let form = digits;
  if (typed.startsWith('+')) {
    const code = leadingCallingCode(digits);
    form = code ? `+${code}-${digits.slice(code.length)}` : `+${digits}`;
  }
  return form === typed ? null : form;
}

/**
 * The national part of a stored mobile, for a phone field whose country picker holds the dial code
 * ('+91-9876543210' → '9876543210'; '' for none). A number stored without the hyphen keeps its digits.
 */
export function nationalPartOf(stored: string | null | undefined): string {
  if (!stored) return '';
  const dash = stored.indexOf('-');
  return stored.startsWith('+') && dash > 0 ? stored.slice(dash + 1) : stored.replace(/^\+/, '');
}
