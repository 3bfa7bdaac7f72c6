// An ORCA exam as the API shows it (part 3 §3 ORCA scan, case history, finding), in snake_case. What is not listed
// here (licence id, created_by, the metadata beyond the device) is never sent.
import type { TOrcaCaseHistory, TOrcaDetail, TOrcaFinding, TOrcaRow } from '@sc/shared/orca';
import type { orcaCaseHistories, orcaFindings } from '../../db/schema/index.ts';
import type { OrcaCsvRow, OrcaRowData } from './orca.queries.ts';

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
const yesNo = (v: boolean | null | undefined): string => (v ? 'Yes' : 'No');

export function presentOrcaRow({
  exam,
  patient,
  patientOrganizationName,
  organizationName,
  technician,
}: OrcaRowData): TOrcaRow {
  const device = exam.metadata.device;
  return {
    id: exam.id,
    patient: exam.patientId,
    patient_data: patient
      ? {
          id: patient.id,
          first_name: patient.firstName,
          last_name: patient.lastName,
          age: patient.age,
          gender: patient.gender,
          date_of_birth: patient.dateOfBirth,
          mobile: patient.mobile,
          mobile_country_code: patient.mobileCountryCode,
          email: patient.email,
          physician_name: patient.physicianName,
          local_db_id: patient.localDbId,
          clinic_patient_id: patient.clinicPatientId,
          created: iso(patient.created),
          organization_data: patientOrganizationName === null ? null : { name: patientOrganizationName },
        }
      : null,
    technician: exam.technicianId,
    technician_data: technician
      ? { id: technician.id, first_name: technician.firstName, last_name: technician.lastName }
      : null,
    organization: exam.organizationId,
    organization_data:
      exam.organizationId !== null && organizationName !== null
        ? { id: exam.organizationId, name: organizationName }
        : null,
    licence_code: exam.licenceCode,
    current_report_count: exam.currentReportCount,
    tablet_serial_number: exam.tabletSerialNumber,
    device_serial_number: exam.deviceSerialNumber,
    sensor_serial_number: exam.sensorSerialNumber,
    software_version: exam.softwareVersion,
    under_bust: exam.underBust,
    over_bust: exam.overBust,
    latitude: exam.latitude,
    longitude: exam.longitude,
    local_db_id: exam.localDbId,
    date_time: exam.dateTime.toISOString(),
    created: exam.created.toISOString(),
    is_survivor: exam.isSurvivor,
    has_symptoms: exam.hasSymptoms,
    has_family_history: exam.hasFamilyHistory,
    cancer_history: exam.cancerHistory,
    file_path: { reports: exam.filePath.reports ?? [], consent_form: exam.filePath.consent_form ?? [] },
    metadata: device
      ? {
          device: {
            device_model: device.device_model ?? null,
            manufacturer: device.manufacturer ?? null,
            os_version: device.os_version ?? null,
          },
        }
      : {},
  };
}

export function presentCaseHistory(h: typeof orcaCaseHistories.$inferSelect): TOrcaCaseHistory {
  return {
    consumes_alcohol: h.consumesAlcohol,
    alcohol_usage_last_year: h.alcoholUsageLastYear,
    consumes_other_substance: h.consumesOtherSubstance,
    other_substance_consumed: h.otherSubstanceConsumed,
    has_hypertension: h.hasHypertension,
    had_heart_attack: h.hadHeartAttack,
    has_asthma_bronchitis: h.hasAsthmaBronchitis,
    has_diabetes: h.hasDiabetes,
    has_stroke: h.hasStroke,
    uses_tobacco: h.usesTobacco,
    consumes_smoking_tobacco: h.consumesSmokingTobacco,
    smoking_tobacco_type: h.smokingTobaccoType,
    smoking_tobacco_usage_frequency: h.smokingTobaccoUsageFrequency,
    smoking_history_time_months: h.smokingHistoryTimeMonths,
    smokes_per_unit: h.smokesPerUnit,
    smoke_count_unit: h.smokeCountUnit,
    smoking_quit_months_ago: h.smokingQuitMonthsAgo,
    consumes_smokeless_tobacco: h.consumesSmokelessTobacco,
    smokeless_tobacco_type: h.smokelessTobaccoType,
    smokeless_tobacco_usage_frequency: h.smokelessTobaccoUsageFrequency,
    smokeless_history_time_months: h.smokelessHistoryTimeMonths,
    smokeless_packets_count_unit: h.smokelessPacketsCountUnit,
    smokeless_packets_duration_unit: h.smokelessPacketsDurationUnit,
    smokeless_quit_months_ago: h.smokelessQuitMonthsAgo,
  };
}

export const presentFinding = (f: typeof orcaFindings.$inferSelect): TOrcaFinding => ({
  id: f.id,
  exam: f.exam,
  part: f.part,
  sub_part: f.subPart,
  index: f.index,
  symptoms: f.symptoms,
  path: f.path,
});

export function presentOrcaDetail(
  row: OrcaRowData,
  history: typeof orcaCaseHistories.$inferSelect | null,
  findings: (typeof orcaFindings.$inferSelect)[],
): TOrcaDetail {
  return {
    ...presentOrcaRow(row),
    case_history: history ? presentCaseHistory(history) : null,
    findings: findings.map(presentFinding),
  };
}

/** Commas and line breaks in free text become spaces (part 3 §9, as the cervical CSV does with notes). */
const flat = (v: string | null | undefined): string =>
  (v ?? '').replace(/,/g, ' ').replace(/\r\n|\r|\n/g, ' ');

/** One line of orca-scan.csv in ORCA_CSV_COLUMNS order. */
export const orcaCsvRecord = (r: OrcaCsvRow): string[] => [
  String(r.id),
  flat(r.firstName),
  flat(r.lastName),
  r.age === null ? '' : String(r.age),
  r.gender ?? '',
  r.mobile ?? '',
  r.email ?? '',
  flat(r.organizationName),
  flat(r.technicianName),
  r.licenceCode ?? '',
  r.localTime,
  r.syncedTime,
  yesNo(r.isSurvivor),
  yesNo(r.hasSymptoms),
  yesNo(r.hasFamilyHistory),
  yesNo(r.cancerHistory),
  yesNo(r.usesTobacco),
  yesNo(r.consumesAlcohol),
  String(r.abnormalFindings),
  r.deviceSerialNumber ?? '',
  r.tabletSerialNumber ?? '',
  r.softwareVersion ?? '',
];
