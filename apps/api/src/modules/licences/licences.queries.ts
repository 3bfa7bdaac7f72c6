// Drizzle queries of licences and their log. Reads take the caller's scope: a licence of an organization outside
// it does not exist for them. `consumeLicence` is the one write devices make: a conditional decrement that can
// never take `count` below zero, however many uploads race for the last licence.
import { and, count, desc, eq, getTableColumns, gt, sql } from 'drizzle-orm';
import {
  LICENCE_DEFAULT_ORDERING,
  type TLicenceApplication,
  type TLicenceListQuery,
} from '@sc/shared/licences';
import type { DbOrTx } from '../../db/client.ts';
import { licenceLogs, licences, organizations, users } from '../../db/schema/index.ts';
import { parseOrdering } from '../../http/ordering.ts';
import type { PageParams } from '../../http/pagination.ts';
import { orgScopeCondition, type Scope } from '../../http/scope.ts';
import { searchCondition } from '../../http/search.ts';

export type LicenceRow = typeof licences.$inferSelect & { organizationName: string };
export type LicenceLogRow = typeof licenceLogs.$inferSelect & { renewedByName: string | null };

const ORDERING = {
  id: licences.id,
  created: licences.created,
  license_code: licences.licenseCode,
  application: licences.application,
  count: licences.count,
  total_license_count: licences.totalLicenseCount,
};

const licenceColumns = { ...getTableColumns(licences), organizationName: organizations.name };

export async function listLicences(
  db: DbOrTx,
  scope: Scope,
  filters: Pick<TLicenceListQuery, 'organization' | 'application' | 'search' | 'ordering'>,
  page: Pick<PageParams, 'limit' | 'offset'>,
): Promise<{ rows: LicenceRow[]; count: number }> {
  const where = and(
    orgScopeCondition(scope, licences.organizationId),
    filters.organization === undefined ? undefined : eq(licences.organizationId, filters.organization),
    filters.application === undefined ? undefined : eq(licences.application, filters.application),
    // 'Search by license no' (part 3 §2): the key; the organization's name helps find one too.
    searchCondition(filters.search, [licences.licenseCode, organizations.name]),
  );
  const orderBy = parseOrdering(filters.ordering, ORDERING, LICENCE_DEFAULT_ORDERING);
  const [rows, [total]] = await Promise.all([
    db
      .select(licenceColumns)
      .from(licences)
      .innerJoin(organizations, eq(organizations.id, licences.organizationId))
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ count: count() })
      .from(licences)
      .innerJoin(organizations, eq(organizations.id, licences.organizationId))
      .where(where),
  ]);
  return { rows, count: total?.count ?? 0 };
}

export async function findLicence(db: DbOrTx, scope: Scope, id: number): Promise<LicenceRow | null> {
  const [row] = await db
    .select(licenceColumns)
    .from(licences)
    .innerJoin(organizations, eq(organizations.id, licences.organizationId))
    .where(and(eq(licences.id, id), orgScopeCondition(scope, licences.organizationId)))
    .limit(1);
  return row ?? null;
}

export async function isLicenceCodeTaken(db: DbOrTx, code: string): Promise<boolean> {
  const [row] = await db
    .select({ id: licences.id })
    .from(licences)
    .where(eq(licences.licenseCode, code))
    .limit(1);
  return row !== undefined;
}

export async function insertLicence(
  db: DbOrTx,
  values: {
    organizationId: number;
    application: TLicenceApplication;
    licenseCode: string;
    pin: string;
    count: number;
    isActive: boolean;
    by: number;
    at: Date;
  },
): Promise<number> {
  const [row] = await db
    .insert(licences)
    .values({
      organizationId: values.organizationId,
      application: values.application,
      licenseCode: values.licenseCode,
      pin: values.pin,
      count: values.count,
      totalLicenseCount: values.count,
      isActive: values.isActive,
      createdBy: values.by,
      modifiedBy: values.by,
      created: values.at,
      modified: values.at,
    })
    .returning();
  if (!row) throw new Error('The licence was not created.');
  return row.id;
}

/**
 * Adds `added` to both counts (a renewal) and sets is_active; answers the counts before and after. The addition
 * is done in SQL so a device consuming a licence at the same moment is never overwritten.
 */
export async function renewLicence(
  db: DbOrTx,
  id: number,
  values: { added: number; isActive?: boolean; by: number; at: Date },
): Promise<{ before: number; after: number }> {
  const [row] = await db
    .update(licences)
    .set({
      count: sql`${licences.count} + ${values.added}`,
      totalLicenseCount: sql`${licences.totalLicenseCount} + ${values.added}`,
      ...(values.isActive === undefined ? {} : { isActive: values.isActive }),
      modifiedBy: values.by,
      modified: values.at,
    })
    .where(eq(licences.id, id))
    .returning();
  if (!row) throw new Error('The licence was not updated.');
  return { before: row.count - values.added, after: row.count };
}

/** The licence's total, its row locked until the transaction ends (null: no such licence). */
export async function lockLicenceTotal(tx: DbOrTx, id: number): Promise<number | null> {
  const [row] = await tx
    .select({ total: licences.totalLicenseCount })
    .from(licences)
    .where(eq(licences.id, id))
    .for('update');
  return row?.total ?? null;
}

export async function deleteLicence(db: DbOrTx, id: number): Promise<void> {
  await db.delete(licences).where(eq(licences.id, id));
}

export async function insertLicenceLog(
  db: DbOrTx,
  values: { licenseId: number; beforeCount: number; afterCount: number; by: number | null; at: Date },
): Promise<void> {
  await db.insert(licenceLogs).values({
    licenseId: values.licenseId,
    beforeCount: values.beforeCount,
    afterCount: values.afterCount,
    renewedBy: values.by,
    renewalDatetime: values.at,
    created: values.at,
  });
}

export async function listLicenceLogs(
  db: DbOrTx,
  licenseId: number,
  page: Pick<PageParams, 'limit' | 'offset'>,
): Promise<{ rows: LicenceLogRow[]; count: number }> {
  const where = eq(licenceLogs.licenseId, licenseId);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: licenceLogs.id,
        licenseId: licenceLogs.licenseId,
        beforeCount: licenceLogs.beforeCount,
        afterCount: licenceLogs.afterCount,
        renewalDatetime: licenceLogs.renewalDatetime,
        renewedBy: licenceLogs.renewedBy,
        created: licenceLogs.created,
        renewedByName: sql<string | null>`nullif(trim(${users.firstName} || ' ' || ${users.lastName}), '')`,
      })
      .from(licenceLogs)
      .leftJoin(users, eq(users.id, licenceLogs.renewedBy))
      .where(where)
      .orderBy(desc(licenceLogs.created), desc(licenceLogs.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ count: count() }).from(licenceLogs).where(where),
  ]);
  return { rows, count: total?.count ?? 0 };
}

export type ConsumedLicence = {
  id: number;
  licenseCode: string;
  before: number;
  after: number;
  total: number;
};

/**
 * Takes one licence of `application` from the organization: the oldest active licence with some left, or the one
 * whose key is `licenseCode`. `UPDATE … SET count = count - 1 WHERE count > 0 RETURNING`: when two uploads race
 * for the last one, PostgreSQL re-checks `count > 0` on the row the winner committed, so the loser updates nothing
 * and looks again (another licence may have some left); null when none has any left.
 */
export async function consumeLicence(
  tx: DbOrTx,
  values: { organizationId: number; application: TLicenceApplication; licenseCode?: string | null; at: Date },
): Promise<ConsumedLicence | null> {
  const candidates = and(
    eq(licences.organizationId, values.organizationId),
    eq(licences.application, values.application),
    eq(licences.isActive, true),
    gt(licences.count, 0),
    values.licenseCode ? eq(licences.licenseCode, values.licenseCode) : undefined,
  );
  // Each pass either takes a licence or finds one emptied by a concurrent upload: bounded by the licences held.
  for (let attempt = 0; attempt < 100; attempt++) {
    const [candidate] = await tx
      .select({ id: licences.id })
      .from(licences)
      .where(candidates)
      .orderBy(licences.created, licences.id)
      .limit(1);
    if (!candidate) return null;
    const [row] = await tx
      .update(licences)
      .set({ count: sql`${licences.count} - 1`, modified: values.at })
      .where(and(eq(licences.id, candidate.id), gt(licences.count, 0)))
      .returning();
    if (row) {
      return {
        id: row.id,
        licenseCode: row.licenseCode,
        before: row.count + 1,
        after: row.count,
        total: row.totalLicenseCount,
      };
    }
  }
  return null;
}

/** Whether the organization holds an active licence with this key for this application (any count). */
export async function hasActiveLicenceCode(
  db: DbOrTx,
  organizationId: number,
  application: TLicenceApplication,
  licenseCode: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: licences.id })
    .from(licences)
    .where(
      and(
        eq(licences.organizationId, organizationId),
        eq(licences.application, application),
        eq(licences.isActive, true),
        eq(licences.licenseCode, licenseCode),
      ),
    )
    .limit(1);
  return row !== undefined;
}
