// The audit trail (issue 27): who did what to which record, from where, with what outcome, and what changed.
// One contract for the API that writes and lists the rows and for the console's audit screen and History tabs.
import { z } from 'zod';
import { ZBoolParam, ZPeriodQuery, decimalIntParam, idParam, paginated } from './list.ts';
import { ZUserType, type TUserType } from './roles.ts';

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

// ---- The list (audit screen and History tabs) -----------------------------------------------------------------------

/** The audit list's paths: the screen, one row, and the retention setting. History tabs read the list by target. */
export const AUDIT_PATHS = { list: '/audit/', row: (id: number) => `/audit/${id}/`, settings: '/audit/settings/' } as const;

/** Rows a page: 50 by default, at most 200. */
export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_MAX_PAGE_SIZE = 200;
/**
 * Keyset pages: newest first by id. `before=<id>` reads the rows older than that id (the next page), `after=<id>` the
 * rows newer (the previous page); `next` and `previous` in the answer are these links. The count is exact up to
 * AUDIT_COUNT_AHEAD rows past the page, then `count_capped: true` (ten million rows are not counted a page).
 */
export const AUDIT_COUNT_AHEAD = 1000;

const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `Select a valid choice: ${values.join(', ')}.` });

export const ZAuditListQuery = ZPeriodQuery.pick({ created_after: true, created_before: true, day: true, month: true }).extend({
  limit: decimalIntParam('limit', 1, AUDIT_MAX_PAGE_SIZE).default(AUDIT_PAGE_SIZE),
  before: idParam('before').optional(),
  after: idParam('after').optional(),
  group: choice(AUDIT_GROUPS).optional(),
  /** One action exactly (`patient.updated`). */
  action: z.string().trim().max(100).regex(/^[a-z_.]+$/, 'Enter a valid action.').optional(),
  /** The user who acted, or who impersonated the one who did. */
  actor: idParam('actor').optional(),
  target_type: choice(AUDIT_TARGET_TYPES).optional(),
  /** Needs target_type. */
  target_id: z.string().trim().max(40).regex(/^[A-Za-z0-9_-]+$/, 'Enter a valid id.').optional(),
  organization: idParam('organization').optional(),
  outcome: choice(AUDIT_OUTCOMES).optional(),
  format: choice(['json', 'csv'] as const).optional(),
  using_read_db: ZBoolParam.optional(),
});
export type TAuditListQuery = z.infer<typeof ZAuditListQuery>;
export const AUDIT_TARGET_ID_NEEDS_TYPE = 'Choose the target type too.';

const ZAuditPerson = z.object({ id: z.number(), name: z.string(), user_type: ZUserType.nullable() });

export const ZAuditRow = z.object({
  id: z.number(),
  /** ISO instant. */
  created: z.string(),
  action: z.string(),
  action_group: choice(AUDIT_GROUPS),
  /** Who acted; null for the system (jobs) or a sign-in by an unknown name. A deleted user keeps their name. */
  actor: ZAuditPerson.nullable(),
  /** Who was acting as `actor` (impersonation). */
  impersonator: ZAuditPerson.nullable(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  organization: z.object({ id: z.number(), name: z.string() }).nullable(),
  outcome: choice(AUDIT_OUTCOMES),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  changes: z.array(ZAuditChange),
});
export type TAuditRow = z.infer<typeof ZAuditRow>;
export const ZAuditPage = paginated(ZAuditRow);

export const AUDIT_CSV_HEADER = [
  'id',
  'when',
  'action',
  'group',
  'actor_id',
  'actor',
  'impersonator',
  'target_type',
  'target_id',
  'organization',
  'outcome',
  'address',
  'changed_fields',
] as const;

/** `before` and `after` together: a page is read one way. */
export const AUDIT_KEYSET_BOTH = 'Use before or after, not both.';
/** The CSV download's file name (with its period or day, as every CSV). */
export const AUDIT_CSV_FILENAME = 'audit_log.csv';
/** The CSV's columns of times (their header names the reader's zone). */
export const AUDIT_CSV_TIME_COLUMNS: readonly string[] = ['when'];
/** GET/PUT audit/settings/: the retention (null keeps every row). */
export const ZAuditSettings = ZAuditRetention;
