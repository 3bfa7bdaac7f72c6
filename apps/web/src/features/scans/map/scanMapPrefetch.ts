// The map's points started as soon as its route is known (issue 8 "Speed"): the route loaders of `mapreport` and of
// `scan?view=map` call this while the page's code is still loading, so the answer streams into the workers in
// parallel with it. The filters are the page's own (ScanList reads the same URL); when they would depend on the
// role (the admins' assigned and duplicates filters), nothing is started and the page asks once it knows the user.
import { hashKey, type QueryClient } from '@tanstack/react-query';
import { hasToken } from '../../../api/storage.ts';
import { ZScanListParams, toScanFilterQuery, toScanQuery } from '../scanListParams.ts';
import type { TScanFilterQuery } from '../scans.api.ts';
import { scanMapQuery } from './scanMap.api.ts';

/** The map filters ScanList derives from this URL (no organization, technician or fixed query), or null. */
export function scanMapFiltersOf(search: URLSearchParams): TScanFilterQuery | null {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(ZScanListParams.shape)) {
    const value = search.get(key);
    if (value !== null) raw[key] = value;
  }
  const params = ZScanListParams.parse(raw);
  const asAdmin = toScanFilterQuery(toScanQuery(params, { mayFilterAssigned: true, mayFilterDuplicates: true }));
  const asOther = toScanFilterQuery(toScanQuery(params, { mayFilterAssigned: false, mayFilterDuplicates: false }));
  return hashKey([asAdmin]) === hashKey([asOther]) ? asAdmin : null;
}

/** Starts the map of `url` (a `mapreport` address, or a `scan` one with view=map) unless signed out. */
export function prefetchScanMap(client: QueryClient, url: string, mapOnly: boolean): void {
  if (!hasToken()) return;
  const search = new URL(url).searchParams;
  if (!mapOnly && search.get('view') !== 'map') return;
  const filters = scanMapFiltersOf(search);
  if (filters) void client.prefetchQuery(scanMapQuery(filters));
}
