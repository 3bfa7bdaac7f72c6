// Cervical exams as the API shows them (part 3 §3), in snake_case, through the caller's blinding: a
// CERVAICAL_REVIEWER who may still review an exam sees neither the other reviewer's status nor their answers.
import {
  REVIEWER_STATUS_LABELS,
  reviewerSeesOthers,
  type TCervicalDetail,
  type TCervicalDocument,
  type TCervicalRow,
  type TDocumentUser,
  type TReviewerStatus,
} from '@sc/shared/cervical';
import { csvNotes } from '@sc/shared/scans';
import type { Viewer } from './cervical.queries.ts';
import type { CervicalRowData, ReviewWithUser } from './cervical.queries.ts';
import type { cervicalDocuments } from '../../db/schema/index.ts';
import type { Actor } from '../../http/actor.ts';

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
type Person = { id: number | null; firstName: string | null; lastName: string | null } | null;
const personOf = (p: Person) =>
  p && p.id !== null ? { id: p.id, first_name: p.firstName ?? '', last_name: p.lastName ?? '' } : null;

type SlotFacts = {
  reviewer_one_id: number | null;
  reviewer_one_status: TReviewerStatus;
  reviewer_two_id: number | null;
  reviewer_two_status: TReviewerStatus;
};
const slotFacts = (exam: CervicalRowData['exam']): SlotFacts => ({
  reviewer_one_id: exam.reviewerOneId,
  reviewer_one_status: exam.reviewerOneStatus,
  reviewer_two_id: exam.reviewerTwoId,
  reviewer_two_status: exam.reviewerTwoStatus,
});

/** Whose blinding the caller reads through: a CERVAICAL_REVIEWER's own; other roles see every status. */
export const viewerOf = (actor: Pick<Actor, 'id' | 'userType'>): Viewer => ({
  reviewerId: actor.userType === 'CERVAICAL_REVIEWER' ? actor.id : null,
});

/** True when this viewer must not see the answers of `userId` on the exam. */
export function hiddenFrom(viewer: Viewer, slots: SlotFacts, userId: number): boolean {
  if (viewer.reviewerId === null || userId === viewer.reviewerId) return false;
  return !reviewerSeesOthers(viewer.reviewerId, slots);
}

export function presentCervicalRow(row: CervicalRowData, viewer: Viewer): TCervicalRow {
  const { exam, patient } = row;
  const slots = slotFacts(exam);
  const hideOne = exam.reviewerOneId !== null && hiddenFrom(viewer, slots, exam.reviewerOneId);
  const hideTwo = exam.reviewerTwoId !== null && hiddenFrom(viewer, slots, exam.reviewerTwoId);
  const one = hideOne ? null : exam.reviewerOneStatus;
  const two = hideTwo ? null : exam.reviewerTwoStatus;
  const technician = personOf(row.technician);
  return {
    id: exam.id,
    patient: patient
      ? {
          id: patient.id,
          first_name: patient.firstName,
          last_name: patient.lastName,
          age: patient.age,
          date_of_birth: patient.dateOfBirth,
          mobile_country_code: patient.mobileCountryCode,
          mobile: patient.mobile,
          email: patient.email,
          physician_name: patient.physicianName,
          physician_email: patient.physicianEmail,
          created: iso(patient.created),
          gender: patient.gender,
        }
      : null,
    organization_data:
      exam.organizationId !== null && row.organizationName !== null
        ? { id: exam.organizationId, name: row.organizationName }
        : null,
    technician_data: technician,
    technician_name: technician ? `${technician.first_name} ${technician.last_name}`.trim() : null,
    date_time: exam.dateTime.toISOString(),
    created: exam.created.toISOString(),
    breast_type: exam.breastType,
    left_breast_finding: exam.leftBreastFinding,
    right_breast_finding: exam.rightBreastFinding,
    is_positive: exam.leftBreastFinding.length > 0 || exam.rightBreastFinding.length > 0,
    notes: { message: exam.notes.message ?? null },
    is_survivor: exam.isSurvivor,
    has_family_history: exam.hasFamilyHistory,
    has_symptoms: exam.hasSymptoms,
    device_serial_number: exam.deviceSerialNumber,
    device_id: row.deviceId,
    sensor_serial_number: exam.sensorSerialNumber,
    software_version: exam.softwareVersion,
    reviewer_one: personOf(row.reviewerOne),
    reviewer_one_status: one,
    reviewer_two: personOf(row.reviewerTwo),
    reviewer_two_status: two,
    blinded: hideOne || hideTwo,
    disagreement:
      one !== null && two !== null && one !== 'NOT_REVIEWED' && two !== 'NOT_REVIEWED' && one !== two,
    adjudication:
      exam.finalStatus && exam.adjudicatedAt
        ? {
            final_status: exam.finalStatus,
            note: exam.adjudicationNote,
            user_data: personOf(row.adjudicator),
            at: exam.adjudicatedAt.toISOString(),
          }
        : null,
    file_path: {
      reports: exam.filePath.reports ?? [],
      consent_form: exam.filePath.consent_form ?? [],
    },
  };
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function presentCervicalDetail(row: CervicalRowData, viewer: Viewer): TCervicalDetail {
  const device = (row.exam.metadata.device ?? {}) as Record<string, unknown>;
  return {
    ...presentCervicalRow(row, viewer),
    tablet_serial_number: row.exam.tabletSerialNumber,
    hardware_version: row.exam.hardwareVersion,
    latitude: row.exam.latitude,
    longitude: row.exam.longitude,
    metadata: {
      device: {
        device_model: text(device.device_model),
        manufacturer: text(device.manufacturer),
        os_version: text(device.os_version),
      },
    },
  };
}

export function presentReview(r: ReviewWithUser, slots: SlotFacts): TDocumentUser {
  const { review } = r;
  return {
    id: review.id,
    user: review.userId,
    user_data: personOf(r.user),
    reviewer:
      review.userId === slots.reviewer_one_id ? 1 : review.userId === slots.reviewer_two_id ? 2 : null,
    review_status: review.reviewStatus,
    review_status_at: review.reviewStatusAt.toISOString(),
    qualities: review.qualities,
    clinical_finding: review.clinicalFinding,
  };
}

/** A document with the reviews this viewer may see. */
export function presentDocument(
  doc: typeof cervicalDocuments.$inferSelect,
  reviews: readonly ReviewWithUser[],
  exam: CervicalRowData['exam'],
  viewer: Viewer,
): TCervicalDocument {
  const slots = slotFacts(exam);
  const mine = reviews.filter((r) => r.review.documentId === doc.id);
  return {
    id: doc.id,
    scan: doc.examId,
    path: doc.path,
    document_type: doc.documentType,
    symptom_tag: doc.symptomTag,
    documentusers: mine
      .filter((r) => !hiddenFrom(viewer, slots, r.review.userId))
      .map((r) => presentReview(r, slots)),
    review_count: mine.length,
  };
}

const yesNo = (v: boolean): string => (v ? 'Yes' : 'No');
/** A reviewer status as the CSV and the exam report print it: 'Hidden' where blinding hides it (null). */
export const reviewerStatusLabel = (s: TReviewerStatus | null): string =>
  s === null ? 'Hidden' : REVIEWER_STATUS_LABELS[s];

/** One CSV line in CERVICAL_CSV_COLUMNS order; the date in the caller's zone (formatted by the service). */
export function cervicalCsvRecord(row: TCervicalRow, localTime: string): (string | number | null)[] {
  const p = row.patient;
  return [
    p?.first_name ?? null,
    p?.last_name ?? null,
    p?.age ?? null,
    p?.date_of_birth ?? null,
    p?.mobile ?? null,
    p?.email ?? null,
    row.id,
    p?.physician_name ?? null,
    localTime,
    row.organization_data?.name ?? null,
    row.technician_name,
    yesNo(row.is_positive),
    row.left_breast_finding.join('; '),
    row.right_breast_finding.join('; '),
    csvNotes(row.notes.message),
    yesNo(row.is_survivor),
    yesNo(row.has_family_history),
    yesNo(row.has_symptoms),
    row.device_serial_number,
    row.sensor_serial_number,
    row.software_version,
    reviewerStatusLabel(row.reviewer_one_status),
    reviewerStatusLabel(row.reviewer_two_status),
  ];
}
