// Page-number pagination in the DRF shape every list answers (architecture §4): {count, next, previous, results}.
// `next`/`previous` are absolute-path URLs of the same request with only `page` changed, so every other filter
// survives; a page past the last answers 404 {detail: 'Invalid page.'} as DRF does (page 1 is always valid).
import type { FastifyRequest } from 'fastify';
import { REPEATED_PARAMETER_MESSAGE, ZListQuery } from '@sc/shared/list';
import type { TPaginated } from '@sc/shared/list';
import { AppError, zodToFields } from './errors.ts';

export type PageParams = { page: number; limit: number; offset: number };

const ZPageParams = ZListQuery.pick({ page: true, limit: true });

/**
 * `page` and `limit` of a query, validated with the shared ZListQuery rules (limit 1..1000, page ≥ 1).
 * Routes usually validate their whole querystring with a schema extending ZListQuery; this is for callers that
 * hold a raw query. Bad values → 400 {limit: ['Ensure limit is less than or equal to 1000.']}; only plain decimal
 * digits are numbers ('0x10' is refused), and a parameter sent twice answers {limit: ['Only one value is allowed.']}.
 */
export function parsePage(query: { page?: unknown; limit?: unknown }): PageParams {
  const repeated = (['page', 'limit'] as const).filter((key) => Array.isArray(query[key]));
  if (repeated.length) {
    throw new AppError('bad_request', 'Invalid input.', Object.fromEntries(repeated.map((k) => [k, [REPEATED_PARAMETER_MESSAGE]])));
  }
  const parsed = ZPageParams.safeParse({ page: query.page, limit: query.limit });
  if (!parsed.success) throw new AppError('bad_request', 'Invalid input.', zodToFields(parsed.error.issues));
  return toPageParams(parsed.data);
}

/** Offset and limit for an already-validated page and limit. */
export function toPageParams({ page, limit }: { page: number; limit: number }): PageParams {
  return { page, limit, offset: (page - 1) * limit };
}

/** The request's path and query with `page` set (or removed for page 1, as DRF's previous link does). */
export function pageUrl(request: Pick<FastifyRequest, 'url'>, page: number): string {
  const url = new URL(request.url, 'http://localhost');
  if (page <= 1) url.searchParams.delete('page');
  else url.searchParams.set('page', String(page));
  const search = url.searchParams.toString();
  return `${url.pathname}${search ? `?${search}` : ''}`;
}

/** Throws 404 'Invalid page.' for a page beyond the last (the first page is valid even when empty). */
export function assertPageExists(params: Pick<PageParams, 'page' | 'limit'>, count: number): void {
  const last = Math.max(1, Math.ceil(count / params.limit));
  if (params.page > last) throw new AppError('not_found', 'Invalid page.');
}

/**
 * The list envelope. Call after counting; throws 404 'Invalid page.' when the page is past the last. `capped`: the
 * count is a lower bound (a text search's bounded count, SEARCH_COUNT_AHEAD), so there is a next page.
 */
export function paginate<T>(
  request: Pick<FastifyRequest, 'url'>,
  params: Pick<PageParams, 'page' | 'limit'>,
  count: number,
  results: T[],
  capped = false,
): TPaginated<T> {
  assertPageExists(params, count);
  const hasNext = capped || params.page * params.limit < count;
  return {
    count,
    ...(capped ? { count_capped: true } : {}),
    next: hasNext ? pageUrl(request, params.page + 1) : null,
    previous: params.page > 1 ? pageUrl(request, params.page - 1) : null,
    results,
  };
}
