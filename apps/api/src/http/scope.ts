// The organizations a caller may see (architecture §6), resolved once per request and turned into SQL for any table
// with an organization id. Objects outside the scope answer 404, never 403, so their existence does not leak.
// Subtrees use the materialized path: the descendants of org 5 (and org 5 itself) are tree_path LIKE '/1/5/%'.
import { and, eq, inArray, like, or, sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { literalLimit, preparedQueries, type Db } from '../db/client.ts';
import { managerOrganizations, organizations } from '../db/schema/index.ts';
import type { Actor } from './actor.ts';
import { notFound } from './errors.ts';

export type Scope =
  | { kind: 'all' }
  /** Organizations whose id is in `exact`, plus every organization whose tree path starts with one of `subtreePaths`. */
  | { kind: 'orgs'; exact: number[]; subtreePaths: string[] }
  | { kind: 'none' };

export type ScopeActor = Pick<Actor, 'id' | 'userType' | 'organizationId'>;

const NONE: Scope = { kind: 'none' };
const ALL: Scope = { kind: 'all' };

/** Drops paths already covered by a shorter one ('/1/5/12/' is inside '/1/5/') and duplicates. */
export function minimalSubtrees(paths: readonly string[]): string[] {
  const sorted = [...new Set(paths)].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const p of sorted) if (!kept.some((k) => p.startsWith(k))) kept.push(p);
  return kept.sort();
}

async function treePathOf(db: Db, orgId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ treePath: organizations.treePath })
    .from(organizations)
    .where(eq(organizations.id, orgId))
    .limit(1);
  return row?.treePath;
}

async function subtreeScope(db: Db, orgId: number | null): Promise<Scope> {
  if (orgId === null) return NONE;
  const path = await treePathOf(db, orgId);
  return path ? { kind: 'orgs', exact: [], subtreePaths: [path] } : NONE;
}

/** The caller's scope of organizations (architecture §6). */
export async function resolveScope(db: Db, actor: ScopeActor): Promise<Scope> {
  switch (actor.userType) {
    case 'ADMIN':
    case 'SUB_ADMIN':
      return ALL;
    case 'DISTRIBUTOR_ADMIN':
      return subtreeScope(db, actor.organizationId);
    case 'MANAGER': {
      const rows = await db
        .select({ treePath: organizations.treePath })
        .from(managerOrganizations)
        .innerJoin(organizations, eq(organizations.id, managerOrganizations.organizationId))
        .where(eq(managerOrganizations.userId, actor.id));
      const paths = minimalSubtrees(rows.map((r) => r.treePath));
      return paths.length ? { kind: 'orgs', exact: [], subtreePaths: paths } : NONE;
    }
    case 'ORG_ADMIN':
      // Its own organization only: not its sub-organizations, not its siblings.
      return actor.organizationId === null
        ? NONE
        : { kind: 'orgs', exact: [actor.organizationId], subtreePaths: [] };
    case 'CERVAICAL_REVIEWER':
      // A reviewer without an organization reviews for the whole programme.
      return actor.organizationId === null ? ALL : subtreeScope(db, actor.organizationId);
    case 'TECHNICIAN':
      return NONE;
  }
}

/** Condition over the columns of `table` (organizations or an alias of it) that keeps the rows in scope. */
function organizationRowsIn(scope: Scope, table: { id: AnyColumn; treePath: AnyColumn }): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'none':
      return sql`false`;
    case 'orgs': {
      const parts: SQL[] = [];
      if (scope.exact.length) parts.push(inArray(table.id, scope.exact));
      for (const p of scope.subtreePaths) parts.push(like(table.treePath, `${p}%`));
      return parts.length ? (or(...parts) ?? sql`false`) : sql`false`;
    }
  }
}

/** For queries on the organizations table itself: keeps the organizations in scope. */
export function organizationScopeCondition(scope: Scope): SQL {
  return organizationRowsIn(scope, organizations);
}

const SCOPE_ALIAS = 'scope_org';
const scopeOrg = alias(organizations, SCOPE_ALIAS);

/**
 * For any table with an organization id column (users, devices, scans…): `column IN (SELECT id FROM
 * organizations WHERE <in scope>)`. Rows with a NULL organization are outside every scope but 'all'.
 */
export function orgScopeCondition(scope: Scope, orgIdColumn: AnyColumn | SQLWrapper): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'none':
      return sql`false`;
    case 'orgs':
      return sql`${orgIdColumn} in (select ${scopeOrg.id} from ${organizations} as ${sql.identifier(SCOPE_ALIAS)} where ${organizationRowsIn(scope, scopeOrg)})`;
  }
}

/** `isInScope`'s query, prepared per scope (its organizations are written in; the id is a placeholder). */
const organizationInScope = preparedQueries('organization_in_scope', (db, name, scope: Scope) =>
  db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(eq(organizations.id, sql.placeholder('orgId')), organizationScopeCondition(scope)))
    .limit(literalLimit(1))
    .prepare(name),
);

/** Whether organization `orgId` exists and is in scope. */
export async function isInScope(db: Db, scope: Scope, orgId: number): Promise<boolean> {
  if (scope.kind === 'none') return false;
  const [row] = await organizationInScope(db, JSON.stringify(scope), scope).execute({ orgId });
  return row !== undefined;
}

/** Throws 404 {detail: 'Not found.'} when organization `orgId` is missing or outside the scope (same answer). */
export async function assertInScope(db: Db, scope: Scope, orgId: number): Promise<void> {
  if (!(await isInScope(db, scope, orgId))) throw notFound();
}
