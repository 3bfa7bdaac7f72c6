// Server data of the Release Notes area (part 3 §7 App versions): the query-key factory, one app's list, one
// version, and the save (POST create, PUT update with every field and the id), each invalidating the version keys.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TAppVersion,
  TAppVersionInput,
  TAppVersionListParams,
  TAppVersionSaved,
} from '@sc/shared/app-versions';
import type { TPaginated } from '@sc/shared/list';
import { api } from '../../api/client.ts';

export type TAppVersionQuery = Partial<TAppVersionListParams>;

export const appVersionKeys = {
  all: ['app-version'] as const,
  lists: () => [...appVersionKeys.all, 'list'] as const,
  list: (params: TAppVersionQuery) => [...appVersionKeys.lists(), params] as const,
  detail: (id: number) => [...appVersionKeys.all, 'detail', id] as const,
};

/** GET app_version/?type= — the previous page stays on screen while the next one loads. */
export function useAppVersions(params: TAppVersionQuery, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: appVersionKeys.list(params),
    queryFn: ({ signal }) => api.list<TPaginated<TAppVersion>>('app_version/', { query: params, signal }),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** GET app_version/{id}/ */
export function useAppVersion(id: number | null | undefined) {
  return useQuery({
    queryKey: appVersionKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<TAppVersion>(`app_version/${id}/`, { signal }),
    enabled: typeof id === 'number' && id > 0,
  });
}

/** POST app_version/ (create) or PUT app_version/{id}/ (update: every field plus the id, part 3 §7). */
export function useSaveAppVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: { id?: number; input: TAppVersionInput }) =>
      save.id === undefined
        ? api.post<TAppVersionSaved>('app_version/', save.input)
        : api.put<TAppVersionSaved>(`app_version/${save.id}/`, { ...save.input, id: save.id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appVersionKeys.all }),
  });
}
