// Exact per-organization row counts of the scans and patients lists (table list_counts, migration 0009, kept by
// statement-level triggers): an unfiltered list's '{n} items' is a sum over a few rows instead of a count over a
// million. Callers use it only when every filter of the list is one these totals can answer.
import { and, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { asValue, type Bind, type DbOrTx } from './client.ts';
import { orgScopeCondition, type Scope } from '../http/scope.ts';

/**
 * The per-organization total of `list` ('scans' or 'patients') from migration 0009 as a scalar subquery, within the
 * scope, one organization and/or assigned (true) or unassigned (false): a handful of rows instead of a million.
 * `bind` makes the values placeholders of a prepared statement.
 */
export function totalsSum(
  list: 'scans' | 'patients',
  scope: Scope,
  organizationId: number | undefined,
  assigned: boolean | undefined,
  bind: Bind = asValue,
): SQL {
  const column = sql`list_counts.organization_id`;
  const where = and(
    sql`list = ${bind('list', list)}`,
    orgScopeCondition(scope, column),
    organizationId === undefined ? undefined : sql`${column} = ${bind('organizationId', organizationId)}`,
    assigned === undefined ? undefined : assigned ? sql`${column} is not null` : sql`${column} is null`,
  );
  return sql`(select coalesce(sum(n), 0) from list_counts where ${where})`;
}

/** Exact count of `list` from the per-organization totals (totalsSum). */
export async function countFromTotals(
  db: DbOrTx,
  list: 'scans' | 'patients',
  scope: Scope,
  organizationId: number | undefined,
  assigned: boolean | undefined,
): Promise<number> {
  const result = await db.execute(sql`select ${totalsSum(list, scope, organizationId, assigned)}::int as n`);
  return Number((result.rows[0] as { n: number } | undefined)?.n ?? 0);
}

const HOUR_MS = 3_600_000;

/**
 * The whole UTC hours of a period and its partial edges: `hours` is [from rounded up to the hour, to rounded down)
 * (either end open when the period's is), `edges` the pieces of the period outside those hours. Null when the
 * period lies inside one hour (nothing to sum).
 */
export function splitIntoHours(range: { from?: Date; to?: Date }): {
  hours: { from?: Date; to?: Date };
  edges: { from?: Date; to?: Date }[];
} | null {
  const start = range.from ? new Date(Math.ceil(range.from.getTime() / HOUR_MS) * HOUR_MS) : undefined;
  const end = range.to ? new Date(Math.floor(range.to.getTime() / HOUR_MS) * HOUR_MS) : undefined;
  if (start && end && start.getTime() >= end.getTime()) return null;
  const edges: { from?: Date; to?: Date }[] = [];
  if (range.from && start && range.from.getTime() < start.getTime()) edges.push({ from: range.from, to: start });
  if (range.to && end && end.getTime() < range.to.getTime()) edges.push({ from: end, to: range.to });
  return { hours: { from: start, to: end }, edges };
}

/**
 * The exact count of scans (every type) in whole UTC hours `hours` from the per-organization hourly totals of
 * migration 0017, within the scope, one organization and/or assigned (true) or unassigned (false), as a scalar
 * subquery (the scan list adds its edge hours' counts to it in one statement). `bind` as totalsSum's.
 */
export function scanHoursSum(
  scope: Scope,
  organizationId: number | undefined,
  assigned: boolean | undefined,
  hours: { from?: Date; to?: Date },
  bind: Bind = asValue,
): SQL {
  const column = sql`scan_hour_counts.organization_id`;
  const where = and(
    orgScopeCondition(scope, column),
    organizationId === undefined ? undefined : sql`${column} = ${bind('organizationId', organizationId)}`,
    assigned === undefined ? undefined : assigned ? sql`${column} is not null` : sql`${column} is null`,
    hours.from ? sql`scan_hour_counts.hour >= ${bind('hoursFrom', hours.from.toISOString())}` : undefined,
    hours.to ? sql`scan_hour_counts.hour < ${bind('hoursTo', hours.to.toISOString())}` : undefined,
  );
  return sql`(select coalesce(sum(n), 0) from scan_hour_counts where ${where})`;
}

/**
 * The rows of `table` matching `where`, counted up to `cap` + 1, as a scalar subquery (cappedCount reads it); `bind`
 * makes the limit a placeholder.
 */
export function countUpToSql(table: PgTable, where: SQL | undefined, cap: number, bind: Bind = asValue): SQL {
  return sql`(select count(*) from (select 1 from ${table} where ${where ?? sql`true`} limit ${bind('countLimit', cap + 1)}) as matching)`;
}

/** A count of at most `cap` + 1 rows (countUpToSql) as the list's count: `cap` and capped when more matched. */
export const cappedCount = (n: number, cap: number): { count: number; capped: boolean } =>
  n > cap ? { count: cap, capped: true } : { count: n, capped: false };

/**
 * A page's ids, in order, and the list's count as one statement: `select <count>, array(<ids>) from (select)` — one
 * round trip and one plan instead of two (the scan and patient lists).
 */
export function pageStatement(db: DbOrTx, ids: SQLWrapper, count: SQL) {
  return db
    .select({ n: sql<number>`${count}::int`, ids: sql<number[]>`array(${ids})` })
    .from(sql`(select) as page`);
}
