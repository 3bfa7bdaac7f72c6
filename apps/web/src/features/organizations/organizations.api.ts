// Server data of the organization area: the query-key factory and the hooks of the list, the
// detail page and the reference dialogs. Mutations invalidate the keys they change.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TPaginated } from '@sc/shared/list';
import type { TOrganization, TOrganizationList, TOrganizationListQuery } from '@sc/shared/organizations';
import type {
  TReference,
  TReferenceInput,
  TReferenceListQuery,
  TReferencePatch,
  TReferenceSaved,
} from '@sc/shared/references';
import { api } from '../../api/client.ts';

/** `GET organization/` parameters as the web sends them (parsed values; undefined ones are left out). */
export type TOrganizationQuery = Partial<TOrganizationListQuery>;

/** The reference list query as the web builds it (numbers before coercion). */
export type TReferenceListParams = Partial<Pick<TReferenceListQuery, 'organization' | 'page' | 'limit' | 'search' | 'ordering'>>;

export const organizationKeys = {
  all: ['organization'] as const,
  lists: () => [...organizationKeys.all, 'list'] as const,
  list: (params: TOrganizationQuery) => [...organizationKeys.lists(), params] as const,
  details: () => [...organizationKeys.all, 'detail'] as const,
  detail: (id: number) => [...organizationKeys.details(), id] as const,
  references: () => [...organizationKeys.all, 'reference'] as const,
  referenceList: (params: TReferenceListParams) => [...organizationKeys.references(), 'list', params] as const,
};

/** GET organization/ (from the read replica, as every list) — keeps the previous page on screen while the next one loads. */
export function useOrganizations(params: TOrganizationQuery, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: organizationKeys.list(params),
    queryFn: ({ signal }) => api.list<TOrganizationList>('organization/', { query: params, signal }),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** GET organization/{id}/ — 404 when missing or outside the caller's scope. */
export function useOrganization(id: number | undefined) {
  return useQuery({
    queryKey: organizationKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<TOrganization>(`organization/${id}/`, { signal }),
    enabled: id !== undefined && id > 0,
  });
}

/** After an organization is created or saved: every list and detail reloads. */
export function useInvalidateOrganizations() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: organizationKeys.all });
}

/** GET organization/reference/?organization= */
export function useReferences(params: TReferenceListParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: organizationKeys.referenceList(params),
    queryFn: ({ signal }) => api.list<TPaginated<TReference>>('organization/reference/', { query: params, signal }),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

function useInvalidateReferences() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: organizationKeys.references() });
}

/** POST organization/reference/ — answers the reference and its success message. */
export function useCreateReference() {
  const invalidate = useInvalidateReferences();
  return useMutation({
    mutationFn: (input: TReferenceInput) => api.post<TReferenceSaved>('organization/reference/', input),
    onSuccess: invalidate,
  });
}

/** PATCH organization/reference/{id}/ — rename, or the list's active toggle. */
export function useUpdateReference() {
  const invalidate = useInvalidateReferences();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: TReferencePatch }) =>
      api.patch<TReferenceSaved>(`organization/reference/${id}/`, patch),
    onSuccess: invalidate,
  });
}

/** DELETE organization/reference/{id}/ — answers {detail: 'Reference deleted Successfully'}. */
export function useDeleteReference() {
  const invalidate = useInvalidateReferences();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ detail: string }>(`organization/reference/${id}/`),
    onSuccess: invalidate,
  });
}
