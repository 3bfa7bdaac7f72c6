// The trash (issue 27): a delete moves the record and every row that goes with it out of the live tables (hidden
// from every list, count, statistic, export, map and device read at once); the trash view of its area lists it and
// restores it until TRASH_RETENTION_DAYS have passed, then a daily job purges it and its files. One contract for the
// API and the console's trash views.
import { z } from 'zod';
import { paginated, ZListQuery } from './list.ts';
import type { TUserType } from './roles.ts';

/** How long a deleted record can be restored. */
export const TRASH_RETENTION_DAYS = 30;

/** The trash views: one per area whose records can be deleted. */
export const TRASH_AREAS = ['patients', 'scans', 'exams', 'users'] as const;
export type TTrashArea = (typeof TRASH_AREAS)[number];

export const TRASH_AREA_LABELS: Record<TTrashArea, string> = {
  patients: 'Patients',
  scans: 'Duplicate scans',
  exams: 'Cervical and ORCA exams',
  users: 'Users',
};

/**
 * Who may open an area's trash and restore from it: the roles that may delete there (within their scope; ADMIN and
 * SUB_ADMIN see every organization). Patients, exams: ADMIN (`patient.delete`). Duplicate scans: ADMIN, SUB_ADMIN.
 * Users: ADMIN (a user deletes only their own account; no other role deletes users).
 */
export const TRASH_ROLES: Record<TTrashArea, readonly TUserType[]> = {
  patients: ['ADMIN'],
  scans: ['ADMIN', 'SUB_ADMIN'],
  exams: ['ADMIN'],
  users: ['ADMIN'],
};

/** Every role that has a trash view. */
export const TRASH_ANY_ROLES: readonly TUserType[] = [...new Set(TRASH_AREAS.flatMap((a) => TRASH_ROLES[a]))];

export const canOpenTrash = (role: TUserType, area: TTrashArea): boolean => TRASH_ROLES[area].includes(role);
/** The areas whose trash `role` may open. */
export const trashAreasOf = (role: TUserType): TTrashArea[] => TRASH_AREAS.filter((a) => canOpenTrash(role, a));

/** What a trash entry's record is. */
export const TRASH_TARGET_TYPES = ['patient', 'scan', 'cervical_exam', 'orca_exam', 'user'] as const;
export type TTrashTargetType = (typeof TRASH_TARGET_TYPES)[number];

export const TRASH_TARGET_LABELS: Record<TTrashTargetType, string> = {
  patient: 'Patient',
  scan: 'Duplicate scan',
  cervical_exam: 'Cervical exam',
  orca_exam: 'ORCA exam',
  user: 'User',
};

/** Who may delete a single cervical or ORCA exam (`DELETE cervaical/{id}/`, `DELETE orca/{id}/`). */
export const EXAM_DELETE_ROLES: readonly TUserType[] = ['ADMIN'];

export const TRASH_MESSAGES = {
  examDeleted: 'Exam Deleted Successfully',
  examDeleteConfirm: `Are you sure you want to delete this exam? It can be restored from the trash for ${TRASH_RETENTION_DAYS} days.`,
  title: (area: TTrashArea) => `Trash: ${TRASH_AREA_LABELS[area]}`,
  empty: 'The trash is empty.',
  retention: `Deleted records can be restored for ${TRASH_RETENTION_DAYS} days, then they and their files are deleted for good.`,
  restoreConfirm: (label: string) => `Restore ${label}? It will be back in every list, count and statistic.`,
  restored: 'Restored Successfully',
  /** The record's organization was deleted meanwhile. */
  organizationGone: 'It cannot be restored: its organization no longer exists.',
  /** A row it refers to (a patient, a parent scan, a technician…) is gone. */
  referenceGone: (what: string) => `It cannot be restored: its ${what} no longer exists.`,
  /** A unique value it holds (a mobile, an email, a serial) is now taken by another record. */
  valueTaken: (what: string) => `It cannot be restored: ${what} is now used by another record.`,
  /** A record with its id exists again (restored already). */
  alreadyBack: 'It cannot be restored: the record is already there.',
} as const;

export const ZTrashArea = z.enum(TRASH_AREAS, { error: `Select a valid choice: ${TRASH_AREAS.join(', ')}.` });

/** `GET trash/{area}/`: page, limit, and a search of the labels (using_read_db is taken and ignored: the primary). */
export const ZTrashQuery = ZListQuery.pick({ page: true, limit: true, search: true, using_read_db: true });
export type TTrashQuery = z.infer<typeof ZTrashQuery>;

export const isTrashArea = (value: string): value is TTrashArea => (TRASH_AREAS as readonly string[]).includes(value);

export const ZTrashEntry = z.object({
  id: z.number(),
  area: ZTrashArea,
  target_type: z.enum(TRASH_TARGET_TYPES),
  target_id: z.number(),
  label: z.string(),
  organization_id: z.number().nullable(),
  deleted_by: z.object({ id: z.number(), name: z.string() }).nullable(),
  deleted_at: z.string(),
  purge_after: z.string(),
  /** Rows of each table that went with it (e.g. { scans: 3, cervical_exams: 1 }). */
  counts: z.record(z.string(), z.number()),
});
export type TTrashEntry = z.infer<typeof ZTrashEntry>;

export const ZTrashList = paginated(ZTrashEntry);
export type TTrashList = z.infer<typeof ZTrashList>;

export const ZExamDeleted = z.object({ detail: z.string(), id: z.number() });
export type TExamDeleted = z.infer<typeof ZExamDeleted>;

export const ZTrashRestored = z.object({
  detail: z.string(),
  target_type: z.enum(TRASH_TARGET_TYPES),
  target_id: z.number(),
});
export type TTrashRestored = z.infer<typeof ZTrashRestored>;

/**
 * The last segment of the trash's audit actions, after the record's area (`patient.restored`, `cervical.exam.purged`).
 * A delete keeps its area's existing action (`patient.deleted`, `scan.duplicate_deleted`…).
 */
export const TRASH_AUDIT = { restored: 'restored', purged: 'purged' } as const;
