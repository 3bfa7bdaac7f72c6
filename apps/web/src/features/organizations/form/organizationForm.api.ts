// Server calls of the organization form and the Language setting dialog: save, the lookups its pickers search,
// the place search and the webhook's previous-scans call.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TGeocodeResult } from '@sc/shared/geocode';
import type { TLanguageList } from '@sc/shared/languages';
import type { TOrganizationFormValues } from '@sc/shared/organization-input';
import type { TLocalize, TOrganization, TOrganizationList } from '@sc/shared/organizations';
import { api } from '../../../api/client.ts';
import { organizationKeys } from '../organizations.api.ts';

export const organizationFormKeys = {
  geocode: (q: string) => ['geocode', q] as const,
  languages: (search: string) => ['language', 'list', { search }] as const,
  timezones: ['timezone'] as const,
  parents: (search: string) => [...organizationKeys.lists(), { search, can_create_organization: true, limit: 10 }] as const,
};

/** GET geocode/?q= — 503 when the geocoder cannot answer; the form then says so and manual entry goes on. */
export function useGeocode(q: string) {
  return useQuery({
    queryKey: organizationFormKeys.geocode(q),
    // A 503 here is expected (no geocoder reachable): not the global ≥500 alert.
    queryFn: ({ signal }) => api.get<TGeocodeResult>('geocode/', { query: { q }, signal, handleErrors: false }),
    enabled: q.trim().length >= 1,
    retry: false,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
}

/** GET language/?search= (first 50 by name). */
export function useLanguageOptions(search: string, limit = 50) {
  return useQuery({
    queryKey: [...organizationFormKeys.languages(search), limit],
    queryFn: ({ signal }) => api.list<TLanguageList>('language/', { query: { search, limit }, signal }),
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
}

export function useTimezones() {
  return useQuery({
    queryKey: organizationFormKeys.timezones,
    queryFn: ({ signal }) => api.get<string[]>('timezone/', { signal }),
    staleTime: Infinity,
  });
}

/** Distributors a platform admin can choose as parent. */
export function useParentCandidates(search: string, enabled: boolean) {
  return useQuery({
    queryKey: organizationFormKeys.parents(search),
    queryFn: ({ signal }) =>
      api.list<TOrganizationList>('organization/', {
        query: { search, can_create_organization: true, limit: 10 },
        signal,
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** POST organization/ or PUT organization/{id}/; every organization list and detail reloads after. */
export function useSaveOrganization(organizationId?: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TOrganizationFormValues) =>
      organizationId
        ? api.put<TOrganization>(`organization/${organizationId}/`, body)
        : api.post<TOrganization>('organization/', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}

/** Saves only the per-language consent forms of an existing organization. */
export function useSaveLocalize(organizationId?: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (localize: TLocalize) => api.patch<TOrganization>(`organization/${organizationId}/`, { localize }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}

export type PreviousScansAnswer = { detail: string; queued?: number };

/** POST organization/previous-scans/ — queues the organization's earlier scans to its webhook. */
export function useSendPreviousScans() {
  return useMutation({
    mutationFn: (organization: number) => api.post<PreviousScansAnswer>('organization/previous-scans/', { organization }),
  });
}
