// Organization reads. Every list takes the caller's scope; nothing here decides who may call.
import { and, count, eq, inArray, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { organizations } from '../../db/schema/index.ts';
import type { PageParams } from '../../http/pagination.ts';
import { periodCondition, type PeriodRange } from '../../http/period.ts';
import { organizationScopeCondition, type Scope } from '../../http/scope.ts';
import { concatColumns, searchCondition } from '../../http/search.ts';

export type OrganizationRow = typeof organizations.$inferSelect;

export type OrganizationListFilters = {
  search?: string;
  parent?: number;
  canCreateOrganization?: boolean;
  subOrganisation?: boolean;
  ids?: number[];
  created: PeriodRange;
};

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
};
export type OrganizationListRow = Pick<OrganizationRow, keyof typeof organizationListColumns>;

/** The ordering whitelist of `GET organization/`. */
export const organizationOrderingFields = {
  name: organizations.name,
  created: organizations.created,
  id: organizations.id,
  country: organizations.country,
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
