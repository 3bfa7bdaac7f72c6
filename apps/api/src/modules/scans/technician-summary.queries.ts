// One technician's SCAN-type figures for the re-certification modal (part 2 §2.11): the whole UTC days of the period
// from scan_stats_technician_daily (index on technician_id, day), the partial days at its edges counted from scans
// (index on technician_id, date_time). Exact in any time zone, and never a read of the technician's whole history.
import { and, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { scanStatsTechnicianDaily, scans } from '../../db/schema/index.ts';
import type { PeriodRange } from '../../http/period.ts';
import { orgScopeCondition, type Scope } from '../../http/scope.ts';
import type { StatsWindow } from '../dashboard/scan-stats.queries.ts';

export type TechnicianFigures = { scans: number; positives: number; mostRecent: Date | null };

const rowsOf = async <T>(db: Db, query: SQL): Promise<T[]> => (await db.execute(query)).rows as T[];

/** SCAN-type scans, positives and the latest scan time of `technicianId` within the window, in scope. */
export async function technicianFigures(
  db: Db,
  scope: Scope,
  technicianId: number,
  window: StatsWindow,
  range: PeriodRange,
): Promise<TechnicianFigures> {
  const parts: SQL[] = [];
  if (window.days) {
    const days = window.days;
    parts.push(sql`SELECT coalesce(sum(${scanStatsTechnicianDaily.scans}), 0)::int AS scans,
        coalesce(sum(${scanStatsTechnicianDaily.positives}), 0)::int AS positives
      FROM ${scanStatsTechnicianDaily}
      WHERE ${and(
        sql`${scanStatsTechnicianDaily.technicianId} = ${technicianId}`,
        days.from ? sql`${scanStatsTechnicianDaily.day} >= ${days.from}` : undefined,
        days.to ? sql`${scanStatsTechnicianDaily.day} < ${days.to}` : undefined,
        orgScopeCondition(scope, scanStatsTechnicianDaily.organizationId),
      )}`);
  }
  for (const edge of window.raw) {
    parts.push(sql`SELECT count(*)::int AS scans, (count(*) FILTER (WHERE ${scans.isPositive}))::int AS positives
      FROM ${scans}
      WHERE ${and(
        sql`${scans.technicianId} = ${technicianId}`,
        sql`${scans.scanType} = 'SCAN'`,
        gte(scans.dateTime, edge.from),
        lt(scans.dateTime, edge.to),
        orgScopeCondition(scope, scans.organizationId),
      )}`);
  }
  const [totals] = parts.length
    ? await rowsOf<{ scans: number; positives: number }>(
        db,
        sql`SELECT coalesce(sum(scans), 0)::int AS scans, coalesce(sum(positives), 0)::int AS positives
          FROM (${sql.join(parts, sql` UNION ALL `)}) s`,
      )
    : [];
  // The latest scan: a backward walk of (technician_id, date_time) that stops at the first SCAN in scope.
  const [latest] = await db
    .select({ at: scans.dateTime })
    .from(scans)
    .where(
      and(
        sql`${scans.technicianId} = ${technicianId}`,
        sql`${scans.scanType} = 'SCAN'`,
        range.from ? gte(scans.dateTime, range.from) : undefined,
        range.to ? lt(scans.dateTime, range.to) : undefined,
        orgScopeCondition(scope, scans.organizationId),
      ),
    )
    .orderBy(sql`${scans.dateTime} DESC`)
    .limit(1);
  return { scans: totals?.scans ?? 0, positives: totals?.positives ?? 0, mostRecent: latest?.at ?? null };
}
