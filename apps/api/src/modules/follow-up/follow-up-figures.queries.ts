// Reads of the programme's follow-up figures (db/schema/follow-up-stats.ts). A period in the caller's zone is split as
// the scan statistics split it (splitPeriod): whole UTC days are summed from the daily tables, the partial days at
// either edge are counted from follow_up_cases (follow_up_cases_opened_idx), so every figure is exact in any zone. All
// time reads the totals tables instead (follow_up_stats_*_total, migration 0024): a few hundred rows, not every day's.
// Overdue is now, whatever the period: active cases whose due instant has passed, read as the active cases'
// total less those due after now (follow_up_stats_active_total and follow_up_stats_due_daily, migration 0026).
import { and, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { ACTIVE_FOLLOW_UP_STATUSES, DIAGNOSTIC_OUTCOMES, type TFollowUpModality } from '@sc/shared/follow-up';
import type { Db } from '../../db/client.ts';
import { FOLLOW_UP_STATS_ALL, followUpCases, followUpStatsDiagnosisDaily, followUpStatsOrgDaily, organizations } from '../../db/schema/index.ts';
import type { PageParams } from '../../http/pagination.ts';
import { orgScopeCondition, organizationScopeCondition, type Scope } from '../../http/scope.ts';
import { searchCondition } from '../../http/search.ts';
import type { StatsWindow } from '../dashboard/scan-stats.queries.ts';

export type FiguresFilter = { organization?: number; modality?: TFollowUpModality };

/** Counts of one group (the whole scope, or one organization): the raw figures before percentages. */
export type FiguresCounts = {
  screen_positives: number;
  completed: number;
  lost: number;
  declined: number;
  overdue: number;
  median_days_to_diagnosis: number | null;
};

const c = followUpCases;
const d = followUpStatsOrgDaily;
const g = followUpStatsDiagnosisDaily;

const list = (values: readonly string[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);
const COMPLETED = sql`(${c.status} = 'CLOSED' AND ${c.outcome} IN (${list(DIAGNOSTIC_OUTCOMES)}))`;

function dayCondition(column: SQLWrapper, days: NonNullable<StatsWindow['days']>): SQL {
  return and(sql`true`, days.from ? sql`${column} >= ${days.from}` : undefined, days.to ? sql`${column} < ${days.to}` : undefined)!;
}

/** Scope, organization filter and modality of the cases table. */
function caseFilter(scope: Scope, filter: FiguresFilter): SQL {
  return and(
    orgScopeCondition(scope, c.organizationId),
    filter.organization !== undefined ? sql`${c.organizationId} = ${filter.organization}` : undefined,
    filter.modality ? sql`${c.modalities} @> ARRAY[${filter.modality}]::text[]` : undefined,
  )!;
}

/** Scope, organization filter and modality key of a statistics table. */
function statsFilter(scope: Scope, filter: FiguresFilter, t: typeof d | typeof g): SQL {
  return and(
    sql`${t.modality} = ${filter.modality ?? FOLLOW_UP_STATS_ALL}`,
    orgScopeCondition(scope, t.organizationId),
    filter.organization !== undefined ? sql`${t.organizationId} = ${filter.organization}` : undefined,
  )!;
}

/** Scope, organization filter and modality key of a plain-SQL totals table aliased `t` (follow_up_stats_*_total, due_daily). */
function totalsWhere(scope: Scope, filter: FiguresFilter): SQL {
  const org = sql`t.organization_id`;
  return and(
    sql`t.modality = ${filter.modality ?? FOLLOW_UP_STATS_ALL}`,
    orgScopeCondition(scope, org),
    filter.organization !== undefined ? sql`${org} = ${filter.organization}` : undefined,
  )!;
}

/** No period at all: no whole-day bounds and no partial edges. */
const isAllTime = (window: StatsWindow): boolean =>
  window.days !== null && window.days.from === undefined && window.days.to === undefined && window.raw.length === 0;

const rawPeriod = (r: { from: Date; to: Date }) => sql`${c.openedAt} >= ${r.from} AND ${c.openedAt} < ${r.to}`;

/**
 * The statement's CTEs: `counts` (key, screen_positives, completed, lost, declined), `diagnosis` (key, days, n),
 * `overdue` (key, n) and `median` (key, median). The key is the organization id, or 0 when not grouped.
 */
function figuresCtes(scope: Scope, window: StatsWindow, filter: FiguresFilter, now: Date, byOrg: boolean): SQL {
  const key = (column: SQLWrapper) => (byOrg ? sql`${column}` : sql`0`);
  const counts: SQL[] = [];
  const diagnosis: SQL[] = [];
  if (isAllTime(window)) {
    // All time: the totals tables (a row per organization and modality), not every day's rows.
    const org = sql`t.organization_id`;
    const where = totalsWhere(scope, filter);
    counts.push(sql`SELECT ${key(org)} AS key, t.screen_positives AS sp, t.completed, t.lost, t.declined
      FROM follow_up_stats_org_total t WHERE ${where}`);
    diagnosis.push(sql`SELECT ${key(org)} AS key, t.days, t.cases AS n FROM follow_up_stats_diagnosis_total t WHERE ${where}`);
  } else if (window.days) {
    counts.push(sql`SELECT ${key(d.organizationId)} AS key, ${d.screenPositives} AS sp, ${d.completed} AS completed,
        ${d.lost} AS lost, ${d.declined} AS declined
      FROM ${d} WHERE ${dayCondition(d.day, window.days)} AND ${statsFilter(scope, filter, d)}`);
    diagnosis.push(sql`SELECT ${key(g.organizationId)} AS key, ${g.days} AS days, ${g.cases} AS n
      FROM ${g} WHERE ${dayCondition(g.day, window.days)} AND ${statsFilter(scope, filter, g)}`);
  }
  for (const r of window.raw) {
    counts.push(sql`SELECT ${key(c.organizationId)} AS key, 1 AS sp, (${COMPLETED})::int AS completed,
        (${c.status} = 'LOST_TO_FOLLOW_UP')::int AS lost, (${c.status} = 'DECLINED')::int AS declined
      FROM ${c} WHERE ${rawPeriod(r)} AND ${caseFilter(scope, filter)}`);
    diagnosis.push(sql`SELECT ${key(c.organizationId)} AS key,
        ${c.diagnosisDate} - (${c.openedAt} AT TIME ZONE coalesce(${organizations.timezone}, 'UTC'))::date AS days, 1 AS n
      FROM ${c} LEFT JOIN ${organizations} ON ${organizations.id} = ${c.organizationId}
      WHERE ${rawPeriod(r)} AND ${COMPLETED} AND ${c.diagnosisDate} IS NOT NULL AND ${caseFilter(scope, filter)}`);
  }
  // Overdue now = active − due after today (UTC days) − due later today (module comment; migration 0026).
  const totals = totalsWhere(scope, filter);
  const today = now.toISOString().slice(0, 10);
  const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const none = sql`SELECT NULL::int AS key, 0 AS sp, 0 AS completed, 0 AS lost, 0 AS declined WHERE false`;
  const noDays = sql`SELECT NULL::int AS key, 0 AS days, 0 AS n WHERE false`;
  return sql`WITH counts AS (
      SELECT key, sum(sp)::int AS screen_positives, sum(completed)::int AS completed, sum(lost)::int AS lost,
        sum(declined)::int AS declined
      FROM (${sql.join(counts.length ? counts : [none], sql` UNION ALL `)}) x GROUP BY key
    ), diagnosis AS (
      SELECT key, days, sum(n)::int AS n FROM (${sql.join(diagnosis.length ? diagnosis : [noDays], sql` UNION ALL `)}) x
      GROUP BY key, days HAVING sum(n) > 0
    ), running AS (
      -- Integers throughout (sum(bigint) is numeric: ten times slower over a few thousand rows); integer halves pick
      -- the same rows as exact ones, as cum is whole.
      SELECT key, days, sum(n) OVER (PARTITION BY key ORDER BY days) AS cum, sum(n) OVER (PARTITION BY key) AS total
      FROM diagnosis
    ), median AS (
      SELECT key, (min(days) FILTER (WHERE cum > (total - 1) / 2) + min(days) FILTER (WHERE cum > total / 2)) / 2.0 AS median
      FROM running GROUP BY key
    ), overdue AS (
      SELECT key, sum(n)::int AS n FROM (
        SELECT ${key(sql`t.organization_id`)} AS key, t.cases AS n FROM follow_up_stats_active_total t WHERE ${totals}
        UNION ALL
        SELECT ${key(sql`t.organization_id`)}, -t.cases FROM follow_up_stats_due_daily t WHERE ${totals} AND t.due_day > ${today}
        UNION ALL
        SELECT ${key(c.organizationId)}, -1 FROM ${c}
        WHERE ${c.status} IN (${list(ACTIVE_FOLLOW_UP_STATUSES)}) AND ${c.dueAt} > ${now} AND ${c.dueAt} < ${tomorrow}
          AND ${caseFilter(scope, filter)}
      ) x GROUP BY key
    )`;
}

const rowsOf = async <T>(db: Db, query: SQL): Promise<T[]> => (await db.execute(query)).rows as T[];

const toCounts = (r: Partial<Record<keyof FiguresCounts, unknown>> | undefined): FiguresCounts => ({
  screen_positives: Number(r?.screen_positives ?? 0),
  completed: Number(r?.completed ?? 0),
  lost: Number(r?.lost ?? 0),
  declined: Number(r?.declined ?? 0),
  overdue: Number(r?.overdue ?? 0),
  median_days_to_diagnosis: r?.median_days_to_diagnosis == null ? null : Number(r.median_days_to_diagnosis),
});

/** The figures of the whole scope (after the organization and modality filters) in the period. */
export async function countFigures(db: Db, scope: Scope, window: StatsWindow, filter: FiguresFilter, now: Date): Promise<FiguresCounts> {
  const [row] = await rowsOf<Record<string, unknown>>(
    db,
    sql`${figuresCtes(scope, window, filter, now, false)}
      SELECT (SELECT screen_positives FROM counts) AS screen_positives, (SELECT completed FROM counts) AS completed,
        (SELECT lost FROM counts) AS lost, (SELECT declined FROM counts) AS declined,
        (SELECT n FROM overdue) AS overdue, (SELECT median FROM median) AS median_days_to_diagnosis`,
  );
  return toCounts(row);
}

/** Ordering of the table per organization (FOLLOW_UP_FIGURES_ORDERING_FIELDS), on the columns of `orgFiguresSelect`. */
export const figuresOrderingFields = {
  name: organizations.name,
  screen_positives: sql`coalesce(counts.screen_positives, 0)`,
  completed: sql`coalesce(counts.completed, 0)`,
  completion_pct: sql`coalesce(counts.completed::float8 / nullif(counts.screen_positives, 0), -1)`,
  lost_pct: sql`coalesce(counts.lost::float8 / nullif(counts.screen_positives, 0), -1)`,
  overdue: sql`coalesce(overdue.n, 0)`,
  median_days_to_diagnosis: sql`coalesce(median.median, -1)`,
  id: organizations.id,
};

export type OrgFiguresRow = FiguresCounts & { id: number; name: string };

/**
 * The figures per organization in scope that has a case opened in the period or an overdue case now (others would
 * be rows of zeros), searched by name, in the given order, one page (with the total count).
 */
export async function listOrgFigures(
  db: Db,
  scope: Scope,
  window: StatsWindow,
  filter: FiguresFilter,
  now: Date,
  args: { search?: string; orderBy: SQL[]; page: Pick<PageParams, 'limit' | 'offset'> },
): Promise<{ rows: OrgFiguresRow[]; count: number }> {
  const rows = await rowsOf<Record<string, unknown>>(
    db,
    sql`${figuresCtes(scope, window, filter, now, true)}
      SELECT ${organizations.id} AS id, ${organizations.name} AS name, counts.screen_positives, counts.completed,
        counts.lost, counts.declined, overdue.n AS overdue, median.median AS median_days_to_diagnosis,
        count(*) OVER () AS total
      FROM ${organizations}
      LEFT JOIN counts ON counts.key = ${organizations.id}
      LEFT JOIN overdue ON overdue.key = ${organizations.id}
      LEFT JOIN median ON median.key = ${organizations.id}
      WHERE (counts.screen_positives > 0 OR overdue.n > 0)
        AND ${and(organizationScopeCondition(scope), searchCondition(args.search, [organizations.name]))}
      ORDER BY ${sql.join(args.orderBy, sql`, `)}
      LIMIT ${args.page.limit} OFFSET ${args.page.offset}`,
  );
  let count = rows.length ? Number(rows[0]!.total) : 0;
  if (!rows.length && args.page.offset > 0) {
    // Past the last page: count without a page to answer 'Invalid page.'.
    const [row] = await rowsOf<{ total: number }>(
      db,
      sql`${figuresCtes(scope, window, filter, now, true)}
        SELECT count(*)::int AS total FROM ${organizations}
        LEFT JOIN counts ON counts.key = ${organizations.id} LEFT JOIN overdue ON overdue.key = ${organizations.id}
        WHERE (counts.screen_positives > 0 OR overdue.n > 0)
          AND ${and(organizationScopeCondition(scope), searchCondition(args.search, [organizations.name]))}`,
    );
    count = Number(row?.total ?? 0);
  }
  return { rows: rows.map((r) => ({ id: Number(r.id), name: String(r.name), ...toCounts(r) })), count };
}
