// Exact per-organization row counts of the scans and patients lists (table list_counts, migration 0009, kept by
// statement-level triggers): an unfiltered list's '{n} items' is a sum over a few rows instead of a count over a
// million. Callers use it only when every filter of the list is one these totals can answer.
import { and, sql } from 'drizzle-orm';
import type { DbOrTx } from './client.ts';
import { orgScopeCondition, type Scope } from '../http/scope.ts';

/**
 * Exact count of `list` ('scans' or 'patients') from the per-organization totals of migration 0009, within the
 * scope, one organization and/or assigned (true) or unassigned (false). A handful of rows instead of a million.
 */
export async function countFromTotals(
  db: DbOrTx,
  list: 'scans' | 'patients',
  scope: Scope,
  organizationId: number | undefined,
  assigned: boolean | undefined,
): Promise<number> {
  const column = sql`list_counts.organization_id`;
  const where = and(
    sql`list = ${list}`,
    orgScopeCondition(scope, column),
    organizationId === undefined ? undefined : sql`${column} = ${organizationId}`,
    assigned === undefined ? undefined : assigned ? sql`${column} is not null` : sql`${column} is null`,
  );
  const result = await db.execute(sql`select coalesce(sum(n), 0)::int as n from list_counts where ${where}`);
  return Number((result.rows[0] as { n: number } | undefined)?.n ?? 0);
}
