// Server data of the breast scan area (part 2 §7 Scans): the query-key factory, the list (by filters, by a map
// cluster's ids, by a parent for its duplicates), one scan, the map's packed points, the filter lookups, transfer
// and duplicate delete (each invalidates the scan keys).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TPaginated } from '@sc/shared/list';
import {
  SCAN_POINTS_CONTENT_TYPE,
  type TScanDetail,
  type TScanListQueryInput,
  type TScanRow,
  type TScanRowSaved,
  type TScanTransferInput,
} from '@sc/shared/scans';
import { LIST_READ_QUERY, api, buildUrl, clientTimezone, clientTimezoneOffset } from '../../api/client.ts';
import { getImpersonationToken, getToken } from '../../api/storage.ts';
import type { SerialLookup } from '../../components/list/SerialAutocomplete.tsx';

/** `GET scan/` parameters as the web sends them (no CSV format: the CSV button adds it). */
export type TScanQuery = Omit<Partial<TScanListQueryInput>, 'format' | 'report_log' | 'ids'>;
/** The filters the map shares with the list (no page, limit or ordering). */
export type TScanFilterQuery = Omit<TScanQuery, 'page' | 'limit' | 'ordering'>;

const idSets = new WeakMap<readonly number[], string>();
let idSetSerial = 0;

/**
 * A short key for one list of ids (a map cluster's may hold 100,000): the query key would otherwise hold the whole
 * array, which TanStack Query hashes (JSON) on every render of the modal. Each array gets its own serial once; the
 * same array (the modal's pages) keeps it, another array — even with the same ids — is another list.
 */
export function idSetKey(ids: readonly number[]): string {
  let key = idSets.get(ids);
  if (key === undefined) {
    key = `${++idSetSerial}:${ids.length}`;
    idSets.set(ids, key);
  }
  return key;
}

export const scanKeys = {
  all: ['scan'] as const,
  lists: () => [...scanKeys.all, 'list'] as const,
  list: (params: TScanQuery) => [...scanKeys.lists(), params] as const,
  byIds: (ids: readonly number[], params: Pick<TScanQuery, 'page' | 'limit' | 'ordering'>) =>
    [...scanKeys.lists(), 'ids', idSetKey(ids), params] as const,
  detail: (id: number) => [...scanKeys.all, 'detail', id] as const,
  /** The map of these filters (map/scanMap.api.ts). */
  points: (params: TScanFilterQuery) => [...scanKeys.all, 'points', params] as const,
  /** The filter pickers' lookups; the picker appends the search. */
  lookup: (kind: 'devices' | 'sensors', organization?: number) =>
    [...scanKeys.all, 'lookup', kind, organization ?? null] as const,
};

/** GET scan/ — the previous page stays on screen while the next one loads. */
export function useScans(params: TScanQuery, enabled = true) {
  return useQuery({
    queryKey: scanKeys.list(params),
    queryFn: ({ signal }) => api.list<TPaginated<TScanRow>>('scan/', { query: params, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

const NO_IDS: readonly number[] = [];

/** POST scan/ids/ — the scans of a map marker or cluster, paged (part 2 §7 scans-by-ids). */
export function useScansByIds(ids: readonly number[] | null, params: Pick<TScanQuery, 'page' | 'limit' | 'ordering'>) {
  return useQuery({
    queryKey: scanKeys.byIds(ids ?? NO_IDS, params),
    queryFn: ({ signal }) =>
      api.post<TPaginated<TScanRow>>('scan/ids/', { ids_list: ids }, { query: { ...params, ...LIST_READ_QUERY }, signal }),
    placeholderData: keepPreviousData,
    enabled: ids !== null && ids.length > 0,
  });
}

/** GET scan/{id}/ */
export function useScan(id: number | null) {
  return useQuery({
    queryKey: scanKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<TScanDetail>(`scan/${id}/`, { signal }),
    enabled: id !== null && id > 0,
  });
}

function authHeaders(accept: string): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: accept,
    Timezone: clientTimezone(),
    'Timezone-Offset': String(clientTimezoneOffset()),
  };
  const token = getImpersonationToken() ?? getToken();
  if (token) headers.Authorization = `Token ${token}`;
  return headers;
}

/**
 * GET scan/lat-long/ — every matching scan with coordinates, as packed 12-byte records. The map's worker fetches it
 * (map/scanMapSource.ts: it reads the stream as it arrives, off the main thread): this is the request to send.
 */
export function scanPointsRequest(params: TScanFilterQuery): { url: string; headers: Record<string, string> } {
  return {
    url: new URL(buildUrl('scan/lat-long/', { ...params, ...LIST_READ_QUERY }), window.location.href).href,
    headers: authHeaders(SCAN_POINTS_CONTENT_TYPE),
  };
}

/** GET scan/lat-long/cells/ (the map's first picture, issue 24): the same filters as the points, as a worker fetches it. */
export function scanCellsRequest(params: TScanFilterQuery): { url: string; headers: Record<string, string> } {
  return {
    url: new URL(buildUrl('scan/lat-long/cells/', { ...params, ...LIST_READ_QUERY }), window.location.href).href,
    headers: authHeaders(SCAN_POINTS_CONTENT_TYPE),
  };
}

/** POST scan/lat-long/cells/ids/: the ids of the scans in these first-picture cells (a cluster clicked early). */
export async function scanCellIds(params: TScanFilterQuery, cells: number[]): Promise<number[]> {
  const answer = await api.post<{ ids: number[] }>('scan/lat-long/cells/ids/', { cells }, { query: { ...params, ...LIST_READ_QUERY } });
  return answer.ids;
}

/** GET scan/devices/ or scan/sensor-serial-numbers/ (the scans' serials in scope) as a filter picker's lookup. */
export function scanSerialLookup(kind: 'devices' | 'sensors', organization?: number): SerialLookup {
  return {
    key: scanKeys.lookup(kind, organization),
    fetch: async (search) => {
      const query = { search: search || undefined, organization };
      if (kind === 'devices') return (await api.list<{ devices: string[] }>('scan/devices/', { query })).devices;
      return (await api.list<{ sensor_serial_numbers: string[] }>('scan/sensor-serial-numbers/', { query }))
        .sensor_serial_numbers;
    },
  };
}

function useInvalidateScans() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: scanKeys.all });
}

/** POST scan/{id}/transfer/ (part 2 §2.9) — answers the row and 'Scan Transferred Successfully'. */
export function useTransferScan() {
  const invalidate = useInvalidateScans();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: TScanTransferInput }) =>
      api.post<TScanRowSaved>(`scan/${id}/transfer/`, input),
    onSuccess: invalidate,
  });
}

/** DELETE scan/{id}/ — a duplicate (child scan), ADMIN and SUB_ADMIN. */
export function useDeleteScan() {
  const invalidate = useInvalidateScans();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ detail: string; id: number }>(`scan/${id}/`),
    onSuccess: invalidate,
  });
}
