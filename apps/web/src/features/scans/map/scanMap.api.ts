// The map's server data (part 2 §2.7 Map): a query whose data is the ScanMapSource of its filters (the workers
// holding their cells and points). It resolves as soon as the first picture can be drawn. The source's workers are let go when
// the query drops it (gcTime after the last map closes, or a refetch replacing it).
import { hashKey, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { scanCellIds, scanCellsRequest, scanKeys, scanPointsRequest, type TScanFilterQuery } from '../scans.api.ts';
import type { ClusterPort } from './clusterProtocol.ts';
import { loadScanMap, type ScanMapSource } from './scanMapSource.ts';

/** A map's points stay fresh for a minute and its workers (a million scans' indexes) for a minute once unused. */
const MAP_STALE_MS = 60_000;

/** Terminates `source` once the query of `key` no longer holds it. */
function releaseWhenDropped(client: QueryClient, key: readonly unknown[], source: ScanMapSource): void {
  const hash = hashKey(key);
  let held = false;
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.query.queryHash !== hash) return;
    const holds = event.query.state.data === source;
    if (holds) held = true;
    if (event.type === 'removed' || (held && !holds)) {
      unsubscribe();
      source.terminate();
    }
  });
}

export function scanMapQuery(filters: TScanFilterQuery, createPort?: () => ClusterPort) {
  const queryKey = scanKeys.points(filters);
  return queryOptions({
    queryKey,
    queryFn: async ({ signal, client }) => {
      const requests = {
        cells: scanCellsRequest(filters),
        points: scanPointsRequest(filters),
        cellIds: (keys: number[]) => scanCellIds(filters, keys),
      };
      const source = await loadScanMap(requests, createPort, signal);
      releaseWhenDropped(client, queryKey, source);
      return source;
    },
    staleTime: MAP_STALE_MS,
    gcTime: MAP_STALE_MS,
    // The data is a live object, compared by identity.
    structuralSharing: false,
  });
}

/** The map of the scans these filters select (`GET scan/lat-long/`). */
export function useScanMap(filters: TScanFilterQuery, enabled = true) {
  return useQuery({ ...scanMapQuery(filters), enabled });
}
