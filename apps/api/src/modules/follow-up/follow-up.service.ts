// The follow-up worklist (issue 26): cases in the caller's scope (list, CSV, one case with its sources and timeline),
// the users a case may be assigned to, assignment, and the actions staff add to a case's timeline with the moves they
// make. A move is decided under the case row's lock, so two moves of one case cannot both pass; each move writes a
// STATUS_CHANGE entry, its webhook delivery row and an audit row in the same transaction, and the delivery is queued
// after the commit. Every read of a case's timeline is audited.
import type { Readable } from 'node:stream';
import {
  FOLLOW_UP_AUDIT,
  FOLLOW_UP_CSV_HEADER,
  FOLLOW_UP_CSV_TIME_COLUMNS,
  FOLLOW_UP_DEFAULT_ORDERING,
  FOLLOW_UP_MESSAGES,
  canFollowUp,
  followUpActionProblems,
  impliedMove,
  type TFollowUpAction,
  type TFollowUpCase,
  type TFollowUpListQuery,
  type TFollowUpRow,
  type TFollowUpStatus,
} from '@sc/shared/follow-up';
import type { TPaginated } from '@sc/shared/list';
import { DEFAULT_TIMEZONE } from '@sc/shared/constants';
import type { AppContext } from '../../app.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { readerFor } from '../../db/replica.ts';
import { auditActor, auditChanges, type AuditChange } from '../../services/audit.service.ts';
import type { Actor } from '../../http/actor.ts';
import { csvFile, csvHeaderIn } from '../../http/csv-stream.ts';
import { AppError, badRequest, fieldError, notFound } from '../../http/errors.ts';
import { parseOrdering } from '../../http/ordering.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { localDate, readerZone, requestPeriod, timezoneFromHeader } from '../../http/period.ts';
import { assertInScope, resolveScope, type Scope } from '../../http/scope.ts';
import { queueWebhookDelivery } from '../scans/scans.service.ts';
import { insertReportLog } from '../scans/scan-list.queries.ts';
import { appendEntry, dueFor, loadFollowUpSettings, loadOrganizationForFollowUp, recordCaseEvent } from './follow-up-core.ts';
import { caseCsvRecord, presentCase, presentCaseRow } from './follow-up.presenter.ts';
import * as q from './follow-up.queries.ts';

export type FollowUpContext = Pick<AppContext, 'config' | 'database' | 'services' | 'now'>;
type Meta = { ip: string; userAgent: string | null };
type ListRequest = { url: string; timezone: string | string[] | undefined };

const CSV_BATCH = 1000;

/** 403 with the area's message for a role that does not follow patients up. */
export function assertCanFollowUp(actor: Actor): void {
  if (!canFollowUp(actor.userType)) throw new AppError('forbidden', FOLLOW_UP_MESSAGES.role);
}

async function filtersOf(db: Db, scope: Scope, query: TFollowUpListQuery, timezone: ListRequest['timezone'], now: Date) {
  if (query.organization !== undefined) await assertInScope(db, scope, query.organization);
  if (query.due_after && query.due_before && query.due_before < query.due_after) {
    throw fieldError('due_before', 'The end date must not be before the start date.');
  }
  const opened = requestPeriod(query, timezone, now);
  return q.caseListWhere(scope, { ...query, opened, now });
}

/** GET follow-up/ */
export async function listFollowUp(
  ctx: FollowUpContext,
  actor: Actor,
  query: TFollowUpListQuery,
  request: ListRequest,
): Promise<TPaginated<TFollowUpRow>> {
  assertCanFollowUp(actor);
  const db = readerFor(ctx.database, query.using_read_db);
  const now = ctx.now();
  const scope = await resolveScope(db, actor);
  const orderBy = parseOrdering(query.ordering, q.followUpOrderingFields, FOLLOW_UP_DEFAULT_ORDERING);
  const where = await filtersOf(db, scope, query, request.timezone, now);
  const page = toPageParams(query);
  const count = await q.countCases(db, where, Boolean(query.search?.trim()));
  const rows = page.offset < count || page.page === 1 ? await q.listCases(db, where, orderBy, page.limit, page.offset) : [];
  return paginate(request, page, count, rows.map((r) => presentCaseRow(r, now)));
}

/** GET follow-up/?format=csv: every case the filters select, in the list's order, read in batches. Report-logged. */
export async function streamFollowUpCsv(
  ctx: FollowUpContext,
  actor: Actor,
  query: TFollowUpListQuery,
  request: ListRequest & { path: string; meta: Meta },
): Promise<Readable> {
  assertCanFollowUp(actor);
  const db = ctx.database.db;
  const now = ctx.now();
  const scope = await resolveScope(db, actor);
  const orderBy = parseOrdering(query.ordering, q.followUpOrderingFields, FOLLOW_UP_DEFAULT_ORDERING);
  const where = await filtersOf(db, scope, query, request.timezone, now);
  const zone = readerZone(request.timezone);
  await insertReportLog(db, {
    api: request.path,
    apiQp: { ...query },
    userAgent: request.meta.userAgent,
    userId: actor.id,
    userType: actor.userType,
    at: now,
  });
  async function* records() {
    for (let offset = 0; ; offset += CSV_BATCH) {
      const rows = await q.listCases(db, where, orderBy, CSV_BATCH, offset);
      for (const row of rows) yield caseCsvRecord(row, now, zone);
      if (rows.length < CSV_BATCH) return;
    }
  }
  return csvFile(csvHeaderIn(FOLLOW_UP_CSV_HEADER, FOLLOW_UP_CSV_TIME_COLUMNS, zone), records(), ctx.services.log, 'Follow-up CSV');
}

async function caseInScope(db: DbOrTx & Db, actor: Actor, id: number): Promise<q.CaseListRow> {
  const row = await q.findCase(db, await resolveScope(db, actor), id);
  if (!row) throw notFound();
  return row;
}

async function caseDetail(db: Db, actor: Actor, id: number, now: Date): Promise<TFollowUpCase> {
  const row = await caseInScope(db, actor, id);
  const [sources, timeline] = await Promise.all([q.caseSources(db, id), q.caseTimeline(db, id)]);
  return presentCase(row, sources, timeline, now);
}

async function audit(
  ctx: FollowUpContext,
  tx: DbOrTx | undefined,
  actor: Actor,
  meta: Meta,
  action: string,
  id: number,
  details: Record<string, unknown> = {},
  row: { organizationId?: number | null; changes?: AuditChange[] } = {},
) {
  await ctx.services.audit.record(
    {
      action,
      ...auditActor(actor, meta),
      targetType: 'follow_up_case',
      targetId: id,
      organizationId: row.organizationId ?? null,
      changes: row.changes ?? null,
      details,
    },
    tx,
  );
}

/** GET follow-up/{id}/: the case, its sources and its whole timeline; every read is audited. */
export async function getFollowUpCase(
  ctx: FollowUpContext,
  actor: Actor,
  id: number,
  meta: Meta,
  usingReadDb?: boolean,
): Promise<TFollowUpCase> {
  assertCanFollowUp(actor);
  const detail = await caseDetail(readerFor(ctx.database, usingReadDb), actor, id, ctx.now());
  // Every read, unfolded (a case's reads are few); with the case's organization, so its admins see who read it.
  await ctx.services.audit.record({
    action: FOLLOW_UP_AUDIT.read,
    actorId: actor.id,
    impersonatorId: actor.impersonatorId,
    targetType: 'follow_up_case',
    targetId: id,
    organizationId: detail.organization?.id ?? null,
    ip: meta.ip,
    userAgent: meta.userAgent,
  });
  return detail;
}

/** GET follow-up/assignees/?organization=ID */
export async function listAssignees(ctx: FollowUpContext, actor: Actor, organizationId: number) {
  assertCanFollowUp(actor);
  const db = ctx.database.db;
  await assertInScope(db, await resolveScope(db, actor), organizationId);
  const rows = await q.assignees(db, organizationId);
  return rows.map((r) => ({ id: r.id, name: `${r.firstName} ${r.lastName}`.trim(), user_type: r.userType }));
}

/** PATCH follow-up/{id}/: the user who follows the case up (or nobody); an ASSIGNMENT entry when it changes. */
export async function assignFollowUpCase(
  ctx: FollowUpContext,
  actor: Actor,
  id: number,
  assignedUser: number | null | undefined,
  meta: Meta,
): Promise<TFollowUpCase> {
  assertCanFollowUp(actor);
  const { db } = ctx.database;
  const row = await caseInScope(db, actor, id);
  if (assignedUser === undefined) throw fieldError('assigned_user', FOLLOW_UP_MESSAGES.assigneeInvalid);
  let to: { id: number; name: string } | null = null;
  if (assignedUser !== null) {
    const [user] = row.organizationId === null ? [] : await q.assignees(db, row.organizationId, assignedUser);
    if (!user) throw fieldError('assigned_user', FOLLOW_UP_MESSAGES.assigneeInvalid);
    to = { id: user.id, name: `${user.firstName} ${user.lastName}`.trim() };
  }
  const now = ctx.now();
  await db.transaction(async (tx) => {
    const kase = await q.lockCase(tx, id);
    if (!kase) throw notFound();
    if (kase.assignedUserId === (to?.id ?? null)) return;
    const fromName = row.assignedUserId === kase.assignedUserId ? `${row.assigneeFirstName ?? ''} ${row.assigneeLastName ?? ''}`.trim() : null;
    await q.updateCase(tx, id, { assignedUserId: to?.id ?? null, modified: now, modifiedBy: actor.id });
    await appendEntry(tx, {
      caseId: id,
      kind: 'ASSIGNMENT',
      at: now,
      actorId: actor.id,
      data: { from: kase.assignedUserId, from_name: kase.assignedUserId === null ? null : fromName, to: to?.id ?? null, to_name: to?.name ?? null },
    });
    await audit(ctx, tx, actor, meta, FOLLOW_UP_AUDIT.assign, id, { from: kase.assignedUserId, to: to?.id ?? null }, {
      organizationId: kase.organizationId,
      changes: auditChanges({ assigned_user: kase.assignedUserId }, { assigned_user: to?.id ?? null }),
    });
  });
  return caseDetail(db, actor, id, now);
}

/** The entry's own fields: what the action carried but its kind, note and the corrected entry. */
function entryData(action: TFollowUpAction): Record<string, unknown> {
  const { kind: _kind, note: _note, ...rest } = action as Record<string, unknown>;
  delete rest.corrects;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== null));
}

const toFieldErrors = (problems: Record<string, string>) =>
  Object.fromEntries(Object.entries(problems).map(([field, message]) => [field, [message]]));

/**
 * POST follow-up/{id}/actions/: one timeline entry, and the move it makes (a STATUS_CHANGE, or the move a contact
 * or referral implies). Checked against the case as it is under its row lock; an illegal move changes nothing.
 */
export async function addFollowUpAction(
  ctx: FollowUpContext,
  actor: Actor,
  id: number,
  action: TFollowUpAction,
  request: { timezone: string | string[] | undefined; meta: Meta },
): Promise<TFollowUpCase> {
  assertCanFollowUp(actor);
  const { db } = ctx.database;
  const row = await caseInScope(db, actor, id);
  const today = localDate(ctx.now(), timezoneFromHeader(request.timezone));
  const org = await loadOrganizationForFollowUp(db, row.organizationId);
  const zone = org?.timezone ?? DEFAULT_TIMEZONE;
  const settings = await loadFollowUpSettings(db, row.organizationId);
  const now = ctx.now();
  const deliveries: number[] = [];
  await db.transaction(async (tx) => {
    const kase = await q.lockCase(tx, id);
    if (!kase) throw notFound();
    const problems = followUpActionProblems(action, { status: kase.status, openedLocalDate: localDate(kase.openedAt, zone) }, today);
    if (action.kind === 'CORRECTION' && !problems.corrects && !(await q.entryOfCase(tx, id, action.corrects))) {
      problems.corrects = FOLLOW_UP_MESSAGES.correctsUnknown;
    }
    if (Object.keys(problems).length > 0) throw badRequest(toFieldErrors(problems));

    const from = kase.status;
    const to: TFollowUpStatus | null = action.kind === 'STATUS_CHANGE' ? action.status : impliedMove(from, action);
    if (action.kind !== 'STATUS_CHANGE') {
      await appendEntry(tx, {
        caseId: id,
        kind: action.kind,
        at: now,
        actorId: actor.id,
        data: entryData(action),
        note: action.note || null,
        correctsId: action.kind === 'CORRECTION' ? action.corrects : null,
      });
    }
    const closing =
      (action.kind === 'STATUS_CHANGE' && action.status === 'CLOSED') || (action.kind === 'CORRECTION' && action.outcome)
        ? {
            outcome: action.outcome ?? null,
            outcomeSite: action.site ?? null,
            diagnosisDate: action.diagnosis_date ?? null,
            diagnosisFacility: action.facility || null,
          }
        : null;
    if (to !== null) {
      const due = dueFor(to, now, settings, zone);
      const values: Partial<q.CaseListRow> = { status: to, statusChanged: now, nextDue: due.nextDue, dueAt: due.dueAt, ...(closing ?? {}) };
      if (to === 'CLOSED') values.closedAt = now;
      await q.updateCase(tx, id, { ...values, modified: now, modifiedBy: actor.id });
      await appendEntry(tx, {
        caseId: id,
        kind: 'STATUS_CHANGE',
        at: now,
        actorId: actor.id,
        fromStatus: from,
        toStatus: to,
        data: action.kind === 'STATUS_CHANGE' ? entryData(action) : { implied_by: action.kind },
        note: action.kind === 'STATUS_CHANGE' ? action.note || null : null,
      });
      const delivery = await recordCaseEvent(tx, { ...kase, ...closing }, { from, to, at: now, actorId: actor.id });
      if (delivery !== null) deliveries.push(delivery);
    } else if (closing) {
      // A correction restating a CLOSED case's outcome: the case's outcome becomes this one; the earlier entry stays.
      await q.updateCase(tx, id, { ...closing, modified: now, modifiedBy: actor.id });
    }
    await audit(
      ctx,
      tx,
      actor,
      request.meta,
      FOLLOW_UP_AUDIT.action,
      id,
      { kind: action.kind, from, to: to ?? from },
      {
        organizationId: kase.organizationId,
        // The status it moved (if any), the outcome a closing recorded, and the timeline entry it added.
        changes: [
          ...auditChanges({ status: from }, { status: to ?? from }),
          ...(closing
            ? auditChanges(
                { outcome: kase.outcome, outcome_site: kase.outcomeSite, diagnosis_date: kase.diagnosisDate, diagnosis_facility: kase.diagnosisFacility },
                { outcome: closing.outcome, outcome_site: closing.outcomeSite, diagnosis_date: closing.diagnosisDate, diagnosis_facility: closing.diagnosisFacility },
              )
            : []),
          ...auditChanges(null, { entry: { kind: action.kind, note: action.note || null, ...entryData(action) } }),
        ],
      },
    );
  });
  for (const delivery of deliveries) await queueWebhookDelivery(ctx, delivery);
  return caseDetail(db, actor, id, now);
}
