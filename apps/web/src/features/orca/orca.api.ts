// Server data of the ORCA area (part 3 §7 ORCA): the query-key factory, the list and one exam (the detail and the
// finding modal read the same `GET orca/{id}/`).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TDevice } from '@sc/shared/devices';
import type { TPaginated } from '@sc/shared/list';
import type { TOrcaDetail, TOrcaListQueryInput, TOrcaRow } from '@sc/shared/orca';
import { api } from '../../api/client.ts';
import type { SerialLookup } from '../../components/list/SerialAutocomplete.tsx';

/** `GET orca/` parameters as the web sends them (the CSV button adds format). */
export type TOrcaQuery = Omit<Partial<TOrcaListQueryInput>, 'format' | 'report_log'>;

export const orcaKeys = {
  all: ['orca'] as const,
  list: (params: TOrcaQuery) => [...orcaKeys.all, 'list', params] as const,
  detail: (id: number) => [...orcaKeys.all, 'detail', id] as const,
  deviceLookup: (organization?: number) => [...orcaKeys.all, 'device-lookup', organization ?? null] as const,
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

/** The device picker's options: the serial numbers of the registry's devices in scope (ORCA has no serial lookup of
 * its own; `GET orca/?device=` takes any of them, in any case). */
export const ORCA_DEVICE_LOOKUP_LIMIT = 50;

export function orcaDeviceLookup(organization?: number): SerialLookup {
  return {
    key: orcaKeys.deviceLookup(organization),
    fetch: async (search) => {
      const query = {
        search: search || undefined,
        organization_id: organization,
        limit: ORCA_DEVICE_LOOKUP_LIMIT,
        ordering: 'serial_number',
      };
      return (await api.list<TPaginated<TDevice>>('device/', { query })).results.map((d) => d.serial_number);
    },
  };
}
