// Queries of the signed-in user's own calls: profile, organizations for the user card, own-account deletion.
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { managerOrganizations, oneTimeCodes, organizations, scans, users } from '../../db/schema/index.ts';
import { organizationScopeCondition, type Scope } from '../../http/scope.ts';

export type UserRow = typeof users.$inferSelect;
export type CardOrganization = { id: number; name: string; canCreateOrganization: boolean };

const cardColumns = {
  id: organizations.id,
  name: organizations.name,
  canCreateOrganization: organizations.canCreateOrganization,
};

export async function findUser(db: Db, id: number): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function findOrganizationCard(db: Db, id: number): Promise<CardOrganization | null> {
  const [row] = await db.select(cardColumns).from(organizations).where(eq(organizations.id, id)).limit(1);
  return row ?? null;
}

/** The first `limit` organizations of a scope (the caller's own first), and how many the scope holds. */
export async function listScopeOrganizations(db: Db, scope: Scope, ownId: number | null, limit: number) {
  const where = organizationScopeCondition(scope);
  const rows = await db
    .select(cardColumns)
    .from(organizations)
    .where(where)
    .orderBy(
      sql`${organizations.id} = ${ownId ?? -1} desc`,
      sql`lower(${organizations.name})`,
      asc(organizations.id),
    )
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(organizations).where(where);
  return { rows, count: total?.n ?? 0 };
}

/** The organizations a MANAGER is linked to, by name. */
export async function listLinkedOrganizations(
  db: Db,
  userId: number,
  limit: number,
): Promise<CardOrganization[]> {
  return db
    .select(cardColumns)
    .from(managerOrganizations)
    .innerJoin(organizations, eq(organizations.id, managerOrganizations.organizationId))
    .where(eq(managerOrganizations.userId, userId))
    .orderBy(sql`lower(${organizations.name})`, asc(organizations.id))
    .limit(limit);
}

/** A technician's screening scans (scan_type SCAN, architecture §7) and how many were positive. */
export async function countTechnicianScans(
  db: Db,
  technicianId: number,
): Promise<{ total: number; positive: number }> {
  const [row] = await db
    .select({
      total: count(),
      positive: sql<number>`count(*) filter (where ${scans.isPositive})`.mapWith(Number),
    })
    .from(scans)
    .where(and(eq(scans.technicianId, technicianId), eq(scans.scanType, 'SCAN')));
  return { total: row?.total ?? 0, positive: row?.positive ?? 0 };
}

export async function updateLastDashboardPath(db: Db, userId: number, url: string): Promise<void> {
  await db.update(users).set({ lastUsedDashboardPath: url }).where(eq(users.id, userId));
}

export async function updateLastLogin(db: Db, userId: number, at: Date): Promise<void> {
  await db.update(users).set({ lastLoginAt: at }).where(eq(users.id, userId));
}

/** Deactivates and anonymises a user; their scans, patients and exams stay with the organization. */
export async function anonymiseUser(db: DbOrTx, userId: number, at: Date): Promise<void> {
  await db
    .update(users)
    .set({
      isValid: false,
      firstName: 'Deleted',
      lastName: 'User',
      username: `deleted-${userId}`,
      email: null,
      mobile: null,
      mobileCountryCode: null,
      passwordHash: null,
      pinHash: null,
      pinResetRequest: false,
      lastUsedDashboardPath: null,
      deletedAt: at,
      modifiedBy: userId,
    })
    .where(eq(users.id, userId));
  // Outstanding codes and links of the user are worthless now; drop them with the personal data they name.
  await db.delete(oneTimeCodes).where(eq(oneTimeCodes.userId, userId));
}
