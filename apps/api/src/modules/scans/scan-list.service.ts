// The console's breast scans (part 2 §2.7–2.9, §6, §7, §9): the list (JSON or CSV), the scans of a map cluster, the
// map points, one scan, transfer, duplicate delete, the filter lookups and the report log. Roles per architecture §6:
// SCAN_LIST_ROLES read within their scope (404 outside it); duplicates and the assigned filter are ADMIN and
// SUB_ADMIN's; the dashboard's aggregates follow the row changes through the triggers of migration 0005.
import { PassThrough, type Readable } from 'node:stream';
import { and, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { TPaginated } from '@sc/shared/list';
import type { TUserType } from '@sc/shared/roles';
import { invalidPk } from '@sc/shared/devices';
import {
  REPORT_LOG_ROLES,
  SCAN_CSV_COLUMNS,
  SCAN_CSV_TIME_COLUMNS,
  SCAN_DEFAULT_ORDERING,
  SCAN_LIST_ROLES,
  SCAN_LOOKUP_LIMIT,
  SCAN_MESSAGES_CONSOLE,
  SCAN_TECHNICIAN_TYPES,
  SCAN_IDS_BODY_MAX,
  SCAN_TRANSFER_ROLES,
  ScanCellCounter,
  canDeleteDuplicate,
  canFilterAssigned,
  canSeeDuplicates,
  packedIdsInCells,
  type TScanDetail,
  type TScanListQuery,
  type TScanPointsQuery,
  type TScanRow,
  type TScanRowSaved,
  type TScanTransferInput,
} from '@sc/shared/scans';
import type { AppContext } from '../../app.ts';
import type { Db } from '../../db/client.ts';
import { reportLogs, users } from '../../db/schema/index.ts';
import { auditActor, auditChanges } from '../../services/audit.service.ts';
import type { Actor } from '../../http/actor.ts';
import { csvFile, csvHeaderIn } from '../../http/csv-stream.ts';
import { AppError, fieldError, nonFieldError, notFound } from '../../http/errors.ts';
import { parseOrdering } from '../../http/ordering.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { periodCondition, requestPeriod, timezoneFromHeader } from '../../http/period.ts';
import { assertInScope, isInScope, resolveScope, type Scope } from '../../http/scope.ts';
import { containsPattern, ilikeTerm } from '../../http/search.ts';
import { moveScanFiles } from '../scan-files/scan-files.service.ts';
import { moveToTrash } from '../trash/trash.service.ts';
import * as q from './scan-list.queries.ts';
import { presentScanDetail, presentScanRow } from './scans.presenter.ts';
import { readerFor } from '../../db/replica.ts';

export type ScanListContext = Pick<AppContext, 'config' | 'database' | 'services' | 'now'>;
export type ListRequest = { url: string; timezone: string | string[] | undefined };
export type Meta = { ip: string; userAgent: string | null };

/** Rows a CSV keyset batch reads (PGlite, or when every COPY is taken); memory stays at one batch. */
export const SCAN_CSV_BATCH = 5000;
/**
 * CSV downloads PostgreSQL writes with COPY at once (each holds one pool connection for its duration); more wait for
 * nothing and read in keyset batches instead, so downloads never starve the pool.
 */
export const SCAN_CSV_MAX_COPIES = 3;
let activeCsvCopies = 0;
/** Map points a batch read from the scans packs at most (12 bytes each: 1.2 MB). */
export const SCAN_POINTS_BATCH = 100_000;
/** UTC days of packed points a batch reads from scan_point_days (~7,000 points a day at a million scans: 1.3 MB). */
export const SCAN_POINT_DAYS_BATCH = 16;

const forbidden = (detail: string) => new AppError('forbidden', detail);

function assertRole(actor: Actor, roles: readonly TUserType[], detail: string): void {
  if (!roles.includes(actor.userType)) throw forbidden(detail);
}

const dbOf = (ctx: ScanListContext, usingReadDb: boolean | undefined): Db =>
  readerFor(ctx.database, usingReadDb);

/**
 * The validated query as filters, after the role rules of the filters (duplicates and assigned: ADMIN and
 * SUB_ADMIN) and the scope of a named organization (404 outside it, as its id would). `checkOrganization: false`
 * leaves that check to the caller (the list makes it only when its page is empty: a scan of the organization in the
 * page proves it in scope).
 */
async function filtersOf(
  ctx: ScanListContext,
  actor: Actor,
  scope: Scope,
  query: TScanPointsQuery,
  timezone: string | string[] | undefined,
  ids?: number[],
  checkOrganization = true,
): Promise<q.ScanFilters> {
  if (
    (query.is_parent_scan_id !== undefined || query.parent_scan_id !== undefined) &&
    !canSeeDuplicates(actor.userType)
  ) {
    throw forbidden(SCAN_MESSAGES_CONSOLE.onlyAdminsDuplicates);
  }
  if (query.is_organization_id !== undefined && !canFilterAssigned(actor.userType)) {
    throw forbidden(SCAN_MESSAGES_CONSOLE.onlyAdminsAssigned);
  }
  if (
    query.organization !== undefined &&
    query.organization_id !== undefined &&
    query.organization !== query.organization_id
  ) {
    throw fieldError('organization_id', 'Send organization or organization_id, not two different ones.');
  }
  const organizationId = query.organization ?? query.organization_id;
  if (organizationId !== undefined && checkOrganization)
    await assertInScope(ctx.database.db, scope, organizationId);
  if (
    query.device !== undefined &&
    query.device_serial_number !== undefined &&
    query.device !== query.device_serial_number
  ) {
    throw fieldError('device', 'Send device or device_serial_number, not two different ones.');
  }
  let idList = query.ids;
  if (ids !== undefined) idList = idList ? idList.filter((id) => ids.includes(id)) : ids;
  return {
    range: requestPeriod(query, timezone, ctx.now()),
    search: query.search,
    organizationId,
    deviceSerialNumber: query.device_serial_number ?? query.device,
    sensorSerialNumber: query.sensor_serial_number,
    technicianId: query.technician,
    technicianType: query.user_type,
    scanType: query.scan_type,
    isReplayAvailable: query.is_replay_available,
    isSurvivor: query.survivor,
    isPositive: query.is_positive,
    leftFinding: query.left_breast_finding,
    rightFinding: query.right_breast_finding,
    hasSymptoms: query.symptoms,
    hasFamilyHistory: query.family_history,
    isDuplicate: query.is_parent_scan_id,
    hasOrganization: query.is_organization_id,
    ageMin: query.age_min,
    ageMax: query.age_max,
    patientId: query.patient,
    ids: idList,
    familyOf: query.parent_scan_id,
  };
}

async function readerScope(ctx: ScanListContext, actor: Actor): Promise<Scope> {
  assertRole(actor, SCAN_LIST_ROLES, SCAN_MESSAGES_CONSOLE.listRole);
  return resolveScope(ctx.database.db, actor);
}

/** GET scan/ and POST scan/ids/ (`ids` from the body). */
export async function listScans(
  ctx: ScanListContext,
  actor: Actor,
  query: TScanListQuery,
  request: ListRequest,
  ids?: number[],
): Promise<TPaginated<TScanRow>> {
  const scope = await readerScope(ctx, actor);
  const orderBy = parseOrdering(query.ordering, q.scanOrderingFields, SCAN_DEFAULT_ORDERING);
  const filters = await filtersOf(ctx, actor, scope, query, request.timezone, ids, false);
  const db = dbOf(ctx, query.using_read_db);
  const page = toPageParams(query);
  const { rows, count, capped } = await q.listScanPage(
    db,
    scope,
    filters,
    { key: query.ordering ?? SCAN_DEFAULT_ORDERING, orderBy },
    page.limit,
    page.offset,
  );
  // Every scan of a page is in scope, so a page with rows proves its organization in scope; an empty one asks.
  if (rows.length === 0 && filters.organizationId !== undefined) {
    await assertInScope(ctx.database.db, scope, filters.organizationId);
  }
  // A page past the last answers 404 (paginate).
  return paginate(request, page, count, rows.map(presentScanRow), capped);
}

/**
 * GET scan/?format=csv: scan_details.csv with exactly the rows the filters select (every page), newest first, written
 * by PostgreSQL's COPY (q.copyScanCsv) or, on PGlite and when every COPY is taken, read in keyset batches and
 * stringified while the response streams; memory stays flat either way. Recorded in the report log.
 */
export async function streamScansCsv(
  ctx: ScanListContext,
  actor: Actor,
  query: TScanListQuery,
  request: ListRequest & { path: string; meta: Meta },
  ids?: number[],
): Promise<Readable> {
  const scope = await readerScope(ctx, actor);
  parseOrdering(query.ordering, q.scanOrderingFields, SCAN_DEFAULT_ORDERING);
  const filters = await filtersOf(ctx, actor, scope, query, request.timezone, ids);
  const timezone = timezoneFromHeader(request.timezone);
  const db = dbOf(ctx, query.using_read_db);
  await recordDownload(ctx, actor, request.path, { ...query }, request.meta);

  const { pool } = ctx.database;
  const onPrimary = !query.using_read_db || ctx.database.readDb === ctx.database.db;
  if (pool && onPrimary && activeCsvCopies < SCAN_CSV_MAX_COPIES) {
    activeCsvCopies++;
    let copy: Readable;
    try {
      copy = await q.copyScanCsv(pool, db, scope, filters, timezone, scanCsvHeader(timezone));
    } catch (error) {
      activeCsvCopies--;
      throw error;
    }
    copy.once('close', () => activeCsvCopies--);
    copy.once('error', (error: Error) => ctx.services.log.error({ err: error.message }, 'scan CSV stopped'));
    return copy;
  }
  async function* records() {
    let before: { dateTime: Date; id: number } | null = null;
    for (;;) {
      const { records: batch, last } = await q.listScanCsvBatch(
        db,
        scope,
        filters,
        timezone,
        before,
        SCAN_CSV_BATCH,
      );
      yield* batch;
      if (!last || batch.length < SCAN_CSV_BATCH) return;
      before = last;
    }
  }
  return csvFile(scanCsvHeader(timezone), records(), ctx.services.log, 'scan CSV');
}

/** The scan CSV's header: Date Time names the zone its times are in. */
const scanCsvHeader = (timezone: string) => csvHeaderIn(SCAN_CSV_COLUMNS, SCAN_CSV_TIME_COLUMNS, timezone);

async function recordDownload(
  ctx: ScanListContext,
  actor: Actor,
  path: string,
  params: Record<string, unknown>,
  meta: Meta,
): Promise<void> {
  await q.insertReportLog(ctx.database.db, {
    api: path,
    apiQp: params,
    userAgent: meta.userAgent,
    userId: actor.id,
    userType: actor.userType,
    at: ctx.now(),
  });
}

const DAY_MS = 86_400_000;
/** A period longer than this reads the first and last day that hold points before it reads days. */
const LONG_PERIOD_MS = 366 * DAY_MS;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The located scans the filters select, read from the scans in date order: batches of at most SCAN_POINTS_BATCH
 * points cut at a scan time (every scan of one instant in one batch, however many), each a range of
 * scans_points_date_idx.
 */
export async function* scanPointsFromScans(
  db: Db,
  scope: Scope,
  f: q.ScanFilters,
  limit = SCAN_POINTS_BATCH,
): AsyncGenerator<Uint8Array> {
  let lower = null as q.PointsBound | null;
  for (;;) {
    const cut = await q.findScanPointsCut(db, scope, f, lower, limit);
    if (cut === null) {
      const rest = await q.packScanPoints(db, scope, f, lower, null);
      if (rest) yield rest;
      return;
    }
    // More than a batch at one instant: that instant alone, then on after it.
    const single: boolean = lower?.inclusive === true && lower.at === cut;
    const bytes = await q.packScanPoints(db, scope, f, lower, { at: cut, inclusive: single });
    if (bytes) yield bytes;
    lower = { at: cut, inclusive: !single };
  }
}

/**
 * The map points as packed batches. Filtered by scope, organization and period only (the map's usual view), the
 * period's whole UTC days come packed from scan_point_days (migration 0021) and only its partial first and last day
 * from the scans; any other filter reads the scans (scanPointsFromScans).
 */
async function* scanPointBatches(db: Db, scope: Scope, f: q.ScanFilters): AsyncGenerator<Uint8Array> {
  if (!q.isPointDaysFilter(f)) return yield* scanPointsFromScans(db, scope, f);
  const { from, to } = f.range;
  const firstFull = from && Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
  const end = to && Math.floor(to.getTime() / DAY_MS) * DAY_MS;
  if (firstFull !== undefined && end !== undefined && firstFull >= end)
    return yield* scanPointsFromScans(db, scope, f);
  if (from && firstFull !== undefined && firstFull > from.getTime()) {
    yield* scanPointsFromScans(db, scope, { ...f, range: { from, to: new Date(firstFull) } });
  }
  let day = firstFull ?? -Infinity;
  let stop = end ?? Infinity;
  // An open or long period is cut to the days that hold points: 2026-02-10 to 9999-12-31 is not 2.9 million days of
  // empty reads.
  if (stop - day > LONG_PERIOD_MS) {
    const days = await q.findScanPointDays(db, scope, f.organizationId);
    day = days ? Math.max(day, Date.parse(days.first)) : Infinity;
    stop = days ? Math.min(stop, Date.parse(days.last) + DAY_MS) : -Infinity;
  }
  for (; day < stop; day += SCAN_POINT_DAYS_BATCH * DAY_MS) {
    const next = Math.min(day + SCAN_POINT_DAYS_BATCH * DAY_MS, stop);
    const bytes = await q.packScanPointDays(db, scope, f.organizationId, utcDay(day), utcDay(next));
    if (bytes) yield bytes;
  }
  if (to && end !== undefined && end < to.getTime()) {
    yield* scanPointsFromScans(db, scope, { ...f, range: { from: new Date(end), to } });
  }
}

/**
 * GET scan/lat-long/: the map points of every scan the filters select, as packed 12-byte little-endian records
 * (shared SCAN_POINT_BYTES), in no particular order. The database packs each batch; the stream sends it as soon as
 * it is read.
 */
export async function streamScanPoints(
  ctx: ScanListContext,
  actor: Actor,
  query: TScanPointsQuery,
  timezone: string | string[] | undefined,
): Promise<Readable> {
  const scope = await readerScope(ctx, actor);
  const filters = await filtersOf(ctx, actor, scope, query, timezone);
  const batches = scanPointBatches(dbOf(ctx, query.using_read_db), scope, filters);
  // The first batch is read before the answer starts, so a database error is a 500/503, not a cut stream.
  const first = await batches.next();
  const out = new PassThrough();
  void (async () => {
    try {
      for (let batch = first; !batch.done; batch = await batches.next()) {
        const be = batch.value;
        // int4send/float4send write big-endian; every field is 4 bytes, so one swap makes the whole batch LE.
        const bytes = Buffer.from(be).swap32();
        if (!out.write(bytes)) await new Promise((resolve) => out.once('drain', resolve));
      }
      out.end();
    } catch (error) {
      ctx.services.log.error(
        { err: error instanceof Error ? error.message : String(error) },
        'scan points stopped',
      );
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  return out;
}

/**
 * GET scan/lat-long/cells/ (console, issue 24): the map's first picture — the points `GET scan/lat-long/` answers for
 * the same query (read the same way, batch by batch) counted into SCAN_CELL_DEGREES cells (shared ScanCellCounter),
 * packed as SCAN_CELL_BYTES records. A few hundred to a few thousand cells: tens of kB where the points are megabytes.
 */
export async function scanPointCells(
  ctx: ScanListContext,
  actor: Actor,
  query: TScanPointsQuery,
  timezone: string | string[] | undefined,
): Promise<Buffer> {
  const scope = await readerScope(ctx, actor);
  const filters = await filtersOf(ctx, actor, scope, query, timezone);
  const counter = new ScanCellCounter();
  // Big-endian as the database packs it, read as it is.
  for await (const be of scanPointBatches(dbOf(ctx, query.using_read_db), scope, filters)) counter.addPacked(be, false);
  return Buffer.from(counter.encode());
}

/**
 * POST scan/lat-long/cells/ids/ (console, issue 24): the ids of the scans in these cells of the first picture, read
 * as its cells were (the same points), at most SCAN_IDS_BODY_MAX: a cluster clicked before the points have arrived.
 */
export async function scanIdsInCells(
  ctx: ScanListContext,
  actor: Actor,
  query: TScanPointsQuery,
  timezone: string | string[] | undefined,
  cells: readonly number[],
): Promise<number[]> {
  const scope = await readerScope(ctx, actor);
  const filters = await filtersOf(ctx, actor, scope, query, timezone);
  const wanted = new Set(cells);
  const ids: number[] = [];
  for await (const be of scanPointBatches(dbOf(ctx, query.using_read_db), scope, filters)) {
    packedIdsInCells(be, false, wanted, SCAN_IDS_BODY_MAX, ids);
    if (ids.length >= SCAN_IDS_BODY_MAX) break;
  }
  return ids;
}

/** GET scan/{id}/ */
export async function getScan(
  ctx: ScanListContext,
  actor: Actor,
  id: number,
  usingReadDb?: boolean,
): Promise<TScanDetail> {
  const scope = await readerScope(ctx, actor);
  const found = await q.findScanRow(dbOf(ctx, usingReadDb), scope, id);
  if (!found) throw notFound();
  return presentScanDetail(found.row, found.gender, found.parent);
}

/** GET scan/{id}/?format=csv: the view dialog's Download CSV, one line, recorded in the report log. */
export async function streamOneScanCsv(
  ctx: ScanListContext,
  actor: Actor,
  id: number,
  request: ListRequest & { path: string; meta: Meta },
): Promise<Readable> {
  const scope = await readerScope(ctx, actor);
  if (!(await q.findScanInScope(ctx.database.db, scope, id))) throw notFound();
  await recordDownload(ctx, actor, request.path, { id }, request.meta);
  const timezone = timezoneFromHeader(request.timezone);
  const { records } = await q.listScanCsvBatch(
    ctx.database.db,
    scope,
    { range: {}, ids: [id] },
    timezone,
    null,
    1,
  );
  return csvFile(scanCsvHeader(timezone), records, ctx.services.log, 'scan CSV');
}

/**
 * POST scan/{id}/transfer/ (part 2 §2.9): to an organization in the caller's scope and a valid TECHNICIAN,
 * ORG_ADMIN or DISTRIBUTOR_ADMIN of it. An original takes its duplicates along (they are the same upload).
 */
export async function transferScan(
  ctx: ScanListContext,
  actor: Actor,
  id: number,
  input: TScanTransferInput,
  meta: Meta,
): Promise<TScanRowSaved> {
  assertRole(actor, SCAN_TRANSFER_ROLES, SCAN_MESSAGES_CONSOLE.transferRole);
  const { db } = ctx.database;
  const scope = await resolveScope(db, actor);
  const scan = await q.findScanInScope(db, scope, id);
  if (!scan) throw notFound();
  if (!(await isInScope(db, scope, input.organization_id))) {
    throw fieldError('organization_id', invalidPk(input.organization_id));
  }
  const technician = await q.findTechnicianOf(
    db,
    input.technician_id,
    input.organization_id,
    SCAN_TECHNICIAN_TYPES,
  );
  if (!technician) throw fieldError('technician_id', SCAN_MESSAGES_CONSOLE.technicianNotOfOrganization);
  if (scan.organizationId === input.organization_id && scan.technicianId === input.technician_id) {
    throw nonFieldError(SCAN_MESSAGES_CONSOLE.sameOwner);
  }
  await db.transaction(async (tx) => {
    const moved = await q.transferScanFamily(
      tx,
      id,
      input.organization_id,
      input.technician_id,
      actor.id,
      ctx.now(),
    );
    // The files follow the scans: the new organization reads them, the old one no longer does.
    for (const scanRow of moved) await moveScanFiles(tx, scanRow.scanFilesPath, input.organization_id);
    await ctx.services.audit.record(
      {
        action: 'scan.transferred',
        ...auditActor(actor, meta),
        targetType: 'scan',
        targetId: id,
        // The new organization reads the row; the old one is in the changes.
        organizationId: input.organization_id,
        changes: auditChanges(
          { organization: scan.organizationId, technician: scan.technicianId },
          { organization: input.organization_id, technician: input.technician_id },
        ),
        details: {
          from: { organization_id: scan.organizationId, technician_id: scan.technicianId },
          to: { organization_id: input.organization_id, technician_id: input.technician_id },
          scan_ids: moved.map((m) => m.id),
        },
      },
      tx,
    );
  });
  const found = await q.findScanRow(db, { kind: 'all' }, id);
  if (!found) throw notFound();
  return { ...presentScanRow(found.row), detail: SCAN_MESSAGES_CONSOLE.transferred };
}

/** DELETE scan/{id}/: a duplicate (child) scan only, by ADMIN or SUB_ADMIN. */
export async function deleteDuplicateScan(
  ctx: ScanListContext,
  actor: Actor,
  id: number,
  meta: Meta,
): Promise<{ detail: string; id: number }> {
  if (!canDeleteDuplicate(actor.userType)) throw forbidden(SCAN_MESSAGES_CONSOLE.onlyAdminsDuplicates);
  const { db } = ctx.database;
  const scope = await resolveScope(db, actor);
  const scan = await q.findScanInScope(db, scope, id);
  if (!scan) throw notFound();
  if (scan.parentScanId === null) throw nonFieldError(SCAN_MESSAGES_CONSOLE.notDuplicate);
  await db.transaction(async (tx) => {
    // To the trash (issue 27): gone from every list and figure, restorable for TRASH_RETENTION_DAYS.
    const { record } = await moveToTrash(tx, {
      area: 'scans',
      targetType: 'scan',
      targetId: id,
      label: `Scan ${id}${scan.deviceSerialNumber ? ` (${scan.deviceSerialNumber})` : ''}, duplicate of ${scan.parentScanId}`,
      organizationId: scan.organizationId,
      deletedBy: actor.id,
      at: ctx.now(),
    });
    await ctx.services.audit.record(
      {
        action: 'scan.duplicate_deleted',
        actorId: actor.id,
        impersonatorId: actor.impersonatorId,
        targetType: 'scan',
        targetId: id,
        organizationId: scan.organizationId,
        ip: meta.ip,
        userAgent: meta.userAgent,
        details: {
          parent_scan_id: scan.parentScanId,
          organization_id: scan.organizationId,
          device_serial_number: scan.deviceSerialNumber,
          local_db_id: scan.localDbId,
          scan_type: scan.scanType,
        },
        changes: auditChanges(record, null),
      },
      tx,
    );
  });
  return { detail: SCAN_MESSAGES_CONSOLE.deleted, id };
}

/** GET scan/sensor-serial-numbers/ and GET scan/devices/: the filter panel's serial pickers. */
export async function listScanSerials(
  ctx: ScanListContext,
  actor: Actor,
  column: 'sensor' | 'device',
  query: { search?: string; organization?: number; using_read_db?: boolean },
): Promise<string[]> {
  const scope = await readerScope(ctx, actor);
  if (query.organization !== undefined) await assertInScope(ctx.database.db, scope, query.organization);
  return q.distinctSerials(
    dbOf(ctx, query.using_read_db),
    scope,
    column,
    query.search,
    query.organization,
    SCAN_LOOKUP_LIMIT,
  );
}

/** GET scan/report-log/ (ADMIN): who downloaded which CSV or report, with the filters they used. */
export async function listReportLog(
  ctx: ScanListContext,
  actor: Actor,
  query: {
    page: number;
    limit: number;
    ordering?: string;
    search?: string;
    using_read_db?: boolean;
    user?: number;
    date_time_after?: string;
    date_time_before?: string;
    created_after?: string;
    created_before?: string;
    day?: 'today' | 'yesterday';
    month?: 'this_month' | 'last_month' | 'yesterday';
  },
  request: ListRequest,
) {
  assertRole(actor, REPORT_LOG_ROLES, 'Only Super Admin users may read the report log.');
  const orderBy = parseOrdering(query.ordering, q.reportLogOrderingFields, '-created');
  const range = requestPeriod(query, request.timezone, ctx.now());
  const term = query.search?.trim();
  const where: SQL | undefined = and(
    periodCondition(q.reportLogColumns.created, range),
    query.user === undefined ? undefined : sql`${q.reportLogColumns.userId} = ${query.user}`,
    term
      ? or(
          ilike(q.reportLogColumns.api, containsPattern(term)),
          sql`${q.reportLogUserSearch} ilike ${containsPattern(term)}`,
          // 'Search by name, mobile no, serial no' (part 3): the user's mobile, and any value of the download's query
          // (a device or sensor serial number, a search term), not its parameter names.
          ilikeTerm(users.mobile, term),
          sql`EXISTS (SELECT 1 FROM jsonb_each_text(${reportLogs.apiQp}) AS qp(k, v) WHERE qp.v ILIKE ${containsPattern(term)})`,
        )
      : undefined,
  );
  const page = toPageParams(query);
  const { rows, count } = await q.listReportLogs(
    dbOf(ctx, query.using_read_db),
    where,
    orderBy,
    page.limit,
    page.offset,
  );
  return paginate(
    request,
    page,
    count,
    rows.map(({ log, user }) => ({
      id: log.id,
      api: log.api,
      api_qp: log.apiQp,
      requested_method: log.requestedMethod,
      user_agent: log.userAgent,
      user: log.userId,
      user_data: user
        ? { id: user.id, first_name: user.firstName, last_name: user.lastName, username: user.username }
        : null,
      user_type: log.userType,
      created: log.created.toISOString(),
    })),
  );
}
