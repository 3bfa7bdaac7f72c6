// The programme's follow-up figures (issue 26): GET follow-up/figures/ (the dashboard's card) and
// GET follow-up/figures/organizations/ (the same per organization, with its CSV). Roles: FOLLOW_UP_ROLES, each in
// its organization scope; an organization filter outside the scope answers 404. Cases count in the period they
// opened, read in the caller's zone (the dashboard's period rules, statsPeriod); overdue is now.
import type { Readable } from 'node:stream';
import {
  FOLLOW_UP_FIGURES_CSV_HEADER,
  FOLLOW_UP_MESSAGES,
  canFollowUp,
  percentOf,
  type TFollowUpFigures,
  type TFollowUpFiguresOrgRow,
  type TFollowUpFiguresQuery,
} from '@sc/shared/follow-up';
import type { TPaginated } from '@sc/shared/list';
import type { z } from 'zod';
import type { ZFollowUpFiguresOrgQuery } from '@sc/shared/follow-up';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { csvFile } from '../../http/csv-stream.ts';
import { AppError } from '../../http/errors.ts';
import { parseOrdering } from '../../http/ordering.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import type { PeriodRange } from '../../http/period.ts';
import { assertInScope, resolveScope } from '../../http/scope.ts';
import { readerFor } from '../../db/replica.ts';
import { insertReportLog } from '../devices/devices.queries.ts';
import { splitPeriod } from '../dashboard/scan-stats.queries.ts';
import { statsPeriod, type DashboardContext } from '../dashboard/dashboard.service.ts';
import * as q from './follow-up-figures.queries.ts';

type TFiguresOrgQuery = z.infer<typeof ZFollowUpFiguresOrgQuery>;
type ListRequest = { url: string; timezone: string | string[] | undefined };

/** Default order of the table per organization: the most screen-positives first. */
export const FOLLOW_UP_FIGURES_DEFAULT_ORDERING = '-screen_positives';
/** Rows read per query while the CSV streams. */
const CSV_BATCH = 500;

function assertCan(actor: Actor): void {
  if (!canFollowUp(actor.userType)) throw new AppError('forbidden', FOLLOW_UP_MESSAGES.role);
}

/** The period of a figures call: the dashboard's (date_time_*, day, month), in the caller's zone. */
export const figuresPeriod = (query: TFollowUpFiguresQuery, timezone: ListRequest['timezone'], now: Date): PeriodRange =>
  statsPeriod(
    { date_time_after: query.date_time_after, date_time_before: query.date_time_before, day: query.day, month: query.month },
    timezone,
    now,
  );

async function prepare(ctx: DashboardContext, actor: Actor, query: TFollowUpFiguresQuery, timezone: ListRequest['timezone']) {
  assertCan(actor);
  const now = ctx.now();
  const window = splitPeriod(figuresPeriod(query, timezone, now));
  const scope = await resolveScope(ctx.database.db, actor);
  if (query.organization !== undefined) await assertInScope(ctx.database.db, scope, query.organization);
  const db = readerFor(ctx.database, query.using_read_db);
  return { db, scope, window, now, filter: { organization: query.organization, modality: query.modality } };
}

const present = (counts: q.FiguresCounts): TFollowUpFigures => ({
  screen_positives: counts.screen_positives,
  completed: counts.completed,
  completion_pct: percentOf(counts.completed, counts.screen_positives),
  lost: counts.lost,
  lost_pct: percentOf(counts.lost, counts.screen_positives),
  declined: counts.declined,
  overdue: counts.overdue,
  median_days_to_diagnosis: counts.median_days_to_diagnosis,
});

/** GET follow-up/figures/ */
export async function getFollowUpFigures(
  ctx: DashboardContext,
  actor: Actor,
  query: TFollowUpFiguresQuery,
  request: ListRequest,
): Promise<TFollowUpFigures> {
  const { db, scope, window, now, filter } = await prepare(ctx, actor, query, request.timezone);
  return present(await q.countFigures(db, scope, window, filter, now));
}

const orderBy = (query: TFiguresOrgQuery) =>
  parseOrdering(query.ordering, q.figuresOrderingFields, FOLLOW_UP_FIGURES_DEFAULT_ORDERING);

/** GET follow-up/figures/organizations/ */
export async function listFollowUpFiguresByOrganization(
  ctx: DashboardContext,
  actor: Actor,
  query: TFiguresOrgQuery,
  request: ListRequest,
): Promise<TPaginated<TFollowUpFiguresOrgRow>> {
  const order = orderBy(query);
  const { db, scope, window, now, filter } = await prepare(ctx, actor, query, request.timezone);
  const page = toPageParams(query);
  const { rows, count } = await q.listOrgFigures(db, scope, window, filter, now, { search: query.search, orderBy: order, page });
  return paginate(request, page, count, rows.map((r) => ({ id: r.id, name: r.name, ...present(r) })));
}

const pct = (value: number | null) => (value === null ? '' : `${value.toFixed(1)}%`);

export function figuresCsvRecord(row: TFollowUpFiguresOrgRow): (string | number)[] {
  return [
    row.name,
    row.screen_positives,
    row.completed,
    pct(row.completion_pct),
    row.lost,
    pct(row.lost_pct),
    row.declined,
    row.overdue,
    row.median_days_to_diagnosis ?? '',
  ];
}

/**
 * GET follow-up/figures/organizations/?format=csv: every row of the same filters in the table's order, read in
 * pages while the response streams. Recorded in the report log.
 */
export async function streamFollowUpFiguresCsv(
  ctx: DashboardContext,
  actor: Actor,
  query: TFiguresOrgQuery,
  request: ListRequest & { path: string; meta: Pick<RequestMeta, 'userAgent'> },
): Promise<Readable> {
  const order = orderBy(query);
  const { db, scope, window, now, filter } = await prepare(ctx, actor, query, request.timezone);
  await insertReportLog(ctx.database.db, {
    api: request.path,
    apiQp: { ...query },
    userAgent: request.meta.userAgent,
    userId: actor.id,
    userType: actor.userType,
    at: now,
  });
  async function* records() {
    for (let offset = 0; ; offset += CSV_BATCH) {
      const { rows } = await q.listOrgFigures(db, scope, window, filter, now, {
        search: query.search,
        orderBy: order,
        page: { limit: CSV_BATCH, offset },
      });
      for (const row of rows) yield figuresCsvRecord({ id: row.id, name: row.name, ...present(row) });
      if (rows.length < CSV_BATCH) return;
    }
  }
  return csvFile(FOLLOW_UP_FIGURES_CSV_HEADER, records(), ctx.services.log, 'follow-up figures CSV');
}
