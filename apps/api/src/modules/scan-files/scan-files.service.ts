// Demo scan files built on read (issue 8 "Demo data with files"; scan-files.paths.ts). The files service asks here
// when `GET file/?path=` names a path that has no files row: if the path is a demo scan file that the scan's own
// scan_files_path lists, this says whose file it is (the scan, read by the breast scan readers; the scan's
// technician as its uploader: the same rule as a file the device uploaded) and builds its PDF. The files service
// checks that the caller may read it before anything is built, and answers it without storing it (issue 22.11).
// A path naming a scan that does not list it (another id, a file kind the scan has none of) is not a file: 404.
// A patient's demo mammogram report (most_recent_mammogram_report) is made the same way from the patient's row.
import { PATIENT_ACTIONS } from '@sc/shared/patients';
import type { TUserType } from '@sc/shared/roles';
import { SCAN_LIST_ROLES } from '@sc/shared/scans';
import type { AppContext } from '../../app.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import type { ScanFilesPath } from '../../db/schema/scans.ts';
import { isSafeStorageKey } from '../../services/storage/storage-key.ts';
import { setFileOrganization } from '../files/files.queries.ts';
import type { ServiceLogger } from '../../services/logger.ts';
import type { Storage } from '../../services/storage/storage.ts';
import { buildMammogramReport, buildScanDocument } from './scan-documents.ts';
import { parseDemoMammogramPath, parseDemoScanFilePath } from './scan-files.paths.ts';
import { findConsentText, findPatientFacts, findScanFacts } from './scan-files.queries.ts';

export type LazyFile = {
  /** The roles that read the record the file belongs to (its organization must be in their scope). */
  readers: readonly TUserType[];
  organizationId: number | null;
  userId: number | null;
  contentType: string;
  /**
   * The file's bytes as `reader` may see them, built from the database when called (a cervical exam's report follows
   * its reviews and the reader's blinding; the other files ignore the reader).
   */
  build: (reader: Actor) => Promise<Buffer>;
};

export type LazyFileContext = Pick<AppContext, 'database' | 'now'> & {
  storage: Storage;
  services?: Pick<AppContext['services'], 'log'>;
};

const quietLog: ServiceLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

const documentContext = (ctx: LazyFileContext) => ({
  storage: ctx.storage,
  log: ctx.services?.log ?? quietLog,
  generatedAt: ctx.now(),
});

/** The demo file at `path` (a scan's file, a patient's mammogram report), or null when nothing lists such a file. */
export async function findLazyScanFile(ctx: LazyFileContext, db: Db, path: string): Promise<LazyFile | null> {
  const mammogram = parseDemoMammogramPath(path);
  if (mammogram) return findLazyMammogram(ctx, db, path, mammogram.patientId);
  const demo = parseDemoScanFilePath(path);
  if (!demo) return null;
  const scan = await findScanFacts(db, demo.scanId);
  if (!scan) return null;
  const listed = scan.scanFilesPath[demo.kind] ?? [];
  if (!listed.some((file) => file.path === path)) return null;
  return {
    readers: SCAN_LIST_ROLES,
    organizationId: scan.organizationId,
    userId: scan.technicianId,
    contentType: 'application/pdf',
    build: async () => {
      const consentText = demo.kind === 'consent_form' ? await findConsentText(db, 'en') : [];
      return buildScanDocument(documentContext(ctx), demo.kind, { scan, consentText });
    },
  };
}

/** A patient's demo mammogram report: the patient's organization's, uploaded by the patient's technician. */
async function findLazyMammogram(
  ctx: LazyFileContext,
  db: Db,
  path: string,
  patientId: number,
): Promise<LazyFile | null> {
  const patient = await findPatientFacts(db, patientId);
  if (!patient?.mostRecentMammogramReport.includes(path)) return null;
  return {
    readers: PATIENT_ACTIONS['patient.read'],
    organizationId: patient.organizationId,
    userId: patient.technicianId,
    contentType: 'application/pdf',
    build: () => buildMammogramReport(documentContext(ctx), patient),
  };
}

/** Every path a scan's scan_files_path lists. */
export const scanFilePaths = (paths: ScanFilesPath): string[] =>
  [...(paths.reports ?? []), ...(paths.consent_form ?? []), ...(paths.assessment_files ?? [])].map(
    (f) => f.path,
  );

/**
 * For a scan transfer: the scan's files follow it to `organizationId`, so the new organization's users read them and
 * the old one's no longer do (files not built yet take the scan's organization when they are).
 */
export async function moveScanFiles(db: DbOrTx, paths: ScanFilesPath, organizationId: number): Promise<void> {
  await moveFiles(db, scanFilePaths(paths), organizationId);
}

/** Files at `paths` (scan files, a patient's mammogram reports) now belong to `organizationId`. */
export async function moveFiles(db: DbOrTx, paths: readonly string[], organizationId: number): Promise<void> {
  for (const path of paths) {
    if (isSafeStorageKey(path)) await setFileOrganization(db, path, organizationId);
  }
}
