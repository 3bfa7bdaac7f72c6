// The PDFs of a breast scan, printed with the house report layout (services/pdf) from the scan's row: the scan report
// (patient, findings per side, device, technician, date, under the organization's header), the consent form and,
// for training and practice scans, the assessment. Dates print in the organization's time zone (the file is stored
// once and read by everybody), UTC for a scan without an organization.
import { BREAST_TYPES, SCAN_ID_PREFIX } from '@sc/shared/constants';
import type { TScanFileKind } from '@sc/shared/scans';
import { ASSESSMENT_RESULT_LABELS, scanDisplayId } from '@sc/shared/training-reports';
import { loadBranding } from '../../services/pdf/branding.ts';
import { formatCalendarDate, formatDateTime, formatDay } from '../../services/pdf/format.ts';
import { ReportDocument, readReport, type ReportBranding } from '../../services/pdf/report-document.ts';
import type { ServiceLogger } from '../../services/logger.ts';
import type { Storage } from '../../services/storage/storage.ts';
import type { PatientFacts, ScanFacts } from './scan-files.queries.ts';

export const SCAN_TYPE_LABELS: Record<keyof typeof SCAN_ID_PREFIX, string> = {
  SCAN: 'Scan',
  TRAINING: 'Training',
  PRACTICE: 'Practice',
  PRE_TRAINING: 'Pre-training',
};

export const SCAN_DOCUMENT_TITLES = {
  reports: 'Breast scan report',
  consent_form: 'Consent form',
  assessment_files: 'Scan assessment',
} as const satisfies Record<TScanFileKind, string>;

/** Printed when the consent text of the language is not configured (languages' ibe_consent_form). */
export const DEFAULT_CONSENT_TEXT = [
  'I agree to a breast examination with a handheld device and to the secure storage of my results.',
  'I understand that this examination is a screening, not a diagnosis, and that I may be referred for further tests.',
];

export const NO_FINDING = 'No finding';

const GENDER_LABELS = { FEMALE: 'Female', MALE: 'Male', OTHER: 'Other' } as const;

const yesNo = (value: boolean | null | undefined): string =>
  value === null || value === undefined ? '—' : value ? 'Yes' : 'No';
const personName = (p: { firstName: string; lastName: string } | null): string | null =>
  p ? `${p.firstName} ${p.lastName}`.trim() || null : null;

export type DocumentContext = { storage: Storage; log: ServiceLogger; generatedAt: Date };

export type ScanDocumentInput = {
  scan: ScanFacts;
  /** Consent paragraphs; the default text when empty. */
  consentText?: readonly string[];
};

/** The PDF of `kind` for the scan. */
export async function buildScanDocument(
  ctx: DocumentContext,
  kind: TScanFileKind,
  input: ScanDocumentInput,
): Promise<Buffer> {
  const { scan } = input;
  const branding: ReportBranding | null = scan.organization
    ? await loadBranding(ctx.storage, scan.organization, ctx.log)
    : null;
  const timezone = scan.organization?.timezone ?? 'UTC';
  const title =
    kind === 'assessment_files'
      ? `${SCAN_TYPE_LABELS[scan.scanType]} assessment`
      : SCAN_DOCUMENT_TITLES[kind];
  const report = ReportDocument.create({
    title,
    subject: personName(scan.patient) ?? scanDisplayId(scan.scanType, scan.id),
    branding,
    timezone,
    generatedAt: ctx.generatedAt,
    keywords: `${title}, scan ${scan.id}`,
  });
  const bytes = readReport(report.stream);
  try {
    if (kind === 'reports') await writeScanReport(report, scan, timezone);
    else if (kind === 'consent_form') writeConsentForm(report, scan, timezone, input.consentText ?? []);
    else await writeAssessment(report, scan, timezone);
    report.end();
  } catch (error) {
    report.fail(error instanceof Error ? error : new Error(String(error)));
  }
  return bytes;
}

function scanFields(scan: ScanFacts, timezone: string) {
  return [
    { label: 'Scan ID', value: scanDisplayId(scan.scanType, scan.id) },
    { label: 'Scan type', value: SCAN_TYPE_LABELS[scan.scanType] },
    { label: 'Scan time', value: formatDateTime(scan.dateTime, timezone) },
    { label: 'Synced on', value: formatDateTime(scan.created, timezone) },
    { label: 'Technician', value: personName(scan.technician) ?? scan.technician?.username },
    { label: 'Organization', value: scan.organization?.name ?? 'Not assigned to an organization' },
  ];
}

function patientFields(scan: ScanFacts) {
  const p = scan.patient;
  return [
    { label: 'Name', value: personName(p) },
    { label: 'Age', value: p?.age },
    { label: 'Date of birth', value: formatCalendarDate(p?.dateOfBirth ?? null) },
    { label: 'Gender', value: p ? GENDER_LABELS[p.gender] : null },
    { label: 'Mobile', value: p?.mobile },
    { label: 'Clinic patient ID', value: p?.clinicPatientId },
  ];
}

function deviceFields(scan: ScanFacts) {
  const device = scan.metadata.device;
  return [
    { label: 'Device serial number', value: scan.deviceSerialNumber },
    { label: 'Sensor serial number', value: scan.sensorSerialNumber },
    { label: 'Hardware version', value: scan.hardwareVersion },
    { label: 'Software version', value: scan.softwareVersion },
    { label: 'Tablet serial number', value: scan.tabletSerialNumber },
    { label: 'Mobile model', value: device?.device_model },
    { label: 'Manufacturer', value: device?.manufacturer },
    { label: 'OS version', value: device?.os_version },
  ];
}

async function findingsTable(report: ReportDocument, scan: ScanFacts): Promise<void> {
  const sides = [
    { side: 'Left breast', findings: scan.leftBreastFinding },
    { side: 'Right breast', findings: scan.rightBreastFinding },
  ];
  await report.table(
    [
      { header: 'Side', width: 1, value: (r) => r.side },
      {
        header: 'Findings',
        width: 3,
        value: (r) => (r.findings.length ? r.findings.join('; ') : NO_FINDING),
      },
    ],
    sides,
  );
}

async function writeScanReport(report: ReportDocument, scan: ScanFacts, timezone: string): Promise<void> {
  const positive = scan.leftBreastFinding.length > 0 || scan.rightBreastFinding.length > 0;
  report.section('Scan');
  report.fields([
    ...scanFields(scan, timezone),
    { label: 'Breast type', value: scan.breastType ? BREAST_TYPES[scan.breastType as 1 | 2 | 3] : null },
    { label: 'Result', value: positive ? 'Findings present: further assessment advised' : 'No findings' },
  ]);

  report.section('Patient');
  report.fields([
    ...patientFields(scan),
    { label: 'Physician', value: scan.patient?.physicianName },
    { label: 'Survivor', value: yesNo(scan.isSurvivor) },
    { label: 'Family history', value: yesNo(scan.hasFamilyHistory) },
    { label: 'Symptoms', value: yesNo(scan.hasSymptoms) },
    { label: 'Under bust (cm)', value: scan.underBust },
    { label: 'Over bust (cm)', value: scan.overBust },
    { label: 'Next appointment', value: formatCalendarDate(scan.nextAppointmentDate) },
  ]);

  report.section('Findings');
  await findingsTable(report, scan);
  if (scan.notes.message?.trim()) report.paragraph(`Notes: ${scan.notes.message.trim()}`);

  report.section('Device');
  report.fields(deviceFields(scan));

  report.paragraph(
    'This is a screening report, not a diagnosis. A finding means that the tissue read firmer than the tissue around ' +
      'it; the patient should be referred for clinical examination and imaging as the programme directs.',
    { muted: true },
  );
}

function writeConsentForm(
  report: ReportDocument,
  scan: ScanFacts,
  timezone: string,
  text: readonly string[],
): void {
  report.section('Patient');
  report.fields(patientFields(scan));
  report.section('Consent');
  for (const paragraph of text.length ? text : DEFAULT_CONSENT_TEXT) report.paragraph(paragraph);
  report.section('Signature');
  report.fields([
    { label: 'Consent given by', value: personName(scan.patient) },
    { label: 'Signed on', value: formatDateTime(scan.dateTime, timezone) },
    { label: 'Witness (technician)', value: personName(scan.technician) ?? scan.technician?.username },
    { label: 'Organization', value: scan.organization?.name },
    { label: 'Device serial number', value: scan.deviceSerialNumber },
    { label: 'Scan ID', value: scanDisplayId(scan.scanType, scan.id) },
  ]);
  report.paragraph('Signed on the device before the examination.', { muted: true });
}

async function writeAssessment(report: ReportDocument, scan: ScanFacts, timezone: string): Promise<void> {
  report.section('Scan');
  report.fields(scanFields(scan, timezone));
  report.section('Assessment');
  report.fields([
    { label: 'Result', value: ASSESSMENT_RESULT_LABELS[scan.assessmentResult] },
    { label: 'Approved', value: yesNo(scan.assessmentApproved) },
    ...(scan.scanType === 'PRACTICE'
      ? [{ label: 'Practice verified', value: yesNo(scan.trainingScanObservation.practice_verified) }]
      : []),
    { label: 'Breast type', value: scan.breastType ? BREAST_TYPES[scan.breastType as 1 | 2 | 3] : null },
  ]);
  report.section('Findings recorded by the technician');
  await findingsTable(report, scan);
  report.section('Device');
  report.fields(deviceFields(scan).slice(0, 4));
  report.paragraph(
    'The technician’s findings are compared with the reference findings of the training model: Correct when they ' +
      'agree, Incorrect when they do not; Bypass and User bypass mark assessments that were skipped.',
    { muted: true },
  );
}

/** Impressions a demo mammogram report may carry (BI-RADS 1 and 2: nothing that would have needed follow-up). */
export const MAMMOGRAM_IMPRESSIONS = [
  'BI-RADS 1: negative. No mass, architectural distortion or suspicious calcification.',
  'BI-RADS 2: benign finding (scattered benign calcifications). Routine screening advised.',
] as const;

const MONTH = 30 * 86_400_000;

/**
 * A patient's earlier mammogram report as the demo provides it (most_recent_mammogram_report): the study an outside
 * facility made some months before the patient's first visit, chosen from the patient's id.
 */
export async function buildMammogramReport(ctx: DocumentContext, patient: PatientFacts): Promise<Buffer> {
  const branding = patient.organization
    ? await loadBranding(ctx.storage, patient.organization, ctx.log)
    : null;
  const timezone = patient.organization?.timezone ?? 'UTC';
  const name = `${patient.firstName} ${patient.lastName}`.trim();
  const firstVisit = patient.dateTime ?? patient.created;
  const studyDate = new Date(firstVisit.getTime() - (6 + (patient.id % 18)) * MONTH);
  const report = ReportDocument.create({
    title: 'Mammogram report',
    subject: name,
    branding,
    timezone,
    generatedAt: ctx.generatedAt,
    keywords: `mammogram report, patient ${patient.id}`,
  });
  const bytes = readReport(report.stream);
  report.section('Patient');
  report.fields([
    { label: 'Name', value: name },
    { label: 'Age', value: patient.age },
    { label: 'Date of birth', value: formatCalendarDate(patient.dateOfBirth) },
    { label: 'Clinic patient ID', value: patient.clinicPatientId },
    { label: 'Physician', value: patient.physicianName },
  ]);
  report.section('Study');
  report.fields([
    { label: 'Study', value: 'Bilateral screening mammogram (CC and MLO views)' },
    { label: 'Study date', value: formatDay(studyDate, timezone) },
    { label: 'Performed at', value: 'An outside imaging centre (report provided by the patient)' },
  ]);
  report.section('Impression');
  report.paragraph(
    MAMMOGRAM_IMPRESSIONS[patient.id % MAMMOGRAM_IMPRESSIONS.length] ?? MAMMOGRAM_IMPRESSIONS[0],
  );
  report.paragraph(
    'The patient’s most recent mammogram report, uploaded with the patient by the device for the screening team.',
    { muted: true },
  );
  report.end();
  return bytes;
}
