// Reference lists the console needs before and after sign-in: countries with dial and currency codes, and the
// IANA time zones. Built from packages (countries-list, libphonenumber-js, countries-and-timezones), never typed
// by hand, computed once and kept in memory.
import { countries } from 'countries-list';
import { getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js/mobile';
import type { TCountry } from '@sc/shared/list';
import { listTimezoneNames } from '../../http/period.ts';

let countryList: TCountry[] | undefined;

/** libphonenumber's calling code where it knows the country (Kosovo is +383 there), else countries-list's first. */
function dialCodeOf(code: string, phones: readonly number[]): string {
  if (isSupportedCountry(code)) return `+${getCountryCallingCode(code)}`;
  return phones[0] === undefined ? '' : `+${phones[0]}`;
}

/** Every country, sorted by name: {name, dial_code: '+91', code: 'IN', currency_code: 'INR'}. */
export function listAllCountries(): TCountry[] {
  countryList ??= Object.entries(countries)
    .map(([code, c]) => ({
      name: c.name,
      dial_code: dialCodeOf(code, c.phone),
      code,
      currency_code: c.currency[0] ?? null,
    }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return countryList;
}

/** Countries whose name, ISO code or dial code contains `search` (case-insensitive; '+91' and '91' both match). */
export function listCountries(search?: string): TCountry[] {
  const all = listAllCountries();
  const term = search?.trim().toLowerCase();
  if (!term) return all;
  const digits = term.replace(/^\+/, '');
  return all.filter(
    (c) =>
      c.name.toLowerCase().includes(term) ||
      c.code.toLowerCase().includes(term) ||
      (digits !== '' && c.dial_code.slice(1).includes(digits)),
  );
}

/** The canonical IANA time zone names, sorted. */
export function listTimezones(): string[] {
  return listTimezoneNames();
}
