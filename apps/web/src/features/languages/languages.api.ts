// Server data of the Languages page (part 3 §7 Languages): the query-key factory, the list, one language, and the
// save (POST create, PUT update with every field and the id), each invalidating the language keys (the organization
// form's language picker reads the same list).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TLanguage,
  TLanguageInput,
  TLanguageListParams,
  TLanguageSaved,
} from '@sc/shared/languages';
import type { TPaginated } from '@sc/shared/list';
import { api } from '../../api/client.ts';

export type TLanguageQuery = Partial<TLanguageListParams>;

export const languageKeys = {
  all: ['language'] as const,
  lists: () => [...languageKeys.all, 'list'] as const,
  list: (params: TLanguageQuery) => [...languageKeys.lists(), params] as const,
  detail: (id: number) => [...languageKeys.all, 'detail', id] as const,
};

/** GET language/ — the previous page stays on screen while the next one loads. */
export function useLanguages(params: TLanguageQuery) {
  return useQuery({
    queryKey: languageKeys.list(params),
    queryFn: ({ signal }) => api.list<TPaginated<TLanguage>>('language/', { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET language/{id}/ */
export function useLanguage(id: number | undefined) {
  return useQuery({
    queryKey: languageKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<TLanguage>(`language/${id}/`, { signal }),
    enabled: id !== undefined && id > 0,
  });
}

/** POST language/ (create) or PUT language/{id}/ (update: the same fields plus the id, part 3 §7). */
export function useSaveLanguage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: { id?: number; input: TLanguageInput }) =>
      save.id === undefined
        ? api.post<TLanguageSaved>('language/', save.input)
        : api.put<TLanguageSaved>(`language/${save.id}/`, { ...save.input, id: save.id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: languageKeys.all }),
  });
}
