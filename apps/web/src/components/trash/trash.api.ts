// Server data of the trash views (issue 27): an area's deleted records and their restore. A restore puts rows back
// in every list, count and figure, so it invalidates every query.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TTrashArea, TTrashList, TTrashRestored } from '@sc/shared/trash';
import { api } from '../../api/client.ts';

export const trashKeys = {
  all: ['trash'] as const,
  list: (area: TTrashArea, page: number, limit: number) => [...trashKeys.all, area, page, limit] as const,
};

/** GET trash/{area}/ */
export function useTrash(area: TTrashArea, page: number, limit: number, enabled: boolean) {
  return useQuery({
    queryKey: trashKeys.list(area, page, limit),
    queryFn: ({ signal }) => api.get<TTrashList>(`trash/${area}/`, { query: { page, limit }, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** POST trash/{id}/restore/ */
export function useRestoreFromTrash() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<TTrashRestored>(`trash/${id}/restore/`),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
