// Organization reads. Every list takes the caller's scope; nothing here decides who may call.
import { and, asc, count, eq, inArray, isNotNull, isNull, like, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { languages, organizations, scanStatsOrgTotal } from '../../db/schema/index.ts';
import type { PageParams } from '../../http/pagination.ts';
import { periodCondition, type PeriodRange } from '../../http/period.ts';
import { organizationScopeCondition, type Scope } from '../../http/scope.ts';
import { concatColumns, searchCondition } from '../../http/search.ts';
import { qualified } from '../../db/qualified.ts';

export type OrganizationRow = typeof organizations.$inferSelect;

export type OrganizationListFilters = {
  search?: string;
  parent?: number;
  canCreateOrganization?: boolean;
  subOrganisation?: boolean;
  ids?: number[];
  created: PeriodRange;
};

// The read-only figures of part 1 §3, from the all-time statistics table (kept exact by triggers on scans). The
// last sync is the later of the latest scan received and the latest device upload recorded on the organization.
const statsOf = (column: 'scans' | 'positives') =>
  sql<number>`coalesce((select ${sql.identifier(column)} from ${scanStatsOrgTotal} where ${scanStatsOrgTotal.organizationId} = ${qualified(organizations.id)}), 0)`.mapWith(Number);
const figureColumns = {
  scansCount: statsOf('scans'),
  positiveScans: statsOf('positives'),
  statsLastSync: sql<Date | null>`greatest((select ${scanStatsOrgTotal.lastSync} from ${scanStatsOrgTotal} where ${scanStatsOrgTotal.organizationId} = ${qualified(organizations.id)}), ${organizations.lastSyncDate})`.mapWith(
    (v: string | Date | null) => (v === null ? null : new Date(v)),
  ),
};
export type OrganizationFigures = { scansCount: number; positiveScans: number; statsLastSync: Date | null };

/** The figures of one organization (no scope check: callers have found the organization in scope). */
export async function findOrganizationFigures(db: Db, id: number): Promise<OrganizationFigures> {
  const [row] = await db.select(figureColumns).from(organizations).where(eq(organizations.id, id)).limit(1);
  return row ?? { scansCount: 0, positiveScans: 0, statsLastSync: null };
}

/** The columns the list presents: a narrow select keeps the list fast. */
export const organizationListColumns = {
  id: organizations.id,
  name: organizations.name,
  country: organizations.country,
  countryCode: organizations.countryCode,
  state: organizations.state,
  address1: organizations.address1,
  address2: organizations.address2,
  address3: organizations.address3,
  zipcode: organizations.zipcode,
  timezone: organizations.timezone,
  languageId: organizations.languageId,
  parentId: organizations.parentId,
  canCreateOrganization: organizations.canCreateOrganization,
  created: organizations.created,
  /** For a row saved without a country: the presenter names the country of this code. */
  companyCountryCode: sql<string | null>`${organizations.companyInfo} ->> 'country_code'`,
  ...figureColumns,
};
export type OrganizationListRow = Pick<
  OrganizationRow,
  Exclude<keyof typeof organizationListColumns, 'companyCountryCode' | keyof OrganizationFigures>
> & {
  companyCountryCode: string | null;
} & OrganizationFigures;

/** The ordering whitelist of `GET organization/`. */
export const organizationOrderingFields = {
  name: organizations.name,
  created: organizations.created,
  id: organizations.id,
  country: organizations.country,
  scans_count: figureColumns.scansCount,
  // Sorted as shown: 0 without scans; never synced sorts as the oldest.
  dynamic_positivity_percentage: sql`coalesce(${figureColumns.positiveScans}::float8 / nullif(${figureColumns.scansCount}, 0), 0)`,
  last_sync_date: sql`coalesce(${figureColumns.statsLastSync}, '-infinity'::timestamptz)`,
};

// Same expression as organizations_address_trgm_idx, so the trigram index serves the search.
const addressLines = concatColumns([organizations.address1, organizations.address2, organizations.address3]);

function listConditions(scope: Scope, f: OrganizationListFilters): SQL | undefined {
  return and(
    organizationScopeCondition(scope),
    searchCondition(f.search, [organizations.name, addressLines]),
    f.parent !== undefined ? eq(organizations.parentId, f.parent) : undefined,
    f.canCreateOrganization !== undefined
      ? eq(organizations.canCreateOrganization, f.canCreateOrganization)
      : undefined,
    f.subOrganisation === true ? isNotNull(organizations.parentId) : undefined,
    // Stand-alone: neither under a distributor nor a distributor itself.
    f.subOrganisation === false
      ? and(isNull(organizations.parentId), eq(organizations.canCreateOrganization, false))
      : undefined,
    f.ids !== undefined ? (f.ids.length ? inArray(organizations.id, f.ids) : undefined) : undefined,
    periodCondition(organizations.created, f.created),
  );
}

export async function listOrganizations(
  db: Db,
  scope: Scope,
  filters: OrganizationListFilters,
  orderBy: SQL[],
  page: Pick<PageParams, 'limit' | 'offset'>,
): Promise<{ rows: OrganizationListRow[]; count: number }> {
  const where = listConditions(scope, filters);
  const [total] = await db.select({ n: count() }).from(organizations).where(where);
  const n = total?.n ?? 0;
  if (n === 0 || page.offset >= n) return { rows: [], count: n };
  const rows = await db
    .select(organizationListColumns)
    .from(organizations)
    .where(where)
    .orderBy(...orderBy)
    .limit(page.limit)
    .offset(page.offset);
  return { rows, count: n };
}

/** One organization when it exists and is in scope. */
export async function findOrganization(
  db: Db,
  scope: Scope,
  id: number,
): Promise<OrganizationRow | undefined> {
  const [row] = await db
    .select()
    .from(organizations)
    .where(and(eq(organizations.id, id), organizationScopeCondition(scope)))
    .limit(1);
  return row;
}

// ---- Write side -----------------------------------------------------------------------------------------------

export type OrganizationInsert = typeof organizations.$inferInsert;
export type OrganizationChanges = Partial<Omit<OrganizationInsert, 'id' | 'treePath' | 'created' | 'createdBy'>>;

/** Inserts the organization and sets its tree path (parent's path + own id). Run inside a transaction. */
export async function insertOrganization(
  db: Db,
  values: Omit<OrganizationInsert, 'id' | 'treePath'>,
  parentPath: string,
): Promise<OrganizationRow> {
  const [row] = await db.insert(organizations).values(values).returning();
  if (!row) throw new Error('The organization was not created.');
  const [withPath] = await db
    .update(organizations)
    .set({ treePath: `${parentPath}${row.id}/` })
    .where(eq(organizations.id, row.id))
    .returning();
  if (!withPath) throw new Error('The organization was not created.');
  return withPath;
}

export async function updateOrganizationRow(db: Db, id: number, changes: OrganizationChanges): Promise<OrganizationRow> {
  const [row] = await db.update(organizations).set(changes).where(eq(organizations.id, id)).returning();
  if (!row) throw new Error('The organization was not updated.');
  return row;
}

/** Locks the given organizations (in id order, so two moves cannot deadlock) and returns their tree paths. */
export async function lockOrganizations(db: Db, ids: number[]): Promise<Map<number, string>> {
  const rows = await db
    .select({ id: organizations.id, treePath: organizations.treePath })
    .from(organizations)
    .where(inArray(organizations.id, ids))
    .orderBy(asc(organizations.id))
    .for('update');
  return new Map(rows.map((r) => [r.id, r.treePath]));
}

/** Moves a subtree: every tree path under `oldPath` (the organization's own too) now starts with `newPath`. */
export async function rewriteTreePaths(db: Db, oldPath: string, newPath: string): Promise<void> {
  await db
    .update(organizations)
    .set({ treePath: sql`${newPath} || substr(${organizations.treePath}, ${oldPath.length + 1})` })
    .where(like(organizations.treePath, `${oldPath}%`));
}

export async function hasSubOrganizations(db: Db, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(eq(organizations.parentId, id), ne(organizations.id, id)))
    .limit(1);
  return row !== undefined;
}

/** The organization `id` (no scope: callers have checked it) with what the write rules need. */
export async function findOrganizationById(db: Db, id: number): Promise<OrganizationRow | undefined> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id)).limit(1);
  return row;
}

export async function languageExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.select({ id: languages.id }).from(languages).where(eq(languages.id, id)).limit(1);
  return row !== undefined;
}

/** Languages whose iso code (case-insensitive) is one of `isoCodes`. */
export async function findLanguagesByIso(
  db: Db,
  isoCodes: string[],
): Promise<{ id: number; name: string; isoCode: string }[]> {
  if (!isoCodes.length) return [];
  return db
    .select({ id: languages.id, name: languages.name, isoCode: languages.isoCode })
    .from(languages)
    .where(inArray(sql`lower(${languages.isoCode})`, isoCodes.map((c) => c.toLowerCase())));
}
