// Period reports (part 3 Report page, §3, §7, §9; architecture §7 Reports): a row per technician or per organization
// with its SCAN-type figures in two periods and their difference. Roles are REPORT_ROLES, each within its scope; an
// organization_id narrows the report to that organization and its sub-organizations (404 outside the scope). Periods
// are read in the caller's Timezone header like every other period. A report with no rows answers 404 {detail: 'No
// scans found'}, the console's message. JSON pages (part 3 §7) or the whole file as CSV (format=csv); a download (CSV,
// or the first JSON page with report_log=true) writes one report-log row.
import type { Readable } from 'node:stream';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
import type { TPaginated } from '@sc/shared/list';
import {
  REPORT_MESSAGES,
  REPORT_PAGE_SIZE,
  REPORT_ROLES,
  reportCsvColumns,
  reportCsvRecord,
  reportFigures,
  reportFileName,
  reportOrganizationName,
  reportTechnicianName,
  type TOrganizationReportRow,
  type TReportInstant,
  type TReportKind,
  type TReportQuery,
  type TTechnicianReportRow,
} from '@sc/shared/reports';
import type { AppContext } from '../../app.ts';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { csvFile } from '../../http/csv-stream.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { timezoneFromHeader, type PeriodRange } from '../../http/period.ts';
import { assertInScope, minimalSubtrees, resolveScope, type Scope } from '../../http/scope.ts';
import { splitPeriod, type StatsWindow } from '../dashboard/scan-stats.queries.ts';
import { insertReportLog } from '../users/training-reports.queries.ts';
import * as q from './reports.queries.ts';
import { readerFor } from '../../db/replica.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

export type ReportsContext = Pick<AppContext, 'database' | 'services' | 'now'>;
export type ReportRequest = {
  url: string;
  path: string;
  timezone: string | string[] | undefined;
  userAgent: string | null;
};

type Page = { limit: number; offset: number };
type Row = { id: number; name: string; figures: ReturnType<typeof reportFigures> };

/** A start is its instant; an end includes its whole second (a date alone: its whole day), in the caller's zone. */
export function instantRange(start: TReportInstant, end: TReportInstant, zone: string): Required<PeriodRange> {
  const from = dayjs.tz(`${start.date}T${start.time ?? '00:00:00'}`, zone);
  const to = end.time
    ? dayjs.tz(`${end.date}T${end.time}`, zone).add(1, 'second')
    : dayjs.tz(`${end.date}T00:00:00`, zone).add(1, 'day');
  return { from: from.toDate(), to: to.toDate() };
}

/** The caller's scope narrowed to organization `orgId` and its sub-organizations (404 when outside the scope). */
async function narrowScope(db: Db, scope: Scope, orgId: number): Promise<Scope> {
  await assertInScope(db, scope, orgId);
  const org = await q.findOrganization(db, orgId);
  if (!org) throw notFound();
  const path = org.treePath;
  switch (scope.kind) {
    case 'none':
      return scope;
    case 'all':
      return { kind: 'orgs', exact: [], subtreePaths: [path] };
    case 'orgs': {
      const subtrees = scope.subtreePaths.flatMap((p) => (path.startsWith(p) ? [path] : p.startsWith(path) ? [p] : []));
      const exact = await q.idsInSubtree(db, scope.exact, path);
      return { kind: 'orgs', exact, subtreePaths: minimalSubtrees(subtrees) };
    }
  }
}

type Prepared = {
  db: Db;
  scope: Scope;
  first: StatsWindow;
  second: StatsWindow;
  organizationName: string | null;
};

async function prepare(ctx: ReportsContext, actor: Actor, query: TReportQuery, request: ReportRequest): Promise<Prepared> {
  if (!REPORT_ROLES.includes(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
  const zone = timezoneFromHeader(request.timezone);
  const first = splitPeriod(instantRange(query.report_start_date_1, query.report_end_date_1, zone));
  const second = splitPeriod(instantRange(query.report_start_date_2, query.report_end_date_2, zone));
  let scope = await resolveScope(ctx.database.db, actor);
  let organizationName: string | null = null;
  if (query.organization_id !== undefined) {
    scope = await narrowScope(ctx.database.db, scope, query.organization_id);
    organizationName = (await q.findOrganization(ctx.database.db, query.organization_id))?.name ?? null;
  }
  const db = readerFor(ctx.database, query.using_read_db);
  return { db, scope, first, second, organizationName };
}

async function readRows(kind: TReportKind, p: Prepared, page: Page): Promise<{ rows: Row[]; count: number }> {
  if (kind === 'technician') {
    const { rows, count } = await q.listTechnicianReport(p.db, p.scope, p.first, p.second, page);
    return {
      count,
      rows: rows.map((r) => ({ id: r.id, name: reportTechnicianName(r), figures: reportFigures(r.s1, r.p1, r.s2, r.p2) })),
    };
  }
  const { rows, count } = await q.listOrganizationReport(p.db, p.scope, p.first, p.second, page);
  return {
    count,
    rows: rows.map((r) => ({ id: r.id, name: r.name, figures: reportFigures(r.s1, r.p1, r.s2, r.p2) })),
  };
}

function recordDownload(ctx: ReportsContext, actor: Actor, request: ReportRequest): Promise<void> {
  const url = new URL(request.url, 'http://localhost');
  return insertReportLog(ctx.database.db, {
    api: request.path,
    apiQp: Object.fromEntries(url.searchParams),
    userAgent: request.userAgent,
    userId: actor.id,
    userType: actor.userType,
    at: ctx.now(),
  });
}

/** GET organization/report-generate/ (technicians) as JSON pages. */
export async function listTechnicianReport(
  ctx: ReportsContext,
  actor: Actor,
  query: TReportQuery,
  request: ReportRequest,
): Promise<TPaginated<TTechnicianReportRow>> {
  const p = await prepare(ctx, actor, query, request);
  const page = toPageParams(query);
  const { rows, count } = await q.listTechnicianReport(p.db, p.scope, p.first, p.second, page);
  if (count === 0) throw notFound(REPORT_MESSAGES.noScans);
  if (query.report_log && page.page === 1) await recordDownload(ctx, actor, request);
  return paginate(
    request,
    page,
    count,
    rows.map((r) => ({
      id: r.id,
      first_name: r.first_name,
      last_name: r.last_name,
      user_type: r.user_type,
      ...reportFigures(r.s1, r.p1, r.s2, r.p2),
    })),
  );
}

/** GET organization/leaderboard/report-generate/ (organizations) as JSON pages. */
export async function listOrganizationReport(
  ctx: ReportsContext,
  actor: Actor,
  query: TReportQuery,
  request: ReportRequest,
): Promise<TPaginated<TOrganizationReportRow>> {
  const p = await prepare(ctx, actor, query, request);
  const page = toPageParams(query);
  const { rows, count } = await readRows('organization', p, page);
  if (count === 0) throw notFound(REPORT_MESSAGES.noScans);
  if (query.report_log && page.page === 1) await recordDownload(ctx, actor, request);
  return paginate(request, page, count, rows.map((r) => ({ id: r.id, name: r.name, ...r.figures })));
}

/**
 * format=csv: the whole report in pages of REPORT_PAGE_SIZE while the response streams, under the file name of
 * part 3 §9. The first page is read before the answer starts, so an empty report is still a 404.
 */
export async function streamReportCsv(
  ctx: ReportsContext,
  actor: Actor,
  kind: TReportKind,
  query: TReportQuery,
  request: ReportRequest,
): Promise<{ stream: Readable; filename: string }> {
  const p = await prepare(ctx, actor, query, request);
  const firstPage = await readRows(kind, p, { limit: REPORT_PAGE_SIZE, offset: 0 });
  if (firstPage.count === 0) throw notFound(REPORT_MESSAGES.noScans);
  await recordDownload(ctx, actor, request);

  const name = (row: Row) => (kind === 'organization' ? reportOrganizationName(row.name) : row.name);
  async function* records() {
    let batch = firstPage.rows;
    for (let offset = 0; ; ) {
      for (const row of batch) yield reportCsvRecord(row.id, name(row), row.figures);
      if (batch.length < REPORT_PAGE_SIZE) return;
      offset += REPORT_PAGE_SIZE;
      batch = (await readRows(kind, p, { limit: REPORT_PAGE_SIZE, offset })).rows;
    }
  }
  const dates = (n: 1 | 2) => ({
    start: query[`report_start_date_${n}`].date,
    end: query[`report_end_date_${n}`].date,
  });
  return {
    stream: csvFile(reportCsvColumns(dates(1), dates(2)), records(), ctx.services.log, 'report CSV'),
    filename: reportFileName(kind, dates(2), p.organizationName),
  };
}
