// App versions and release notes (part 3 §2 Release Notes, §3, §4, §5, §7, §8). ADMIN (the Release Notes menu's
// role) lists, reads, creates and edits them; a version's app never changes (a language's app version must stay
// an IBE one). A code is unique within its app. Devices of any signed-in user read the newest version of their app.
// Each write records an audit row in its transaction.
import {
  APP_VERSION_MESSAGES,
  canManageAppVersions,
  type TAppType,
  type TAppVersion,
  type TAppVersionInput,
  type TAppVersionListQuery,
  type TAppVersionPatch,
  type TAppVersionSaved,
} from '@sc/shared/app-versions';
import type { TPaginated } from '@sc/shared/list';
import type { AppContext } from '../../app.ts';
import type { DbOrTx } from '../../db/client.ts';
import { auditActor, auditChanges, auditRow, type AuditChange } from '../../services/audit.service.ts';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, badRequest, fieldError, notFound } from '../../http/errors.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { presentAppVersion } from './app-versions.presenter.ts';
import * as q from './app-versions.queries.ts';
import { readerFor } from '../../db/replica.ts';

export type AppVersionsContext = Pick<AppContext, 'database' | 'services' | 'now'>;

export const APP_VERSION_AUDIT = { created: 'app_version.created', updated: 'app_version.updated' } as const;

function assertCanManage(actor: Actor): void {
  if (!canManageAppVersions(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
}

export async function listAppVersions(
  ctx: Pick<AppContext, 'database'>,
  actor: Actor,
  query: TAppVersionListQuery,
  request: { url: string },
): Promise<TPaginated<TAppVersion>> {
  assertCanManage(actor);
  const db = readerFor(ctx.database, query.using_read_db);
  const page = toPageParams(query);
  const { rows, count } = await q.listAppVersions(db, query, page);
  return paginate(request, page, count, rows.map(presentAppVersion));
}

export async function getAppVersion(
  ctx: Pick<AppContext, 'database'>,
  actor: Actor,
  id: number,
  readDb = false,
): Promise<TAppVersion> {
  assertCanManage(actor);
  const row = await q.findAppVersion(readerFor(ctx.database, readDb), id);
  if (!row) throw notFound();
  return presentAppVersion(row);
}

/** The device read: the newest version of one app, or 404 when the app has none yet. */
export async function getLatestAppVersion(
  ctx: Pick<AppContext, 'database'>,
  type: TAppType,
  readDb = false,
): Promise<TAppVersion> {
  const row = await q.findLatestAppVersion(readerFor(ctx.database, readDb), type);
  if (!row) throw notFound(APP_VERSION_MESSAGES.noneYet);
  return presentAppVersion(row);
}

export async function createAppVersion(
  ctx: AppVersionsContext,
  actor: Actor,
  input: TAppVersionInput,
  meta: RequestMeta,
): Promise<TAppVersionSaved> {
  assertCanManage(actor);
  const row = await ctx.database.db.transaction(async (tx) => {
    await q.lockAppVersions(tx, input.type);
    if (await q.isCodeTaken(tx, input.type, input.code)) throw fieldError('code', APP_VERSION_MESSAGES.duplicateCode);
    const inserted = await q.insertAppVersion(
      tx,
      {
        name: input.name,
        code: input.code,
        tutorialVersion: input.tutorial_version,
        notes: { note: input.notes.note },
        type: input.type,
      },
      actor.id,
      ctx.now(),
    );
    await record(ctx, tx, actor, meta, APP_VERSION_AUDIT.created, inserted.id, {
      type: input.type,
      fields: Object.keys(input),
    }, auditChanges(null, auditRow(inserted)));
    return inserted;
  });
  return { ...presentAppVersion(row), detail: APP_VERSION_MESSAGES.created };
}

/** PUT and PATCH: the fields sent replace the stored ones; a field left out is kept. */
export async function updateAppVersion(
  ctx: AppVersionsContext,
  actor: Actor,
  id: number,
  patch: TAppVersionPatch,
  meta: RequestMeta,
): Promise<TAppVersionSaved> {
  assertCanManage(actor);
  const row = await ctx.database.db.transaction(async (tx) => {
    const current = await q.findAppVersion(tx, id);
    if (!current) throw notFound();
    if (patch.type !== undefined && patch.type !== current.type) {
      throw badRequest({ type: [APP_VERSION_MESSAGES.typeFixed] });
    }
    await q.lockAppVersions(tx, current.type);
    if (patch.code !== undefined && (await q.isCodeTaken(tx, current.type, patch.code, id))) {
      throw fieldError('code', APP_VERSION_MESSAGES.duplicateCode);
    }
    const updated = await q.updateAppVersion(
      tx,
      id,
      {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.code === undefined ? {} : { code: patch.code }),
        ...(patch.tutorial_version === undefined ? {} : { tutorialVersion: patch.tutorial_version }),
        ...(patch.notes === undefined ? {} : { notes: { note: patch.notes.note } }),
      },
      actor.id,
      ctx.now(),
    );
    if (!updated) throw notFound();
    await record(ctx, tx, actor, meta, APP_VERSION_AUDIT.updated, id, {
      type: current.type,
      fields: Object.keys(patch).filter((k) => k !== 'id' && k !== 'type'),
    }, auditChanges(auditRow(current), auditRow(updated)));
    return updated;
  });
  return { ...presentAppVersion(row), detail: APP_VERSION_MESSAGES.updated };
}

// The audit row names the fields sent, not their values.
async function record(
  ctx: AppVersionsContext,
  tx: DbOrTx,
  actor: Actor,
  meta: RequestMeta,
  action: string,
  id: number,
  details: Record<string, unknown>,
  changes: AuditChange[],
): Promise<void> {
  await ctx.services.audit.record(
    {
      action,
      ...auditActor(actor, meta),
      targetType: 'app_version',
      targetId: id,
      changes,
      details,
    },
    tx,
  );
}
