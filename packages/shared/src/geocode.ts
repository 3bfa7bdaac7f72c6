// Place search of the organization form (part 1 §2.5 "a maps autocomplete"): GET geocode/?q= answers places
// ready to fill the form's address fields; 503 when the configured geocoder cannot answer.
import { z } from 'zod';
import { textField } from './validation.ts';

export const GEOCODE_MESSAGES = {
  unavailable: 'Place search is unavailable.',
  /** What the form shows under the search field when the API answers 503. */
  unavailableHint: 'Place search is unavailable — enter the address by hand.',
} as const;

export const ZGeocodeQuery = z.object({
  q: textField({ error: 'This field is required.' }).trim().min(1, 'This field is required.').max(200, 'Ensure this field has no more than 200 characters.'),
});
export type TGeocodeQuery = z.infer<typeof ZGeocodeQuery>;

export const ZPlace = z.object({
  /** The full one-line label to show in the autocomplete. */
  label: z.string(),
  /** The place's own name (the organization name when the place is a clinic), else its first address part. */
  name: z.string(),
  address_1: z.string(),
  address_2: z.string(),
  /** The city (part 1 §3: address_3 is the city). */
  address_3: z.string(),
  state: z.string(),
  country: z.string(),
  /** ISO 3166-1 alpha-2, upper case ('IN'); '' when unknown. */
  country_code: z.string(),
  zipcode: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export type TPlace = z.infer<typeof ZPlace>;

export const ZGeocodeResult = z.object({ results: z.array(ZPlace) });
export type TGeocodeResult = z.infer<typeof ZGeocodeResult>;
