// Drizzle queries of languages. Languages are platform reference data: no organization scope.
import { and, count, eq } from 'drizzle-orm';
import { LANGUAGE_DEFAULT_ORDERING, type TLanguageListQuery } from '@sc/shared/languages';
import type { Db } from '../../db/client.ts';
import { languages } from '../../db/schema/index.ts';
import { parseOrdering } from '../../http/ordering.ts';
import type { PageParams } from '../../http/pagination.ts';
import { searchCondition } from '../../http/search.ts';

export type LanguageRow = typeof languages.$inferSelect;

const ORDERING = {
  id: languages.id,
  name: languages.name,
  iso_code: languages.isoCode,
  created: languages.created,
};

export type LanguageFilters = Pick<TLanguageListQuery, 'search' | 'ordering' | 'is_tutorial_available'>;

export async function listLanguages(
  db: Db,
  filters: LanguageFilters,
  page: Pick<PageParams, 'limit' | 'offset'>,
): Promise<{ rows: LanguageRow[]; count: number }> {
  const where = and(
    searchCondition(filters.search, [languages.name, languages.isoCode]),
    filters.is_tutorial_available === undefined
      ? undefined
      : eq(languages.isTutorialAvailable, filters.is_tutorial_available),
  );
  const orderBy = parseOrdering(filters.ordering, ORDERING, LANGUAGE_DEFAULT_ORDERING);
  const [rows, [total]] = await Promise.all([
    db.select().from(languages).where(where).orderBy(...orderBy).limit(page.limit).offset(page.offset),
    db.select({ count: count() }).from(languages).where(where),
  ]);
  return { rows, count: total?.count ?? 0 };
}
