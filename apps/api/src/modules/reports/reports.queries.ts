// Reads of the period reports: two periods' SCAN-type figures per technician or per organization, from the same
// pre-aggregated tables and period split as the dashboard (modules/dashboard/scan-stats.queries.ts), never a
// group-by over the scans table: whole UTC days come from the daily tables, edge hours from the hourly table
// (organizations), and only the partial edges from scans through their statistics index.
import { and, eq, like, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { organizations, scanStatsOrgDaily, scanStatsTechnicianDaily, scans, users } from '../../db/schema/index.ts';
import type { PageParams } from '../../http/pagination.ts';
import type { Scope } from '../../http/scope.ts';
import { groupedSource, pageWithCount, type StatsWindow } from '../dashboard/scan-stats.queries.ts';

export type ReportFiguresRow = { s1: number; p1: number; s2: number; p2: number };
export type TechnicianReportRow = ReportFiguresRow & {
  id: number;
  first_name: string | null;
  last_name: string | null;
  user_type: string;
};
export type OrganizationReportRow = ReportFiguresRow & { id: number; name: string };

type Page = Pick<PageParams, 'limit' | 'offset'>;

/**
 * `key, s1, p1, s2, p2` per key with scans in either period: each period's grouped figures (technicians keyed by
 * technician and organization of the scans, summed here over organizations), side by side.
 */
function comparison(first: SQL, second: SQL, key: string): SQL {
  const k = sql.raw(key);
  return sql`SELECT ${k} AS key, sum(s1)::int AS s1, sum(p1)::int AS p1, sum(s2)::int AS s2, sum(p2)::int AS p2 FROM (
      SELECT ${k}, scans AS s1, positives AS p1, 0 AS s2, 0 AS p2 FROM (${first}) a
      UNION ALL SELECT ${k}, 0, 0, scans, positives FROM (${second}) b
    ) x WHERE ${k} IS NOT NULL GROUP BY 1`;
}

// The reported period's work first, then the earlier period's, then the id: a stable order for paging.
const ORDER = sql`agg.s2 DESC, agg.s1 DESC, agg.key`;

function technicianSource(scope: Scope, window: StatsWindow): SQL {
  return groupedSource(
    window,
    scope,
    {
      table: scanStatsTechnicianDaily,
      day: scanStatsTechnicianDaily.day,
      org: scanStatsTechnicianDaily.organizationId,
      scans: scanStatsTechnicianDaily.scans,
      positives: scanStatsTechnicianDaily.positives,
      keys: [scanStatsTechnicianDaily.technicianId, scanStatsTechnicianDaily.organizationId],
    },
    [scans.technicianId, scans.organizationId],
    sql`${scans.technicianId} IS NOT NULL`,
    ['technician_id', 'organization_id'],
  );
}

function organizationSource(scope: Scope, window: StatsWindow): SQL {
  return groupedSource(
    window,
    scope,
    {
      table: scanStatsOrgDaily,
      day: scanStatsOrgDaily.day,
      org: scanStatsOrgDaily.organizationId,
      scans: scanStatsOrgDaily.scans,
      positives: scanStatsOrgDaily.positives,
      keys: [scanStatsOrgDaily.organizationId],
    },
    [scans.organizationId],
    undefined,
    ['organization_id'],
    true,
  );
}

/** Technicians (any user who performed scans) with SCAN-type scans of organizations in scope in either period. */
export async function listTechnicianReport(
  db: Db,
  scope: Scope,
  first: StatsWindow,
  second: StatsWindow,
  page: Page,
): Promise<{ rows: TechnicianReportRow[]; count: number }> {
  const agg = comparison(technicianSource(scope, first), technicianSource(scope, second), 'technician_id');
  const select = sql`SELECT agg.key AS id, ${users.firstName} AS first_name, ${users.lastName} AS last_name,
      ${users.userType} AS user_type, agg.s1, agg.p1, agg.s2, agg.p2, count(*) OVER () AS total
    FROM agg JOIN ${users} ON ${users.id} = agg.key
    ORDER BY ${ORDER}`;
  return pageWithCount(db, sql`WITH agg AS (${agg})`, select, page);
}

/** Organizations in scope with SCAN-type scans in either period. */
export async function listOrganizationReport(
  db: Db,
  scope: Scope,
  first: StatsWindow,
  second: StatsWindow,
  page: Page,
): Promise<{ rows: OrganizationReportRow[]; count: number }> {
  const agg = comparison(organizationSource(scope, first), organizationSource(scope, second), 'organization_id');
  const select = sql`SELECT agg.key AS id, ${organizations.name} AS name, agg.s1, agg.p1, agg.s2, agg.p2,
      count(*) OVER () AS total
    FROM agg JOIN ${organizations} ON ${organizations.id} = agg.key
    ORDER BY ${ORDER}`;
  return pageWithCount(db, sql`WITH agg AS (${agg})`, select, page);
}

/** The organization's name and tree path (the caller has checked it is in scope). */
export async function findOrganization(db: Db, id: number): Promise<{ name: string; treePath: string } | undefined> {
  const [row] = await db
    .select({ name: organizations.name, treePath: organizations.treePath })
    .from(organizations)
    .where(eq(organizations.id, id))
    .limit(1);
  return row;
}

/** Of `ids`, those inside the subtree at `path` (an ORG_ADMIN's own organization, when it is the filter). */
export async function idsInSubtree(db: Db, ids: number[], path: string): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(inArray(organizations.id, ids), like(organizations.treePath, `${path}%`)));
  return rows.map((r) => r.id);
}
