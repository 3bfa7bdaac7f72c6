// Place search behind one small interface (architecture §1 "tile and geocoder URLs configurable"). The default talks to
// a Nominatim-compatible server at GEOCODER_URL; any failure (network, timeout, bad status, bad body) becomes a
// GeocoderUnavailableError so the route can answer 503 instead of 500.
import type { TPlace } from '@sc/shared/geocode';
import type { Config } from '../config.ts';

export type Geocoder = { search: (q: string) => Promise<TPlace[]> };

export class GeocoderUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('The geocoder did not answer.', { cause });
    this.name = 'GeocoderUnavailableError';
  }
}

export const GEOCODER_TIMEOUT_MS = 5000;
export const GEOCODER_LIMIT = 5;
// Nominatim's usage policy asks for an identifying User-Agent.
const USER_AGENT = 'ScreeningConsole/1.0 (organization address search)';

/** The part of a Nominatim jsonv2 answer (with addressdetails=1) that is read. */
type NominatimAddress = Partial<
  Record<
    | 'amenity'
    | 'building'
    | 'house_number'
    | 'road'
    | 'neighbourhood'
    | 'suburb'
    | 'quarter'
    | 'city_district'
    | 'city'
    | 'town'
    | 'village'
    | 'municipality'
    | 'county'
    | 'state_district'
    | 'state'
    | 'region'
    | 'postcode'
    | 'country'
    | 'country_code',
    string
  >
>;
type NominatimPlace = {
  lat?: string;
  lon?: string;
  name?: string;
  display_name?: string;
  address?: NominatimAddress;
};

const first = (...values: (string | undefined)[]): string => values.find((v) => v && v.trim())?.trim() ?? '';

function toNumber(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** One Nominatim result → the fields the organization form fills. */
export function toPlace(raw: NominatimPlace): TPlace {
  const a = raw.address ?? {};
  const label = first(raw.display_name, raw.name);
  const street = [a.house_number, a.road].filter(Boolean).join(' ');
  const name = first(raw.name, a.amenity, a.building, label.split(',')[0]);
  return {
    label,
    name,
    address_1: first(street, a.amenity, a.building, name),
    address_2: first(a.suburb, a.neighbourhood, a.quarter, a.city_district),
    address_3: first(a.city, a.town, a.village, a.municipality, a.county),
    state: first(a.state, a.region, a.state_district),
    country: first(a.country),
    country_code: first(a.country_code).toUpperCase(),
    zipcode: first(a.postcode),
    latitude: toNumber(raw.lat),
    longitude: toNumber(raw.lon),
  };
}

export function createNominatimGeocoder(
  config: Pick<Config, 'GEOCODER_URL'>,
  opts: { timeoutMs?: number; fetch?: typeof fetch } = {},
): Geocoder {
  const base = config.GEOCODER_URL.replace(/\/+$/, '');
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? GEOCODER_TIMEOUT_MS;
  return {
    async search(q) {
      const url = `${base}/search?format=jsonv2&addressdetails=1&limit=${GEOCODER_LIMIT}&q=${encodeURIComponent(q)}`;
      let body: unknown;
      try {
        const response = await doFetch(url, {
          headers: { 'User-Agent': USER_AGENT, Accept: 'application/json' },
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) throw new Error(`status ${response.status}`);
        body = await response.json();
      } catch (cause) {
        throw new GeocoderUnavailableError(cause);
      }
      if (!Array.isArray(body)) throw new GeocoderUnavailableError(new Error('not a list'));
      return (body as NominatimPlace[])
        .filter((p) => p && typeof p === 'object')
        .slice(0, GEOCODER_LIMIT)
        .map(toPlace);
    },
  };
}
