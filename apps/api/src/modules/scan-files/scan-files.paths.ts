// Where a demo scan's files live (issue 8 "Demo data with files"). The demo names a scan's report, consent form and
// assessment file by the scan's id, in the folder a device would have uploaded them to (SCAN_FILE_FOLDERS), under a
// `demo/` segment that no upload can produce (uploads are one segment deep: 'reports/<random>_<time>_<name>'). Nothing
// is written when the demo loads: `GET file/?path=` of such a path builds the PDF from the scan's row and answers it
// without storing it (scan-files.service.ts), so a million-scan demo loads as fast as before. A patient's earlier
// mammogram report (most_recent_mammogram_report) is named and made the same way.
import { SCAN_FILE_FOLDERS, type TScanFileKind } from '@sc/shared/scans';

const FILE_STEMS = {
  reports: 'scan',
  consent_form: 'consent',
  assessment_files: 'assessment',
} as const satisfies Record<TScanFileKind, string>;

/** The path of a demo scan's file of `kind` ('reports/demo/scan_42.pdf'). */
export const demoScanFilePath = (kind: TScanFileKind, scanId: number): string =>
  `${SCAN_FILE_FOLDERS[kind]}/demo/${FILE_STEMS[kind]}_${scanId}.pdf`;

const DEMO_PATH =
  /^(reports\/demo\/scan|consent_forms\/demo\/consent|assessment_files\/demo\/assessment)_([1-9][0-9]{0,9})\.pdf$/;

const KIND_BY_PREFIX: Record<string, TScanFileKind> = {
  'reports/demo/scan': 'reports',
  'consent_forms/demo/consent': 'consent_form',
  'assessment_files/demo/assessment': 'assessment_files',
};

export type DemoScanFile = { kind: TScanFileKind; scanId: number };

/** The demo scan file a path names, or null for any other path. */
export function parseDemoScanFilePath(path: string): DemoScanFile | null {
  const match = DEMO_PATH.exec(path);
  if (!match?.[1] || !match[2]) return null;
  const kind = KIND_BY_PREFIX[match[1]];
  const scanId = Number(match[2]);
  if (!kind || !Number.isSafeInteger(scanId) || scanId > 2_147_483_647) return null;
  return { kind, scanId };
}

/** A patient's earlier mammogram report in the demo ('reports/demo/mammogram_42.pdf', patient 42). */
export const demoMammogramPath = (patientId: number): string => `reports/demo/mammogram_${patientId}.pdf`;

const MAMMOGRAM_PATH = /^reports\/demo\/mammogram_([1-9][0-9]{0,9})\.pdf$/;

/** The patient whose demo mammogram report a path names, or null for any other path. */
export function parseDemoMammogramPath(path: string): { patientId: number } | null {
  const match = MAMMOGRAM_PATH.exec(path);
  const patientId = Number(match?.[1]);
  if (!match || !Number.isSafeInteger(patientId) || patientId > 2_147_483_647) return null;
  return { patientId };
}
