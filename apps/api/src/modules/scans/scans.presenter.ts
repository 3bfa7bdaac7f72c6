// A breast scan as the API shows it (part 2 §3 Scan), in snake_case. Used for the webhook body; what is not
// listed here (created_by, modified_by, internal ids of joins) is never sent.
import {
  scanIdLabel,
  scanReview,
  type TScanDetail,
  type TScanRow,
  type TScanType,
} from '@sc/shared/scans';
import type { ScanRowData } from './scan-list.queries.ts';
import type { ScanForPresentation } from './scans.queries.ts';

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

export function presentScan(row: ScanForPresentation) {
  const { scan, patient, technician } = row;
  return {
    id: scan.id,
    patient: patient
      ? {
          id: patient.id,
          first_name: patient.firstName,
          last_name: patient.lastName,
          mobile: patient.mobile,
          age: patient.age,
          date_of_birth: patient.dateOfBirth,
          email: patient.email,
          mobile_country_code: patient.mobileCountryCode,
          clinic_patient_id: patient.clinicPatientId,
          physician_name: patient.physicianName,
          physician_email: patient.physicianEmail,
          reference_name: row.referenceName,
          created: iso(patient.created),
          organization: patient.organizationId,
          most_recent_mammogram_report: patient.mostRecentMammogramReport,
        }
      : null,
    first_name: patient?.firstName ?? null,
    device_serial_number: scan.deviceSerialNumber,
    sensor_serial_number: scan.sensorSerialNumber,
    tablet_serial_number: scan.tabletSerialNumber,
    hardware_version: scan.hardwareVersion,
    software_version: scan.softwareVersion,
    organization: scan.organizationId,
    organization_name: row.organizationName,
    organization_data: row.organizationName === null ? null : { name: row.organizationName },
    technician_data: technician
      ? {
          id: technician.id,
          first_name: technician.firstName,
          last_name: technician.lastName,
          username: technician.username,
        }
      : null,
    date_time: iso(scan.dateTime),
    created: iso(scan.created),
    scan_type: scan.scanType,
    parent_scan_id: scan.parentScanId,
    is_replay_available: scan.isReplayAvailable,
    scan_files_path: {
      reports: scan.scanFilesPath.reports ?? [],
      assessment_files: scan.scanFilesPath.assessment_files ?? [],
      consent_form: scan.scanFilesPath.consent_form ?? [],
    },
    assessment_result: scan.assessmentResult,
    assessment_approved: scan.assessmentApproved,
    training_scan_observation: scan.trainingScanObservation,
    breast_type: scan.breastType,
    left_breast_finding: scan.leftBreastFinding,
    right_breast_finding: scan.rightBreastFinding,
    /** architecture §7: a finding on either side. */
    is_positive: scan.isPositive ?? (scan.leftBreastFinding.length > 0 || scan.rightBreastFinding.length > 0),
    notes: scan.notes,
    is_survivor: scan.isSurvivor,
    has_family_history: scan.hasFamilyHistory,
    has_symptoms: scan.hasSymptoms,
    send_report_to_patient: scan.sendReportToPatient,
    sent_report_to_patient: scan.sentReportToPatient,
    next_appointment_date: scan.nextAppointmentDate,
    under_bust: scan.underBust,
    over_bust: scan.overBust,
    latitude: scan.latitude,
    longitude: scan.longitude,
    local_db_id: scan.localDbId,
    metadata: scan.metadata,
  };
}
export type ScanPresentation = ReturnType<typeof presentScan>;

// ---- The console's list row, detail and CSV record (part 2 §2.7–2.9, §9) ----------------------------------------

/**
 * A row of `GET scan/`: the §3 Scan plus organization id, technician type, device id and duplicates as the database
 * builds them (scan-list.queries.ts scanRowJson), with the fields shared rules derive: display_id and review.
 */
export function presentScanRow(row: ScanRowData): TScanRow {
  return {
    ...row,
    patient: row.patient && { ...row.patient, created: isoText(row.patient.created) },
    date_time: isoText(row.date_time),
    created: isoText(row.created),
    display_id: scanIdLabel(row.scan_type, row.id),
    review: scanReview(row),
  };
}

/** A timestamp the database wrote in JSON ('2026-01-31T09:05:00.123456+00:00') as toISOString writes it. */
const isoText = (text: string | null): string | null => (text === null ? null : new Date(text).toISOString());

const textOrNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** `GET scan/{id}/`: the row plus the view dialog's device table, the patient's gender and the parent link. */
export function presentScanDetail(
  row: ScanRowData,
  gender: string | null,
  parent: { id: number; scanType: TScanType } | null,
): TScanDetail {
  const device = (row.metadata.device ?? {}) as Record<string, unknown>;
  return {
    ...presentScanRow(row),
    device_table: {
      device_serial_number: row.device_serial_number,
      hardware_version: row.hardware_version,
      software_version: row.software_version,
      tablet_serial_number: row.tablet_serial_number,
      sensor_serial_number: row.sensor_serial_number,
      mobile_model: textOrNull(device.device_model),
      manufacturer: textOrNull(device.manufacturer),
      os_version: textOrNull(device.os_version),
    },
    patient_gender: gender,
    parent: parent ? { id: parent.id, display_id: scanIdLabel(parent.scanType, parent.id) } : null,
  };
}
