// The audit screen's API (issue 27): the trail newest first in keyset pages (the count bounded), its CSV, one row,
// and the retention setting with its daily prune. ADMIN and SUB_ADMIN read every row; DISTRIBUTOR_ADMIN and
// ORG_ADMIN the rows whose organization is in their scope. Nothing here updates or deletes a row but the prune.
import type { Readable } from 'node:stream';
import {
  AUDIT_COUNT_AHEAD,
  AUDIT_CSV_HEADER,
  AUDIT_CSV_TIME_COLUMNS,
  AUDIT_KEYSET_BOTH,
  AUDIT_PRUNED,
  AUDIT_RETENTION_CHANGED,
  AUDIT_TARGET_ID_NEEDS_TYPE,
  readsEveryAuditRow,
  type TAuditGroup,
  type TAuditListQuery,
  type TAuditRetention,
  type TAuditRow,
} from '@sc/shared/audit';
import type { TPaginated } from '@sc/shared/list';
import type { TUserType } from '@sc/shared/roles';
import type { AppContext } from '../../app.ts';
import type { Db } from '../../db/client.ts';
import { readerFor } from '../../db/replica.ts';
import type { Actor } from '../../http/actor.ts';
import { csvDateTime, csvFile, csvHeaderIn } from '../../http/csv-stream.ts';
import { fieldError, notFound } from '../../http/errors.ts';
import { readerZone, requestPeriod } from '../../http/period.ts';
import { assertInScope, organizationScopeCondition, resolveScope } from '../../http/scope.ts';
import { insertReportLog } from '../scans/scan-list.queries.ts';
import { auditChanges } from '../../services/audit.service.ts';
import * as q from './audit.queries.ts';

export type AuditContext = Pick<AppContext, 'config' | 'database' | 'services' | 'now'>;
type Meta = { ip: string; userAgent: string | null };
type ListRequest = { url: string; timezone: string | string[] | undefined };

const CSV_BATCH = 1000;

/** The organizations whose rows the caller reads: every row for ADMIN and SUB_ADMIN, else their scope's. */
export async function auditScopeOf(db: Db, actor: Actor): Promise<q.AuditScope> {
  if (readsEveryAuditRow(actor.userType)) return { kind: 'all' };
  const scope = await resolveScope(db, actor);
  if (scope.kind === 'all') return { kind: 'all' };
  if (scope.kind === 'none') return { kind: 'orgs', ids: [] };
  return { kind: 'orgs', ids: await q.organizationIdsWhere(db, organizationScopeCondition(scope)) };
}

/** The condition of the caller's rows and the query's filters (400 on the field, 404 for an organization out of scope). */
export async function auditFilters(db: Db, actor: Actor, query: TAuditListQuery, timezone: ListRequest['timezone'], now: Date) {
  if (query.target_id !== undefined && query.target_type === undefined) throw fieldError('target_id', AUDIT_TARGET_ID_NEEDS_TYPE);
  if (query.before !== undefined && query.after !== undefined) throw fieldError('after', AUDIT_KEYSET_BOTH);
  const period = requestPeriod(query, timezone, now);
  const scope = await auditScopeOf(db, actor);
  // An organization outside the scope answers 404, as every list's organization filter.
  if (query.organization !== undefined) await assertInScope(db, await resolveScope(db, actor), query.organization);
  return q.auditWhere({
    scope,
    group: query.group,
    action: query.action,
    actor: query.actor,
    targetType: query.target_type,
    targetId: query.target_id,
    organization: query.organization,
    outcome: query.outcome,
    period,
  });
}

const fullName = (first: string | null, last: string | null, username: string | null) =>
  `${first ?? ''} ${last ?? ''}`.trim() || username || '';

function person(id: number | null, first: string | null, last: string | null, username: string | null, type: TUserType | null) {
  if (id === null) return null;
  // A user row that is gone (never, as users are anonymised, not deleted) still names who it was by id.
  if (username === null) return { id, name: `User #${id}`, user_type: null };
  return { id, name: fullName(first, last, username), user_type: type };
}

export function presentAuditRow(r: q.AuditRowData): TAuditRow {
  return {
    id: r.id,
    created: r.created.toISOString(),
    action: r.action,
    action_group: r.actionGroup as TAuditGroup,
    actor: person(r.actorId, r.actorFirstName, r.actorLastName, r.actorUsername, r.actorType),
    impersonator: person(r.impersonatorId, r.impersonatorFirstName, r.impersonatorLastName, r.impersonatorUsername, r.impersonatorType),
    target_type: r.targetType,
    target_id: r.targetId,
    organization: r.organizationId === null ? null : { id: r.organizationId, name: r.organizationName ?? `Organization #${r.organizationId}` },
    outcome: r.outcome,
    ip: r.ip,
    user_agent: r.userAgent,
    details: r.details,
    changes: r.changes ?? [],
  };
}

/** The request's path and query with the keyset set to `key` (the other one removed): a next or previous link. */
export function keysetUrl(url: string, key: 'before' | 'after', id: number): string {
  const u = new URL(url, 'http://localhost');
  u.searchParams.delete('before');
  u.searchParams.delete('after');
  u.searchParams.set(key, String(id));
  return `${u.pathname}?${u.searchParams.toString()}`;
}

/** GET audit/: newest first; `next` reads older rows (before=), `previous` newer ones (after=). */
export async function listAudit(ctx: AuditContext, actor: Actor, query: TAuditListQuery, request: ListRequest): Promise<TPaginated<TAuditRow>> {
  const db = readerFor(ctx.database, query.using_read_db);
  const where = await auditFilters(db, actor, query, request.timezone, ctx.now());
  const keyset = { before: query.before, after: query.after };
  const bitmap = query.actor !== undefined;
  const [fetched, counted] = await Promise.all([
    q.listAuditRows(db, where, keyset, query.limit + 1, bitmap),
    q.countAuditRows(db, where, query.limit + AUDIT_COUNT_AHEAD + 1, bitmap),
  ]);
  const more = fetched.length > query.limit;
  // One past the page tells whether there is a further page in the direction read.
  const rows = query.after !== undefined ? fetched.slice(fetched.length - Math.min(fetched.length, query.limit)) : fetched.slice(0, query.limit);
  const first = rows[0];
  const last = rows.at(-1);
  let hasOlder: boolean;
  let hasNewer: boolean;
  if (query.after !== undefined) {
    hasNewer = more;
    hasOlder = last ? await q.auditRowBeyond(db, where, last.id, true) : await q.auditRowBeyond(db, where, query.after + 1, true);
  } else {
    hasOlder = more;
    hasNewer = query.before === undefined ? false : await q.auditRowBeyond(db, where, first ? first.id : query.before - 1, false);
  }
  const capped = counted > query.limit + AUDIT_COUNT_AHEAD;
  return {
    count: capped ? query.limit + AUDIT_COUNT_AHEAD : counted,
    ...(capped ? { count_capped: true } : {}),
    next: hasOlder ? keysetUrl(request.url, 'before', last ? last.id : query.after! + 1) : null,
    previous: hasNewer ? keysetUrl(request.url, 'after', first ? first.id : query.before! - 1) : null,
    results: rows.map(presentAuditRow),
  };
}

function csvRecord(r: TAuditRow, zone: string): unknown[] {
  const who = (p: TAuditRow['actor']) => (p ? p.name : '');
  return [
    r.id,
    csvDateTime(r.created, zone),
    r.action,
    r.action_group,
    r.actor?.id ?? '',
    who(r.actor),
    who(r.impersonator),
    r.target_type ?? '',
    r.target_id ?? '',
    r.organization?.name ?? '',
    r.outcome,
    r.ip ?? '',
    r.changes.map((c) => c.field).join(' '),
  ];
}

/**
 * GET audit/?format=csv: every row the filters select, newest first, read in keyset batches. Report-logged; the
 * export itself writes an `export.csv` row (its filters and row count) once the file is sent, as every CSV does
 * (sendCsv, http/read-audit.ts).
 */
export async function streamAuditCsv(
  ctx: AuditContext,
  actor: Actor,
  query: TAuditListQuery,
  request: ListRequest & { path: string; meta: Meta },
): Promise<Readable> {
  const db = ctx.database.db;
  const now = ctx.now();
  const where = await auditFilters(db, actor, query, request.timezone, now);
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
    // The whole selection, newest first, whatever page the console was on (before/after are a page's, not a filter).
    let before: number | undefined;
    for (;;) {
      const batch = await q.listAuditRows(db, where, { before }, CSV_BATCH, query.actor !== undefined);
      for (const row of batch) {
        yield csvRecord(presentAuditRow(row), zone);
      }
      if (batch.length < CSV_BATCH) break;
      before = batch.at(-1)!.id;
    }
  }
  return csvFile(csvHeaderIn(AUDIT_CSV_HEADER, AUDIT_CSV_TIME_COLUMNS, zone), records(), ctx.services.log, 'Audit CSV');
}

/** GET audit/{id}/: one row; outside the caller's scope it answers 404, as a missing one. */
export async function getAuditRow(ctx: AuditContext, actor: Actor, id: number, usingReadDb?: boolean): Promise<TAuditRow> {
  const db = readerFor(ctx.database, usingReadDb);
  const where = q.auditWhere({ scope: await auditScopeOf(db, actor), period: {} });
  const row = await q.findAuditRow(db, id, where);
  if (!row) throw notFound();
  return presentAuditRow(row);
}

/** GET audit/settings/ */
export async function getAuditSettings(ctx: AuditContext): Promise<TAuditRetention> {
  return { retention_days: await q.readRetentionDays(ctx.database.db) };
}

/** PUT audit/settings/: the retention, written with its AUDIT_RETENTION_CHANGED row in one transaction. */
export async function putAuditSettings(ctx: AuditContext, actor: Actor, input: TAuditRetention, meta: Meta): Promise<TAuditRetention> {
  const now = ctx.now();
  await ctx.database.db.transaction(async (tx) => {
    const before = await q.readRetentionDays(tx);
    await q.writeRetentionDays(tx, input.retention_days, now);
    await ctx.services.audit.record(
      {
        action: AUDIT_RETENTION_CHANGED,
        actorId: actor.id,
        impersonatorId: actor.impersonatorId,
        targetType: 'settings',
        targetId: 'audit_retention_days',
        ip: meta.ip,
        userAgent: meta.userAgent,
        changes: auditChanges({ retention_days: before }, { retention_days: input.retention_days }),
      },
      tx,
    );
  });
  return getAuditSettings(ctx);
}

/** Rows a prune deletes in one transaction: short statements, short locks. */
export const AUDIT_PRUNE_BATCH = 5000;

/**
 * The retention's prune: with a retention set, deletes the rows created more than that many days ago (in batches,
 * each in a transaction that sets sc.audit_prune) and writes one AUDIT_PRUNED row {before, rows} when any went.
 * Returns the rows deleted.
 */
export async function pruneAudit(ctx: Pick<AuditContext, 'database' | 'services' | 'now'>, batch = AUDIT_PRUNE_BATCH): Promise<number> {
  const { db } = ctx.database;
  const days = await q.readRetentionDays(db);
  if (days === null) return 0;
  const before = new Date(ctx.now().getTime() - days * 86_400_000);
  let rows = 0;
  for (;;) {
    const n = await q.pruneAuditBatch(db, before, batch);
    rows += n;
    if (n < batch) break;
  }
  if (rows > 0) {
    await ctx.services.audit.record({
      action: AUDIT_PRUNED,
      targetType: 'settings',
      targetId: 'audit_retention_days',
      details: { before: before.toISOString(), rows, retention_days: days },
    });
  }
  return rows;
}
