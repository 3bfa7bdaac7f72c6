// The audit trail (issue 27): who did what to which record, from where, with what outcome, and what changed.
// One contract for the API that writes and lists the rows and for the console's audit screen and History tabs.
import { z } from 'zod';
import type { TUserType } from './roles.ts';

// ---- Who may read the trail ------------------------------------------------------------------------------------------

/**
 * Who may open the audit screen and a record's History. ADMIN and SUB_ADMIN read every row (SUB_ADMIN is the
 * programme's second administrator; the trail is how they answer for the programme). DISTRIBUTOR_ADMIN and ORG_ADMIN
 * read the rows whose organization is in their scope (their distributor's organizations, their organization): the
 * changes and reads of their own records, never another scope's. Other roles have no audit screen.
 */
export const AUDIT_ROLES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'ORG_ADMIN'];
/** The roles that read every row; the others of AUDIT_ROLES read their scope's. */
export const AUDIT_ALL_ROWS_ROLES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN'];
/** Who may change the retention setting. */
export const AUDIT_SETTINGS_ROLES: readonly TUserType[] = ['ADMIN'];

export const canReadAudit = (t: TUserType): boolean => AUDIT_ROLES.includes(t);
export const readsEveryAuditRow = (t: TUserType): boolean => AUDIT_ALL_ROWS_ROLES.includes(t);

// ---- Actions and their groups ----------------------------------------------------------------------------------------

/**
 * An action is `<area>.<what>` (`patient.updated`, `sign_in.password`, `follow_up.case.read`). Its group, for the
 * screen's filter, is named by the area (the part before the first dot), except reads and exports of personal data,
 * which form their own group whatever their area: an action ending in `.read` or starting with `export.`.
 */
export const AUDIT_GROUPS = [
  'sign_in',
  'users',
  'organizations',
  'devices',
  'patients',
  'scans',
  'exams',
  'follow_up',
  'training',
  'bookings',
  'settings',
  'reads',
  'other',
] as const;
export type TAuditGroup = (typeof AUDIT_GROUPS)[number];

export const AUDIT_GROUP_LABELS: Record<TAuditGroup, string> = {
  sign_in: 'Sign-in and sessions',
  users: 'Users',
  organizations: 'Organizations',
  devices: 'Devices, firmware and licences',
  patients: 'Patients',
  scans: 'Scans',
  exams: 'Cervical and ORCA exams',
  follow_up: 'Follow-up',
  training: 'Training',
  bookings: 'Bookings',
  settings: 'Settings',
  reads: 'Reads and exports of personal data',
  other: 'Other',
};

/** The area (first segment of an action) → its group. An area not listed is 'other'. */
export const AUDIT_AREA_GROUPS: Record<string, TAuditGroup> = {
  sign_in: 'sign_in',
  password_reset: 'sign_in',
  account: 'sign_in',
  impersonation: 'sign_in',
  session: 'sign_in',
  user: 'users',
  organization: 'organizations',
  reference: 'organizations',
  webhook: 'organizations',
  device: 'devices',
  firmware: 'devices',
  app_version: 'devices',
  licence: 'devices',
  patient: 'patients',
  scan: 'scans',
  cervical: 'exams',
  orca: 'exams',
  follow_up: 'follow_up',
  tutorial: 'training',
  training: 'training',
  booking: 'bookings',
  language: 'settings',
  audit: 'settings',
  settings: 'settings',
};

export const isReadAction = (action: string): boolean => action.endsWith('.read') || action.startsWith('export.');

/** The group of an action: written on each row (`audit_log.action_group`) so the screen's filter is an index read. */
export function auditGroupOf(action: string): TAuditGroup {
  if (isReadAction(action)) return 'reads';
  return AUDIT_AREA_GROUPS[action.split('.', 1)[0] ?? ''] ?? 'other';
}

/** Reads of personal data (issue 27): each opening writes a row; the same read by the same user within the window folds. */
export const AUDIT_READ = {
  patient: 'patient.read',
  scan: 'scan.read',
  cervicalExam: 'cervical.exam.read',
  orcaExam: 'orca.exam.read',
  reportFile: 'file.report.read',
  consentFile: 'file.consent.read',
  /** A CSV export: details carry the report, its filters and the row count. */
  csv: 'export.csv',
} as const;
/** The same read (user, action, target) within this many seconds writes no second row. */
export const AUDIT_READ_FOLD_SECONDS = 60;

// ---- What a row holds ------------------------------------------------------------------------------------------------

/** Texts longer than this are cut in a row's changes and details (with AUDIT_CUT_MARK at the end). */
export const AUDIT_TEXT_MAX = 500;
export const AUDIT_CUT_MARK = '…';
/** Written instead of a value that must never be kept (a secret, a file's content). */
export const AUDIT_REDACTED = '[redacted]';

/** One changed field of a write: its value before and after (null when the record did not exist / no longer does). */
export const ZAuditChange = z.object({
  field: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditChange = z.infer<typeof ZAuditChange>;

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type TAuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/**
 * The kinds of record a row names (`target_type`). History tabs read a record's rows by (type, id); the screen's
 * target filter offers these.
 */
export const AUDIT_TARGET_TYPES = [
  'patient',
  'user',
  'organization',
  'device',
  'scan',
  'cervical_exam',
  'orca_exam',
  'follow_up_case',
  'licence',
  'firmware',
  'app_version',
  'language',
  'reference',
  'tutorial',
  'booking',
  'webhook_delivery',
  'file',
  'settings',
] as const;
export type TAuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const AUDIT_TARGET_LABELS: Record<TAuditTargetType, string> = {
  patient: 'Patient',
  user: 'User',
  organization: 'Organization',
  device: 'Device',
  scan: 'Scan',
  cervical_exam: 'Cervical exam',
  orca_exam: 'ORCA exam',
  follow_up_case: 'Follow-up case',
  licence: 'Licence',
  firmware: 'Firmware',
  app_version: 'App version',
  language: 'Language',
  reference: 'Reference',
  tutorial: 'Tutorial content',
  booking: 'Booking',
  webhook_delivery: 'Webhook delivery',
  file: 'File',
  settings: 'Settings',
};

// ---- Retention -------------------------------------------------------------------------------------------------------

/** The `settings` key of the retention (days; absent or null keeps every row, the default). */
export const AUDIT_RETENTION_SETTING = 'audit_retention_days';
/** The shortest retention allowed: a year, so a prune cannot erase what an inspection of the last year would ask for. */
export const AUDIT_RETENTION_MIN_DAYS = 365;
export const AUDIT_RETENTION_MAX_DAYS = 36_500;
export const AUDIT_RETENTION_MESSAGE = `Keep rows for ${AUDIT_RETENTION_MIN_DAYS} to ${AUDIT_RETENTION_MAX_DAYS} days, or leave empty to keep them all.`;
export const ZAuditRetention = z.object({
  retention_days: z
    .number({ error: AUDIT_RETENTION_MESSAGE })
    .int(AUDIT_RETENTION_MESSAGE)
    .min(AUDIT_RETENTION_MIN_DAYS, AUDIT_RETENTION_MESSAGE)
    .max(AUDIT_RETENTION_MAX_DAYS, AUDIT_RETENTION_MESSAGE)
    .nullable(),
});
export type TAuditRetention = z.infer<typeof ZAuditRetention>;
/** The action of the row a prune writes (details: {before, rows}). */
export const AUDIT_PRUNED = 'audit.pruned';
export const AUDIT_RETENTION_CHANGED = 'audit.retention_updated';
