// List state in the URL (STYLE "The web app"): page, limit, search, period, custom range,
// ordering and each area's own filters live in the search params, so a list survives a reload
// and can be shared as a link. The URL is parsed with a zod schema; a bad value falls back to
// its default instead of breaking the page.
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@sc/shared/constants';
import { isIsoDate } from '@sc/shared/list';
import { PERIOD_VALUES } from './periods.ts';

const isoDate = z.string().refine(isIsoDate);

/** Fields every list has. Extend it with `listParamsSchema({ ... })` for an area's filters. */
export const ZBaseListParams = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  limit: z.coerce
    .number()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n))
    .catch(DEFAULT_PAGE_SIZE),
  // An over-long search in a link is kept, not dropped (issue 23.2: a dropped search silently lists everything): the
  // search box shows it with 'Search can be at most … characters.' on the field (SearchInput), and the list, which
  // the API refuses with the same message, shows no rows instead of every row.
  search: z.string().catch(''),
  period: z.enum(PERIOD_VALUES).catch('today'),
  from: isoDate.optional().catch(undefined),
  to: isoDate.optional().catch(undefined),
  ordering: z.string().max(200).optional().catch(undefined),
});
export type TBaseListParams = z.infer<typeof ZBaseListParams>;

/**
 * The base list fields plus an area's filters. Give every extra field a `.catch(fallback)` so a
 * hand-edited URL cannot break the page: `listParamsSchema({ filter: z.enum([...]).catch('all') })`.
 */
export const listParamsSchema = <S extends z.ZodRawShape>(shape: S) => ZBaseListParams.extend(shape);

const cursor = z.coerce.number().int().positive().optional().catch(undefined);
/**
 * A keyset list (the audit trail: newest first by id, too many rows to count or skip by page): the base fields, the
 * cursors `before` (older rows) and `after` (newer rows) the answer's `next` / `previous` links name, and the area's
 * filters. `page` is unused. Pair it with KeysetFooter.
 */
export const keysetParamsSchema = <S extends z.ZodRawShape>(shape: S) =>
  ZBaseListParams.extend({ before: cursor, after: cursor }).extend(shape);

/**
 * Keys that page through a list rather than filter it: `page`, or a keyset list's cursors `before` / `after` (an id:
 * the rows older / newer than it; keysetParamsSchema). Changing anything else goes back to the first page: page 1, no
 * cursor.
 */
const PAGING_KEYS = new Set(['page', 'before', 'after']);
/** Keys that do not narrow the rows (they do not turn 'No X yet!' into 'No X found!'). */
const NON_FILTER_KEYS = new Set(['page', 'limit', 'ordering', 'before', 'after']);

type ParamValue = string | number | boolean | undefined | null;

export type ListParamsOptions = {
  /** Prefix of every key, for two lists on one page (`dev_page`, `tech_page`). */
  prefix?: string;
};

export type ListParamsApi<T> = {
  /** The parsed state, defaults applied. */
  params: T;
  /** Merges a patch into the URL (history `replace`); any change but `page` resets page to 1. */
  setParams: (patch: Partial<T>) => void;
  /** Back to the defaults (keeps search params that are not the list's, such as `tab`). */
  reset: () => void;
  /** True when any filter (search, period, area filter) differs from its default. */
  hasFilters: boolean;
};

function readParams<T>(
  schema: z.ZodObject,
  keys: readonly string[],
  fallback: T,
  search: URLSearchParams,
  prefix: string,
): T {
  const raw: Record<string, string> = {};
  for (const key of keys) {
    const value = search.get(prefix + key);
    if (value !== null) raw[key] = value;
  }
  const parsed = schema.parse(raw) as Record<string, unknown>;
  const out: Record<string, unknown> = { ...(fallback as Record<string, unknown>) };
  for (const key of keys) if (key in raw) out[key] = parsed[key];
  return out as T;
}

/**
 * The list state a URL holds, as useListParams reads it: for a route loader that starts the page's data with its code.
 */
export function readListParams<S extends z.ZodObject>(
  schema: S,
  search: URLSearchParams,
  defaults: Partial<z.infer<S>> = {},
): z.infer<S> {
  const fallback = { ...(schema.parse({}) as z.infer<S>), ...defaults };
  return readParams(schema, Object.keys(schema.shape), fallback, search, '');
}

/**
 * `const { params, setParams, hasFilters } = useListParams(ZOrgListParams, { ordering: '-created' })`
 *
 * `defaults` override the schema's fallbacks; a value equal to its default is left out of the URL,
 * so a fresh list has a clean address.
 */
export function useListParams<S extends z.ZodObject>(
  schema: S,
  defaults: Partial<z.infer<S>> = {},
  { prefix = '' }: ListParamsOptions = {},
): ListParamsApi<z.infer<S>> {
  type T = z.infer<S>;
  const [searchParams, setSearchParams] = useSearchParams();
  const keys = useMemo(() => Object.keys(schema.shape), [schema]);

  // What the schema yields for an empty URL, with the caller's defaults on top.
  const fallback = useMemo(() => ({ ...(schema.parse({}) as T), ...defaults }) as T, [schema, defaults]);

  // Reads the state from a set of search params: used for rendering, and inside updates so two
  // updates in one tick (or a handler from an older render) never work from a stale state.
  const read = useCallback(
    (search: URLSearchParams): T => readParams(schema, keys, fallback, search, prefix),
    [keys, schema, fallback, prefix],
  );

  const params = useMemo(() => read(searchParams), [read, searchParams]);

  // React Router hands a functional update the params of the last *rendered* location, and it
  // renders navigations in a transition: a second update before that render (a click right after
  // the debounced search landed) would undo the first. Updates therefore chain on the last URL
  // this hook wrote until the router has rendered it.
  const pending = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    pending.current = null;
  }, [searchParams]);

  const write = useCallback(
    (update: (base: URLSearchParams) => URLSearchParams) => {
      const next = update(new URLSearchParams(pending.current ?? searchParams));
      pending.current = next;
      setSearchParams(next, { replace: true });
    },
    [searchParams, setSearchParams],
  );

  const setParams = useCallback(
    (patch: Partial<T>) =>
      write((current) => {
        const state = read(current) as Record<string, ParamValue>;
        const changes = patch as Record<string, ParamValue>;
        const changesFilter = Object.keys(changes).some((key) => !PAGING_KEYS.has(key) && !sameValue(changes[key], state[key]));
        const merged: Record<string, ParamValue> = { ...state, ...changes };
        if (changesFilter) for (const key of PAGING_KEYS) if (!(key in changes)) merged[key] = key === 'page' ? 1 : undefined;
        for (const key of keys) {
          const value = merged[key];
          const isDefault = sameValue(value, (fallback as Record<string, ParamValue>)[key]);
          if (value === undefined || value === null || value === '' || isDefault) current.delete(prefix + key);
          else current.set(prefix + key, String(value));
        }
        return current;
      }),
    [write, read, keys, fallback, prefix],
  );

  const reset = useCallback(
    () =>
      write((current) => {
        for (const key of keys) current.delete(prefix + key);
        return current;
      }),
    [write, keys, prefix],
  );

  const hasFilters = useMemo(
    () =>
      keys.some(
        (key) =>
          !NON_FILTER_KEYS.has(key) &&
          !sameValue((params as Record<string, ParamValue>)[key], (fallback as Record<string, ParamValue>)[key]),
      ),
    [keys, params, fallback],
  );

  return { params, setParams, reset, hasFilters };
}

// '' and undefined are the same "nothing"; numbers and their strings compare by text.
function sameValue(a: ParamValue, b: ParamValue): boolean {
  const norm = (v: ParamValue) => (v === undefined || v === null ? '' : String(v));
  return norm(a) === norm(b);
}
