// Reads for a scan's generated files and its replay: the scan with its patient, technician and organization (the
// facts a report prints), and the consent text the programme shows on devices.
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { languages, organizations, patients, scans, users } from '../../db/schema/index.ts';
import type { CompanyInfo } from '../../db/schema/organizations.ts';

export type ScanFacts = {
  id: number;
  scanType: (typeof scans.$inferSelect)['scanType'];
  parentScanId: number | null;
  organizationId: number | null;
  technicianId: number | null;
  dateTime: Date;
  created: Date;
  deviceSerialNumber: string | null;
  sensorSerialNumber: string | null;
  tabletSerialNumber: string | null;
  hardwareVersion: string | null;
  softwareVersion: string | null;
  metadata: (typeof scans.$inferSelect)['metadata'];
  isReplayAvailable: boolean;
  scanFilesPath: (typeof scans.$inferSelect)['scanFilesPath'];
  assessmentResult: (typeof scans.$inferSelect)['assessmentResult'];
  assessmentApproved: boolean | null;
  trainingScanObservation: (typeof scans.$inferSelect)['trainingScanObservation'];
  breastType: number | null;
  leftBreastFinding: string[];
  rightBreastFinding: string[];
  notes: { message?: string | null };
  isSurvivor: boolean;
  hasFamilyHistory: boolean;
  hasSymptoms: boolean;
  underBust: number | null;
  overBust: number | null;
  nextAppointmentDate: string | null;
  patient: {
    firstName: string;
    lastName: string;
    mobile: string | null;
    age: number | null;
    dateOfBirth: string | null;
    gender: (typeof patients.$inferSelect)['gender'];
    clinicPatientId: string | null;
    physicianName: string | null;
  } | null;
  technician: { firstName: string; lastName: string; username: string } | null;
  organization: {
    id: number;
    name: string;
    address1: string | null;
    address2: string | null;
    address3: string | null;
    state: string | null;
    zipcode: string | null;
    country: string | null;
    companyInfo: CompanyInfo;
    timezone: string;
  } | null;
};

/** The scan with what its files print, or undefined when there is no such scan. */
export async function findScanFacts(db: DbOrTx, scanId: number): Promise<ScanFacts | undefined> {
  const [row] = await db
    .select({
      id: scans.id,
      scanType: scans.scanType,
      parentScanId: scans.parentScanId,
      organizationId: scans.organizationId,
      technicianId: scans.technicianId,
      dateTime: scans.dateTime,
      created: scans.created,
      deviceSerialNumber: scans.deviceSerialNumber,
      sensorSerialNumber: scans.sensorSerialNumber,
      tabletSerialNumber: scans.tabletSerialNumber,
      hardwareVersion: scans.hardwareVersion,
      softwareVersion: scans.softwareVersion,
      metadata: scans.metadata,
      isReplayAvailable: scans.isReplayAvailable,
      scanFilesPath: scans.scanFilesPath,
      assessmentResult: scans.assessmentResult,
      assessmentApproved: scans.assessmentApproved,
      trainingScanObservation: scans.trainingScanObservation,
      breastType: scans.breastType,
      leftBreastFinding: scans.leftBreastFinding,
      rightBreastFinding: scans.rightBreastFinding,
      notes: scans.notes,
      isSurvivor: scans.isSurvivor,
      hasFamilyHistory: scans.hasFamilyHistory,
      hasSymptoms: scans.hasSymptoms,
      underBust: scans.underBust,
      overBust: scans.overBust,
      nextAppointmentDate: scans.nextAppointmentDate,
      patient: {
        firstName: patients.firstName,
        lastName: patients.lastName,
        mobile: patients.mobile,
        age: patients.age,
        dateOfBirth: patients.dateOfBirth,
        gender: patients.gender,
        clinicPatientId: patients.clinicPatientId,
        physicianName: patients.physicianName,
      },
      technician: { firstName: users.firstName, lastName: users.lastName, username: users.username },
      organization: {
        id: organizations.id,
        name: organizations.name,
        address1: organizations.address1,
        address2: organizations.address2,
        address3: organizations.address3,
        state: organizations.state,
        zipcode: organizations.zipcode,
        country: organizations.country,
        companyInfo: organizations.companyInfo,
        timezone: organizations.timezone,
      },
    })
    .from(scans)
    .leftJoin(patients, eq(patients.id, scans.patientId))
    .leftJoin(users, eq(users.id, scans.technicianId))
    .leftJoin(organizations, eq(organizations.id, scans.organizationId))
    .where(eq(scans.id, scanId))
    .limit(1);
  return row;
}

/** The replay's facts only: scope, availability, time and findings. */
export async function findReplayFacts(db: DbOrTx, scanId: number) {
  const [row] = await db
    .select({
      id: scans.id,
      organizationId: scans.organizationId,
      isReplayAvailable: scans.isReplayAvailable,
      dateTime: scans.dateTime,
      breastType: scans.breastType,
      leftBreastFinding: scans.leftBreastFinding,
      rightBreastFinding: scans.rightBreastFinding,
    })
    .from(scans)
    .where(eq(scans.id, scanId))
    .limit(1);
  return row;
}

/** The breast-examination consent paragraphs of a language (part 1 languages' ibe_consent_form); [] when none. */
export async function findConsentText(db: DbOrTx, isoCode: string): Promise<string[]> {
  const [row] = await db
    .select({ text: languages.ibeConsentForm })
    .from(languages)
    .where(and(eq(sql`lower(${languages.isoCode})`, isoCode.toLowerCase())))
    .limit(1);
  return row?.text ?? [];
}

export type PatientFacts = {
  id: number;
  firstName: string;
  lastName: string;
  age: number | null;
  dateOfBirth: string | null;
  clinicPatientId: string | null;
  physicianName: string | null;
  organizationId: number | null;
  technicianId: number | null;
  dateTime: Date | null;
  created: Date;
  mostRecentMammogramReport: string[];
  organization: ScanFacts['organization'];
};

/** The patient with what their mammogram report prints, or undefined. */
export async function findPatientFacts(db: DbOrTx, patientId: number): Promise<PatientFacts | undefined> {
  const [row] = await db
    .select({
      id: patients.id,
      firstName: patients.firstName,
      lastName: patients.lastName,
      age: patients.age,
      dateOfBirth: patients.dateOfBirth,
      clinicPatientId: patients.clinicPatientId,
      physicianName: patients.physicianName,
      organizationId: patients.organizationId,
      technicianId: patients.technicianId,
      dateTime: patients.dateTime,
      created: patients.created,
      mostRecentMammogramReport: patients.mostRecentMammogramReport,
      organization: {
        id: organizations.id,
        name: organizations.name,
        address1: organizations.address1,
        address2: organizations.address2,
        address3: organizations.address3,
        state: organizations.state,
        zipcode: organizations.zipcode,
        country: organizations.country,
        companyInfo: organizations.companyInfo,
        timezone: organizations.timezone,
      },
    })
    .from(patients)
    .leftJoin(organizations, eq(organizations.id, patients.organizationId))
    .where(eq(patients.id, patientId))
    .limit(1);
  return row;
}
