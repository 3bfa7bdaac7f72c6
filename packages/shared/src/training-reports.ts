// Training and practice report PDFs of a user (part 2 §2.3, §6, §7: `user/training/report/pdf/{id}/` and
// `user/practice/report/pdf/{id}/`). The API builds them; the user dialog offers the download with the same rules.
import { SCAN_ID_PREFIX } from './constants.ts';
import type { TUserType } from './roles.ts';
import { USER_LIST_ROLES } from './users.ts';

export const TRAINING_REPORT_KINDS = ['training', 'practice'] as const;
export type TTrainingReportKind = (typeof TRAINING_REPORT_KINDS)[number];

/** The scan type each report lists. */
export const TRAINING_REPORT_SCAN_TYPE = { training: 'TRAINING', practice: 'PRACTICE' } as const satisfies Record<
  TTrainingReportKind,
  keyof typeof SCAN_ID_PREFIX
>;

/** Who may download: the roles that open the user dialog (the user list's roles), each within its scope. */
export const TRAINING_REPORT_ROLES: readonly TUserType[] = USER_LIST_ROLES;

/** Whose reports exist (part 2 §6: the download is shown for these targets when their counts exist). */
export const TRAINING_REPORT_TARGET_TYPES: readonly TUserType[] = ['TECHNICIAN', 'ORG_ADMIN', 'DISTRIBUTOR_ADMIN'];

export const TRAINING_REPORT_MESSAGES = {
  notForUserType: 'Training and practice reports exist only for Technician, ORG Admin and Distributor users.',
  noScans: {
    training: 'This user has no training scans to report.',
    practice: 'This user has no practice scans to report.',
  },
} as const satisfies { notForUserType: string; noScans: Record<TTrainingReportKind, string> };

export const TRAINING_REPORT_TITLES: Record<TTrainingReportKind, string> = {
  training: 'Training report',
  practice: 'Practice report',
};

/** The API path of a report, under /api/v1/ (the console opens it as a blob). */
export const trainingReportPath = (kind: TTrainingReportKind, userId: number): string =>
  `user/${kind}/report/pdf/${userId}/`;

/**
 * `training-report-<username>.pdf` / `practice-report-<username>.pdf`. The username is reduced to characters that
 * need no quoting in a Content-Disposition header (anything else becomes '_').
 */
export function trainingReportFilename(kind: TTrainingReportKind, username: string): string {
  const safe = username.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100) || 'user';
  return `${kind}-report-${safe}.pdf`;
}

// The result and status words live in labels.ts (one table per enum); re-exported for the PDFs' callers.
export { ASSESSMENT_RESULT_LABELS, TRAINING_STATUS_LABELS } from './labels.ts';

/** A scan's ID as the console shows it: the type's prefix and the number ('T-123', part 2 §9). */
export const scanDisplayId = (scanType: keyof typeof SCAN_ID_PREFIX, id: number): string =>
  `${SCAN_ID_PREFIX[scanType]}${id}`;

/**
 * The correct rate of a set of assessed scans: correct ÷ (correct + incorrect), in percent with one decimal, or
 * null when none was judged. Bypassed and unassessed scans have no verdict, so they count in neither part.
 */
export function correctRate(correct: number, incorrect: number): number | null {
  const judged = correct + incorrect;
  return judged === 0 ? null : Math.round((correct / judged) * 1000) / 10;
}
