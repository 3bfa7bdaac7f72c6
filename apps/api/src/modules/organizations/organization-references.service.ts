// Organization references (part 1 §2.6, §4, §5, §7): free labels an organization tags its patients with.
// ADMIN, SUB_ADMIN and ORG_ADMIN manage them (`reference.manage`); every console role reads them within its
// scope, for pickers. A reference of an organization outside the caller's scope answers 404.
import { can } from '@sc/shared/permissions';
import {
  REFERENCE_MESSAGES,
  type TReference,
  type TReferenceInput,
  type TReferenceListQuery,
  type TReferencePatch,
  type TReferenceSaved,
} from '@sc/shared/references';
import type { TPaginated } from '@sc/shared/list';
import type { AppContext } from '../../app.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { auditActor, auditChanges } from '../../services/audit.service.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, fieldError, notFound } from '../../http/errors.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { assertInScope, resolveScope, type Scope } from '../../http/scope.ts';
import * as q from './organization-references.queries.ts';
import { presentReference } from './organization-references.presenter.ts';
import { readerFor } from '../../db/replica.ts';

export type ReferencesContext = Pick<AppContext, 'database' | 'services' | 'now'>;

const AUDIT = { created: 'reference.created', updated: 'reference.updated', deleted: 'reference.deleted' } as const;

/**
 * Whose references the caller may read. A TECHNICIAN has no console scope, but the device app tags the patients
 * it registers with a reference of the technician's own organization, so that one list is open to them.
 */
async function readScopeOf(db: Db, actor: Actor): Promise<Scope> {
  if (actor.userType === 'TECHNICIAN') {
    return actor.organizationId === null ? { kind: 'none' } : { kind: 'orgs', exact: [actor.organizationId], subtreePaths: [] };
  }
  return resolveScope(db, actor);
}

function assertCanManage(actor: Actor): void {
  if (!can(actor.userType, 'reference.manage')) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
}

export async function listOrganizationReferences(
  ctx: ReferencesContext,
  actor: Actor,
  query: TReferenceListQuery,
  request: { url: string },
): Promise<TPaginated<TReference>> {
  const db = readerFor(ctx.database, query.using_read_db);
  const scope = await readScopeOf(db, actor);
  const page = toPageParams(query);
  const { rows, count } = await q.listReferences(db, scope, query, page);
  return paginate(request, page, count, rows.map(presentReference));
}

export async function createOrganizationReference(
  ctx: ReferencesContext,
  actor: Actor,
  input: TReferenceInput,
  meta?: RequestMeta,
): Promise<TReferenceSaved> {
  assertCanManage(actor);
  const { db } = ctx.database;
  await assertInScope(db, await resolveScope(db, actor), input.organization);
  if (await q.hasReferenceNamed(db, input.organization, input.name)) throw fieldError('name', REFERENCE_MESSAGES.duplicate);
  const row = await db.transaction(async (tx) => {
    const saved = await q.insertReference(tx, {
      name: input.name,
      isActive: input.is_active,
      organizationId: input.organization,
      createdBy: actor.id,
      at: ctx.now(),
    });
    await audit(ctx, tx, actor, meta, AUDIT.created, saved.organizationId, saved.id, null, saved);
    return saved;
  });
  return { ...presentReference(row), detail: REFERENCE_MESSAGES.created };
}

export async function updateOrganizationReference(
  ctx: ReferencesContext,
  actor: Actor,
  id: number,
  patch: TReferencePatch,
  meta?: RequestMeta,
): Promise<TReferenceSaved> {
  assertCanManage(actor);
  const { db } = ctx.database;
  const current = await q.findReference(db, await resolveScope(db, actor), id);
  if (!current) throw notFound();
  if (patch.name !== undefined && (await q.hasReferenceNamed(db, current.organizationId, patch.name, id))) {
    throw fieldError('name', REFERENCE_MESSAGES.duplicate);
  }
  const row = await db.transaction(async (tx) => {
    const saved = await q.updateReference(tx, id, { name: patch.name, isActive: patch.is_active, modifiedBy: actor.id, at: ctx.now() });
    await audit(ctx, tx, actor, meta, AUDIT.updated, saved.organizationId, id, current, saved);
    return saved;
  });
  return { ...presentReference(row), detail: messageForUpdate(current.isActive, patch) };
}

/** The list toggle confirms the new state (part 1 §4); a name edit is an update. */
function messageForUpdate(wasActive: boolean, patch: TReferencePatch): string {
  if (patch.is_active === undefined) return REFERENCE_MESSAGES.updated;
  if (patch.name !== undefined && patch.is_active === wasActive) return REFERENCE_MESSAGES.updated;
  return patch.is_active ? REFERENCE_MESSAGES.activated : REFERENCE_MESSAGES.inactivated;
}

export async function deleteOrganizationReference(
  ctx: ReferencesContext,
  actor: Actor,
  id: number,
  meta?: RequestMeta,
): Promise<{ detail: string }> {
  assertCanManage(actor);
  const { db } = ctx.database;
  const current = await q.findReference(db, await resolveScope(db, actor), id);
  if (!current) throw notFound();
  // Patients tagged with it keep their record; their reference becomes empty (ON DELETE SET NULL).
  await db.transaction(async (tx) => {
    await q.deleteReference(tx, id);
    await audit(ctx, tx, actor, meta, AUDIT.deleted, current.organizationId, id, current, null);
  });
  return { detail: REFERENCE_MESSAGES.deleted };
}

type ReferenceRow = Parameters<typeof presentReference>[0];
const auditView = (row: ReferenceRow | null) => {
  if (!row) return null;
  const { created: _c, modified: _m, ...rest } = presentReference(row);
  return rest;
};

/** One row in the write's transaction: the reference's fields before and after (null before a creation, after a delete). */
async function audit(
  ctx: ReferencesContext,
  tx: DbOrTx,
  actor: Actor,
  meta: RequestMeta | undefined,
  action: string,
  organizationId: number,
  id: number,
  before: ReferenceRow | null,
  after: ReferenceRow | null,
) {
  await ctx.services.audit.record(
    {
      action,
      ...auditActor(actor, meta),
      targetType: 'reference',
      targetId: id,
      organizationId,
      changes: auditChanges(auditView(before), auditView(after)),
    },
    tx,
  );
}
