// Drizzle queries of device exam uploads: a cervical exam with its documents, an ORCA exam with its case history and
// findings, each inserted once per (device serial, local_db_id), and the organization's licences left. All run in
// the upload's transaction.
import { and, eq, sql } from 'drizzle-orm';
import type { TExamApplication } from '@sc/shared/exam-uploads';
import type { DbOrTx } from '../../db/client.ts';
import {
  cervicalDocuments,
  cervicalExams,
  licences,
  orcaCaseHistories,
  orcaExams,
  orcaFindings,
} from '../../db/schema/index.ts';

export type CervicalExamInsert = typeof cervicalExams.$inferInsert;
export type CervicalDocumentInsert = Omit<typeof cervicalDocuments.$inferInsert, 'examId'>;
export type OrcaExamInsert = typeof orcaExams.$inferInsert;
export type OrcaCaseHistoryInsert = Omit<typeof orcaCaseHistories.$inferInsert, 'examId'>;
export type OrcaFindingInsert = Omit<typeof orcaFindings.$inferInsert, 'examId'>;

/** What an upload answers about a stored exam, and what tells a repeated upload from a different one. */
export type StoredExam = {
  id: number;
  patientId: number | null;
  organizationId: number | null;
  technicianId: number | null;
  deviceSerialNumber: string | null;
  localDbId: string | null;
  dateTime: Date;
  created: Date;
  filePath: unknown;
  licenseId: number | null;
  licenceCode: string | null;
  currentReportCount: number | null;
};

type ExamRow = Omit<StoredExam, 'licenseId' | 'licenceCode' | 'currentReportCount'> &
  Partial<Pick<StoredExam, 'licenseId' | 'licenceCode' | 'currentReportCount'>>;

function toStored(row: ExamRow): StoredExam {
  return {
    id: row.id,
    patientId: row.patientId,
    organizationId: row.organizationId,
    technicianId: row.technicianId,
    deviceSerialNumber: row.deviceSerialNumber,
    localDbId: row.localDbId,
    dateTime: row.dateTime,
    created: row.created,
    filePath: row.filePath,
    licenseId: row.licenseId ?? null,
    licenceCode: row.licenceCode ?? null,
    currentReportCount: row.currentReportCount ?? null,
  };
}

/**
 * Inserts the exam unless (device serial, local_db_id) is taken: null then. A concurrent insert of the same pair
 * waits on the unique index for the first transaction and then inserts nothing.
 */
export async function insertCervicalExam(
  tx: DbOrTx,
  exam: CervicalExamInsert,
  documents: readonly CervicalDocumentInsert[],
): Promise<StoredExam | null> {
  const [row] = await tx
    .insert(cervicalExams)
    .values(exam)
    .onConflictDoNothing({ target: [cervicalExams.deviceSerialNumber, cervicalExams.localDbId] })
    .returning();
  if (!row) return null;
  if (documents.length > 0) {
    await tx.insert(cervicalDocuments).values(documents.map((d) => ({ ...d, examId: row.id })));
  }
  return toStored(row);
}

export async function findCervicalExam(
  tx: DbOrTx,
  serial: string,
  localDbId: string,
): Promise<StoredExam | null> {
  const [row] = await tx
    .select()
    .from(cervicalExams)
    .where(and(eq(cervicalExams.deviceSerialNumber, serial), eq(cervicalExams.localDbId, localDbId)))
    .limit(1);
  return row ? toStored(row) : null;
}

export async function insertOrcaExam(
  tx: DbOrTx,
  exam: OrcaExamInsert,
  history: OrcaCaseHistoryInsert | null,
  findings: readonly OrcaFindingInsert[],
): Promise<StoredExam | null> {
  const [row] = await tx
    .insert(orcaExams)
    .values(exam)
    .onConflictDoNothing({ target: [orcaExams.deviceSerialNumber, orcaExams.localDbId] })
    .returning();
  if (!row) return null;
  if (history) await tx.insert(orcaCaseHistories).values({ ...history, examId: row.id });
  if (findings.length > 0)
    await tx.insert(orcaFindings).values(findings.map((f) => ({ ...f, examId: row.id })));
  return row;
}

export async function findOrcaExam(
  tx: DbOrTx,
  serial: string,
  localDbId: string,
): Promise<StoredExam | null> {
  const [row] = await tx
    .select()
    .from(orcaExams)
    .where(and(eq(orcaExams.deviceSerialNumber, serial), eq(orcaExams.localDbId, localDbId)))
    .limit(1);
  return row ? toStored(row) : null;
}

/** The licence a device just took: which one and how many of it are now used. */
export async function setOrcaLicence(
  tx: DbOrTx,
  examId: number,
  licence: { id: number; code: string; used: number },
): Promise<void> {
  await tx
    .update(orcaExams)
    .set({ licenseId: licence.id, licenceCode: licence.code, currentReportCount: licence.used })
    .where(eq(orcaExams.id, examId));
}

/** Licences of `application` the organization has left (active ones). */
export async function countLicencesLeft(
  tx: DbOrTx,
  organizationId: number,
  application: TExamApplication,
): Promise<number> {
  const [row] = await tx
    .select({ left: sql<number>`coalesce(sum(${licences.count}), 0)::integer` })
    .from(licences)
    .where(
      and(
        eq(licences.organizationId, organizationId),
        eq(licences.application, application),
        eq(licences.isActive, true),
      ),
    );
  return Number(row?.left ?? 0);
}
