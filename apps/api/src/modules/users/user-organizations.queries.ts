// A MANAGER's organization links (`user/organizations/`, part 2 §3 "User organization link").
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { managerOrganizations, organizations } from '../../db/schema/index.ts';
import type { PageParams } from '../../http/pagination.ts';
import { orgScopeCondition, type Scope } from '../../http/scope.ts';

const linkColumns = {
  id: managerOrganizations.id,
  userId: managerOrganizations.userId,
  organizationId: managerOrganizations.organizationId,
  created: managerOrganizations.created,
  organization: {
    id: organizations.id,
    name: organizations.name,
    canCreateOrganization: organizations.canCreateOrganization,
    country: organizations.country,
  },
};

export type UserOrganizationLinkRow = {
  id: number;
  userId: number;
  organizationId: number;
  created: Date;
  organization: { id: number; name: string; canCreateOrganization: boolean; country: string | null };
};

/** The user's links to organizations in `scope`, by organization name. */
export async function listUserOrganizationLinks(
  db: Db,
  scope: Scope,
  userId: number,
  page: Pick<PageParams, 'limit' | 'offset'>,
): Promise<{ rows: UserOrganizationLinkRow[]; count: number }> {
  const where = and(
    eq(managerOrganizations.userId, userId),
    orgScopeCondition(scope, managerOrganizations.organizationId),
  );
  const [total] = await db.select({ n: count() }).from(managerOrganizations).where(where);
  const n = total?.n ?? 0;
  if (n === 0 || page.offset >= n) return { rows: [], count: n };
  const rows = await db
    .select(linkColumns)
    .from(managerOrganizations)
    .innerJoin(organizations, eq(organizations.id, managerOrganizations.organizationId))
    .where(where)
    .orderBy(sql`lower(${organizations.name})`, asc(managerOrganizations.id))
    .limit(page.limit)
    .offset(page.offset);
  return { rows, count: n };
}

export async function findUserOrganizationLink(
  db: DbOrTx,
  id: number,
): Promise<UserOrganizationLinkRow | null> {
  const [row] = await db
    .select(linkColumns)
    .from(managerOrganizations)
    .innerJoin(organizations, eq(organizations.id, managerOrganizations.organizationId))
    .where(eq(managerOrganizations.id, id))
    .limit(1);
  return row ?? null;
}

export async function hasUserOrganizationLink(
  db: DbOrTx,
  userId: number,
  organizationId: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: managerOrganizations.id })
    .from(managerOrganizations)
    .where(
      and(eq(managerOrganizations.userId, userId), eq(managerOrganizations.organizationId, organizationId)),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertUserOrganizationLink(
  db: DbOrTx,
  v: { userId: number; organizationId: number; createdBy: number; at: Date },
): Promise<number> {
  const [row] = await db
    .insert(managerOrganizations)
    .values({
      userId: v.userId,
      organizationId: v.organizationId,
      createdBy: v.createdBy,
      created: v.at,
      modified: v.at,
    })
    .returning();
  if (!row) throw new Error('link not inserted');
  return row.id;
}

export async function deleteUserOrganizationLink(db: DbOrTx, id: number): Promise<void> {
  await db.delete(managerOrganizations).where(eq(managerOrganizations.id, id));
}
