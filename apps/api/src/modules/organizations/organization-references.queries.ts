// Drizzle queries of organization references. Every read takes the caller's scope: a reference of an organization
// outside it does not exist for them.
import { and, count, eq, ne, sql, type SQL } from 'drizzle-orm';
import { REFERENCE_DEFAULT_ORDERING, type TReferenceListQuery } from '@sc/shared/references';
import type { Db, DbOrTx } from '../../db/client.ts';
import { references } from '../../db/schema/index.ts';
import { parseOrdering } from '../../http/ordering.ts';
import type { PageParams } from '../../http/pagination.ts';
import { orgScopeCondition, type Scope } from '../../http/scope.ts';
import { searchCondition } from '../../http/search.ts';

export type ReferenceRow = typeof references.$inferSelect;

const ORDERING = {
  id: references.id,
  name: references.name,
  is_active: references.isActive,
  created: references.created,
  modified: references.modified,
};

export type ReferenceFilters = Pick<TReferenceListQuery, 'organization' | 'is_active' | 'search' | 'ordering'>;

export async function listReferences(
  db: Db,
  scope: Scope,
  filters: ReferenceFilters,
  page: Pick<PageParams, 'limit' | 'offset'>,
): Promise<{ rows: ReferenceRow[]; count: number }> {
  const where = and(
    orgScopeCondition(scope, references.organizationId),
    filters.organization === undefined ? undefined : eq(references.organizationId, filters.organization),
    filters.is_active === undefined ? undefined : eq(references.isActive, filters.is_active),
    searchCondition(filters.search, [references.name]),
  );
  const orderBy = parseOrdering(filters.ordering, ORDERING, REFERENCE_DEFAULT_ORDERING);
  const [rows, [total]] = await Promise.all([
    db.select().from(references).where(where).orderBy(...orderBy).limit(page.limit).offset(page.offset),
    db.select({ count: count() }).from(references).where(where),
  ]);
  return { rows, count: total?.count ?? 0 };
}

export async function findReference(db: Db, scope: Scope, id: number): Promise<ReferenceRow | null> {
  const [row] = await db
    .select()
    .from(references)
    .where(and(eq(references.id, id), orgScopeCondition(scope, references.organizationId)))
    .limit(1);
  return row ?? null;
}

/** Whether `organizationId` already has a reference called `name` (case-insensitive, surrounding spaces ignored). */
export async function hasReferenceNamed(db: Db, organizationId: number, name: string, exceptId?: number): Promise<boolean> {
  const conditions: (SQL | undefined)[] = [
    eq(references.organizationId, organizationId),
    sql`lower(trim(${references.name})) = lower(trim(${name}))`,
    exceptId === undefined ? undefined : ne(references.id, exceptId),
  ];
  const [row] = await db.select({ id: references.id }).from(references).where(and(...conditions)).limit(1);
  return row !== undefined;
}

export async function insertReference(
  db: DbOrTx,
  values: { name: string; isActive: boolean; organizationId: number; createdBy: number; at: Date },
): Promise<ReferenceRow> {
  const [row] = await db
    .insert(references)
    .values({
      name: values.name,
      isActive: values.isActive,
      organizationId: values.organizationId,
      createdBy: values.createdBy,
      modifiedBy: values.createdBy,
      created: values.at,
      modified: values.at,
    })
    .returning();
  if (!row) throw new Error('The reference was not created.');
  return row;
}

export async function updateReference(
  db: DbOrTx,
  id: number,
  values: { name?: string; isActive?: boolean; modifiedBy: number; at: Date },
): Promise<ReferenceRow> {
  const [row] = await db
    .update(references)
    .set({
      ...(values.name === undefined ? {} : { name: values.name }),
      ...(values.isActive === undefined ? {} : { isActive: values.isActive }),
      modifiedBy: values.modifiedBy,
      modified: values.at,
    })
    .where(eq(references.id, id))
    .returning();
  if (!row) throw new Error('The reference was not updated.');
  return row;
}

export async function deleteReference(db: DbOrTx, id: number): Promise<void> {
  await db.delete(references).where(eq(references.id, id));
}
