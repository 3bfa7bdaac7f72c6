// POST scan/ from a device (issue 8): the uploader's rules (role, organization, linked device, certification for
// SCAN), the patient of the organization, the scan's files (the caller's own uploads, each list in its folder),
// then storeScan (duplicates, last sync, webhook row) inside the idempotent transaction; the webhook job is queued
// after the commit by the one request that stored the scan. The device's firmware and hardware versions follow
// what it reports.
import { compareVersions } from '@sc/shared/devices';
import { todayIso } from '@sc/shared/patients';
import {
  SCAN_FILE_FOLDERS,
  SCAN_MESSAGES,
  SCAN_TIME_FUTURE_TOLERANCE_MS,
  SCAN_TIME_MIN,
  type TScanFileKind,
  type TScanUpload,
} from '@sc/shared/scans';
import { UPLOAD_MESSAGES } from '@sc/shared/uploads';
import { auditActor } from '../../services/audit.service.ts';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { fieldError } from '../../http/errors.ts';
import { findPatientOrganization } from '../patients/patients.queries.ts';
import {
  assertOwnFiles,
  assertScanTypeAllowed,
  invalidReference,
  resolveUploader,
  type FileReference,
  type Uploader,
} from '../uploads/device-uploader.ts';
import { runIdempotent, type IdempotentAnswer } from '../uploads/idempotency.ts';
import { updateDeviceVersions } from '../uploads/uploads.queries.ts';
import { presentScan } from './scans.presenter.ts';
import { findScanForPresentation } from './scans.queries.ts';
import { queueWebhookDelivery, storeScan, type CreateScanInput, type ScansContext } from './scans.service.ts';

export const SCAN_AUDIT_ACTIONS = { uploaded: 'scan.uploaded' } as const;

const FILE_KINDS = Object.keys(SCAN_FILE_FOLDERS) as TScanFileKind[];

/** What the scan stores: the upload's fields, with the organization, technician and device the server decided. */
function scanValues(input: TScanUpload, uploader: Uploader, actor: Actor): CreateScanInput {
  return {
    patientId: input.patient,
    organizationId: uploader.organizationId,
    technicianId: actor.id,
    // The registry's spelling: device scan counts and duplicates match on it whatever case the device sent.
    deviceSerialNumber: uploader.device.serialNumber,
    sensorSerialNumber: input.sensor_serial_number,
    tabletSerialNumber: input.tablet_serial_number,
    hardwareVersion: input.hardware_version,
    softwareVersion: input.software_version,
    dateTime: input.date_time,
    scanType: input.scan_type,
    breastType: input.breast_type,
    leftBreastFinding: input.left_breast_finding,
    rightBreastFinding: input.right_breast_finding,
    isSurvivor: input.is_survivor,
    hasFamilyHistory: input.has_family_history,
    hasSymptoms: input.has_symptoms,
    sendReportToPatient: input.send_report_to_patient,
    sentReportToPatient: input.sent_report_to_patient,
    isReplayAvailable: input.is_replay_available,
    nextAppointmentDate: input.next_appointment_date,
    underBust: input.under_bust,
    overBust: input.over_bust,
    latitude: input.latitude,
    longitude: input.longitude,
    assessmentResult: input.assessment_result,
    notes: input.notes,
    metadata: input.metadata,
    localDbId: input.local_db_id,
    scanFilesPath: input.scan_files_path,
  };
}

/** The device's firmware moves forward only (a late upload of an old scan does not roll it back). */
function reportedVersions(
  input: TScanUpload,
  uploader: Uploader,
): { softwareVersion?: string; hardwareVersion?: string } {
  const out: { softwareVersion?: string; hardwareVersion?: string } = {};
  const software = input.software_version;
  if (
    software &&
    (uploader.device.softwareVersion === null ||
      compareVersions(software, uploader.device.softwareVersion) > 0)
  ) {
    out.softwareVersion = software;
  }
  if (input.hardware_version && input.hardware_version !== uploader.device.hardwareVersion) {
    out.hardwareVersion = input.hardware_version;
  }
  return out;
}

export async function uploadScan(
  ctx: ScansContext,
  actor: Actor,
  input: TScanUpload,
  key: string,
  meta: RequestMeta,
): Promise<IdempotentAnswer> {
  const now = ctx.now();
  const time = input.date_time.getTime();
  if (time < Date.parse(SCAN_TIME_MIN) || time > now.getTime() + SCAN_TIME_FUTURE_TOLERANCE_MS) {
    throw fieldError('date_time', SCAN_MESSAGES.scanTime);
  }
  return runIdempotent(ctx, { userId: actor.id, key, endpoint: 'POST scan/', body: input }, async (tx) => {
    const uploader = await resolveUploader(tx, actor, input.device_serial_number);
    assertScanTypeAllowed(uploader.user, input.scan_type, todayIso(now));
    const patient = await findPatientOrganization(tx, input.patient);
    if (!patient || patient.organizationId !== uploader.organizationId)
      throw invalidReference('patient', input.patient);
    const files: FileReference[] = FILE_KINDS.flatMap((kind) =>
      input.scan_files_path[kind].map((f) => ({
        field: `scan_files_path.${kind}`,
        path: f.path,
        folder: SCAN_FILE_FOLDERS[kind],
      })),
    );
    await assertOwnFiles(tx, { userId: actor.id, organizationId: uploader.organizationId }, files);

    const stored = await storeScan(ctx, tx, scanValues(input, uploader, actor), { actorId: actor.id });
    await updateDeviceVersions(tx, uploader.device.id, reportedVersions(input, uploader));
    if (stored.created) {
      await ctx.services.audit.record(
        {
          action: SCAN_AUDIT_ACTIONS.uploaded,
          ...auditActor(actor, meta),
          targetType: 'scan',
          targetId: stored.scan.id,
          organizationId: uploader.organizationId,
          details: {
            organization: uploader.organizationId,
            device_serial_number: uploader.device.serialNumber,
            local_db_id: stored.scan.localDbId,
            scan_type: stored.scan.scanType,
            parent_scan_id: stored.scan.parentScanId,
            idempotency_key: key,
          },
        },
        tx,
      );
    }
    const presented = await findScanForPresentation(tx, stored.scan.id);
    if (!presented) throw new Error('The stored scan vanished.');
    const detail = !stored.created
      ? UPLOAD_MESSAGES.scanAlreadyStored
      : stored.scan.parentScanId !== null
        ? UPLOAD_MESSAGES.scanDuplicate
        : UPLOAD_MESSAGES.scanCreated;
    const deliveryIds = [stored.webhookDeliveryId, stored.followUpDeliveryId].filter((id): id is number => id !== null);
    return {
      status: stored.created ? 201 : 200,
      body: { ...presentScan(presented), detail },
      afterCommit: deliveryIds.length
        ? async () => {
            for (const id of deliveryIds) await queueWebhookDelivery(ctx, id);
          }
        : undefined,
    };
  });
}
