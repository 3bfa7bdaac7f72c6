// `search` of every list: a case-insensitive substring match (ILIKE '%term%') over a few columns or expressions.
// The term is escaped so that %, _ and \ match themselves. Trigram (gin_trgm_ops) indexes serve these queries
// when the expression matches the index expression exactly.
import { or, sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';

/** Escapes LIKE wildcards (PostgreSQL's default escape character is the backslash). */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%term%` with the term's wildcards escaped. */
export function containsPattern(term: string): string {
  return `%${escapeLike(term)}%`;
}

/** `col1 ILIKE '%term%' OR col2 ILIKE …`; undefined (no filter) for a blank or missing term. */
export function searchCondition(
  term: string | undefined | null,
  targets: readonly (AnyColumn | SQLWrapper)[],
): SQL | undefined {
  const trimmed = term?.trim();
  if (!trimmed || targets.length === 0) return undefined;
  const pattern = containsPattern(trimmed);
  return or(...targets.map((t) => sql`${t} ilike ${pattern}`));
}

/** `coalesce(a, '') || ' ' || coalesce(b, '') …`: several nullable columns searched as one string. */
export function concatColumns(columns: readonly AnyColumn[]): SQL {
  const joined = sql.join(
    columns.map((c) => sql`coalesce(${c}, '')`),
    sql` || ' ' || `,
  );
  return sql`(${joined})`;
}
