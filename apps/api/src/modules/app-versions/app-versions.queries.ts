// Drizzle queries of app versions (part 3 §3 App version). Platform reference data: no organization scope.
import { and, count, desc, eq, ne, sql } from 'drizzle-orm';
import { APP_VERSION_DEFAULT_ORDERING, type TAppType, type TAppVersionListQuery } from '@sc/shared/app-versions';
import type { Db, DbOrTx } from '../../db/client.ts';
import { appVersions } from '../../db/schema/index.ts';
import { parseOrdering } from '../../http/ordering.ts';
import type { PageParams } from '../../http/pagination.ts';
import { searchCondition } from '../../http/search.ts';

export type AppVersionRow = typeof appVersions.$inferSelect;

const ORDERING = {
  id: appVersions.id,
  name: appVersions.name,
  code: appVersions.code,
  tutorial_version: appVersions.tutorialVersion,
  created: appVersions.created,
  modified: appVersions.modified,
};

export async function listAppVersions(
  db: Db,
  filters: Pick<TAppVersionListQuery, 'search' | 'ordering' | 'type'>,
  page: Pick<PageParams, 'limit' | 'offset'>,
): Promise<{ rows: AppVersionRow[]; count: number }> {
  const where = and(
    filters.type === undefined ? undefined : eq(appVersions.type, filters.type),
    searchCondition(filters.search, [appVersions.name, appVersions.code]),
  );
  const orderBy = parseOrdering(filters.ordering, ORDERING, APP_VERSION_DEFAULT_ORDERING);
  const [rows, [total]] = await Promise.all([
    db.select().from(appVersions).where(where).orderBy(...orderBy).limit(page.limit).offset(page.offset),
    db.select({ count: count() }).from(appVersions).where(where),
  ]);
  return { rows, count: total?.count ?? 0 };
}

export async function findAppVersion(db: DbOrTx, id: number): Promise<AppVersionRow | undefined> {
  const [row] = await db.select().from(appVersions).where(eq(appVersions.id, id)).limit(1);
  return row;
}

/** The newest version of an app: the last created (the id breaks a tie). Served by app_versions_type_idx. */
export async function findLatestAppVersion(db: DbOrTx, type: TAppType): Promise<AppVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(appVersions)
    .where(eq(appVersions.type, type))
    .orderBy(desc(appVersions.created), desc(appVersions.id))
    .limit(1);
  return row;
}

/** Serializes writes of one app's versions, so two saves cannot both take a free code (released at commit). */
export async function lockAppVersions(tx: DbOrTx, type: TAppType): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`app_version:${type}`}, 0))`);
}

export async function isCodeTaken(tx: DbOrTx, type: TAppType, code: string, exceptId?: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: appVersions.id })
    .from(appVersions)
    .where(
      and(
        eq(appVersions.type, type),
        sql`lower(${appVersions.code}) = ${code.toLowerCase()}`,
        exceptId === undefined ? undefined : ne(appVersions.id, exceptId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export type AppVersionValues = {
  name: string;
  code: string;
  tutorialVersion: number | null;
  notes: { note: string };
  type: TAppType;
};

export async function insertAppVersion(
  tx: DbOrTx,
  values: AppVersionValues,
  by: number,
  at: Date,
): Promise<AppVersionRow> {
  const [row] = await tx
    .insert(appVersions)
    .values({ ...values, created: at, modified: at, createdBy: by, modifiedBy: by })
    .returning();
  if (!row) throw new Error('app version not inserted');
  return row;
}

export async function updateAppVersion(
  tx: DbOrTx,
  id: number,
  values: Partial<AppVersionValues>,
  by: number,
  at: Date,
): Promise<AppVersionRow | undefined> {
  const [row] = await tx
    .update(appVersions)
    .set({ ...values, modified: at, modifiedBy: by })
    .where(eq(appVersions.id, id))
    .returning();
  return row;
}
