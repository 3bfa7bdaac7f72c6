// Server data of the ORCA area (part 3 §7 ORCA): the query-key factory, the list and one exam (the detail and the
// finding modal read the same `GET orca/{id}/`).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TPaginated } from '@sc/shared/list';
import type { TOrcaDetail, TOrcaListQueryInput, TOrcaRow } from '@sc/shared/orca';
import { api } from '../../api/client.ts';

/** `GET orca/` parameters as the web sends them (the CSV button adds format). */
export type TOrcaQuery = Omit<Partial<TOrcaListQueryInput>, 'format' | 'report_log'>;

export const orcaKeys = {
  all: ['orca'] as const,
  list: (params: TOrcaQuery) => [...orcaKeys.all, 'list', params] as const,
  detail: (id: number) => [...orcaKeys.all, 'detail', id] as const,
};

/** GET orca/ — the previous page stays on screen while the next one loads. */
export function useOrcaList(params: TOrcaQuery) {
  return useQuery({
    queryKey: orcaKeys.list(params),
    queryFn: ({ signal }) => api.list<TPaginated<TOrcaRow>>('orca/', { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET orca/{id}/ */
export function useOrca(id: number | null) {
  return useQuery({
    queryKey: orcaKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<TOrcaDetail>(`orca/${id}/`, { signal }),
    enabled: id !== null && id > 0,
  });
}
