// POST cervaical/ and POST orca/ from a device (issue 10): the breast upload's rules (who may upload from which
// device, the patient of the organization, the caller's own files in their folders, the Idempotency-Key), then the
// exam is stored and one licence of its application is taken from the organization IN THE SAME TRANSACTION
// (`UPDATE … SET count = count - 1 WHERE count > 0 RETURNING`), with a licence log row and audit rows. No licence
// left: 403 with the reason, and the transaction (exam, files named, idempotency claim) rolls back. A new ORCA exam
// with a finding that has a symptom opens (or joins) its patient's follow-up case in the same transaction (issue 26).
import {
  EXAM_FILE_FOLDERS,
  EXAM_UPLOAD_MESSAGES,
  type TCervicalUpload,
  type TExamApplication,
  type TExamUploadSaved,
  type TOrcaUpload,
} from '@sc/shared/exam-uploads';
import { isOralScreenPositive } from '@sc/shared/follow-up';
import { LICENCE_MESSAGES } from '@sc/shared/licences';
import { SCAN_TIME_FUTURE_TOLERANCE_MS, SCAN_TIME_MIN, SCAN_MESSAGES } from '@sc/shared/scans';
import type { AppContext } from '../../app.ts';
import type { Tx } from '../../db/client.ts';
import { auditActor, auditChanges } from '../../services/audit.service.ts';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import { LICENCE_AUDIT } from '../licences/licences.service.ts';
import { openOrJoinCase } from '../follow-up/follow-up-opening.ts';
import { consumeLicence, hasActiveLicenceCode, insertLicenceLog } from '../licences/licences.queries.ts';
import { findPatientOrganization } from '../patients/patients.queries.ts';
import { queueWebhookDelivery } from '../scans/scans.service.ts';
import {
  assertOwnFiles,
  invalidReference,
  resolveUploader,
  type FileReference,
  type Uploader,
} from '../uploads/device-uploader.ts';
import { canonicalJson, runIdempotent, type IdempotentAnswer } from '../uploads/idempotency.ts';
import * as q from './exam-uploads.queries.ts';

export type ExamUploadsContext = Pick<AppContext, 'database' | 'services' | 'now'>;

export const EXAM_UPLOAD_AUDIT = { CERVAICAL: 'cervical.uploaded', ORCA: 'orca.uploaded' } as const;

type ExamUploadCommon = Pick<
  TCervicalUpload,
  'patient' | 'device_serial_number' | 'local_db_id' | 'date_time' | 'file_path'
>;

/** What differs between the two kinds of exam; the flow around it is `uploadExam`. */
type ExamKind<T extends ExamUploadCommon> = {
  application: TExamApplication;
  endpoint: string;
  created: string;
  licenseCode: string | null;
  extraFiles: (input: T) => FileReference[];
  insert: (tx: Tx, input: T, uploader: Uploader, actor: Actor, at: Date) => Promise<q.StoredExam | null>;
  find: (tx: Tx, serial: string, localDbId: string) => Promise<q.StoredExam | null>;
  /** Whether the new exam is screen-positive on upload (ORCA); a cervical exam is read later, by its reviewers. */
  screenPositive?: (input: T) => boolean;
};

function fileRefs(input: ExamUploadCommon): FileReference[] {
  return (['reports', 'consent_form'] as const).flatMap((kind) =>
    input.file_path[kind].map((f) => ({
      field: `file_path.${kind}`,
      path: f.path,
      folder: EXAM_FILE_FOLDERS[kind],
    })),
  );
}

/** The same exam again (a retry under a new key): same patient, time, technician and files. */
function isSameExam(stored: q.StoredExam, input: ExamUploadCommon, actor: Actor): boolean {
  return (
    stored.patientId === input.patient &&
    stored.technicianId === actor.id &&
    stored.dateTime.getTime() === input.date_time.getTime() &&
    canonicalJson(stored.filePath) === canonicalJson(input.file_path)
  );
}

function present(
  application: TExamApplication,
  exam: q.StoredExam,
  left: number | null,
  detail: string,
): TExamUploadSaved {
  return {
    id: exam.id,
    application,
    patient: exam.patientId,
    organization: exam.organizationId,
    technician: exam.technicianId,
    device_serial_number: exam.deviceSerialNumber,
    local_db_id: exam.localDbId,
    date_time: exam.dateTime.toISOString(),
    created: exam.created.toISOString(),
    license_id: exam.licenseId,
    licence_code: exam.licenceCode,
    current_report_count: exam.currentReportCount,
    licenses_left: left,
    detail,
  };
}

async function uploadExam<T extends ExamUploadCommon>(
  ctx: ExamUploadsContext,
  actor: Actor,
  input: T,
  key: string,
  meta: RequestMeta,
  kind: ExamKind<T>,
): Promise<IdempotentAnswer> {
  const now = ctx.now();
  const time = input.date_time.getTime();
  if (time < Date.parse(SCAN_TIME_MIN) || time > now.getTime() + SCAN_TIME_FUTURE_TOLERANCE_MS) {
    throw fieldError('date_time', SCAN_MESSAGES.scanTime);
  }
  return runIdempotent(ctx, { userId: actor.id, key, endpoint: kind.endpoint, body: input }, async (tx) => {
    const uploader = await resolveUploader(tx, actor, input.device_serial_number);
    const patient = await findPatientOrganization(tx, input.patient);
    if (!patient || patient.organizationId !== uploader.organizationId)
      throw invalidReference('patient', input.patient);
    await assertOwnFiles(tx, { userId: actor.id, organizationId: uploader.organizationId }, [
      ...fileRefs(input),
      ...kind.extraFiles(input),
    ]);
    if (
      kind.licenseCode !== null &&
      !(await hasActiveLicenceCode(tx, uploader.organizationId, kind.application, kind.licenseCode))
    ) {
      throw fieldError('license_code', LICENCE_MESSAGES.unknownCode(kind.application));
    }

    const exam = await kind.insert(tx, input, uploader, actor, now);
    if (!exam) {
      // (device, local_db_id) is taken: the same exam again answers the stored one and takes no licence.
      const stored = await kind.find(tx, uploader.device.serialNumber, input.local_db_id);
      if (!stored || !isSameExam(stored, input, actor)) {
        throw fieldError('local_db_id', EXAM_UPLOAD_MESSAGES.storedDifferently);
      }
      const left = await q.countLicencesLeft(tx, uploader.organizationId, kind.application);
      return {
        status: 200,
        body: present(kind.application, stored, left, EXAM_UPLOAD_MESSAGES.alreadyStored),
      };
    }

    const licence = await consumeLicence(tx, {
      organizationId: uploader.organizationId,
      application: kind.application,
      licenseCode: kind.licenseCode,
      at: now,
    });
    // Thrown inside the transaction: the exam inserted above and the key's claim roll back with it.
    if (!licence) throw new AppError('forbidden', LICENCE_MESSAGES.noneLeft(kind.application));
    await insertLicenceLog(tx, {
      licenseId: licence.id,
      beforeCount: licence.before,
      afterCount: licence.after,
      by: actor.id,
      at: now,
    });
    // The licence's report counter with this one: how many of its licences are used (an ORCA exam keeps it).
    const used = licence.total - licence.after;
    const stored =
      kind.application === 'ORCA'
        ? { ...exam, licenseId: licence.id, licenceCode: licence.licenseCode, currentReportCount: used }
        : exam;
    if (kind.application === 'ORCA') {
      await q.setOrcaLicence(tx, exam.id, { id: licence.id, code: licence.licenseCode, used });
    }
    const common = { ...auditActor(actor, meta), organizationId: uploader.organizationId };
    await ctx.services.audit.record(
      {
        ...common,
        action: EXAM_UPLOAD_AUDIT[kind.application],
        targetType: kind.application === 'ORCA' ? 'orca_exam' : 'cervical_exam',
        targetId: exam.id,
        details: {
          organization: uploader.organizationId,
          device_serial_number: uploader.device.serialNumber,
          local_db_id: exam.localDbId,
          licence: licence.id,
          idempotency_key: key,
        },
      },
      tx,
    );
    await ctx.services.audit.record(
      {
        ...common,
        action: LICENCE_AUDIT.consumed,
        targetType: 'licence',
        targetId: licence.id,
        details: {
          application: kind.application,
          exam: exam.id,
          before_count: licence.before,
          after_count: licence.after,
        },
        changes: auditChanges({ count: licence.before }, { count: licence.after }),
      },
      tx,
    );
    let followUpDeliveryId: number | null = null;
    if (kind.screenPositive?.(input) && exam.patientId !== null) {
      const opening = await openOrJoinCase(
        tx,
        { kind: 'ORCA', sourceId: exam.id, patientId: exam.patientId, screenedAt: exam.dateTime },
        { now, actorId: actor.id },
      );
      followUpDeliveryId = opening.webhookDeliveryId;
    }
    const left = await q.countLicencesLeft(tx, uploader.organizationId, kind.application);
    const deliveryId = followUpDeliveryId;
    return {
      status: 201,
      body: present(kind.application, stored, left, kind.created),
      afterCommit: deliveryId === null ? undefined : () => queueWebhookDelivery(ctx, deliveryId),
    };
  });
}

/** The columns every exam takes from the upload and from the server's decisions. */
function examValues(input: TCervicalUpload | TOrcaUpload, uploader: Uploader, actor: Actor, at: Date) {
  return {
    patientId: input.patient,
    organizationId: uploader.organizationId,
    technicianId: actor.id,
    // The registry's spelling: duplicates match on it whatever case the device sent.
    deviceSerialNumber: uploader.device.serialNumber,
    sensorSerialNumber: input.sensor_serial_number,
    tabletSerialNumber: input.tablet_serial_number,
    hardwareVersion: input.hardware_version,
    softwareVersion: input.software_version,
    dateTime: input.date_time,
    isSurvivor: input.is_survivor,
    hasFamilyHistory: input.has_family_history,
    hasSymptoms: input.has_symptoms,
    underBust: input.under_bust,
    overBust: input.over_bust,
    latitude: input.latitude,
    longitude: input.longitude,
    localDbId: input.local_db_id,
    metadata: input.metadata,
    filePath: input.file_path,
    created: at,
    modified: at,
    createdBy: actor.id,
    modifiedBy: actor.id,
  };
}

export function uploadCervicalExam(
  ctx: ExamUploadsContext,
  actor: Actor,
  input: TCervicalUpload,
  key: string,
  meta: RequestMeta,
): Promise<IdempotentAnswer> {
  return uploadExam(ctx, actor, input, key, meta, {
    application: 'CERVAICAL',
    endpoint: 'POST cervaical/',
    created: EXAM_UPLOAD_MESSAGES.cervicalCreated,
    licenseCode: null,
    extraFiles: (i) =>
      i.documents.map((d) => ({ field: 'documents', path: d.path, folder: EXAM_FILE_FOLDERS.documents })),
    insert: (tx, i, uploader, a, at) =>
      q.insertCervicalExam(
        tx,
        {
          ...examValues(i, uploader, a, at),
          breastType: i.breast_type,
          leftBreastFinding: i.left_breast_finding,
          rightBreastFinding: i.right_breast_finding,
          notes: i.notes,
        },
        i.documents.map((d) => ({
          path: d.path,
          documentType: d.document_type,
          symptomTag: d.symptom_tag,
          created: at,
          modified: at,
        })),
      ),
    find: q.findCervicalExam,
  });
}

export function uploadOrcaExam(
  ctx: ExamUploadsContext,
  actor: Actor,
  input: TOrcaUpload,
  key: string,
  meta: RequestMeta,
): Promise<IdempotentAnswer> {
  return uploadExam(ctx, actor, input, key, meta, {
    application: 'ORCA',
    endpoint: 'POST orca/',
    created: EXAM_UPLOAD_MESSAGES.orcaCreated,
    licenseCode: input.license_code,
    screenPositive: (i) => isOralScreenPositive(i.findings),
    extraFiles: (i) =>
      i.findings.flatMap((f, n) =>
        f.path === null
          ? []
          : [{ field: `findings.${n}.path`, path: f.path, folder: EXAM_FILE_FOLDERS.findings }],
      ),
    insert: (tx, i, uploader, a, at) => {
      const h = i.case_history;
      return q.insertOrcaExam(
        tx,
        { ...examValues(i, uploader, a, at), cancerHistory: i.cancer_history },
        h && {
          consumesAlcohol: h.consumes_alcohol,
          alcoholUsageLastYear: h.alcohol_usage_last_year,
          consumesOtherSubstance: h.consumes_other_substance,
          otherSubstanceConsumed: h.other_substance_consumed,
          hasHypertension: h.has_hypertension,
          hadHeartAttack: h.had_heart_attack,
          hasAsthmaBronchitis: h.has_asthma_bronchitis,
          hasDiabetes: h.has_diabetes,
          hasStroke: h.has_stroke,
          usesTobacco: h.uses_tobacco,
          consumesSmokingTobacco: h.consumes_smoking_tobacco,
          smokingTobaccoType: h.smoking_tobacco_type,
          smokingTobaccoUsageFrequency: h.smoking_tobacco_usage_frequency,
          smokingHistoryTimeMonths: h.smoking_history_time_months,
          smokesPerUnit: h.smokes_per_unit,
          smokeCountUnit: h.smoke_count_unit,
          smokingQuitMonthsAgo: h.smoking_quit_months_ago,
          consumesSmokelessTobacco: h.consumes_smokeless_tobacco,
          smokelessTobaccoType: h.smokeless_tobacco_type,
          smokelessTobaccoUsageFrequency: h.smokeless_tobacco_usage_frequency,
          smokelessHistoryTimeMonths: h.smokeless_history_time_months,
          smokelessPacketsCountUnit: h.smokeless_packets_count_unit,
          smokelessPacketsDurationUnit: h.smokeless_packets_duration_unit,
          smokelessQuitMonthsAgo: h.smokeless_quit_months_ago,
          created: at,
          modified: at,
        },
        i.findings.map((f) => ({
          exam: f.exam,
          part: f.part,
          subPart: f.sub_part,
          index: f.index,
          symptoms: f.symptoms,
          path: f.path,
          created: at,
          modified: at,
        })),
      );
    },
    find: q.findOrcaExam,
  });
}
