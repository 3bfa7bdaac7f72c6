// The console's ORCA exams (part 3 §2, §7, §9): the list (JSON or the streamed orca-scan CSV) and one exam with its
// case history and findings. Roles per architecture §6: ORCA_LIST_ROLES read within their scope (an exam or a named
// organization outside it answers 404); TECHNICIAN and CERVAICAL_REVIEWER get 403.
import type { Readable } from 'node:stream';
import type { TPaginated } from '@sc/shared/list';
import {
  ORCA_CSV_COLUMNS,
  ORCA_CSV_TIME_COLUMNS,
  ORCA_DEFAULT_ORDERING,
  ORCA_LIST_ROLES,
  ORCA_MESSAGES,
  type TOrcaDetail,
  type TOrcaListQuery,
  type TOrcaRow,
} from '@sc/shared/orca';
import type { AppContext } from '../../app.ts';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { csvFromBatches, csvHeaderIn, type NewestFirstKey } from '../../http/csv-stream.ts';
import { AppError, fieldError, notFound } from '../../http/errors.ts';
import { parseOrdering } from '../../http/ordering.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { requestPeriod, timezoneFromHeader } from '../../http/period.ts';
import { assertInScope, resolveScope, type Scope } from '../../http/scope.ts';
import { insertReportLog } from '../scans/scan-list.queries.ts';
import * as q from './orca.queries.ts';
import { orcaCsvRecord, presentOrcaDetail, presentOrcaRow } from './orca.presenter.ts';
import { readerFor } from '../../db/replica.ts';

export type OrcaContext = Pick<AppContext, 'database' | 'services' | 'now'>;
export type ListRequest = { url: string; timezone: string | string[] | undefined };
export type Meta = { ip: string; userAgent: string | null };

/** Rows a CSV batch reads; memory stays at one batch however many rows the file has. */
export const ORCA_CSV_BATCH = 2000;

const dbOf = (ctx: OrcaContext, usingReadDb: boolean | undefined): Db =>
  readerFor(ctx.database, usingReadDb);

async function readerScope(ctx: OrcaContext, actor: Actor): Promise<Scope> {
  if (!ORCA_LIST_ROLES.includes(actor.userType)) throw new AppError('forbidden', ORCA_MESSAGES.listRole);
  return resolveScope(ctx.database.db, actor);
}

/** The validated query as filters; a named organization outside the scope is 404, as its id would be. */
async function filtersOf(
  ctx: OrcaContext,
  scope: Scope,
  query: TOrcaListQuery,
  timezone: string | string[] | undefined,
): Promise<q.OrcaFilters> {
  if (
    query.organization !== undefined &&
    query.organization_id !== undefined &&
    query.organization !== query.organization_id
  ) {
    throw fieldError('organization_id', 'Send organization or organization_id, not two different ones.');
  }
  if (
    query.device !== undefined &&
    query.device_serial_number !== undefined &&
    query.device !== query.device_serial_number
  ) {
    throw fieldError('device', 'Send device or device_serial_number, not two different ones.');
  }
  const organizationId = query.organization ?? query.organization_id;
  if (organizationId !== undefined) await assertInScope(ctx.database.db, scope, organizationId);
  return {
    range: requestPeriod(query, timezone, ctx.now()),
    search: query.search,
    organizationId,
    deviceSerialNumber: query.device_serial_number ?? query.device,
    technicianId: query.technician,
    patientId: query.patient,
    licenceCode: query.licence_code,
    isSurvivor: query.survivor,
    hasSymptoms: query.symptoms,
    hasFamilyHistory: query.family_history,
    cancerHistory: query.cancer_history,
    isPositive: query.is_positive,
    hasReport: query.has_report,
    ageMin: query.age_min,
    ageMax: query.age_max,
  };
}

/** GET orca/ */
export async function listOrca(
  ctx: OrcaContext,
  actor: Actor,
  query: TOrcaListQuery,
  request: ListRequest,
): Promise<TPaginated<TOrcaRow>> {
  const scope = await readerScope(ctx, actor);
  const orderBy = parseOrdering(query.ordering, q.orcaOrderingFields, ORCA_DEFAULT_ORDERING);
  const filters = await filtersOf(ctx, scope, query, request.timezone);
  const db = dbOf(ctx, query.using_read_db);
  const page = toPageParams(query);
  const count = await q.countOrca(db, scope, filters);
  // A page past the last answers 404 before the rows are read.
  const rows =
    page.offset < count || page.page === 1
      ? await q.listOrcaRows(db, scope, filters, orderBy, page.limit, page.offset)
      : [];
  return paginate(request, page, count, rows.map(presentOrcaRow));
}

/**
 * GET orca/?format=csv: orca-scan.csv with every row the filters select (all pages), newest first, read in keyset
 * batches while the response streams. Recorded in the report log.
 */
export async function streamOrcaCsv(
  ctx: OrcaContext,
  actor: Actor,
  query: TOrcaListQuery,
  request: ListRequest & { path: string; meta: Meta },
): Promise<Readable> {
  const scope = await readerScope(ctx, actor);
  parseOrdering(query.ordering, q.orcaOrderingFields, ORCA_DEFAULT_ORDERING);
  const filters = await filtersOf(ctx, scope, query, request.timezone);
  const timezone = timezoneFromHeader(request.timezone);
  const db = dbOf(ctx, query.using_read_db);
  await insertReportLog(ctx.database.db, {
    api: request.path,
    apiQp: { ...query },
    userAgent: request.meta.userAgent,
    userId: actor.id,
    userType: actor.userType,
    at: ctx.now(),
  });
  return csvFromBatches({
    columns: csvHeaderIn(ORCA_CSV_COLUMNS, ORCA_CSV_TIME_COLUMNS, timezone),
    batches: {
      read: (before: NewestFirstKey | null, size: number) =>
        q.listOrcaCsvBatch(db, scope, filters, timezone, before, size),
      keyOf: (row) => ({ dateTime: row.dateTime, id: row.id }),
      size: ORCA_CSV_BATCH,
    },
    record: orcaCsvRecord,
    log: ctx.services.log,
    what: 'ORCA CSV',
  });
}

/** GET orca/{id}/: the detail and the finding modal (404 outside the caller's scope). */
export async function getOrca(
  ctx: OrcaContext,
  actor: Actor,
  id: number,
  usingReadDb?: boolean,
): Promise<TOrcaDetail> {
  const scope = await readerScope(ctx, actor);
  const found = await q.findOrcaDetail(dbOf(ctx, usingReadDb), scope, id);
  if (!found) throw notFound();
  return presentOrcaDetail(found.row, found.history, found.findings);
}
