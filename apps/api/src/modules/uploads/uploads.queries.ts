// Drizzle queries of device uploads: the uploading user, the device and its active link, the caller's uploaded
// files, and the idempotency keys. Every function takes the transaction of the upload (or the database).
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  devices,
  files,
  idempotencyKeys,
  organizationDevices,
  organizations,
  users,
} from '../../db/schema/index.ts';

export type UploaderUser = {
  id: number;
  firstName: string;
  lastName: string;
  username: string;
  email: string | null;
  mobile: string | null;
  mobileCountryCode: string | null;
  userType: (typeof users.$inferSelect)['userType'];
  isTrainer: boolean;
  organizationId: number | null;
  organizationName: string | null;
  ibeTrainingStatus: (typeof users.$inferSelect)['ibeTrainingStatus'];
  certificateIssueDate: string | null;
  certificateExpiryDate: string | null;
  pinResetRequest: boolean;
};

export async function findUploaderUser(db: DbOrTx, id: number): Promise<UploaderUser | null> {
  const [row] = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      email: users.email,
      mobile: users.mobile,
      mobileCountryCode: users.mobileCountryCode,
      userType: users.userType,
      isTrainer: users.isTrainer,
      organizationId: users.organizationId,
      organizationName: organizations.name,
      ibeTrainingStatus: users.ibeTrainingStatus,
      certificateIssueDate: users.certificateIssueDate,
      certificateExpiryDate: users.certificateExpiryDate,
      pinResetRequest: users.pinResetRequest,
    })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(eq(users.id, id))
    .limit(1);
  return row ?? null;
}

export type DeviceWithLink = {
  id: number;
  serialNumber: string;
  softwareVersion: string | null;
  hardwareVersion: string | null;
  /** The organization of the device's active link; null when unlinked or unassigned. */
  organizationId: number | null;
};

/** The registered device with this serial number (without regard to case, as the registry is unique). */
export async function findDeviceWithLink(db: DbOrTx, serialNumber: string): Promise<DeviceWithLink | null> {
  const [row] = await db
    .select({
      id: devices.id,
      serialNumber: devices.serialNumber,
      softwareVersion: devices.softwareVersion,
      hardwareVersion: devices.hardwareVersion,
      organizationId: organizationDevices.organizationId,
    })
    .from(devices)
    .leftJoin(
      organizationDevices,
      and(eq(organizationDevices.deviceId, devices.id), eq(organizationDevices.isActive, true)),
    )
    .where(sql`lower(${devices.serialNumber}) = lower(${serialNumber})`)
    .limit(1);
  return row ?? null;
}

/** What the device reported with an upload: the firmware it runs and its hardware version. */
export async function updateDeviceVersions(
  db: DbOrTx,
  id: number,
  values: { softwareVersion?: string; hardwareVersion?: string },
): Promise<void> {
  if (values.softwareVersion === undefined && values.hardwareVersion === undefined) return;
  await db.update(devices).set(values).where(eq(devices.id, id));
}

export type UploadedFileRow = Pick<
  typeof files.$inferSelect,
  'path' | 'folder' | 'userId' | 'organizationId'
>;

export async function findFilesByPath(db: DbOrTx, paths: readonly string[]): Promise<UploadedFileRow[]> {
  if (paths.length === 0) return [];
  return db
    .select({
      path: files.path,
      folder: files.folder,
      userId: files.userId,
      organizationId: files.organizationId,
    })
    .from(files)
    .where(inArray(files.path, [...paths]));
}

// ---- Idempotency keys ------------------------------------------------------------------------------------------

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

/**
 * Claims (user, key) for this request: the row's id, or null when the key is already taken. A concurrent claim of
 * the same key waits here until the first transaction ends (the unique index), then answers null (committed) or
 * takes the key (rolled back).
 */
export async function claimIdempotencyKey(
  db: DbOrTx,
  values: { userId: number; key: string; endpoint: string; requestHash: string; created: Date },
): Promise<number | null> {
  const [row] = await db
    .insert(idempotencyKeys)
    .values(values)
    .onConflictDoNothing({ target: [idempotencyKeys.userId, idempotencyKeys.key] })
    .returning();
  return row?.id ?? null;
}

export async function findIdempotencyKey(
  db: DbOrTx,
  userId: number,
  key: string,
): Promise<IdempotencyKeyRow | null> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return row ?? null;
}

export async function storeIdempotentResponse(
  db: DbOrTx,
  id: number,
  statusCode: number,
  response: Record<string, unknown>,
): Promise<void> {
  await db.update(idempotencyKeys).set({ statusCode, response }).where(eq(idempotencyKeys.id, id));
}

/** Deletes up to `limit` keys created before `before`; answers how many went. */
export async function deleteIdempotencyKeysBefore(db: DbOrTx, before: Date, limit: number): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(
      inArray(
        idempotencyKeys.id,
        db
          .select({ id: idempotencyKeys.id })
          .from(idempotencyKeys)
          .where(lt(idempotencyKeys.created, before))
          .limit(limit),
      ),
    )
    .returning();
  return rows.length;
}
