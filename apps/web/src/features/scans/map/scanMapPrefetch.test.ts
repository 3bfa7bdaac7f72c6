import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { TOKEN_KEY } from '../../../api/storage.ts';
import { ZScanListParams, toScanFilterQuery, toScanQuery } from '../scanListParams.ts';
import { scanKeys } from '../scans.api.ts';
import { createInThreadClusterPort } from './inThreadClusterPort.ts';
import { scanMapQuery } from './scanMap.api.ts';
import { prefetchScanMap, scanMapFiltersOf } from './scanMapPrefetch.ts';

/** What ScanList asks the map for on these search params (no organization, technician or fixed query). */
function pageFilters(search: string, admin: boolean) {
  const params = ZScanListParams.parse(Object.fromEntries(new URLSearchParams(search)));
  return toScanFilterQuery(toScanQuery(params, { mayFilterAssigned: admin, mayFilterDuplicates: admin }));
}

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('scan map prefetch from the route', () => {
  it.each(['', 'period=30', 'positive=yes&device=IBE-0042&age_min=30&search=asha', 'period=custom_range&from=2026-01-02&to=2026-01-09'])(
    'asks for the filters the page asks for (%s), whatever the role',
    (search) => {
      const filters = scanMapFiltersOf(new URLSearchParams(search));
      expect(filters).toEqual(pageFilters(search, true));
      expect(filters).toEqual(pageFilters(search, false));
    },
  );

  it('starts nothing when the filters depend on the role (the admins\' assigned and duplicates filters)', () => {
    expect(scanMapFiltersOf(new URLSearchParams('assigned=assigned'))).toBeNull();
    expect(scanMapFiltersOf(new URLSearchParams('duplicates=duplicates'))).toBeNull();
  });

  it("fetches the map's first picture once under the key the page reads, only signed in and only for a map", async () => {
    const fetchMock = vi.fn(async () => new Response(new Uint8Array(0)));
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient();

    prefetchScanMap(client, 'http://localhost/mapreport', true);
    expect(fetchMock).not.toHaveBeenCalled();

    localStorage.setItem(TOKEN_KEY, 'session-1');
    prefetchScanMap(client, 'http://localhost/scan?period=30', false);
    expect(fetchMock).not.toHaveBeenCalled();

    prefetchScanMap(client, 'http://localhost/scan?view=map&period=30', false);
    prefetchScanMap(client, 'http://localhost/mapreport?period=30', true);
    const key = scanKeys.points(pageFilters('period=30', true));
    await vi.waitFor(() => expect(client.getQueryState(key)?.status).toBe('success'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    // The cells; the points wait until the map draws (so they do not share the link with the page's code).
    expect(url).toMatch(/\/api\/v1\/scan\/lat-long\/cells\/\?.*date_time_after=/);
    expect(init.headers).toMatchObject({ Authorization: 'Token session-1' });
    client.clear();
  });
});

describe('scan map query', () => {
  it('lets the workers go when the query drops its map (removed, or replaced by a refetch)', async () => {
    vi.stubGlobal('fetch', async () => new Response(new Uint8Array(0)));
    localStorage.setItem(TOKEN_KEY, 'session-1');
    const terminated: number[] = [];
    let made = 0;
    const createPort = () => {
      const port = createInThreadClusterPort();
      const n = made++;
      port.terminate = () => terminated.push(n);
      return port;
    };
    const client = new QueryClient();
    const query = scanMapQuery({ search: 'asha' }, createPort);
    await client.fetchQuery(query);
    expect(terminated).toEqual([]);
    await client.refetchQueries({ queryKey: query.queryKey });
    // The first map's two workers went when the second one took its place.
    expect(terminated.sort()).toEqual([0, 1]);
    client.removeQueries({ queryKey: query.queryKey });
    expect(terminated.sort()).toEqual([0, 1, 2, 3]);
  });
});
