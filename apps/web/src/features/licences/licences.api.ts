// Server data of the licence area (part 3 §7 Licences): the query-key factory, the list, one licence, its log, and
// the mutations (create, renew with the new total, delete), each invalidating the licence keys.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TLicence,
  TLicenceInput,
  TLicenceListQuery,
  TLicenceLog,
  TLicencePatch,
  TLicenceSaved,
} from '@sc/shared/licences';
import type { TPaginated } from '@sc/shared/list';
import { api } from '../../api/client.ts';

export type TLicenceQuery = Partial<TLicenceListQuery>;

/** The log modal's first page size: every report that used a licence is a row, so the log is paged. */
export const LICENCE_LOG_LIMIT = 20;

export const licenceKeys = {
  all: ['licence'] as const,
  lists: () => [...licenceKeys.all, 'list'] as const,
  list: (params: TLicenceQuery) => [...licenceKeys.lists(), params] as const,
  detail: (id: number) => [...licenceKeys.all, 'detail', id] as const,
  log: (id: number, page = 1, limit = LICENCE_LOG_LIMIT) =>
    [...licenceKeys.all, 'log', id, page, limit] as const,
};

/** GET organization/license/ — the previous page stays on screen while the next one loads. */
export function useLicences(params: TLicenceQuery) {
  return useQuery({
    queryKey: licenceKeys.list(params),
    queryFn: ({ signal }) =>
      api.list<TPaginated<TLicence>>('organization/license/', { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET organization/license/{id}/ */
export function useLicence(id: number | undefined) {
  return useQuery({
    queryKey: licenceKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<TLicence>(`organization/license/${id}/`, { signal }),
    enabled: id !== undefined && id > 0,
  });
}

/** GET organization/license/log/?license_id= (newest first), one page; the previous page stays while the next loads. */
export function useLicenceLog(id: number | undefined, page = 1, limit = LICENCE_LOG_LIMIT) {
  return useQuery({
    queryKey: licenceKeys.log(id ?? 0, page, limit),
    queryFn: ({ signal }) =>
      api.list<TPaginated<TLicenceLog>>('organization/license/log/', {
        query: { license_id: id, page, limit, ordering: '-created' },
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled: id !== undefined && id > 0,
  });
}

function useInvalidateLicences() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: licenceKeys.all });
}

/** POST organization/license/ (create) or PATCH organization/license/{id}/ (renew: count is the new total). */
export function useSaveLicence() {
  const invalidate = useInvalidateLicences();
  return useMutation({
    mutationFn: (save: { input: TLicenceInput } | { id: number; patch: TLicencePatch }) =>
      'input' in save
        ? api.post<TLicenceSaved>('organization/license/', save.input)
        : api.patch<TLicenceSaved>(`organization/license/${save.id}/`, save.patch),
    onSuccess: invalidate,
  });
}

/** DELETE organization/license/{id}/ */
export function useDeleteLicence() {
  const invalidate = useInvalidateLicences();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ detail: string }>(`organization/license/${id}/`),
    onSuccess: invalidate,
  });
}
