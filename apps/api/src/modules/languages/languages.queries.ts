// Drizzle queries of languages. Languages are platform reference data: no organization scope.
import { and, count, eq, ne, sql } from 'drizzle-orm';
import { LANGUAGE_DEFAULT_ORDERING, type TLanguageListQuery } from '@sc/shared/languages';
import type { Db, DbOrTx } from '../../db/client.ts';
import { appVersions, languages } from '../../db/schema/index.ts';
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

export async function findLanguage(db: DbOrTx, id: number): Promise<LanguageRow | undefined> {
  const [row] = await db.select().from(languages).where(eq(languages.id, id)).limit(1);
  return row;
}

/** True when another language (not `exceptId`) has this ISO code, in any case (the unique index is on lower()). */
export async function isIsoCodeTaken(db: DbOrTx, isoCode: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: languages.id })
    .from(languages)
    .where(
      and(
        sql`lower(${languages.isoCode}) = ${isoCode.toLowerCase()}`,
        exceptId === undefined ? undefined : ne(languages.id, exceptId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The app (IBE, ORCA, CERVAICAL) of an app version, or undefined when there is none with this id. */
export async function findAppVersionType(db: DbOrTx, id: number): Promise<string | undefined> {
  const [row] = await db.select({ type: appVersions.type }).from(appVersions).where(eq(appVersions.id, id)).limit(1);
  return row?.type;
}

export type LanguageValues = {
  name: string;
  isoCode: string;
  isTutorialAvailable: boolean;
  appVersionId: number | null;
  ibeConsentForm: string[];
};

export async function insertLanguage(tx: DbOrTx, values: LanguageValues, at: Date): Promise<LanguageRow> {
  const [row] = await tx
    .insert(languages)
    .values({ ...values, created: at, modified: at })
    .returning();
  if (!row) throw new Error('language not inserted');
  return row;
}

export async function updateLanguage(
  tx: DbOrTx,
  id: number,
  values: Partial<LanguageValues>,
  at: Date,
): Promise<LanguageRow | undefined> {
  const [row] = await tx
    .update(languages)
    .set({ ...values, modified: at })
    .where(eq(languages.id, id))
    .returning();
  return row;
}
