// The trash (issue 27): moving a deleted record out (called by each area's delete, inside its transaction), the
// trash view's list, the restore, and the purge of expired entries with their files.
import { and, asc, count, desc, eq, ilike, inArray, lte, sql } from 'drizzle-orm';
import {
  EXAM_DELETE_ROLES,
  TRASH_AUDIT,
  TRASH_TARGET_LABELS,
  type TExamDeleted,
  TRASH_MESSAGES,
  TRASH_RETENTION_DAYS,
  canOpenTrash,
  type TTrashArea,
  type TTrashEntry,
  type TTrashQuery,
  type TTrashRestored,
  type TTrashTargetType,
} from '@sc/shared/trash';
import type { TPaginated } from '@sc/shared/list';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../app.ts';
import type { DbOrTx } from '../../db/client.ts';
import { cervicalExams, files, orcaExams, trashEntries, users, type TrashedRows } from '../../db/schema/index.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError, nonFieldError, notFound } from '../../http/errors.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { orgScopeCondition, resolveScope } from '../../http/scope.ts';
import { containsPattern } from '../../http/search.ts';
import { auditChanges } from '../../services/audit.service.ts';
import { captureRows, countsOf, fileKeysOf, restoreRows, rewriteRow, type ClearedLink } from './trash-rows.ts';

export type TrashContext = Pick<AppContext, 'config' | 'database' | 'services' | 'now'>;
type Meta = { ip: string; userAgent: string | null };

/** The table each target type's record lives in. */
const TABLE_OF: Record<TTrashTargetType, string> = {
  patient: 'patients',
  scan: 'scans',
  cervical_exam: 'cervical_exams',
  orca_exam: 'orca_exams',
  user: 'users',
};

/** The audit action's area for each target type (its group on the audit screen). */
const AUDIT_AREA: Record<TTrashTargetType, string> = {
  patient: 'patient',
  scan: 'scan',
  cervical_exam: 'cervical.exam',
  orca_exam: 'orca.exam',
  user: 'user',
};

export const trashAuditAction = (what: 'restored' | 'purged', type: TTrashTargetType): string =>
  `${AUDIT_AREA[type]}.${TRASH_AUDIT[what]}`;

export type MoveToTrash = {
  area: TTrashArea;
  targetType: TTrashTargetType;
  targetId: number;
  label: string;
  organizationId: number | null;
  deletedBy: number | null;
  at: Date;
};

/**
 * Moves the record and every row its delete cascades to into a trash entry, then deletes them (users: keeps the
 * row, which the caller anonymises and marks deleted; the entry keeps it as it was). Call inside the deleting transaction. Returns the record as it was (for
 * the audit row's changes) and the rows of each table that went.
 */
export async function moveToTrash(
  tx: DbOrTx,
  input: MoveToTrash,
): Promise<{ record: Record<string, unknown>; counts: Record<string, number> }> {
  const table = TABLE_OF[input.targetType];
  const isUser = input.targetType === 'user';
  // A user keeps its row (anonymised by the caller, deleted_at set): the entry keeps the row as it was.
  const kept = await captureRows(tx, table, [input.targetId], { cascade: !isUser });
  const record = kept.rows[0]?.rows[0] ?? {};
  const counts = countsOf(kept.rows);
  await tx.insert(trashEntries).values({
    area: input.area,
    targetType: input.targetType,
    targetId: input.targetId,
    label: input.label,
    organizationId: input.organizationId,
    deletedBy: input.deletedBy,
    deletedAt: input.at,
    purgeAfter: new Date(input.at.getTime() + TRASH_RETENTION_DAYS * 86_400_000),
    rows: [...kept.rows, { table: '_links', rows: kept.links }] as TrashedRows[],
    counts,
    fileKeys: fileKeysOf(kept.rows),
  });
  if (!isUser) {
    await tx.execute(sql`delete from ${sql.identifier(table)} where id = ${input.targetId}`);
  }
  return { record, counts };
}

/** `DELETE cervaical/{id}/`, `DELETE orca/{id}/` (ADMIN): one exam (its findings, documents…) to the exams' trash. */
export async function deleteExam(
  ctx: TrashContext,
  actor: Actor,
  type: 'cervical_exam' | 'orca_exam',
  id: number,
  meta: Meta,
): Promise<TExamDeleted> {
  if (!EXAM_DELETE_ROLES.includes(actor.userType)) throw new AppError('forbidden', 'You do not have permission to perform this action.');
  const table = type === 'cervical_exam' ? cervicalExams : orcaExams;
  const { db } = ctx.database;
  const [exam] = await db
    .select({ id: table.id, organizationId: table.organizationId, patientId: table.patientId, dateTime: table.dateTime })
    .from(table)
    .where(eq(table.id, id));
  if (!exam) throw notFound();
  await db.transaction(async (tx) => {
    const { record, counts } = await moveToTrash(tx, {
      area: 'exams',
      targetType: type,
      targetId: id,
      label: `${TRASH_TARGET_LABELS[type]} ${id} of patient ${exam.patientId ?? '-'}, ${exam.dateTime.toISOString().slice(0, 10)}`,
      organizationId: exam.organizationId,
      deletedBy: actor.id,
      at: ctx.now(),
    });
    await ctx.services.audit.record(
      {
        action: `${AUDIT_AREA[type]}.deleted`,
        actorId: actor.id,
        impersonatorId: actor.impersonatorId,
        targetType: type,
        targetId: id,
        organizationId: exam.organizationId,
        ip: meta.ip,
        userAgent: meta.userAgent,
        details: { patient_id: exam.patientId, deleted: counts },
        changes: auditChanges(record, null),
      },
      tx,
    );
  });
  return { detail: TRASH_MESSAGES.examDeleted, id };
}

type EntryRow = typeof trashEntries.$inferSelect;

const splitRows = (entry: EntryRow) => ({
  rows: entry.rows.filter((c) => c.table !== '_links'),
  links: (entry.rows.find((c) => c.table === '_links')?.rows ?? []) as unknown as ClearedLink[],
});

/** The record as it was deleted (the first row kept), for the audit row's changes. */
const recordOf = (entry: EntryRow): Record<string, unknown> => splitRows(entry).rows[0]?.rows[0] ?? {};

function assertArea(actor: Actor, area: TTrashArea): void {
  if (!canOpenTrash(actor.userType, area)) {
    throw new AppError('forbidden', 'You do not have permission to perform this action.');
  }
}

/** `GET trash/{area}/`: the area's deleted records in the caller's scope, newest first; `search` in their labels. */
export async function listTrash(
  ctx: TrashContext,
  actor: Actor,
  area: TTrashArea,
  query: TTrashQuery,
  request: Pick<FastifyRequest, 'url'>,
): Promise<TPaginated<TTrashEntry>> {
  assertArea(actor, area);
  const { db } = ctx.database;
  const scope = await resolveScope(db, actor);
  const where = and(
    eq(trashEntries.area, area),
    orgScopeCondition(scope, trashEntries.organizationId),
    query.search ? ilike(trashEntries.label, containsPattern(query.search)) : undefined,
  );
  const page = toPageParams(query);
  const [total] = await db.select({ n: count() }).from(trashEntries).where(where);
  const rows = await db
    .select({
      id: trashEntries.id,
      area: trashEntries.area,
      targetType: trashEntries.targetType,
      targetId: trashEntries.targetId,
      label: trashEntries.label,
      organizationId: trashEntries.organizationId,
      deletedAt: trashEntries.deletedAt,
      purgeAfter: trashEntries.purgeAfter,
      counts: trashEntries.counts,
      byId: users.id,
      byFirst: users.firstName,
      byLast: users.lastName,
    })
    .from(trashEntries)
    .leftJoin(users, eq(users.id, trashEntries.deletedBy))
    .where(where)
    .orderBy(desc(trashEntries.deletedAt), desc(trashEntries.id))
    .limit(page.limit)
    .offset(page.offset);
  return paginate(
    request,
    page,
    total?.n ?? 0,
    rows.map((r) => ({
      id: r.id,
      area: r.area as TTrashArea,
      target_type: r.targetType as TTrashTargetType,
      target_id: r.targetId,
      label: r.label,
      organization_id: r.organizationId,
      deleted_by: r.byId === null ? null : { id: r.byId, name: `${r.byFirst ?? ''} ${r.byLast ?? ''}`.trim() },
      deleted_at: r.deletedAt.toISOString(),
      purge_after: r.purgeAfter.toISOString(),
      counts: r.counts,
    })),
  );
}

type PgError = { code?: string; table?: string; constraint?: string; detail?: string; cause?: unknown };

/** The database's own error under drizzle's wrapper. */
function pgErrorOf(error: unknown): PgError | undefined {
  let e = error as PgError | undefined;
  for (let i = 0; i < 3 && e; i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e;
    e = e.cause as PgError | undefined;
  }
  return undefined;
}

/** Why a restore could not put the rows back, as the answer's message. */
function restoreRefusal(error: unknown): AppError | undefined {
  const pg = pgErrorOf(error);
  if (!pg) return undefined;
  const detail = pg.detail ?? '';
  if (pg.code === '23503') {
    // Key (organization_id)=(12) is not present in table "organizations".
    const table = /table "([^"]+)"/.exec(detail)?.[1] ?? '';
    if (table === 'organizations') return nonFieldError(TRASH_MESSAGES.organizationGone);
    const names: Record<string, string> = {
      users: 'user',
      patients: 'patient',
      scans: 'parent scan',
      licences: 'licence',
      references: 'reference',
    };
    return nonFieldError(TRASH_MESSAGES.referenceGone(names[table] ?? table.replace(/_/g, ' ')));
  }
  if (pg.code === '23505') {
    // Key (mobile)=(+91…) already exists.  /  Key (id)=(5) already exists.
    // lower(email::text) → email
    const column = (/Key \((.+?)\)=/.exec(detail)?.[1] ?? '').replace(/lower\(|::\w+|\)/g, '');
    if (column === 'id') return nonFieldError(TRASH_MESSAGES.alreadyBack);
    return nonFieldError(TRASH_MESSAGES.valueTaken(`its ${column.replace(/_/g, ' ')}`));
  }
  return undefined;
}

/** An entry the caller may restore: its area's role and its organization in scope; otherwise 404. */
async function entryInScope(ctx: TrashContext, actor: Actor, id: number): Promise<EntryRow> {
  const { db } = ctx.database;
  const [entry] = await db.select().from(trashEntries).where(eq(trashEntries.id, id)).limit(1);
  if (!entry || !canOpenTrash(actor.userType, entry.area as TTrashArea)) throw notFound();
  const scope = await resolveScope(db, actor);
  const [visible] = await db
    .select({ id: trashEntries.id })
    .from(trashEntries)
    .where(and(eq(trashEntries.id, id), orgScopeCondition(scope, trashEntries.organizationId)));
  if (!visible) throw notFound();
  return entry;
}

/**
 * `POST trash/{id}/restore/`: puts the rows back with their ids (every count and statistic takes them again),
 * drops the entry, audits. When they cannot go back (their organization or a row they refer to is gone, a unique
 * value is taken meanwhile) answers 400 with the reason and changes nothing.
 */
export async function restoreFromTrash(ctx: TrashContext, actor: Actor, id: number, meta: Meta): Promise<TTrashRestored> {
  const entry = await entryInScope(ctx, actor, id);
  const type = entry.targetType as TTrashTargetType;
  const record = recordOf(entry);
  try {
    await ctx.database.db.transaction(async (tx) => {
      const [gone] = await tx.delete(trashEntries).where(eq(trashEntries.id, id)).returning();
      if (!gone) throw notFound(); // restored or purged meanwhile
      if (type === 'user') {
        // The row as it was before its deletion: its name, contacts and sign-in back, deleted_at cleared.
        await rewriteRow(tx, 'users', record);
      } else {
        await restoreRows(tx, splitRows(entry));
      }
      await ctx.services.audit.record(
        {
          action: trashAuditAction('restored', type),
          actorId: actor.id,
          impersonatorId: actor.impersonatorId,
          targetType: type,
          targetId: entry.targetId,
          organizationId: entry.organizationId,
          ip: meta.ip,
          userAgent: meta.userAgent,
          details: { trash_entry: entry.id, restored: entry.counts, deleted_at: entry.deletedAt.toISOString() },
          changes: auditChanges(null, record),
        },
        tx,
      );
    });
  } catch (error) {
    throw restoreRefusal(error) ?? error;
  }
  return { detail: TRASH_MESSAGES.restored, target_type: type, target_id: entry.targetId };
}

export const TRASH_PURGE_BATCH = 100;

/**
 * Deletes the entries whose retention has passed, each with an audit row (the record as it was), then their
 * files. Returns how many entries went. Idempotent: an entry is gone once purged.
 */
export async function purgeTrash(ctx: TrashContext): Promise<number> {
  let purged = 0;
  for (;;) {
    const due = await ctx.database.db
      .select({ id: trashEntries.id })
      .from(trashEntries)
      .where(lte(trashEntries.purgeAfter, ctx.now()))
      .orderBy(asc(trashEntries.purgeAfter), asc(trashEntries.id))
      .limit(TRASH_PURGE_BATCH);
    for (const { id } of due) {
      const fileKeys = await ctx.database.db.transaction(async (tx) => {
        const [entry] = await tx.delete(trashEntries).where(eq(trashEntries.id, id)).returning();
        if (!entry) return [];
        const type = entry.targetType as TTrashTargetType;
        await ctx.services.audit.record(
          {
            action: trashAuditAction('purged', type),
            targetType: type,
            targetId: entry.targetId,
            organizationId: entry.organizationId,
            details: { trash_entry: entry.id, purged: entry.counts, files: entry.fileKeys.length },
            changes: auditChanges(recordOf(entry), null),
          },
          tx,
        );
        // The files' ownership records go with them (the objects after the commit).
        if (entry.fileKeys.length > 0) await tx.delete(files).where(inArray(files.path, entry.fileKeys));
        return entry.fileKeys;
      });
      // After the commit: a file deleted before a rollback could not be put back.
      for (const key of fileKeys) await ctx.services.storage.delete(key).catch(() => undefined);
      purged += 1;
    }
    if (due.length < TRASH_PURGE_BATCH) break;
  }
  return purged;
}
