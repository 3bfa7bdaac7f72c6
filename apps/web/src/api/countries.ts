// Reference list of countries with dial codes (GET country/), loaded once and filtered in the
// browser: it is small and never changes while the console is open.
import { useQuery } from '@tanstack/react-query';
import type { TCountry } from '@sc/shared/list';
import { api } from './client.ts';

export const countryKeys = {
  all: ['country'] as const,
};

/** India is the default country (part 1 §9); known even before the list arrives. */
export const DEFAULT_COUNTRY: TCountry = { name: 'India', dial_code: '+91', code: 'IN', currency_code: 'INR' };

export function useCountries() {
  return useQuery({
    queryKey: countryKeys.all,
    queryFn: async ({ signal }) => {
      // Accept a plain array or a list envelope.
      const data = await api.get<TCountry[] | { results: TCountry[] }>('country/', { signal });
      return Array.isArray(data) ? data : data.results;
    },
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

export const countryLabel = (c: Pick<TCountry, 'name' | 'dial_code'>): string =>
  `${c.name} (${c.dial_code.startsWith('+') ? c.dial_code : `+${c.dial_code}`})`;
