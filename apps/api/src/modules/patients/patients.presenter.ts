// A patient as the API shows it (part 2 §3 Patient), in snake_case. What is not listed is never sent.
import type { TPatient, TPatientReport } from '@sc/shared/patients';
import type { PatientForPresentation, PatientReportRow } from './patients.queries.ts';

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

export function presentPatient(row: PatientForPresentation): TPatient {
  const { patient, technician } = row;
  return {
    id: patient.id,
    first_name: patient.firstName,
    last_name: patient.lastName,
    mobile: patient.mobile,
    mobile_country_code: patient.mobileCountryCode,
    age: patient.age,
    date_of_birth: patient.dateOfBirth,
    email: patient.email,
    gender: patient.gender,
    clinic_patient_id: patient.clinicPatientId,
    physician_name: patient.physicianName,
    physician_email: patient.physicianEmail,
    reference: patient.referenceId,
    reference_name: row.referenceName,
    organization: patient.organizationId,
    organization_data:
      patient.organizationId !== null && row.organizationName !== null
        ? { id: patient.organizationId, name: row.organizationName }
        : null,
    technician: patient.technicianId,
    technician_data: technician
      ? {
          id: technician.id,
          first_name: technician.firstName,
          last_name: technician.lastName,
          username: technician.username,
          user_type: technician.userType,
        }
      : null,
    created: patient.created.toISOString(),
    date_time: iso(patient.dateTime),
    synced: iso(patient.synced),
    device_serial_number: patient.deviceSerialNumber,
    local_db_id: patient.localDbId,
    most_recent_mammogram_report: patient.mostRecentMammogramReport,
    reminder_consent: patient.reminderConsent,
    consent_language: patient.consentLanguage,
  };
}

/** One row of the transfer dialog's report tables (part 2 §2.6). */
export function presentPatientReport(row: PatientReportRow): TPatientReport {
  const technicianName = [row.technicianFirstName, row.technicianLastName].filter(Boolean).join(' ');
  return {
    id: row.id,
    patient_name: `${row.firstName} ${row.lastName}`.trim(),
    mobile: row.mobile,
    device_serial_number: row.deviceSerialNumber,
    organization: row.organizationId,
    organization_name: row.organizationName,
    technician: row.technicianId,
    technician_name: row.technicianId === null ? null : technicianName,
    date_time: row.dateTime.toISOString(),
    created: row.created.toISOString(),
  };
}
