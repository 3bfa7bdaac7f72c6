// Storing a breast scan: the use case the device upload API (scan-uploads.service.ts) calls, applying architecture §7:
// - duplicates: the same (device serial, local_db_id) again with identical content returns the stored scan
//   (nothing changes); with different content it is stored as a child of the first upload (parent_scan_id);
// - positive: a finding on either side (`is_positive`, a generated column, so no writer can get it wrong);
// - webhooks: a new SCAN of an organization whose webhook is on gets a delivery row in the same transaction,
//   and its job is queued after the commit (STYLE "Jobs"). Training, practice and pre-training scans are the
//   technician's internal certification work and never leave the system through a webhook.
// - follow-up: a new positive SCAN opens its patient's follow-up case or joins the active one (issue 26), in the
//   same transaction; the case's webhook event is queued after the commit like the scan's.
import { isDeepStrictEqual } from 'node:util';
import type { AppContext } from '../../app.ts';
import { webhookDeliveryJob } from '../../jobs/webhook-delivery.job.ts';
import { enqueue } from '../../services/queue/job.ts';
import { openOrJoinCase } from '../follow-up/follow-up-opening.ts';
import { insertDeliveries } from '../organizations/organization-webhooks.queries.ts';
import {
  findOrganizationWebhook,
  findUploadFamily,
  insertScan,
  lockUploadKey,
  touchLastSync,
  type DbOrTx,
  type Tx,
  type ScanInsert,
  type ScanRow,
} from './scans.queries.ts';

export type ScansContext = Pick<AppContext, 'config' | 'database' | 'services' | 'now'>;

/** What an upload sets; ids, parent, timestamps and the computed columns are the server's. */
export type CreateScanInput = Omit<
  ScanInsert,
  'id' | 'parentScanId' | 'created' | 'modified' | 'createdBy' | 'modifiedBy'
>;

export type CreateScanResult = {
  scan: ScanRow;
  /** False when an identical upload was already stored: `scan` is that stored scan. */
  created: boolean;
  /** The webhook delivery queued for this scan, if any. */
  webhookDeliveryId: number | null;
  /** The webhook delivery of the follow-up case this scan opened, if any (queued after the commit too). */
  followUpDeliveryId: number | null;
};

/** Column defaults, so an upload that omits a field compares equal to a stored row holding its default. */
const CONTENT_DEFAULTS = {
  scanType: 'SCAN',
  isReplayAvailable: false,
  scanFilesPath: {},
  assessmentResult: 'NO_ASSESSMENT',
  trainingScanObservation: {},
  leftBreastFinding: [],
  rightBreastFinding: [],
  notes: {},
  sendReportToPatient: false,
  sentReportToPatient: false,
  isSurvivor: false,
  hasFamilyHistory: false,
  hasSymptoms: false,
  metadata: {},
} satisfies Partial<Record<keyof CreateScanInput, unknown>>;

/** The fields that make up an upload's content (everything the device sends). */
const CONTENT_KEYS = [
  'patientId',
  'organizationId',
  'technicianId',
  'deviceSerialNumber',
  'sensorSerialNumber',
  'tabletSerialNumber',
  'hardwareVersion',
  'softwareVersion',
  'dateTime',
  'isSurvivor',
  'hasFamilyHistory',
  'hasSymptoms',
  'underBust',
  'overBust',
  'latitude',
  'longitude',
  'localDbId',
  'metadata',
  'scanType',
  'isReplayAvailable',
  'scanFilesPath',
  'assessmentResult',
  'assessmentApproved',
  'trainingScanObservation',
  'breastType',
  'leftBreastFinding',
  'rightBreastFinding',
  'notes',
  'sendReportToPatient',
  'sentReportToPatient',
  'nextAppointmentDate',
] as const satisfies ReadonlyArray<keyof CreateScanInput & keyof ScanRow>;

function normalize(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, normalize(v)]),
    );
  }
  return value;
}

function contentValue(
  source: Partial<Record<(typeof CONTENT_KEYS)[number], unknown>>,
  key: (typeof CONTENT_KEYS)[number],
) {
  const value = source[key];
  if (value === undefined || value === null) {
    return normalize(key in CONTENT_DEFAULTS ? CONTENT_DEFAULTS[key as keyof typeof CONTENT_DEFAULTS] : null);
  }
  if (key === 'dateTime') return new Date(value as Date | string).toISOString();
  return normalize(value);
}

/** Whether a stored scan holds exactly what `input` uploads (architecture §7 duplicates). */
export function isSameScanContent(stored: ScanRow, input: CreateScanInput): boolean {
  return CONTENT_KEYS.every((key) => isDeepStrictEqual(contentValue(stored, key), contentValue(input, key)));
}

/**
 * Stores an uploaded scan, or returns the stored one when it is an identical re-upload. Updates the
 * organization's (and device's) last sync date. A new SCAN of an organization with its webhook on and a URL is
 * queued for delivery once the transaction has committed; a failure to queue is logged (the webhook sweep queues
 * it later), never the upload's.
 */
export async function createScan(
  ctx: ScansContext,
  input: CreateScanInput,
  opts: { actorId?: number | null } = {},
): Promise<CreateScanResult> {
  const result = await ctx.database.db.transaction((tx) => storeScan(ctx, tx, input, opts));
  if (result.webhookDeliveryId !== null) await queueWebhookDelivery(ctx, result.webhookDeliveryId);
  if (result.followUpDeliveryId !== null) await queueWebhookDelivery(ctx, result.followUpDeliveryId);
  return result;
}

/**
 * The part of `createScan` that runs inside the caller's transaction (the device upload stores its idempotency
 * key in the same one). The caller queues `webhookDeliveryId` and `followUpDeliveryId` with `queueWebhookDelivery`
 * after the commit.
 */
export async function storeScan(
  ctx: Pick<ScansContext, 'now'>,
  tx: Tx,
  input: CreateScanInput,
  opts: { actorId?: number | null } = {},
): Promise<CreateScanResult> {
  const at = ctx.now();
  const values: ScanInsert = { ...input, createdBy: opts.actorId ?? null, created: at, modified: at };
  const stored = await storeUpload(tx, input, values);
  await touchLastSync(tx, at, input.organizationId ?? null, input.deviceSerialNumber ?? null);
  let webhookDeliveryId: number | null = null;
  if (stored.created && stored.scan.scanType === 'SCAN' && stored.scan.organizationId !== null) {
    const org = await findOrganizationWebhook(tx, stored.scan.organizationId);
    if (org?.webhookSwitch && org.webhookUrl) {
      const [delivery] = await insertDeliveries(tx, [
        { organizationId: org.id, scanId: stored.scan.id, url: org.webhookUrl, created: at },
      ]);
      webhookDeliveryId = delivery?.id ?? null;
    }
  }
  let followUpDeliveryId: number | null = null;
  // A breast SCAN with a finding on either side (is_positive, computed by the database) is a screen positive.
  if (stored.created && stored.scan.scanType === 'SCAN' && stored.scan.isPositive && stored.scan.patientId !== null) {
    const opening = await openOrJoinCase(
      tx,
      { kind: 'SCAN', sourceId: stored.scan.id, patientId: stored.scan.patientId, screenedAt: stored.scan.dateTime },
      { now: at, actorId: opts.actorId ?? null },
    );
    followUpDeliveryId = opening.webhookDeliveryId;
  }
  return { ...stored, webhookDeliveryId, followUpDeliveryId };
}

/** Queues the delivery job of a committed webhook delivery row; a failure is logged, the sweep re-queues it. */
export async function queueWebhookDelivery(ctx: Pick<ScansContext, 'services'>, deliveryId: number): Promise<void> {
  try {
    await enqueue(ctx.services.queue, webhookDeliveryJob, { delivery_id: deliveryId, attempt: 1 });
  } catch (err) {
    // The scan and its pending delivery row are stored; only the job is missing. The webhook sweep queues it
    // once the row is older than its grace period.
    ctx.services.log.error(
      { deliveryId, error: err instanceof Error ? err.message : String(err) },
      'webhook delivery could not be queued',
    );
  }
}

async function storeUpload(
  tx: DbOrTx,
  input: CreateScanInput,
  values: ScanInsert,
): Promise<{ scan: ScanRow; created: boolean }> {
  const serial = input.deviceSerialNumber;
  const localId = input.localDbId;
  if (!serial || !localId) {
    // Without both halves of the key an upload cannot be recognised again: always a new scan.
    const row = await insertScan(tx, values);
    if (!row) throw new Error('The scan was not stored.');
    return { scan: row, created: true };
  }
  // Uploads of this key wait for each other here, so the family read below is not stale when we insert.
  await lockUploadKey(tx, serial, localId);
  // Two tries: should a first upload of the same key still slip in (it cannot while the lock is held), our insert
  // is a no-op and the second read sees it.
  for (let attempt = 0; attempt < 2; attempt++) {
    const family = await findUploadFamily(tx, serial, localId);
    const original = family[0];
    if (original) {
      const same = family.find((s) => isSameScanContent(s, input));
      if (same) return { scan: same, created: false };
      const child = await insertScan(tx, { ...values, parentScanId: original.id });
      if (!child) throw new Error('The scan was not stored.');
      return { scan: child, created: true };
    }
    const row = await insertScan(tx, values);
    if (row) return { scan: row, created: true };
  }
  throw new Error('The scan upload conflicted with a concurrent upload; try again.');
}
