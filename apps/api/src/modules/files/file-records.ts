// The records a stored file belongs to (issue 22.2): a file is readable by whoever may read one of them, decided by
// the record (its kind's readers, its organization in the caller's scope), never by the folder or the file's own
// row. A breast scan's report and an ORCA exam's report share the 'reports' folder but not their readers: a
// CERVAICAL_REVIEWER reads cervical exams, not breast scans, patients or ORCA exams.
// The kinds' readers are the roles their own routes admit (packages/shared): one rule for the record and its files.
import { and, eq, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { CERVICAL_LIST_ROLES } from '@sc/shared/cervical';
import { ORCA_LIST_ROLES } from '@sc/shared/orca';
import { PATIENT_ACTIONS } from '@sc/shared/patients';
import { CONSOLE_ROLES, type TUserType } from '@sc/shared/roles';
import { SCAN_LIST_ROLES } from '@sc/shared/scans';
import type { Db } from '../../db/client.ts';
import {
  cervicalDocuments,
  cervicalExams,
  orcaExams,
  orcaFindings,
  organizations,
  patients,
  scans,
} from '../../db/schema/index.ts';
import type { Actor } from '../../http/actor.ts';
import { isInScope, orgScopeCondition, type Scope } from '../../http/scope.ts';

type FileRecordKind = {
  readers: readonly TUserType[];
  /** Whether a record of this kind, with its organization column passing `inScope`, lists `path`. */
  lists: (db: Db, path: string, inScope: (organizationId: AnyColumn) => SQL) => Promise<boolean>;
};

/** `column @> {key: [{path}]}` for any of `keys`: a jsonb file list ({reports: [{path}], …}) naming the path. */
const listsIn = (column: AnyColumn, keys: readonly string[], path: string): SQL =>
  or(...keys.map((key) => sql`${column} @> ${JSON.stringify({ [key]: [{ path }] })}::jsonb`)) ?? sql`false`;

async function any(query: Promise<unknown[]>): Promise<boolean> {
  return (await query).length > 0;
}

const FILE_RECORD_KINDS: readonly FileRecordKind[] = [
  {
    // A breast scan's report, consent form and assessment files (scan_files_path).
    readers: SCAN_LIST_ROLES,
    lists: (db, path, inScope) =>
      any(
        db
          .select({ id: scans.id })
          .from(scans)
          .where(and(inScope(scans.organizationId), listsIn(scans.scanFilesPath, ['reports', 'consent_form', 'assessment_files'], path)))
          .limit(1),
      ),
  },
  {
    // A patient's earlier mammogram reports.
    readers: PATIENT_ACTIONS['patient.read'],
    lists: (db, path, inScope) =>
      any(
        db
          .select({ id: patients.id })
          .from(patients)
          .where(and(inScope(patients.organizationId), sql`${patients.mostRecentMammogramReport} @> ${JSON.stringify([path])}::jsonb`))
          .limit(1),
      ),
  },
  {
    // An ORCA exam's report and consent form, and its findings' photos.
    readers: ORCA_LIST_ROLES,
    lists: async (db, path, inScope) =>
      (await any(
        db
          .select({ id: orcaExams.id })
          .from(orcaExams)
          .where(and(inScope(orcaExams.organizationId), listsIn(orcaExams.filePath, ['reports', 'consent_form'], path)))
          .limit(1),
      )) ||
      any(
        db
          .select({ id: orcaFindings.id })
          .from(orcaFindings)
          .innerJoin(orcaExams, eq(orcaExams.id, orcaFindings.examId))
          .where(and(inScope(orcaExams.organizationId), eq(orcaFindings.path, path)))
          .limit(1),
      ),
  },
  {
    // A cervical exam's report and consent form, and its photos and videos (the documents reviewers review).
    readers: CERVICAL_LIST_ROLES,
    lists: async (db, path, inScope) =>
      (await any(
        db
          .select({ id: cervicalExams.id })
          .from(cervicalExams)
          .where(and(inScope(cervicalExams.organizationId), listsIn(cervicalExams.filePath, ['reports', 'consent_form'], path)))
          .limit(1),
      )) ||
      any(
        db
          .select({ id: cervicalDocuments.id })
          .from(cervicalDocuments)
          .innerJoin(cervicalExams, eq(cervicalExams.id, cervicalDocuments.examId))
          .where(and(inScope(cervicalExams.organizationId), eq(cervicalDocuments.path, path)))
          .limit(1),
      ),
  },
  {
    // An organization's logo and customized-message QR image: whoever may read the organization.
    readers: CONSOLE_ROLES,
    lists: (db, path, inScope) =>
      any(
        db
          .select({ id: organizations.id })
          .from(organizations)
          .where(
            and(
              inScope(organizations.id),
              or(
                sql`${organizations.companyInfo} ->> 'profile_image_path' = ${path}`,
                eq(organizations.customizedMessageQrPath, path),
              ),
            ),
          )
          .limit(1),
      ),
  },
];

/**
 * Whether `actor` may read a record that lists the stored file at `path`. A caller who reads every kind of record
 * in every organization (ADMIN, SUB_ADMIN) reads any file without a look-up; anyone else needs a record of a kind
 * their role reads, in their scope. A file no record lists yet (an upload before its scan is sent) is its
 * uploader's only: the caller checks that first.
 */
export async function mayReadRecordListing(db: Db, actor: Actor, scope: Scope, path: string): Promise<boolean> {
  if (scope.kind === 'none') return false;
  const kinds = FILE_RECORD_KINDS.filter((kind) => kind.readers.includes(actor.userType));
  if (scope.kind === 'all' && kinds.length === FILE_RECORD_KINDS.length) return true;
  const inScope = (column: AnyColumn) => orgScopeCondition(scope, column);
  for (const kind of kinds) if (await kind.lists(db, path, inScope)) return true;
  return false;
}

/** The same rule for a record already found (a demo file names its record): its readers, its organization in scope. */
export async function mayReadRecord(
  db: Db,
  actor: Actor,
  scope: Scope,
  record: { readers: readonly TUserType[]; organizationId: number | null },
): Promise<boolean> {
  if (!record.readers.includes(actor.userType)) return false;
  return record.organizationId === null ? scope.kind === 'all' : isInScope(db, scope, record.organizationId);
}
