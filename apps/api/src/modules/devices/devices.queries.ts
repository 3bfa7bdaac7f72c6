// Drizzle queries of devices and their organization links. A device's organization is the one of its active link
// (`is_active`); a link whose organization is null, or no active link at all, is an unlinked device. Every read takes
// the caller's device scope: a device outside it does not exist for them.
import { and, count, desc, eq, gte, isNotNull, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { devices, firmware, organizationDevices, organizations, reportLogs, scanStatsDeviceDaily } from '../../db/schema/index.ts';
import type { PageParams } from '../../http/pagination.ts';
import { periodCondition, type PeriodRange } from '../../http/period.ts';
import { orgScopeCondition, type Scope } from '../../http/scope.ts';
import { escapeLike, searchCondition } from '../../http/search.ts';
import { qualified } from '../../db/qualified.ts';

/** The organizations whose devices the caller sees, and whether unlinked devices are theirs to see too. */
export type DeviceScope = { orgs: Scope; unlinked: boolean };

// Scans the device uploaded (scan_type SCAN, as every statistic counts them: architecture §7), summed from the daily
// statistics (db/schema/stats.ts, exact as scans change) through scan_stats_device_daily_device_idx: a few hundred
// rows per device instead of every scan of it.
const scanCount = sql<number>`(select coalesce(sum(${scanStatsDeviceDaily.scans}), 0)::int from ${scanStatsDeviceDaily} where ${scanStatsDeviceDaily.deviceSerialNumber} = ${qualified(devices.serialNumber)})`;

const deviceColumns = {
  id: devices.id,
  serialNumber: devices.serialNumber,
  name: devices.name,
  hardwareVersion: devices.hardwareVersion,
  softwareVersion: devices.softwareVersion,
  lastSyncDate: devices.lastSyncDate,
  created: devices.created,
  linkId: organizationDevices.id,
  linkCreated: organizationDevices.created,
  organizationId: organizationDevices.organizationId,
  organizationName: organizations.name,
  scanCount,
};

export type DeviceRow = {
  id: number;
  serialNumber: string;
  name: string | null;
  hardwareVersion: string | null;
  softwareVersion: string | null;
  lastSyncDate: Date | null;
  created: Date;
  linkId: number | null;
  linkCreated: Date | null;
  organizationId: number | null;
  organizationName: string | null;
  scanCount: number;
};

export const deviceOrderingFields = {
  id: devices.id,
  serial_number: devices.serialNumber,
  created: devices.created,
  last_sync_date: devices.lastSyncDate,
  scan_count: scanCount,
  organization_name: organizations.name,
  software_version: devices.softwareVersion,
};

export type DeviceFilters = {
  organizationId?: number;
  linked?: boolean;
  unlinked?: boolean;
  search?: string;
  serialNumber?: string;
  /** Uploads older than this instant (or none) make a device silent. */
  silent?: { is: boolean; cutoff: Date };
  created: PeriodRange;
  /** organization/device/: only devices that have an active link (linked or unassigned). */
  withActiveLink?: boolean;
};

/** The last instant of activity: the last upload, or the registration of a device that never uploaded. */
const lastActivity = sql`coalesce(${devices.lastSyncDate}, ${devices.created})`;

function scopeCondition(scope: DeviceScope): SQL {
  const linkedInScope = and(isNotNull(organizationDevices.organizationId), orgScopeCondition(scope.orgs, organizationDevices.organizationId));
  if (!scope.unlinked) return linkedInScope ?? sql`false`;
  return or(linkedInScope, isNull(organizationDevices.organizationId)) ?? sql`false`;
}

function whereOf(scope: DeviceScope, f: DeviceFilters): SQL | undefined {
  return and(
    scopeCondition(scope),
    f.organizationId === undefined ? undefined : eq(organizationDevices.organizationId, f.organizationId),
    f.linked ? isNotNull(organizationDevices.organizationId) : undefined,
    f.unlinked ? isNull(organizationDevices.organizationId) : undefined,
    f.withActiveLink ? isNotNull(organizationDevices.id) : undefined,
    searchCondition(f.search, [devices.serialNumber]),
    f.serialNumber ? sql`${devices.serialNumber} ilike ${escapeLike(f.serialNumber)}` : undefined,
    f.silent === undefined ? undefined : f.silent.is ? lt(lastActivity, f.silent.cutoff) : gte(lastActivity, f.silent.cutoff),
    periodCondition(devices.created, f.created),
  );
}

function devicesWithLink(db: DbOrTx) {
  return db
    .select(deviceColumns)
    .from(devices)
    .leftJoin(organizationDevices, and(eq(organizationDevices.deviceId, devices.id), eq(organizationDevices.isActive, true)))
    .leftJoin(organizations, eq(organizations.id, organizationDevices.organizationId));
}

export async function listDevices(
  db: DbOrTx,
  scope: DeviceScope,
  filters: DeviceFilters,
  orderBy: SQL[],
  page: Pick<PageParams, 'limit' | 'offset'>,
): Promise<{ rows: DeviceRow[]; count: number }> {
  const where = whereOf(scope, filters);
  const [rows, [total]] = await Promise.all([
    devicesWithLink(db).where(where).orderBy(...orderBy).limit(page.limit).offset(page.offset),
    db
      .select({ count: count() })
      .from(devices)
      .leftJoin(organizationDevices, and(eq(organizationDevices.deviceId, devices.id), eq(organizationDevices.isActive, true)))
      .where(where),
  ]);
  return { rows, count: total?.count ?? 0 };
}

/**
 * One batch of the CSV: the next `limit` devices the filters select with an id below `beforeId`, newest first.
 * Keyset paging on the primary key: each batch is one short indexed query, so a long download never holds a
 * transaction (or PGlite's one connection) open, and rows cannot repeat or be skipped between batches.
 */
export async function listDeviceBatch(
  db: DbOrTx,
  scope: DeviceScope,
  filters: DeviceFilters,
  beforeId: number | null,
  limit: number,
): Promise<DeviceRow[]> {
  return devicesWithLink(db)
    .where(and(whereOf(scope, filters), beforeId === null ? undefined : lt(devices.id, beforeId)))
    .orderBy(desc(devices.id))
    .limit(limit);
}

export async function findDevice(db: DbOrTx, scope: DeviceScope, id: number): Promise<DeviceRow | null> {
  const [row] = await devicesWithLink(db)
    .where(and(eq(devices.id, id), scopeCondition(scope)))
    .limit(1);
  return row ?? null;
}

/** Whether another device already has this serial number (any case: 'ibe1' and 'IBE1' are one device). */
export async function hasDeviceWithSerial(db: DbOrTx, serialNumber: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(sql`lower(${devices.serialNumber}) = lower(${serialNumber})`, exceptId === undefined ? undefined : ne(devices.id, exceptId)))
    .limit(1);
  return row !== undefined;
}

export async function insertDevice(db: DbOrTx, values: { serialNumber: string; createdBy: number; at: Date }): Promise<number> {
  const [row] = await db
    .insert(devices)
    .values({ serialNumber: values.serialNumber, createdBy: values.createdBy, modifiedBy: values.createdBy, created: values.at, modified: values.at })
    .returning();
  if (!row) throw new Error('The device was not created.');
  return row.id;
}

export async function updateDeviceSerial(db: DbOrTx, id: number, values: { serialNumber: string; modifiedBy: number; at: Date }): Promise<void> {
  await db
    .update(devices)
    .set({ serialNumber: values.serialNumber, modifiedBy: values.modifiedBy, modified: values.at })
    .where(eq(devices.id, id));
}

// ---- Links ----------------------------------------------------------------------------------------------------

export type LinkRow = typeof organizationDevices.$inferSelect & { organizationName: string | null };

export async function findLink(db: DbOrTx, id: number): Promise<LinkRow | null> {
  const [row] = await db
    .select({ link: organizationDevices, organizationName: organizations.name })
    .from(organizationDevices)
    .leftJoin(organizations, eq(organizations.id, organizationDevices.organizationId))
    .where(eq(organizationDevices.id, id))
    .limit(1);
  return row ? { ...row.link, organizationName: row.organizationName } : null;
}

export async function findActiveLinkOf(db: DbOrTx, deviceId: number): Promise<LinkRow | null> {
  const [row] = await db
    .select({ link: organizationDevices, organizationName: organizations.name })
    .from(organizationDevices)
    .leftJoin(organizations, eq(organizations.id, organizationDevices.organizationId))
    .where(and(eq(organizationDevices.deviceId, deviceId), eq(organizationDevices.isActive, true)))
    .limit(1);
  return row ? { ...row.link, organizationName: row.organizationName } : null;
}

/** Ends the active link of a device (it stays as history). */
export async function endActiveLink(db: DbOrTx, deviceId: number, values: { modifiedBy: number; at: Date }): Promise<void> {
  await db
    .update(organizationDevices)
    .set({ isActive: false, endedAt: values.at, modifiedBy: values.modifiedBy, modified: values.at })
    .where(and(eq(organizationDevices.deviceId, deviceId), eq(organizationDevices.isActive, true)));
}

/** Opens the device's new active link (organization null = unassigned). End the old one first. */
export async function insertLink(
  db: DbOrTx,
  values: { deviceId: number; organizationId: number | null; createdBy: number; at: Date },
): Promise<number> {
  const [row] = await db
    .insert(organizationDevices)
    .values({
      deviceId: values.deviceId,
      organizationId: values.organizationId,
      isActive: true,
      createdBy: values.createdBy,
      modifiedBy: values.createdBy,
      created: values.at,
      modified: values.at,
    })
    .returning();
  if (!row) throw new Error('The link was not created.');
  return row.id;
}

/** Every firmware version on record (a small table): the latest is chosen in version order, not by date. */
export async function listFirmwareVersions(db: DbOrTx): Promise<string[]> {
  const rows = await db.select({ version: firmware.version }).from(firmware);
  return rows.map((r) => r.version);
}

/** A row of the report log (architecture §4: every CSV download is recorded). */
export async function insertReportLog(
  db: DbOrTx,
  values: { api: string; apiQp: Record<string, unknown>; userAgent: string | null; userId: number; userType: string; at: Date },
): Promise<void> {
  await db.insert(reportLogs).values({
    api: values.api,
    apiQp: values.apiQp,
    userAgent: values.userAgent,
    requestedMethod: 'GET',
    userId: values.userId,
    userType: values.userType,
    created: values.at,
  });
}
