// Drizzle queries of breast scans used by the scan service (uploads) and the webhook jobs.
import { and, asc, count, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { devices, organizations, patients, references, scans, users } from '../../db/schema/index.ts';

/** A transaction handed out by `db.transaction` (PGlite or node-postgres). */
export type { DbOrTx, Tx };

export type ScanRow = typeof scans.$inferSelect;
export type ScanInsert = typeof scans.$inferInsert;

/**
 * Serialises the uploads of one (device serial, local id) until the transaction ends: the read of its family and
 * the insert of a duplicate happen under it, so two different versions arriving together become two children, and
 * two identical ones one.
 */
export async function lockUploadKey(
  tx: DbOrTx,
  deviceSerialNumber: string,
  localDbId: string,
): Promise<void> {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(hashtextextended(${`scan-upload:${deviceSerialNumber}:${localDbId}`}, 0))`,
  );
}

/** The upload (parent_scan_id null) of (device serial, local id) and its duplicates, oldest first. */
export async function findUploadFamily(
  db: DbOrTx,
  deviceSerialNumber: string,
  localDbId: string,
): Promise<ScanRow[]> {
  const [original] = await db
    .select()
    .from(scans)
    .where(
      and(
        eq(scans.deviceSerialNumber, deviceSerialNumber),
        eq(scans.localDbId, localDbId),
        isNull(scans.parentScanId),
      ),
    )
    .limit(1);
  if (!original) return [];
  const children = await db
    .select()
    .from(scans)
    .where(eq(scans.parentScanId, original.id))
    .orderBy(asc(scans.id));
  return [original, ...children];
}

/**
 * Inserts a scan. An original upload (no parent) that loses a race with the same (device serial, local id)
 * returns null instead of failing on the unique index, so the caller can treat it as a duplicate.
 */
export async function insertScan(db: DbOrTx, values: ScanInsert): Promise<ScanRow | null> {
  const [row] = await db
    .insert(scans)
    .values(values)
    .onConflictDoNothing({
      target: [scans.deviceSerialNumber, scans.localDbId],
      where: sql`${scans.parentScanId} is null`,
    })
    .returning();
  return row ?? null;
}

export async function findOrganizationWebhook(
  db: DbOrTx,
  organizationId: number,
): Promise<{
  id: number;
  webhookUrl: string | null;
  webhookAuthToken: string | null;
  webhookSwitch: boolean;
} | null> {
  const [row] = await db
    .select({
      id: organizations.id,
      webhookUrl: organizations.webhookUrl,
      webhookAuthToken: organizations.webhookAuthToken,
      webhookSwitch: organizations.webhookSwitch,
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  return row ?? null;
}

/** "Last sync date" of the organization and of the device: the latest upload received. */
export async function touchLastSync(
  db: DbOrTx,
  at: Date,
  organizationId: number | null,
  deviceSerialNumber: string | null,
): Promise<void> {
  if (organizationId !== null) {
    await db
      .update(organizations)
      .set({ lastSyncDate: at })
      .where(
        and(
          eq(organizations.id, organizationId),
          or(isNull(organizations.lastSyncDate), sql`${organizations.lastSyncDate} < ${at.toISOString()}`),
        ),
      );
  }
  if (deviceSerialNumber) {
    await db
      .update(devices)
      .set({ lastSyncDate: at })
      .where(
        and(
          eq(devices.serialNumber, deviceSerialNumber),
          or(isNull(devices.lastSyncDate), sql`${devices.lastSyncDate} < ${at.toISOString()}`),
        ),
      );
  }
}

/** A scan with what its presentation needs: patient (and reference name), organization name, technician. */
export async function findScanForPresentation(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      scan: scans,
      patient: patients,
      referenceName: references.name,
      organizationName: organizations.name,
      technician: {
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        username: users.username,
      },
    })
    .from(scans)
    .leftJoin(patients, eq(patients.id, scans.patientId))
    .leftJoin(references, eq(references.id, patients.referenceId))
    .leftJoin(organizations, eq(organizations.id, scans.organizationId))
    .leftJoin(users, eq(users.id, scans.technicianId))
    .where(eq(scans.id, id))
    .limit(1);
  return row ?? null;
}
export type ScanForPresentation = NonNullable<Awaited<ReturnType<typeof findScanForPresentation>>>;

/** Webhooks carry programme scans only (training and practice scans are internal). */
const webhookScans = (organizationId: number, maxScanId: number) =>
  and(eq(scans.organizationId, organizationId), eq(scans.scanType, 'SCAN'), lte(scans.id, maxScanId));

export async function countWebhookScans(
  db: DbOrTx,
  organizationId: number,
  maxScanId: number,
): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(scans)
    .where(webhookScans(organizationId, maxScanId));
  return row?.count ?? 0;
}

/** The newest scan id now: a backfill covers scans up to it; later ones are sent by the upload itself. */
export async function findMaxScanId(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ max: sql<number | null>`max(${scans.id})` }).from(scans);
  return row?.max === null || row?.max === undefined ? 0 : Number(row.max);
}

/** One page of webhook scan ids after `afterId` (keyset, ascending). */
export async function listWebhookScanIds(
  db: DbOrTx,
  organizationId: number,
  afterId: number,
  maxScanId: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .select({ id: scans.id })
    .from(scans)
    .where(and(webhookScans(organizationId, maxScanId), gt(scans.id, afterId)))
    .orderBy(asc(scans.id))
    .limit(limit);
  return rows.map((r) => r.id);
}
