// Device use cases (part 2 §2.4, §4, §5, §6, §7; fleet health and CSV from issue 7). The role rules are
// DEVICE_ACTIONS in packages/shared; the scope is the caller's organizations, plus unlinked devices for roles that
// see everything or may link them. A device or link outside the scope answers 404; a link is never rewritten to
// another organization: a transfer or unassign ends the active link and opens a new one, so the history stays.
import type { Readable } from 'node:stream';
import {
  DEVICE_CSV_BATCH,
  DEVICE_CSV_COLUMNS,
  DEVICE_CSV_TIME_COLUMNS,
  DEVICE_DEFAULT_ORDERING,
  DEVICE_MESSAGES,
  canDevice,
  invalidPk,
  latestVersion,
  seesUnlinkedDevices,
  type TDevice,
  type TDeviceAction,
  type TDeviceInput,
  type TDeviceLink,
  type TDeviceLinkInput,
  type TDeviceLinkPatch,
  type TDeviceLinkSaved,
  type TDeviceListQuery,
  type TDeviceSaved,
} from '@sc/shared/devices';
import type { TPaginated } from '@sc/shared/list';
import type { AppContext } from '../../app.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { auditActor, auditChanges, type AuditChange } from '../../services/audit.service.ts';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { csvFile, csvHeaderIn } from '../../http/csv-stream.ts';
import { AppError, fieldError, nonFieldError, notFound } from '../../http/errors.ts';
import { parseOrdering } from '../../http/ordering.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { readerZone, requestPeriod } from '../../http/period.ts';
import { isInScope, resolveScope } from '../../http/scope.ts';
import * as q from './devices.queries.ts';
import { deviceCsvRecord, presentActiveLink, presentDevice, presentLink, silentCutoff, type FleetFacts } from './devices.presenter.ts';
import { readerFor } from '../../db/replica.ts';

export type DevicesContext = Pick<AppContext, 'database' | 'services' | 'now'>;
type Meta = Pick<RequestMeta, 'ip' | 'userAgent'>;
type ListRequest = { url: string; timezone: string | string[] | undefined };

const AUDIT = {
  created: 'device.created',
  updated: 'device.updated',
  linked: 'device.linked',
  transferred: 'device.transferred',
  unassigned: 'device.unassigned',
  linkDeleted: 'device.link_deleted',
} as const;

function assertCan(actor: Actor, action: TDeviceAction): void {
  if (!canDevice(actor.userType, action)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
}

/** Read from the primary: a link made a moment ago must already count. */
async function deviceScopeOf(ctx: DevicesContext, actor: Actor): Promise<q.DeviceScope> {
  return { orgs: await resolveScope(ctx.database.db, actor), unlinked: seesUnlinkedDevices(actor.userType) };
}

async function fleetFacts(ctx: DevicesContext, db: DbOrTx): Promise<FleetFacts> {
  return { latestFirmware: latestVersion(await q.listFirmwareVersions(db)), now: ctx.now() };
}

/** Validates every filter (ordering, period) before any query, so a bad one costs nothing. */
function filtersOf(ctx: DevicesContext, query: TDeviceListQuery, timezone: ListRequest['timezone']): q.DeviceFilters {
  return {
    organizationId: query.organization_id,
    linked: query.linked,
    unlinked: query.unlinked,
    search: query.search,
    serialNumber: query.serial_number,
    silent: query.silent === undefined ? undefined : { is: query.silent, cutoff: silentCutoff(ctx.now()) },
    created: requestPeriod(query, timezone, ctx.now()),
  };
}

async function listPage(
  ctx: DevicesContext,
  actor: Actor,
  query: TDeviceListQuery,
  request: ListRequest,
  withActiveLink: boolean,
): Promise<{ rows: q.DeviceRow[]; count: number; db: Db }> {
  const orderBy = parseOrdering(query.ordering, q.deviceOrderingFields, DEVICE_DEFAULT_ORDERING);
  const filters = { ...filtersOf(ctx, query, request.timezone), withActiveLink };
  const scope = await deviceScopeOf(ctx, actor);
  const db = readerFor(ctx.database, query.using_read_db);
  const { rows, count } = await q.listDevices(db, scope, filters, orderBy, toPageParams(query));
  return { rows, count, db };
}

/** GET device/ */
export async function listDevices(
  ctx: DevicesContext,
  actor: Actor,
  query: TDeviceListQuery,
  request: ListRequest,
): Promise<TPaginated<TDevice>> {
  const { rows, count, db } = await listPage(ctx, actor, query, request, false);
  const facts = await fleetFacts(ctx, db);
  return paginate(request, toPageParams(query), count, rows.map((r) => presentDevice(r, facts)));
}

/** GET organization/device/: the same filters, answered as the devices' active links. */
export async function listDeviceLinks(
  ctx: DevicesContext,
  actor: Actor,
  query: TDeviceListQuery,
  request: ListRequest,
): Promise<TPaginated<TDeviceLink>> {
  const { rows, count } = await listPage(ctx, actor, query, request, true);
  return paginate(request, toPageParams(query), count, rows.map(presentActiveLink));
}

/**
 * GET device/?format=csv: device_details.csv with exactly the rows the list's filters select, newest first, read
 * in keyset batches while the response streams (any number of rows, constant memory). Recorded in the report log.
 */
export async function streamDevicesCsv(
  ctx: DevicesContext,
  actor: Actor,
  query: TDeviceListQuery,
  request: ListRequest & { path: string; meta: Meta },
): Promise<Readable> {
  assertCan(actor, 'device.csv');
  // The ordering is checked like the list's (a bad one is a 400), although the file is always newest first.
  parseOrdering(query.ordering, q.deviceOrderingFields, DEVICE_DEFAULT_ORDERING);
  const filters = filtersOf(ctx, query, request.timezone);
  const scope = await deviceScopeOf(ctx, actor);
  const db = readerFor(ctx.database, query.using_read_db);
  const facts = await fleetFacts(ctx, db);
  const zone = readerZone(request.timezone);
  await q.insertReportLog(ctx.database.db, {
    api: request.path,
    apiQp: { ...query },
    userAgent: request.meta.userAgent,
    userId: actor.id,
    userType: actor.userType,
    at: ctx.now(),
  });

  async function* records() {
    let beforeId: number | null = null;
    for (;;) {
      const rows = await q.listDeviceBatch(db, scope, filters, beforeId, DEVICE_CSV_BATCH);
      for (const row of rows) yield deviceCsvRecord(presentDevice(row, facts), zone);
      const last = rows.at(-1);
      if (!last || rows.length < DEVICE_CSV_BATCH) return;
      beforeId = last.id;
    }
  }

  const columns = csvHeaderIn(DEVICE_CSV_COLUMNS, DEVICE_CSV_TIME_COLUMNS, zone);
  return csvFile(columns, records(), ctx.services.log, 'device CSV');
}

/** GET device/{id}/ */
export async function getDevice(ctx: DevicesContext, actor: Actor, id: number, usingReadDb = false): Promise<TDevice> {
  const db = readerFor(ctx.database, usingReadDb);
  const row = await q.findDevice(db, await deviceScopeOf(ctx, actor), id);
  if (!row) throw notFound();
  return presentDevice(row, await fleetFacts(ctx, db));
}

/** POST device/: a new, unlinked device. */
export async function createDevice(ctx: DevicesContext, actor: Actor, input: TDeviceInput, meta: Meta): Promise<TDeviceSaved> {
  assertCan(actor, 'device.create');
  const { db } = ctx.database;
  if (await q.hasDeviceWithSerial(db, input.serial_number)) throw fieldError('serial_number', DEVICE_MESSAGES.duplicateSerial);
  const id = await uniqueSerial(() =>
    db.transaction(async (tx) => {
      const newId = await q.insertDevice(tx, { serialNumber: input.serial_number, createdBy: actor.id, at: ctx.now() });
      await audit(ctx, actor, AUDIT.created, 'device', newId, { serial_number: input.serial_number }, meta, tx, {
        changes: auditChanges(null, { serial_number: input.serial_number }),
      });
      return newId;
    }),
  );
  return { ...(await getDevice(ctx, actor, id)), detail: DEVICE_MESSAGES.created };
}

/** PUT device/{id}/ (ADMIN). Scans keep the serial they were uploaded with: that is the device's own record. */
export async function updateDevice(
  ctx: DevicesContext,
  actor: Actor,
  id: number,
  input: TDeviceInput,
  meta: Meta,
): Promise<TDeviceSaved> {
  assertCan(actor, 'device.edit');
  const { db } = ctx.database;
  const current = await q.findDevice(db, await deviceScopeOf(ctx, actor), id);
  if (!current) throw notFound();
  if (await q.hasDeviceWithSerial(db, input.serial_number, id)) throw fieldError('serial_number', DEVICE_MESSAGES.duplicateSerial);
  await uniqueSerial(() =>
    db.transaction(async (tx) => {
      await q.updateDeviceSerial(tx, id, { serialNumber: input.serial_number, modifiedBy: actor.id, at: ctx.now() });
      const details = { serial_number: input.serial_number, previous_serial_number: current.serialNumber };
      await audit(ctx, actor, AUDIT.updated, 'device', id, details, meta, tx, {
        changes: auditChanges({ serial_number: current.serialNumber }, { serial_number: input.serial_number }),
      });
    }),
  );
  return { ...(await getDevice(ctx, actor, id)), detail: DEVICE_MESSAGES.updated };
}

// ---- Links ----------------------------------------------------------------------------------------------------

/** A link is visible when its organization is in scope, or it has none and the caller sees unlinked devices. */
async function findVisibleLink(ctx: DevicesContext, actor: Actor, id: number): Promise<q.LinkRow> {
  const { db } = ctx.database;
  const link = await q.findLink(db, id);
  if (!link) throw notFound();
  const scope = await deviceScopeOf(ctx, actor);
  const visible = link.organizationId === null ? scope.unlinked : await isInScope(db, scope.orgs, link.organizationId);
  if (!visible) throw notFound();
  return link;
}

async function presentLinkById(ctx: DevicesContext, actor: Actor, linkId: number): Promise<TDeviceLink> {
  const link = await findVisibleLink(ctx, actor, linkId);
  // The device is read without scope: the link being visible is what grants it (a history row of a device that has
  // since moved elsewhere still names its serial number).
  const device = await q.findDevice(ctx.database.db, { orgs: { kind: 'all' }, unlinked: true }, link.deviceId);
  if (!device) throw notFound();
  return presentLink(link, device);
}

/** GET organization/device/{id}/?organization_id= */
export async function getDeviceLink(
  ctx: DevicesContext,
  actor: Actor,
  id: number,
  query: { organization_id?: number },
): Promise<TDeviceLink> {
  const link = await presentLinkById(ctx, actor, id);
  if (query.organization_id !== undefined && link.organization !== query.organization_id) throw notFound();
  return link;
}

/** The organization a device goes to: it must exist and be in the caller's scope (else the DRF unknown-pk error). */
async function assertTargetOrganization(ctx: DevicesContext, actor: Actor, organizationId: number): Promise<void> {
  const { db } = ctx.database;
  if (!(await isInScope(db, await resolveScope(db, actor), organizationId))) {
    throw fieldError('organization', invalidPk(organizationId));
  }
}

/** Ends the device's active link and opens one to `organizationId` (null = unassigned), in one transaction. */
async function relink(
  ctx: DevicesContext,
  actor: Actor,
  deviceId: number,
  organizationId: number | null,
  entry: { action: string; details: Record<string, unknown>; meta: Meta },
): Promise<number> {
  return uniqueLink(() =>
    ctx.database.db.transaction(async (tx) => {
      const at = ctx.now();
      await q.endActiveLink(tx, deviceId, { modifiedBy: actor.id, at });
      const linkId = await q.insertLink(tx, { deviceId, organizationId, createdBy: actor.id, at });
      // The device's organization after the move (before it, for an unassignment); the move is in the changes.
      const from = typeof entry.details.from === 'number' ? entry.details.from : null;
      await audit(ctx, actor, entry.action, 'device', deviceId, { ...entry.details, link: linkId }, entry.meta, tx, {
        organizationId: organizationId ?? from,
        changes: [{ field: 'organization', before: from, after: organizationId }],
      });
      return linkId;
    }),
  );
}

/** POST organization/device/: links an unlinked device to an organization. */
export async function linkDevice(ctx: DevicesContext, actor: Actor, input: TDeviceLinkInput, meta: Meta): Promise<TDeviceLinkSaved> {
  assertCan(actor, 'device.link');
  const device = await q.findDevice(ctx.database.db, await deviceScopeOf(ctx, actor), input.device);
  if (!device) throw fieldError('device', invalidPk(input.device));
  if (device.organizationId !== null) throw fieldError('device', DEVICE_MESSAGES.alreadyLinked);
  await assertTargetOrganization(ctx, actor, input.organization);
  const linkId = await relink(ctx, actor, device.id, input.organization, {
    action: AUDIT.linked,
    details: { organization: input.organization, serial_number: device.serialNumber },
    meta,
  });
  return { ...(await presentLinkById(ctx, actor, linkId)), detail: DEVICE_MESSAGES.linked };
}

/**
 * PATCH organization/device/{id}/: `{organization: null}` unassigns (part 2 §4); another organization transfers a
 * linked device, or links an unassigned one. Each is its own rule of part 2 §6.
 */
export async function changeDeviceLink(
  ctx: DevicesContext,
  actor: Actor,
  id: number,
  patch: TDeviceLinkPatch,
  meta: Meta,
): Promise<TDeviceLinkSaved> {
  const target = patch.organization;
  // Unassign's rule does not depend on the link: refuse before revealing whether it exists.
  if (target === null) assertCan(actor, 'device.unassign');
  const link = await findVisibleLink(ctx, actor, id);
  if (!link.isActive) throw nonFieldError(DEVICE_MESSAGES.linkEnded);
  const from = link.organizationId;

  if (target === null) {
    if (from === null) throw nonFieldError(DEVICE_MESSAGES.notLinked);
    const linkId = await relink(ctx, actor, link.deviceId, null, { action: AUDIT.unassigned, details: { from }, meta });
    return { ...(await presentLinkById(ctx, actor, linkId)), detail: DEVICE_MESSAGES.unassigned };
  }

  assertCan(actor, from === null ? 'device.link' : 'device.transfer');
  if (target === from) throw fieldError('organization', DEVICE_MESSAGES.sameOrganization);
  await assertTargetOrganization(ctx, actor, target);
  const action = from === null ? AUDIT.linked : AUDIT.transferred;
  const linkId = await relink(ctx, actor, link.deviceId, target, { action, details: { from, to: target }, meta });
  return { ...(await presentLinkById(ctx, actor, linkId)), detail: DEVICE_MESSAGES.linked };
}

/** DELETE organization/device/{id}/: ends the active link (kept as history); the device becomes unlinked. */
export async function deleteDeviceLink(ctx: DevicesContext, actor: Actor, id: number, meta: Meta): Promise<{ detail: string }> {
  assertCan(actor, 'device.deleteLink');
  const link = await findVisibleLink(ctx, actor, id);
  if (!link.isActive) throw nonFieldError(DEVICE_MESSAGES.linkEnded);
  await ctx.database.db.transaction(async (tx) => {
    await q.endActiveLink(tx, link.deviceId, { modifiedBy: actor.id, at: ctx.now() });
    await audit(ctx, actor, AUDIT.linkDeleted, 'device', link.deviceId, { link: id, organization: link.organizationId }, meta, tx, {
      organizationId: link.organizationId,
      changes: auditChanges({ link: id, organization: link.organizationId }, null),
    });
  });
  return { detail: DEVICE_MESSAGES.linkDeleted };
}

// ---- Helpers ------------------------------------------------------------------------------------------------------

/** True when PostgreSQL refused a row for a unique index (SQLSTATE 23505); Drizzle wraps the driver's error. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** Two requests registering one serial at once: the loser gets the field error, not a 500. */
async function uniqueSerial<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('serial_number', DEVICE_MESSAGES.duplicateSerial);
    throw error;
  }
}

/** Two requests linking one device at once: the one active link per device index keeps one, the other is told. */
async function uniqueLink<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('device', DEVICE_MESSAGES.alreadyLinked);
    throw error;
  }
}

async function audit(
  ctx: DevicesContext,
  actor: Actor,
  action: string,
  targetType: string,
  targetId: number,
  details: Record<string, unknown>,
  meta: Meta,
  tx?: DbOrTx,
  row: { organizationId?: number | null; changes?: AuditChange[] } = {},
): Promise<void> {
  await ctx.services.audit.record(
    {
      action,
      ...auditActor(actor, meta),
      targetType,
      targetId,
      organizationId: row.organizationId ?? null,
      changes: row.changes ?? null,
      details,
    },
    tx,
  );
}
