// `ordering` of every list (architecture §4): a comma list of whitelisted fields, '-' for descending. Unknown fields
// answer 400 instead of being ignored, and the id is always appended so that paging is stable when sort keys tie.
import { asc, desc, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import { fieldError } from './errors.ts';

export type OrderingWhitelist = Record<string, AnyColumn | SQLWrapper>;

export type OrderingOptions = {
  /** The unique column appended last; defaults to `whitelist.id`. */
  tieBreaker?: AnyColumn | SQLWrapper;
};

/** The ordering terms of a raw `ordering` value: [{field, descending}], duplicates and blanks dropped. */
export function parseOrderingTerms(
  raw: string | undefined,
  whitelist: OrderingWhitelist,
): { field: string; descending: boolean }[] {
  const terms: { field: string; descending: boolean }[] = [];
  const seen = new Set<string>();
  for (const part of (raw ?? '').split(',')) {
    const token = part.trim();
    if (!token) continue;
    const descending = token.startsWith('-');
    const field = descending ? token.slice(1).trim() : token;
    if (!Object.hasOwn(whitelist, field)) throw fieldError('ordering', `Invalid ordering field: ${field}.`);
    if (seen.has(field)) continue;
    seen.add(field);
    terms.push({ field, descending });
  }
  return terms;
}

/**
 * Drizzle order-by list for `raw` (falls back to `defaultOrdering` when empty), e.g.
 * `parseOrdering('name,-created', {name: t.name, created: t.created, id: t.id}, '-created')`
 * → [asc(name), desc(created), desc(id)]. The tie-breaker follows the direction of the last term.
 */
export function parseOrdering(
  raw: string | undefined,
  whitelist: OrderingWhitelist,
  defaultOrdering: string,
  options: OrderingOptions = {},
): SQL[] {
  let terms = parseOrderingTerms(raw, whitelist);
  if (terms.length === 0) terms = parseOrderingTerms(defaultOrdering, whitelist);
  const out = terms.map((t) => (t.descending ? desc(whitelist[t.field]!) : asc(whitelist[t.field]!)));
  const tieBreaker = options.tieBreaker ?? whitelist.id;
  if (!tieBreaker) throw new Error('parseOrdering needs an id column in the whitelist or a tieBreaker.');
  // An id term already makes the order total.
  const hasIdTerm = options.tieBreaker === undefined && terms.some((t) => t.field === 'id');
  if (!hasIdTerm) {
    const last = terms[terms.length - 1];
    out.push(last?.descending ? desc(tieBreaker) : asc(tieBreaker));
  }
  return out;
}
