// Drizzle queries of the follow-up worklist: cases in the caller's scope with the list's filters, one case with its
// sources and timeline, the users a case may be assigned to, and the set-based due recompute after an organization
// changes its intervals. Reads take the caller's scope: a case of an organization outside it does not exist for them.
import { and, asc, count, eq, gte, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  ACTIVE_FOLLOW_UP_STATUSES,
  CLOSING_FOLLOW_UP_STATUSES,
  FOLLOW_UP_ROLES,
  type TFollowUpListQuery,
  type TFollowUpSettings,
} from '@sc/shared/follow-up';
import type { DbOrTx } from '../../db/client.ts';
import {
  cervicalExams,
  followUpCaseSources,
  followUpCases,
  followUpEntries,
  managerOrganizations,
  orcaExams,
  organizations,
  patients,
  scans,
  users,
} from '../../db/schema/index.ts';
import type { PeriodRange } from '../../http/period.ts';
import { orgScopeCondition, type Scope } from '../../http/scope.ts';
import { patientSearchCondition } from '../patients/patients.queries.ts';

const assignee = alias(users, 'assignee');

export const caseColumns = {
  id: followUpCases.id,
  patientId: followUpCases.patientId,
  organizationId: followUpCases.organizationId,
  status: followUpCases.status,
  statusChanged: followUpCases.statusChanged,
  modalities: followUpCases.modalities,
  openedAt: followUpCases.openedAt,
  assignedUserId: followUpCases.assignedUserId,
  nextDue: followUpCases.nextDue,
  dueAt: followUpCases.dueAt,
  lastActionKind: followUpCases.lastActionKind,
  lastActionAt: followUpCases.lastActionAt,
  outcome: followUpCases.outcome,
  outcomeSite: followUpCases.outcomeSite,
  diagnosisDate: followUpCases.diagnosisDate,
  diagnosisFacility: followUpCases.diagnosisFacility,
  closedAt: followUpCases.closedAt,
  patientFirstName: patients.firstName,
  patientLastName: patients.lastName,
  patientMobile: patients.mobile,
  organizationName: organizations.name,
  organizationTimezone: organizations.timezone,
  assigneeFirstName: assignee.firstName,
  assigneeLastName: assignee.lastName,
};
export type CaseListRow = { [K in keyof typeof caseColumns]: (typeof caseColumns)[K]['_']['data'] | null } & {
  id: number;
  patientId: number;
  status: (typeof followUpCases.$inferSelect)['status'];
  statusChanged: Date;
  modalities: (typeof followUpCases.$inferSelect)['modalities'];
  openedAt: Date;
  patientFirstName: string;
  patientLastName: string;
};

/**
 * Ordering fields. next_due sorts by due_at: ascending puts the longest overdue at the top and, PostgreSQL's default
 * for ascending, the closing cases (no due date) last; follow_up_cases_due_idx serves it.
 */
export const followUpOrderingFields = {
  id: followUpCases.id,
  opened: followUpCases.openedAt,
  next_due: followUpCases.dueAt,
  last_action: followUpCases.lastActionAt,
  status: followUpCases.status,
  first_name: patients.firstName,
};

export type CaseFilters = Omit<
  TFollowUpListQuery,
  'page' | 'limit' | 'ordering' | 'format' | 'date_time_after' | 'date_time_before' | 'day' | 'month'
> & { opened: PeriodRange; now: Date };

const sourceCondition = (kind: 'SCAN' | 'CERVICAL' | 'ORCA', id: number): SQL =>
  sql`${followUpCases.id} in (select ${followUpCaseSources.caseId} from ${followUpCaseSources} where ${followUpCaseSources.kind} = ${kind} and ${followUpCaseSources.sourceId} = ${id})`;

export function caseListWhere(scope: Scope, f: CaseFilters): SQL | undefined {
  const term = f.search?.trim();
  let status: SQL | undefined;
  if (f.status === 'active') status = inArray(followUpCases.status, [...ACTIVE_FOLLOW_UP_STATUSES]);
  else if (f.status === 'closing') status = inArray(followUpCases.status, [...CLOSING_FOLLOW_UP_STATUSES]);
  else if (f.status !== undefined) status = eq(followUpCases.status, f.status);
  return and(
    orgScopeCondition(scope, followUpCases.organizationId),
    status,
    f.overdue === true ? lte(followUpCases.dueAt, f.now) : undefined,
    f.overdue === false ? or(isNull(followUpCases.dueAt), sql`${followUpCases.dueAt} > ${f.now}`) : undefined,
    f.due_after ? gte(followUpCases.nextDue, f.due_after) : undefined,
    f.due_before ? lte(followUpCases.nextDue, f.due_before) : undefined,
    f.organization === undefined ? undefined : eq(followUpCases.organizationId, f.organization),
    f.assigned_user === 'none' ? isNull(followUpCases.assignedUserId) : undefined,
    typeof f.assigned_user === 'number' ? eq(followUpCases.assignedUserId, f.assigned_user) : undefined,
    f.modality ? sql`${followUpCases.modalities} @> array[${f.modality}]::text[]` : undefined,
    f.patient === undefined ? undefined : eq(followUpCases.patientId, f.patient),
    f.opened.from ? gte(followUpCases.openedAt, f.opened.from) : undefined,
    f.opened.to ? lt(followUpCases.openedAt, f.opened.to) : undefined,
    f.scan === undefined ? undefined : sourceCondition('SCAN', f.scan),
    f.cervical_exam === undefined ? undefined : sourceCondition('CERVICAL', f.cervical_exam),
    f.orca_exam === undefined ? undefined : sourceCondition('ORCA', f.orca_exam),
    term ? patientSearchCondition(term) : undefined,
  );
}

export function caseSelect(db: DbOrTx) {
  return db
    .select(caseColumns)
    .from(followUpCases)
    .innerJoin(patients, eq(patients.id, followUpCases.patientId))
    .leftJoin(organizations, eq(organizations.id, followUpCases.organizationId))
    .leftJoin(assignee, eq(assignee.id, followUpCases.assignedUserId));
}

/**
 * The list's count. Every case has its patient (not null, cascading), so the join is made only for a search, which
 * reads the patient's name: without it the count is an index-only scan of follow_up_cases (10 ms for the 105,000
 * cases of a million scans, where the join cost 250 ms).
 */
export async function countCases(db: DbOrTx, where: SQL | undefined, searchesPatients: boolean): Promise<number> {
  const from = db.select({ n: count() }).from(followUpCases);
  const [row] = await (searchesPatients ? from.innerJoin(patients, eq(patients.id, followUpCases.patientId)) : from).where(where);
  return row?.n ?? 0;
}

export async function listCases(
  db: DbOrTx,
  where: SQL | undefined,
  orderBy: SQL[],
  limit: number,
  offset: number,
): Promise<CaseListRow[]> {
  return (await caseSelect(db).where(where).orderBy(...orderBy).limit(limit).offset(offset)) as CaseListRow[];
}

export async function findCase(db: DbOrTx, scope: Scope, id: number): Promise<CaseListRow | null> {
  const [row] = await caseSelect(db)
    .where(and(eq(followUpCases.id, id), orgScopeCondition(scope, followUpCases.organizationId)))
    .limit(1);
  return (row as CaseListRow | undefined) ?? null;
}

/** The case row, locked until the transaction ends: two moves of one case queue here and the second sees the first. */
export async function lockCase(tx: DbOrTx, id: number) {
  const [row] = await tx.select().from(followUpCases).where(eq(followUpCases.id, id)).for('update').limit(1);
  return row ?? null;
}

export async function updateCase(tx: DbOrTx, id: number, values: Partial<typeof followUpCases.$inferInsert>): Promise<void> {
  await tx.update(followUpCases).set(values).where(eq(followUpCases.id, id));
}

/** The positives behind a case, oldest first, each with its date_time; a deleted scan or exam is skipped. */
export async function caseSources(db: DbOrTx, caseId: number) {
  const s = followUpCaseSources;
  return db
    .select({
      kind: s.kind,
      id: s.sourceId,
      dateTime: sql<Date>`coalesce(${scans.dateTime}, ${cervicalExams.dateTime}, ${orcaExams.dateTime}, ${s.screenedAt})`.mapWith(
        (v: string | Date) => new Date(v),
      ),
    })
    .from(s)
    .leftJoin(scans, and(eq(s.kind, 'SCAN'), eq(scans.id, s.sourceId)))
    .leftJoin(cervicalExams, and(eq(s.kind, 'CERVICAL'), eq(cervicalExams.id, s.sourceId)))
    .leftJoin(orcaExams, and(eq(s.kind, 'ORCA'), eq(orcaExams.id, s.sourceId)))
    .where(
      and(
        eq(s.caseId, caseId),
        sql`(${scans.id} is not null or ${cervicalExams.id} is not null or ${orcaExams.id} is not null)`,
      ),
    )
    .orderBy(asc(s.screenedAt), asc(s.id));
}

/** The whole timeline, oldest first, with the writer's name and the later entries correcting each one. */
export async function caseTimeline(db: DbOrTx, caseId: number) {
  const e = followUpEntries;
  const later = alias(followUpEntries, 'later');
  return db
    .select({
      id: e.id,
      kind: e.kind,
      created: e.created,
      actorId: e.actorId,
      actorFirstName: users.firstName,
      actorLastName: users.lastName,
      fromStatus: e.fromStatus,
      toStatus: e.toStatus,
      data: e.data,
      note: e.note,
      correctsId: e.correctsId,
      correctedBy: sql<number[]>`coalesce((select array_agg(${later.id} order by ${later.id}) from ${followUpEntries} as ${sql.identifier('later')} where ${later.correctsId} = ${e.id}), '{}')`,
    })
    .from(e)
    .leftJoin(users, eq(users.id, e.actorId))
    .where(eq(e.caseId, caseId))
    .orderBy(asc(e.created), asc(e.id));
}

export async function entryOfCase(db: DbOrTx, caseId: number, entryId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: followUpEntries.id })
    .from(followUpEntries)
    .where(and(eq(followUpEntries.id, entryId), eq(followUpEntries.caseId, caseId)))
    .limit(1);
  return row !== undefined;
}

/**
 * Users who may follow up a case of `organizationId`: active (valid, not deleted) users of a follow-up role whose
 * scope holds it — ADMIN and SUB_ADMIN (every organization), a DISTRIBUTOR_ADMIN of it or an ancestor, a MANAGER
 * linked to it or an ancestor, its own ORG_ADMIN. `userId` narrows to one user (the PATCH's check).
 */
export async function assignees(db: DbOrTx, organizationId: number, userId?: number) {
  const target = alias(organizations, 'target');
  const own = alias(organizations, 'own');
  const linked = sql`exists (select 1 from ${managerOrganizations} join ${organizations} as ${sql.identifier('linked')} on ${sql.identifier('linked')}.id = ${managerOrganizations.organizationId} where ${managerOrganizations.userId} = ${users.id} and ${target.treePath} like ${sql.identifier('linked')}.tree_path || '%')`;
  return db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, userType: users.userType })
    .from(users)
    .innerJoin(target, eq(target.id, organizationId))
    .leftJoin(own, eq(own.id, users.organizationId))
    .where(
      and(
        eq(users.isValid, true),
        isNull(users.deletedAt),
        inArray(users.userType, [...FOLLOW_UP_ROLES]),
        userId === undefined ? undefined : eq(users.id, userId),
        or(
          inArray(users.userType, ['ADMIN', 'SUB_ADMIN']),
          and(eq(users.userType, 'DISTRIBUTOR_ADMIN'), sql`${target.treePath} like ${own.treePath} || '%'`),
          and(eq(users.userType, 'MANAGER'), linked),
          and(eq(users.userType, 'ORG_ADMIN'), eq(users.organizationId, organizationId)),
        ),
      ),
    )
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
}

/**
 * Recomputes next_due and due_at of an organization's active cases after its intervals changed, in one UPDATE: the
 * local date (the organization's zone) the case entered its state — opened_at for OPEN, status_changed otherwise —
 * plus that state's days; overdue from the start of the following local day.
 */
export async function recomputeDue(
  tx: DbOrTx,
  organizationId: number,
  settings: Pick<TFollowUpSettings, 'contact_days' | 'referral_days' | 'seen_days' | 'outcome_days'>,
  timeZone: string,
): Promise<void> {
  const c = followUpCases;
  const entered = sql`((case when ${c.status} = 'OPEN' then ${c.openedAt} else ${c.statusChanged} end) at time zone ${timeZone})::date`;
  const days = sql`(case ${c.status} when 'OPEN' then ${settings.contact_days}::int when 'CONTACTED' then ${settings.referral_days}::int when 'REFERRED' then ${settings.seen_days}::int else ${settings.outcome_days}::int end)`;
  await tx
    .update(c)
    .set({
      nextDue: sql`(${entered} + ${days})`,
      dueAt: sql`(((${entered} + ${days} + 1)::timestamp) at time zone ${timeZone})`,
    })
    .where(and(eq(c.organizationId, organizationId), inArray(c.status, [...ACTIVE_FOLLOW_UP_STATUSES])));
}
