import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderRoutes } from '../../test/render.tsx';
import { keysetParamsSchema, listParamsSchema, useListParams, type ListParamsApi } from './useListParams.ts';

const ZParams = listParamsSchema({ filter: z.enum(['all', 'linked']).catch('all') });
type Params = z.infer<typeof ZParams>;
const DEFAULTS: Partial<Params> = { ordering: '-created' };

let api: ListParamsApi<Params>;

function Probe({ prefix }: { prefix?: string }) {
  api = useListParams(ZParams, DEFAULTS, { prefix });
  return <pre data-testid="params">{JSON.stringify(api.params)}</pre>;
}

function renderAt(path: string, prefix?: string) {
  return renderRoutes([{ path: '/list', element: <Probe prefix={prefix} /> }], path);
}

const shown = (): Params => JSON.parse(screen.getByTestId('params').textContent ?? '{}') as Params;

describe('useListParams', () => {
  it('reads the list state from the URL, with defaults for what is absent', () => {
    renderAt('/list?page=3&limit=40&search=clinic&period=custom_range&from=2026-01-02&to=2026-01-09&filter=linked');
    expect(shown()).toEqual({
      page: 3,
      limit: 40,
      search: 'clinic',
      period: 'custom_range',
      from: '2026-01-02',
      to: '2026-01-09',
      ordering: '-created',
      filter: 'linked',
    });
    expect(api.hasFilters).toBe(true);
  });

  it('falls back to defaults for values a hand-edited URL gets wrong', () => {
    renderAt('/list?page=abc&limit=7&period=forever&from=2026-02-30&filter=nope');
    expect(shown()).toMatchObject({ page: 1, limit: 10, period: 'today', filter: 'all' });
    expect(shown().from).toBeUndefined();
    expect(api.hasFilters).toBe(false);
  });

  it('keeps an over-long search from a link, so the search box can say it is too long (issue 23.2)', () => {
    const long = `🙂${'a'.repeat(3000)}`;
    renderAt(`/list?search=${encodeURIComponent(long)}`);
    expect(shown().search).toBe(long);
    expect(api.hasFilters).toBe(true);
  });

  it('writes changes with replace, back to page 1, leaving defaults and other params out', () => {
    const { router } = renderAt('/list?tab=users&page=4');
    act(() => api.setParams({ search: 'north', filter: 'linked' }));
    expect(router.state.historyAction).toBe('REPLACE');
    const search = new URLSearchParams(router.state.location.search);
    expect(Object.fromEntries(search)).toEqual({ tab: 'users', search: 'north', filter: 'linked' });
    expect(shown()).toMatchObject({ page: 1, search: 'north', filter: 'linked' });
  });

  it('keeps the other filters when only the page changes', () => {
    const { router } = renderAt('/list?search=north');
    act(() => api.setParams({ page: 2 }));
    const query = () => Object.fromEntries(new URLSearchParams(router.state.location.search));
    expect(query()).toEqual({ page: '2', search: 'north' });
    act(() => api.setParams({ ordering: 'name' }));
    expect(query()).toEqual({ search: 'north', ordering: 'name' });
    act(() => api.setParams({ ordering: '-created' }));
    expect(query()).toEqual({ search: 'north' });
  });

  it('survives a reload: the same URL gives the same state', () => {
    const { router, unmount } = renderAt('/list');
    act(() => api.setParams({ period: 'custom_range', from: '2026-01-02', to: '2026-01-09', limit: 20 }));
    const url = router.state.location.pathname + router.state.location.search;
    const before = shown();
    unmount();
    renderAt(url);
    expect(shown()).toEqual(before);
  });

  it('resets to the defaults and keeps params that are not the list’s', () => {
    const { router } = renderAt('/list?tab=users&search=x&page=2');
    act(() => api.reset());
    expect(router.state.location.search).toBe('?tab=users');
  });

  it('prefixes its keys so two lists can share a page', () => {
    const { router } = renderAt('/list?dev_search=abc&search=other', 'dev_');
    expect(shown().search).toBe('abc');
    act(() => api.setParams({ page: 2 }));
    expect(new URLSearchParams(router.state.location.search).get('dev_page')).toBe('2');
  });

  it('keeps a keyset cursor while paging and drops it when a filter changes', () => {
    const ZKeyset = keysetParamsSchema({ group: z.string().optional().catch(undefined) });
    let keyset: ListParamsApi<z.infer<typeof ZKeyset>> | undefined;
    function KeysetProbe() {
      keyset = useListParams(ZKeyset);
      return null;
    }
    const { router } = renderRoutes([{ path: '/list', element: <KeysetProbe /> }], '/list?before=90');
    expect(keyset?.params.before).toBe(90);
    expect(keyset?.hasFilters).toBe(false);
    act(() => keyset?.setParams({ before: undefined, after: 80 }));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ after: '80' });
    act(() => keyset?.setParams({ group: 'users' }));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ group: 'users' });
  });
});
