// The audit trail's reads (issue 27): the keyset page newest first by id, the bounded count, one row, the retention
// setting, and the prune's batched DELETE (the only DELETE of audit_log, inside a transaction that sets sc.audit_prune).
import { and, asc, desc, eq, gt, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { AUDIT_RETENTION_SETTING } from '@sc/shared/audit';
import { literalLimit, type Db, type DbOrTx } from '../../db/client.ts';
import { auditLog, organizations, settings, users } from '../../db/schema/index.ts';
import type { PeriodRange } from '../../http/period.ts';
import { periodCondition } from '../../http/period.ts';

const actorUser = alias(users, 'audit_actor');
const impersonatorUser = alias(users, 'audit_impersonator');

/** What a scoped reader may see: every row, or the rows of these organizations (none: nothing). */
export type AuditScope = { kind: 'all' } | { kind: 'orgs'; ids: number[] };

export type AuditFilters = {
  scope: AuditScope;
  group?: string;
  action?: string;
  actor?: number;
  targetType?: string;
  targetId?: string;
  organization?: number;
  outcome?: string;
  period: PeriodRange;
};

/** The filters' condition (not the keyset): every list, count and CSV of the trail reads through it. */
export function auditWhere(f: AuditFilters): SQL | undefined {
  return and(
    f.scope.kind === 'orgs'
      ? f.scope.ids.length === 1
        ? eq(auditLog.organizationId, f.scope.ids[0]!)
        : f.scope.ids.length
          ? inArray(auditLog.organizationId, f.scope.ids)
          : sql`false`
      : undefined,
    f.group ? eq(auditLog.actionGroup, f.group) : undefined,
    f.action ? eq(auditLog.action, f.action) : undefined,
    f.actor !== undefined ? or(eq(auditLog.actorId, f.actor), eq(auditLog.impersonatorId, f.actor)) : undefined,
    f.targetType ? eq(auditLog.targetType, f.targetType) : undefined,
    f.targetId ? eq(auditLog.targetId, f.targetId) : undefined,
    f.organization !== undefined ? eq(auditLog.organizationId, f.organization) : undefined,
    f.outcome ? eq(auditLog.outcome, f.outcome as 'success' | 'failure') : undefined,
    periodCondition(auditLog.created, f.period),
  );
}

/** The key of a keyset page: rows older than `before` (newest first) or newer than `after` (read oldest first). */
export type AuditKeyset = { before?: number; after?: number };

const rowColumns = {
  id: auditLog.id,
  created: auditLog.created,
  action: auditLog.action,
  actionGroup: auditLog.actionGroup,
  actorId: auditLog.actorId,
  actorFirstName: actorUser.firstName,
  actorLastName: actorUser.lastName,
  actorUsername: actorUser.username,
  actorType: actorUser.userType,
  impersonatorId: auditLog.impersonatorId,
  impersonatorFirstName: impersonatorUser.firstName,
  impersonatorLastName: impersonatorUser.lastName,
  impersonatorUsername: impersonatorUser.username,
  impersonatorType: impersonatorUser.userType,
  targetType: auditLog.targetType,
  targetId: auditLog.targetId,
  organizationId: auditLog.organizationId,
  organizationName: organizations.name,
  outcome: auditLog.outcome,
  ip: auditLog.ip,
  userAgent: auditLog.userAgent,
  details: auditLog.details,
  changes: auditLog.changes,
};

function withNames(db: Db) {
  return db
    .select(rowColumns)
    .from(auditLog)
    .leftJoin(actorUser, eq(actorUser.id, auditLog.actorId))
    .leftJoin(impersonatorUser, eq(impersonatorUser.id, auditLog.impersonatorId))
    .leftJoin(organizations, eq(organizations.id, auditLog.organizationId));
}

export type AuditRowData = Awaited<ReturnType<typeof listAuditRows>>[number];

/**
 * At most `limit` rows the filters select past the keyset, newest first. An `after` page is read oldest first (the
 * rows just newer than `after`) and returned newest first, so both directions are one index read of `limit` rows.
 */
export async function listAuditRows(db: Db, where: SQL | undefined, keyset: AuditKeyset, limit: number) {
  if (keyset.after !== undefined) {
    const rows = await withNames(db)
      .where(and(where, gt(auditLog.id, keyset.after)))
      .orderBy(asc(auditLog.id))
      .limit(literalLimit(limit));
    return rows.reverse();
  }
  return withNames(db)
    .where(and(where, keyset.before !== undefined ? lt(auditLog.id, keyset.before) : undefined))
    .orderBy(desc(auditLog.id))
    .limit(literalLimit(limit));
}

/** Whether a row the filters select lies beyond `id` in that direction (older: `<`, newer: `>`). */
export async function auditRowBeyond(db: Db, where: SQL | undefined, id: number, older: boolean): Promise<boolean> {
  const [row] = await db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(and(where, older ? lt(auditLog.id, id) : gt(auditLog.id, id)))
    .orderBy(older ? desc(auditLog.id) : asc(auditLog.id))
    .limit(literalLimit(1));
  return row !== undefined;
}

/** The rows the filters select, counted up to `cap` (an index read of at most `cap` rows, newest first). */
export async function countAuditRows(db: Db, where: SQL | undefined, cap: number): Promise<number> {
  const inner = db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(literalLimit(cap))
    .as('capped');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(inner);
  return row?.n ?? 0;
}

export async function findAuditRow(db: Db, id: number, where: SQL | undefined): Promise<AuditRowData | undefined> {
  const [row] = await withNames(db).where(and(eq(auditLog.id, id), where)).limit(literalLimit(1));
  return row;
}

/** The organizations of a scope, as ids (a scoped reader's rows are those whose organization is one of them). */
export async function organizationIdsWhere(db: Db, condition: SQL): Promise<number[]> {
  const rows = await db.select({ id: organizations.id }).from(organizations).where(condition).orderBy(asc(organizations.id));
  return rows.map((r) => r.id);
}

// ---- Retention --------------------------------------------------------------------------------------------------------

/** The retention in days, or null (keep every row, the default). */
export async function readRetentionDays(db: DbOrTx): Promise<number | null> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, AUDIT_RETENTION_SETTING));
  const value = row?.value;
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

/** Writes the retention (null as JSON null: kept, the column takes no SQL NULL). */
export async function writeRetentionDays(tx: DbOrTx, days: number | null, at: Date): Promise<void> {
  const value = days === null ? sql`'null'::jsonb` : days;
  await tx
    .insert(settings)
    .values({ key: AUDIT_RETENTION_SETTING, value, created: at, modified: at })
    .onConflictDoUpdate({ target: settings.key, set: { value, modified: at } });
}

/**
 * Deletes at most `batch` rows created before `before`, oldest first, in one transaction that sets sc.audit_prune
 * (the append-only trigger lets a DELETE through only there). Returns how many went.
 */
export async function pruneAuditBatch(db: Db, before: Date, batch: number): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('sc.audit_prune', 'on', true)`);
    const result = await tx.execute(sql`with gone as (
        delete from ${auditLog} where ${auditLog.id} in (
          select ${auditLog.id} from ${auditLog} where ${auditLog.created} < ${before} order by ${auditLog.id} limit ${sql.raw(String(batch))}
        ) returning 1
      ) select count(*)::int as n from gone`);
    return Number((result.rows[0] as { n: number } | undefined)?.n ?? 0);
  });
}
