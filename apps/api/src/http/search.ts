// `search` of every list: a case-insensitive substring match (ILIKE '%term%') over a few columns or expressions.
// The term is escaped so that %, _ and \ match themselves. Trigram (gin_trgm_ops) indexes serve these queries
// when the expression matches the index expression exactly. A term that is a phone number is looked for in its
// stored form too (searchPatterns), so every list that searches a mobile finds it however it is typed.
import { or, sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import { phoneSearchForm } from '@sc/shared/phone';

/** Escapes LIKE wildcards (PostgreSQL's default escape character is the backslash). */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%term%` with the term's wildcards escaped. */
export function containsPattern(term: string): string {
  return `%${escapeLike(term)}%`;
}

/**
 * The `%…%` patterns a (trimmed, non-blank) term is looked for with: the term itself, then, when it is a phone number
 * typed another way than stored ('+91 95828 14405', '95828-14405'), its stored form ('+91-9582814405', shared
 * phone.ts). Each pattern is one more `LIKE` on the same expression: PostgreSQL ORs the trigram index's answers
 * (BitmapOr), so the search stays an index search.
 */
export function searchPatterns(term: string): string[] {
  const phone = phoneSearchForm(term);
  return phone === null ? [containsPattern(term)] : [containsPattern(term), containsPattern(phone)];
}

/** `target ILIKE` any of the term's patterns (searchPatterns). */
export function ilikeTerm(target: AnyColumn | SQLWrapper, term: string): SQL {
  const patterns = searchPatterns(term);
  const likes = patterns.map((p) => sql`${target} ilike ${p}`);
  return likes.length === 1 ? likes[0]! : sql`(${or(...likes)})`;
}

/** `col1 ILIKE '%term%' OR col2 ILIKE …` (and the term's phone form); undefined for a blank or missing term. */
export function searchCondition(
  term: string | undefined | null,
  targets: readonly (AnyColumn | SQLWrapper)[],
): SQL | undefined {
  const trimmed = term?.trim();
  if (!trimmed || targets.length === 0) return undefined;
  return or(...targets.map((t) => ilikeTerm(t, trimmed)));
}

/** `coalesce(a, '') || ' ' || coalesce(b, '') …`: several nullable columns searched as one string. */
export function concatColumns(columns: readonly AnyColumn[]): SQL {
  const joined = sql.join(
    columns.map((c) => sql`coalesce(${c}, '')`),
    sql` || ' ' || `,
  );
  return sql`(${joined})`;
}
