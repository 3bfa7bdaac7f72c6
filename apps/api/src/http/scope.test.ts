// Scope rules of architecture §6, checked against a real database: the SQL must keep exactly the right organizations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { TUserType } from '@sc/shared/roles';
import type { Database } from '../db/client.ts';
import { managerOrganizations, organizations, users } from '../db/schema/index.ts';
import { createTestDatabase } from '../test/database.ts';
import { AppError } from './errors.ts';
import {
  assertInScope,
  isInScope,
  minimalSubtrees,
  orgScopeCondition,
  organizationScopeCondition,
  resolveScope,
  type Scope,
} from './scope.ts';

let database: Database;

async function createOrg(name: string, parentId: number | null = null): Promise<number> {
  const { db } = database;
  const [row] = await db.insert(organizations).values({ name, parentId }).returning();
  const id = row!.id;
  const parentPath = parentId
    ? (
        await db
          .select({ p: organizations.treePath })
          .from(organizations)
          .where(eq(organizations.id, parentId))
      )[0]!.p
    : '/';
  await db
    .update(organizations)
    .set({ treePath: `${parentPath}${id}/` })
    .where(eq(organizations.id, id));
  return id;
}

let userSeq = 0;
async function createUser(userType: TUserType, organizationId: number | null = null) {
  const [row] = await database.db
    .insert(users)
    .values({ username: `scope-user-${++userSeq}`, userType, organizationId })
    .returning();
  return row!;
}

async function visibleNames(scope: Scope): Promise<string[]> {
  const rows = await database.db
    .select({ name: organizations.name })
    .from(organizations)
    .where(organizationScopeCondition(scope));
  return rows.map((r) => r.name).sort();
}

/** The same question through orgScopeCondition, as any other table (here users) would ask it. */
async function visibleUserOrgNames(scope: Scope): Promise<string[]> {
  const rows = await database.db
    .select({ name: organizations.name })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(sql`${users.username} like 'member-%' and ${orgScopeCondition(scope, users.organizationId)}`);
  return rows.map((r) => r.name).sort();
}

// Tree:  D1 (distributor) ─ D1.a ─ D1.a.x
//                        └ D1.b
//        D2 (distributor) ─ D2.a
//        S (stand-alone), S2 (stand-alone)
// D1 and D10 share a decimal prefix (ids 1 and 10 would); the trailing slash of tree paths keeps them apart.
const ids: Record<string, number> = {};
beforeAll(async () => {
  database = await createTestDatabase();
  ids.D1 = await createOrg('D1');
  ids['D1.a'] = await createOrg('D1.a', ids.D1);
  ids['D1.a.x'] = await createOrg('D1.a.x', ids['D1.a']);
  ids['D1.b'] = await createOrg('D1.b', ids.D1);
  ids.D2 = await createOrg('D2');
  ids['D2.a'] = await createOrg('D2.a', ids.D2);
  ids.S = await createOrg('S');
  ids.S2 = await createOrg('S2');
  for (const [name, id] of Object.entries(ids)) {
    await database.db
      .insert(users)
      .values({ username: `member-${name}`, userType: 'TECHNICIAN', organizationId: id });
  }
  await database.db
    .insert(users)
    .values({ username: 'member-none', userType: 'TECHNICIAN', organizationId: null });
});
afterAll(async () => {
  await database.close();
});

const ALL_NAMES = ['D1', 'D1.a', 'D1.a.x', 'D1.b', 'D2', 'D2.a', 'S', 'S2'];

describe('resolveScope', () => {
  it('lets ADMIN and SUB_ADMIN see every organization', async () => {
    for (const type of ['ADMIN', 'SUB_ADMIN'] as const) {
      const scope = await resolveScope(database.db, await createUser(type));
      expect(scope).toEqual({ kind: 'all' });
      expect(await visibleNames(scope)).toEqual(ALL_NAMES);
    }
  });

  it('lets a DISTRIBUTOR_ADMIN see its own organization and every descendant, and nothing else', async () => {
    const scope = await resolveScope(database.db, await createUser('DISTRIBUTOR_ADMIN', ids.D1!));
    expect(await visibleNames(scope)).toEqual(['D1', 'D1.a', 'D1.a.x', 'D1.b']);
    expect(await visibleUserOrgNames(scope)).toEqual(['D1', 'D1.a', 'D1.a.x', 'D1.b']);
  });

  it('does not let a DISTRIBUTOR_ADMIN of a sub-organization see its parent or siblings', async () => {
    const scope = await resolveScope(database.db, await createUser('DISTRIBUTOR_ADMIN', ids['D1.a']!));
    expect(await visibleNames(scope)).toEqual(['D1.a', 'D1.a.x']);
  });

  it('lets a MANAGER see the linked organizations of two distributors and their descendants', async () => {
    const manager = await createUser('MANAGER');
    await database.db.insert(managerOrganizations).values([
      { userId: manager.id, organizationId: ids['D1.a']! },
      { userId: manager.id, organizationId: ids['D1.a.x']! }, // already inside D1.a
      { userId: manager.id, organizationId: ids.D2! },
    ]);
    const scope = await resolveScope(database.db, manager);
    expect(scope.kind === 'orgs' && scope.subtreePaths.length).toBe(2);
    expect(await visibleNames(scope)).toEqual(['D1.a', 'D1.a.x', 'D2', 'D2.a']);
    expect(await visibleUserOrgNames(scope)).toEqual(['D1.a', 'D1.a.x', 'D2', 'D2.a']);
  });

  it('gives a MANAGER without links no organization', async () => {
    const scope = await resolveScope(database.db, await createUser('MANAGER'));
    expect(scope).toEqual({ kind: 'none' });
    expect(await visibleNames(scope)).toEqual([]);
  });

  it('lets an ORG_ADMIN see its own organization only, not its sub-organizations', async () => {
    const scope = await resolveScope(database.db, await createUser('ORG_ADMIN', ids['D1.a']!));
    expect(await visibleNames(scope)).toEqual(['D1.a']);
    expect(await visibleUserOrgNames(scope)).toEqual(['D1.a']);
  });

  it('does not let an ORG_ADMIN see a sibling organization', async () => {
    const scope = await resolveScope(database.db, await createUser('ORG_ADMIN', ids['D1.b']!));
    expect(await visibleNames(scope)).toEqual(['D1.b']);
    expect(await isInScope(database.db, scope, ids['D1.a']!)).toBe(false);
  });

  it('lets a CERVAICAL_REVIEWER with an organization see that organization tree', async () => {
    const scope = await resolveScope(database.db, await createUser('CERVAICAL_REVIEWER', ids.D2!));
    expect(await visibleNames(scope)).toEqual(['D2', 'D2.a']);
  });

  it('lets a CERVAICAL_REVIEWER without an organization see every organization', async () => {
    const scope = await resolveScope(database.db, await createUser('CERVAICAL_REVIEWER'));
    expect(scope).toEqual({ kind: 'all' });
  });

  it('gives a TECHNICIAN no organization in the console', async () => {
    const scope = await resolveScope(database.db, await createUser('TECHNICIAN', ids.S!));
    expect(scope).toEqual({ kind: 'none' });
    expect(await visibleNames(scope)).toEqual([]);
    expect(await visibleUserOrgNames(scope)).toEqual([]);
  });

  it('gives an ORG_ADMIN or DISTRIBUTOR_ADMIN without an organization nothing', async () => {
    expect(await resolveScope(database.db, await createUser('ORG_ADMIN'))).toEqual({ kind: 'none' });
    expect(await resolveScope(database.db, await createUser('DISTRIBUTOR_ADMIN'))).toEqual({ kind: 'none' });
  });

  it('keeps users without an organization out of every scope but all', async () => {
    expect(await visibleUserOrgNames({ kind: 'all' })).toEqual(ALL_NAMES);
    const rows = await database.db
      .select({ id: users.id })
      .from(users)
      .where(orgScopeCondition({ kind: 'all' }, users.organizationId));
    expect(rows.length).toBeGreaterThan(ALL_NAMES.length);
  });
});

describe('assertInScope', () => {
  it('answers the same 404 for an organization out of scope and for one that does not exist', async () => {
    const scope = await resolveScope(database.db, await createUser('ORG_ADMIN', ids.S!));
    await expect(assertInScope(database.db, scope, ids.S!)).resolves.toBeUndefined();
    const outOfScope = await assertInScope(database.db, scope, ids.S2!).catch((e: unknown) => e);
    const missing = await assertInScope(database.db, scope, 999_999).catch((e: unknown) => e);
    expect(outOfScope).toBeInstanceOf(AppError);
    expect(missing).toBeInstanceOf(AppError);
    expect([(outOfScope as AppError).status, (outOfScope as AppError).message]).toEqual([404, 'Not found.']);
    expect([(missing as AppError).status, (missing as AppError).message]).toEqual([404, 'Not found.']);
  });

  it('answers 404 for a missing organization even with the scope all', async () => {
    await expect(assertInScope(database.db, { kind: 'all' }, 999_999)).rejects.toThrow('Not found.');
  });
});

describe('minimalSubtrees', () => {
  it('drops paths inside another path and keeps look-alike prefixes apart', () => {
    expect(minimalSubtrees(['/1/5/12/', '/1/5/', '/1/50/', '/1/5/'])).toEqual(['/1/5/', '/1/50/']);
  });
});
