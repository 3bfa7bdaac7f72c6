// The signed-in user's own calls (part 1 §7): exchange the id_token for a session, read oneself, remember the
// last console path, sign out, delete one's own account (architecture §5: deactivated and anonymised).
import { AUTH_MESSAGES, type TLoginResponse, type TSessionUser, type TUserLogin } from '@sc/shared/auth';
import { MENU_ORGANIZATIONS } from '@sc/shared/constants';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { fieldError } from '../../http/errors.ts';
import { resolveScope } from '../../http/scope.ts';
import { AUDIT_ACTIONS, consumeIdToken, type AuthContext } from '../auth/auth.service.ts';
import { revokeSession, revokeUserSessions } from '../auth/sessions.queries.ts';
import { createSession } from '../auth/sessions.service.ts';
import { presentSessionUser } from './users.presenter.ts';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.ts';
import { auditChanges } from '../../services/audit.service.ts';
import { moveToTrash } from '../trash/trash.service.ts';
import {
  anonymiseUser,
  countTechnicianScans,
  findOrganizationCard,
  findUser,
  listLinkedOrganizations,
  listScopeOrganizations,
  updateLastDashboardPath,
  updateLastLogin,
} from './users.queries.ts';

export async function loginWithIdToken(
  ctx: AuthContext,
  input: TUserLogin,
  meta: RequestMeta,
): Promise<TLoginResponse> {
  const { db } = ctx.database;
  const userId = await consumeIdToken(ctx, input.id_token);
  const user = userId === null ? null : await findUser(db, userId);
  if (!user?.isValid) {
    await ctx.services.audit.record({
      action: AUDIT_ACTIONS.sessionCreated,
      actorId: user?.id ?? null,
      outcome: 'failure',
      ip: meta.ip,
      userAgent: meta.userAgent,
      details: { reason: user ? 'user_disabled' : 'invalid_id_token', source: input.source },
    });
    throw fieldError('id_token', AUTH_MESSAGES.idTokenInvalid);
  }
  // Every user type may sign in: technicians land on the user-delete page (part 1 §2.1).
  const session = await createSession(ctx, { userId: user.id, source: input.source, meta });
  await updateLastLogin(db, user.id, ctx.now());
  await ctx.services.audit.record({
    action: AUDIT_ACTIONS.sessionCreated,
    actorId: user.id,
    targetType: 'session',
    targetId: session.id,
    ip: meta.ip,
    userAgent: meta.userAgent,
    details: { source: input.source },
  });
  return { token: session.token, id: user.id, is_trainer: user.isTrainer };
}

export async function getSessionUser(ctx: AuthContext, actor: Actor): Promise<TSessionUser> {
  const { db } = ctx.database;
  const user = await findUser(db, actor.id);
  if (!user) throw new Error('The signed-in user vanished.');
  const organization =
    user.organizationId === null ? null : await findOrganizationCard(db, user.organizationId);
  const scope = await resolveScope(db, actor);
  const inScope = await listScopeOrganizations(db, scope, user.organizationId, MENU_ORGANIZATIONS);
  // The card lists a manager's linked organizations; the count covers them and their descendants.
  const organizations =
    user.userType === 'MANAGER'
      ? await listLinkedOrganizations(db, user.id, MENU_ORGANIZATIONS)
      : inScope.rows;
  const scans =
    user.userType === 'TECHNICIAN' ? await countTechnicianScans(db, user.id) : { total: 0, positive: 0 };
  const impersonatorRow = actor.impersonatorId === null ? null : await findUser(db, actor.impersonatorId);
  return presentSessionUser({
    user,
    organization,
    organizations,
    organizationsCount: inScope.count,
    scans,
    impersonator:
      actor.impersonatorId === null
        ? null
        : { id: actor.impersonatorId, email: impersonatorRow?.email ?? null },
  });
}

export async function setLastDashboardPath(
  ctx: AuthContext,
  actor: Actor,
  url: string,
): Promise<{ url: string }> {
  await updateLastDashboardPath(ctx.database.db, actor.id, url);
  return { url };
}

export async function logout(ctx: AuthContext, actor: Actor, meta: RequestMeta): Promise<void> {
  await revokeSession(ctx.database.db, actor.sessionId, ctx.now());
  await ctx.services.audit.record({
    action: AUDIT_ACTIONS.signOut,
    actorId: actor.id,
    impersonatorId: actor.impersonatorId,
    targetType: 'session',
    targetId: actor.sessionId,
    ip: meta.ip,
    userAgent: meta.userAgent,
  });
}

export async function deleteOwnAccount(ctx: AuthContext, actor: Actor, meta: RequestMeta): Promise<void> {
  const at = ctx.now();
  const { db } = ctx.database;
  await db.transaction(async (tx) => {
    const [me] = await tx.select().from(users).where(eq(users.id, actor.id));
    // To the users' trash (issue 27) as it was: an ADMIN may restore it within TRASH_RETENTION_DAYS.
    const { record } = await moveToTrash(tx, {
      area: 'users',
      targetType: 'user',
      targetId: actor.id,
      label: `${me?.firstName ?? ''} ${me?.lastName ?? ''}`.trim() || (me?.username ?? `User ${actor.id}`),
      organizationId: me?.organizationId ?? null,
      deletedBy: actor.id,
      at,
    });
    await anonymiseUser(tx, actor.id, at);
    await revokeUserSessions(tx, actor.id, at);
    await ctx.services.audit.record(
      {
        action: AUDIT_ACTIONS.accountDeleted,
        actorId: actor.id,
        targetType: 'user',
        targetId: actor.id,
        organizationId: me?.organizationId ?? null,
        ip: meta.ip,
        userAgent: meta.userAgent,
        changes: auditChanges(record, null),
      },
      tx,
    );
  });
}
