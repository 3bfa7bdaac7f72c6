// Demo ORCA exam files built on read, like the breast scans' (modules/scan-files; docs/decisions.md "Demo files are
// built on every read"). The demo names an exam's report 'reports/orca/orca_<exam>.pdf', its consent form
// 'reports/orca/consent_<exam>.pdf' and each finding's photo 'documents/orca/<exam>/<finding>.jpg'. When `GET
// file/?path=` asks for such a path and the exam lists it (file_path, or the finding's own path), this says whose file
// it is (the exam: ORCA readers, its organization; its technician as uploader) and builds it: the report and consent
// form as PDFs (services/pdf), the photo as a JPEG (orca-images.ts). Files uploaded by devices have their own files
// rows and never come here.
import { and, eq } from 'drizzle-orm';
import {
  ORCA_LIST_ROLES,
  ORCA_MESSAGES,
  ORCA_SECTIONS,
  groupOrcaFindings,
  monthsAsYears,
  type TOrcaDetail,
} from '@sc/shared/orca';
import type { Db } from '../../db/client.ts';
import { orcaFindings, organizations } from '../../db/schema/index.ts';
import { loadBranding } from '../../services/pdf/branding.ts';
import { formatCalendarDate, formatDateTime } from '../../services/pdf/format.ts';
import { ReportDocument, readReport } from '../../services/pdf/report-document.ts';
import type { LazyFile, LazyFileContext } from '../scan-files/scan-files.service.ts';
import { drawFindingImage } from './orca-images.ts';
import { findOrcaDetail } from './orca.queries.ts';
import { presentOrcaDetail } from './orca.presenter.ts';

export const demoOrcaReportPath = (examId: number) => `reports/orca/orca_${examId}.pdf`;
export const demoOrcaConsentPath = (examId: number) => `reports/orca/consent_${examId}.pdf`;
export const demoOrcaFindingPath = (examId: number, findingId: number) =>
  `documents/orca/${examId}/${findingId}.jpg`;

const ID = '([1-9][0-9]{0,9})';
const DOCUMENT_PATH = new RegExp(`^reports/orca/(orca|consent)_${ID}\\.pdf$`);
const FINDING_PATH = new RegExp(`^documents/orca/${ID}/${ID}\\.jpg$`);

export type DemoOrcaFile =
  { kind: 'report' | 'consent'; examId: number } | { kind: 'finding'; examId: number; findingId: number };

const toId = (s: string | undefined): number | null => {
  const n = Number(s);
  return Number.isSafeInteger(n) && n >= 1 && n <= 2_147_483_647 ? n : null;
};

/** The demo ORCA file a path names, or null for any other path. */
export function parseDemoOrcaPath(path: string): DemoOrcaFile | null {
  const doc = DOCUMENT_PATH.exec(path);
  if (doc) {
    const examId = toId(doc[2]);
    return examId === null ? null : { kind: doc[1] === 'orca' ? 'report' : 'consent', examId };
  }
  const finding = FINDING_PATH.exec(path);
  if (!finding) return null;
  const examId = toId(finding[1]);
  const findingId = toId(finding[2]);
  return examId === null || findingId === null ? null : { kind: 'finding', examId, findingId };
}

/** The demo ORCA file at `path`, or null when no exam lists such a file. */
export async function findLazyOrcaFile(ctx: LazyFileContext, db: Db, path: string): Promise<LazyFile | null> {
  const demo = parseDemoOrcaPath(path);
  if (!demo) return null;
  const found = await findOrcaDetail(db, { kind: 'all' }, demo.examId);
  if (!found) return null;
  const owner = {
    readers: ORCA_LIST_ROLES,
    organizationId: found.row.exam.organizationId,
    userId: found.row.exam.technicianId,
  };
  if (demo.kind === 'finding') {
    const [finding] = await db
      .select()
      .from(orcaFindings)
      .where(and(eq(orcaFindings.id, demo.findingId), eq(orcaFindings.examId, demo.examId)))
      .limit(1);
    if (!finding || finding.path !== path) return null;
    return {
      ...owner,
      contentType: 'image/jpeg',
      build: () => Promise.resolve(drawFindingImage(finding)),
    };
  }
  const listed =
    demo.kind === 'report' ? found.row.exam.filePath.reports : found.row.exam.filePath.consent_form;
  if (!(listed ?? []).some((f) => f.path === path)) return null;
  const detail = presentOrcaDetail(found.row, found.history, found.findings);
  return {
    ...owner,
    contentType: 'application/pdf',
    build: () => buildOrcaDocument(ctx, db, demo.kind === 'report' ? 'report' : 'consent', detail),
  };
}

const yesNo = (v: boolean): string => (v ? 'Yes' : 'No');
const years = (months: number | null): string | null => {
  const y = monthsAsYears(months);
  return y === null ? null : `${y} years`;
};

/** Printed when the organization has no English ORCA consent text. */
export const DEFAULT_ORCA_CONSENT = [
  'I agree to an oral examination and to trained staff taking and reviewing photographs of my mouth, face and neck.',
  'I understand that this examination is a screening, not a diagnosis, and that I may be referred for further tests.',
];

async function buildOrcaDocument(
  ctx: LazyFileContext,
  db: Db,
  kind: 'report' | 'consent',
  exam: TOrcaDetail,
): Promise<Buffer> {
  const [org] = exam.organization
    ? await db.select().from(organizations).where(eq(organizations.id, exam.organization)).limit(1)
    : [];
  const log = ctx.services?.log ?? { info: () => undefined, warn: () => undefined, error: () => undefined };
  const branding = org ? await loadBranding(ctx.storage, org, log) : null;
  const timezone = org?.timezone ?? 'UTC';
  const patientName = exam.patient_data
    ? `${exam.patient_data.first_name} ${exam.patient_data.last_name}`.trim()
    : null;
  const title = kind === 'report' ? 'ORCA oral screening report' : 'ORCA consent form';
  const report = ReportDocument.create({
    title,
    subject: patientName ?? `ORCA exam ${exam.id}`,
    branding,
    timezone,
    generatedAt: ctx.now(),
    keywords: `${title}, exam ${exam.id}`,
  });
  const bytes = readReport(report.stream);
  try {
    const p = exam.patient_data;
    report.section('Patient');
    report.fields([
      { label: 'Name', value: patientName },
      { label: 'Age', value: p?.age },
      { label: 'Gender', value: p?.gender },
      { label: 'Date of birth', value: formatCalendarDate(p?.date_of_birth ?? null) },
      { label: 'Mobile', value: p?.mobile },
      { label: 'Clinic patient ID', value: p?.clinic_patient_id },
    ]);
    if (kind === 'consent') {
      report.section('Consent');
      const text = org?.localize.en?.orca_consent_form ?? [];
      for (const paragraph of text.length ? text : DEFAULT_ORCA_CONSENT) report.paragraph(paragraph);
      report.section('Signature');
      report.fields([
        { label: 'Consent given by', value: patientName },
        { label: 'Signed on', value: formatDateTime(new Date(exam.date_time), timezone) },
        { label: 'Witness (technician)', value: technicianName(exam) },
        { label: 'Organization', value: exam.organization_data?.name },
      ]);
    } else {
      await writeReport(report, exam, timezone);
    }
    report.end();
  } catch (error) {
    report.fail(error instanceof Error ? error : new Error(String(error)));
  }
  return bytes;
}

const technicianName = (exam: TOrcaDetail) =>
  exam.technician_data ? `${exam.technician_data.first_name} ${exam.technician_data.last_name}`.trim() : null;

async function writeReport(report: ReportDocument, exam: TOrcaDetail, timezone: string): Promise<void> {
  const abnormal = exam.findings.filter((f) => f.symptoms.length > 0);
  report.section('Exam');
  report.fields([
    { label: 'Exam ID', value: exam.id },
    { label: 'Scan time', value: formatDateTime(new Date(exam.date_time), timezone) },
    { label: 'Technician', value: technicianName(exam) },
    { label: 'Organization', value: exam.organization_data?.name ?? 'Not assigned to an organization' },
    { label: 'Licence code', value: exam.licence_code },
    { label: 'Report number', value: exam.current_report_count },
    {
      label: 'Result',
      value: abnormal.length
        ? 'Abnormality found: referral for clinical examination advised'
        : ORCA_MESSAGES.noAbnormality,
    },
  ]);
  const h = exam.case_history;
  if (h) {
    report.section('Case history');
    report.fields([
      {
        label: 'Alcohol',
        value: h.consumes_alcohol ? `Yes (${h.alcohol_usage_last_year ?? 'usage not given'})` : 'No',
      },
      {
        label: 'Other substances',
        value: h.consumes_other_substance ? h.other_substance_consumed.join(', ') : 'No',
      },
      {
        label: 'Smoking tobacco',
        value: h.consumes_smoking_tobacco ? h.smoking_tobacco_type.join(', ') : 'No',
      },
      { label: 'Smoking for', value: years(h.smoking_history_time_months) },
      {
        label: 'Smokeless tobacco',
        value: h.consumes_smokeless_tobacco ? h.smokeless_tobacco_type.join(', ') : 'No',
      },
      { label: 'Smokeless for', value: years(h.smokeless_history_time_months) },
      { label: 'Cancer history', value: yesNo(exam.cancer_history) },
      { label: 'Hypertension', value: yesNo(h.has_hypertension) },
      { label: 'Diabetes', value: yesNo(h.has_diabetes) },
      { label: 'Heart attack', value: yesNo(h.had_heart_attack) },
    ]);
  }
  for (const section of ORCA_SECTIONS) {
    if (section.key === 'case_history') continue;
    report.section(section.label);
    const rows = groupOrcaFindings(exam.findings, section.key).flatMap((g) => g.findings);
    await report.table(
      [
        { header: 'Part', width: 1, value: (f) => f.part },
        { header: 'Sub part', width: 1, value: (f) => f.sub_part ?? '' },
        {
          header: 'Symptoms',
          width: 2,
          value: (f) => (f.symptoms.length ? f.symptoms.join('; ') : ORCA_MESSAGES.noSymptom),
        },
      ],
      rows,
      { emptyText: ORCA_MESSAGES.noAbnormality },
    );
  }
  report.section('Device');
  report.fields([
    { label: 'Device serial number', value: exam.device_serial_number },
    { label: 'Tablet serial number', value: exam.tablet_serial_number },
    { label: 'Software version', value: exam.software_version },
    { label: 'Mobile model', value: exam.metadata.device?.device_model },
  ]);
  report.paragraph(
    'This is a screening report, not a diagnosis. A finding with a symptom should be examined by a clinician as the ' +
      'programme directs.',
    { muted: true },
  );
}
