// Demo cervical files built on read (like modules/scan-files): the files service asks here when `GET file/?path=`
// names a path without a files row. A photo or video must be a document row of an exam; a report or consent form must
// be listed in its exam's file_path. The file is the exam's (cervical readers, the exam's organization), uploaded by
// its technician; the files service checks the caller may read it before anything is built. Nothing is stored; the
// report is built for its reader (findCervicalReport), through the detail's blinding.
import { eq, sql } from 'drizzle-orm';
import { CERVICAL_LIST_ROLES } from '@sc/shared/cervical';
import type { Db } from '../../db/client.ts';
import { cervicalDocuments, cervicalExams, organizations, patients, users } from '../../db/schema/index.ts';
import type { Actor } from '../../http/actor.ts';
import { loadBranding } from '../../services/pdf/branding.ts';
import { formatDateTime } from '../../services/pdf/format.ts';
import { ReportDocument, readReport } from '../../services/pdf/report-document.ts';
import type { LazyFile, LazyFileContext } from '../scan-files/scan-files.service.ts';
import { buildCervicalPhoto, buildCervicalVideo } from './cervical-media.ts';
import { presentCervicalDetail, reviewerStatusLabel, viewerOf } from './cervical.presenter.ts';
import { findCervicalRow, type CervicalRowData } from './cervical.queries.ts';

const DOCUMENT_PATH = /^documents\/cervical\/[1-9][0-9]{0,9}\/[A-Za-z0-9_-]{1,60}\.(jpg|mp4)$/;
const EXAM_FILE_PATH = /^reports\/cervical\/(cervical|consent)_([1-9][0-9]{0,9})\.pdf$/;

export const CERVICAL_CONSENT_TEXT = [
  'I agree to a cervical screening examination with a handheld device, including photographs and short videos of ' +
    'the cervix, and to the secure storage of my results.',
  'I understand that this examination is a screening, not a diagnosis, and that I may be referred for further tests.',
];

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The demo cervical file at `path`, or null when no exam lists such a file. */
export async function findLazyCervicalFile(ctx: LazyFileContext, db: Db, path: string): Promise<LazyFile | null> {
  if (DOCUMENT_PATH.test(path)) {
    const [doc] = await db
      .select({
        id: cervicalDocuments.id,
        type: cervicalDocuments.documentType,
        symptomTag: cervicalDocuments.symptomTag,
        organizationId: cervicalExams.organizationId,
        technicianId: cervicalExams.technicianId,
      })
      .from(cervicalDocuments)
      .innerJoin(cervicalExams, eq(cervicalExams.id, cervicalDocuments.examId))
      .where(eq(cervicalDocuments.path, path))
      .limit(1);
    if (!doc) return null;
    const video = doc.type === 'VIDEO';
    if (video !== path.endsWith('.mp4')) return null;
    return {
      readers: CERVICAL_LIST_ROLES,
      organizationId: doc.organizationId,
      userId: doc.technicianId,
      contentType: video ? 'video/mp4' : 'image/jpeg',
      build: async () =>
        video ? buildCervicalVideo(doc.id, doc.symptomTag) : buildCervicalPhoto(doc.id, doc.symptomTag),
    };
  }
  const match = EXAM_FILE_PATH.exec(path);
  if (match?.[1] !== 'consent') return null;
  const facts = await listedExamFacts(db, Number(match[2]), 'consent_form', path);
  if (!facts) return null;
  return {
    readers: CERVICAL_LIST_ROLES,
    organizationId: facts.exam.organizationId,
    userId: facts.exam.technicianId,
    contentType: 'application/pdf',
    build: () => buildExamPdf(ctx, facts, { kind: 'consent_form' }),
  };
}

/**
 * An exam's report PDF, or null when `path` is not a report its exam lists. It prints the reviewer statuses, which
 * change with every review and which a reviewer who may still review must not see: so it is built on every read from
 * the exam as it is then, through the reader's blinding (presentCervicalDetail, the detail's own), and never stored.
 */
export async function findCervicalReport(ctx: LazyFileContext, db: Db, path: string): Promise<LazyFile | null> {
  const match = EXAM_FILE_PATH.exec(path);
  if (match?.[1] !== 'cervical') return null;
  const id = Number(match[2]);
  const facts = await listedExamFacts(db, id, 'reports', path);
  // The files service checks the reader's scope (the file's organization) before it builds.
  const row = facts && (await findCervicalRow(db, { kind: 'all' }, id));
  if (!facts || !row) return null;
  return {
    readers: CERVICAL_LIST_ROLES,
    organizationId: facts.exam.organizationId,
    userId: facts.exam.technicianId,
    contentType: 'application/pdf',
    build: (reader: Actor) => buildExamPdf(ctx, facts, { kind: 'reports', row, reader }),
  };
}

/** The exam's facts when its file_path lists `path` as one of its `kind` files. */
async function listedExamFacts(db: Db, id: number, kind: 'reports' | 'consent_form', path: string) {
  const facts = await examFacts(db, id);
  const listed = facts?.exam.filePath[kind] ?? [];
  return listed.some((f) => f.path === path) ? facts : null;
}

async function examFacts(db: Db, id: number) {
  const [row] = await db
    .select({
      exam: cervicalExams,
      patient: patients,
      technician: sql<string | null>`(${users.firstName} || ' ' || ${users.lastName})`,
      organization: organizations,
    })
    .from(cervicalExams)
    .leftJoin(patients, eq(patients.id, cervicalExams.patientId))
    .leftJoin(users, eq(users.id, cervicalExams.technicianId))
    .leftJoin(organizations, eq(organizations.id, cervicalExams.organizationId))
    .where(eq(cervicalExams.id, id))
    .limit(1);
  return row ?? null;
}
type ExamFacts = NonNullable<Awaited<ReturnType<typeof examFacts>>>;

const yesNo = (v: boolean) => (v ? 'Yes' : 'No');

type ExamPdf = { kind: 'consent_form' } | { kind: 'reports'; row: CervicalRowData; reader: Actor };

async function buildExamPdf(ctx: LazyFileContext, f: ExamFacts, pdf: ExamPdf): Promise<Buffer> {
  const { kind } = pdf;
  const log = ctx.services?.log ?? quiet;
  const branding = f.organization ? await loadBranding(ctx.storage, f.organization, log) : null;
  const timezone = f.organization?.timezone ?? 'UTC';
  const name = f.patient ? `${f.patient.firstName} ${f.patient.lastName}`.trim() : `Exam ${f.exam.id}`;
  const title = kind === 'reports' ? 'Cervical exam report' : 'Consent form';
  const report = ReportDocument.create({
    title,
    subject: name,
    branding,
    timezone,
    generatedAt: ctx.now(),
    keywords: `${title}, cervical exam ${f.exam.id}`,
  });
  const bytes = readReport(report.stream);
  try {
    const { exam, patient } = f;
    report.section('Exam');
    report.fields([
      { label: 'Exam ID', value: exam.id },
      { label: 'Exam time', value: formatDateTime(exam.dateTime, timezone) },
      { label: 'Synced on', value: formatDateTime(exam.created, timezone) },
      { label: 'Technician', value: f.technician },
      { label: 'Organization', value: f.organization?.name ?? 'Not assigned to an organization' },
    ]);
    report.section('Patient');
    report.fields([
      { label: 'Name', value: name },
      { label: 'Age', value: patient?.age },
      { label: 'Mobile', value: patient?.mobile },
      { label: 'Survivor', value: yesNo(exam.isSurvivor) },
      { label: 'Family history', value: yesNo(exam.hasFamilyHistory) },
      { label: 'Symptoms', value: yesNo(exam.hasSymptoms) },
    ]);
    if (pdf.kind === 'reports') {
      const detail = presentCervicalDetail(pdf.row, viewerOf(pdf.reader));
      report.section('Review');
      report.fields([
        { label: 'Reviewer 1', value: reviewerStatusLabel(detail.reviewer_one_status) },
        { label: 'Reviewer 2', value: reviewerStatusLabel(detail.reviewer_two_status) },
        { label: 'Findings', value: detail.left_breast_finding.join('; ') || 'No finding' },
      ]);
      if (detail.notes.message?.trim()) report.paragraph(`Notes: ${detail.notes.message.trim()}`);
      report.section('Device');
      report.fields([
        { label: 'Device serial number', value: exam.deviceSerialNumber },
        { label: 'Software version', value: exam.softwareVersion },
        { label: 'Tablet serial number', value: exam.tabletSerialNumber },
      ]);
      report.paragraph('This is a screening report, not a diagnosis.', { muted: true });
    } else {
      report.section('Consent');
      const text = (f.organization?.localize.en?.cervaical_consent_form ?? []).filter((p) => p.trim());
      for (const p of text.length ? text : CERVICAL_CONSENT_TEXT) report.paragraph(p);
    }
    report.end();
  } catch (error) {
    report.fail(error instanceof Error ? error : new Error(String(error)));
  }
  return bytes;
}
