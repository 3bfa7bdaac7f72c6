// Impersonation (part 1 §4, architecture §5): an ADMIN gets a token of its own kind for another user; the API accepts
// it for GET and HEAD only (http/authenticate.ts), it expires in one hour or with the ADMIN's session that started
// it (sign-out, expiry, password reset, account deletion), and ending it revokes it. Both the start and the end
// are audited with both identities.
import { USER_MESSAGES, canImpersonate, type TImpersonationResponse } from '@sc/shared/users';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, nonFieldError, notFound } from '../../http/errors.ts';
import { parsePathId } from '../../http/params.ts';
import type { AuthContext } from '../auth/auth.service.ts';
import { revokeSession } from '../auth/sessions.queries.ts';
import { createSession } from '../auth/sessions.service.ts';
import { findUser } from './users.queries.ts';

export const IMPERSONATION_AUDIT = {
  start: 'impersonation.start',
  end: 'impersonation.end',
} as const;

export const IMPERSONATION_ERRORS = {
  nested: 'An impersonation token cannot start another impersonation.',
} as const;

export async function startImpersonation(
  ctx: AuthContext,
  actor: Actor,
  rawId: string,
  meta: RequestMeta,
): Promise<TImpersonationResponse> {
  // A read-only token must not mint another token (it would outlive and escape its own hour).
  if (actor.impersonatorId !== null) throw new AppError('forbidden', IMPERSONATION_ERRORS.nested);
  if (actor.userType !== 'ADMIN') throw new AppError('forbidden', AUTH_ERRORS.forbidden);
  const id = parsePathId(rawId);
  const target = id === undefined ? null : await findUser(ctx.database.db, id);
  // Deleted accounts are anonymised shells: as missing as an unknown id.
  if (!target || target.deletedAt) throw notFound();
  // Never another ADMIN (nor oneself), never a type outside the list, never a disabled user.
  if (!target.isValid || !canImpersonate(actor.userType, target.userType)) {
    await ctx.services.audit.record({
      action: IMPERSONATION_AUDIT.start,
      actorId: actor.id,
      targetType: 'user',
      targetId: target.id,
      outcome: 'failure',
      ip: meta.ip,
      userAgent: meta.userAgent,
      details: { reason: target.isValid ? 'type_not_allowed' : 'user_disabled', user_type: target.userType },
    });
    throw new AppError('forbidden', USER_MESSAGES.cannotImpersonate);
  }
  // The token lives within the ADMIN's session: signing out, expiry or revocation of that session ends it too.
  const session = await createSession(ctx, {
    userId: target.id,
    kind: 'impersonation',
    impersonatorId: actor.id,
    parentSessionId: actor.sessionId,
    source: 'DASHBOARD',
    meta,
  });
  await ctx.services.audit.record({
    action: IMPERSONATION_AUDIT.start,
    actorId: actor.id,
    targetType: 'user',
    targetId: target.id,
    ip: meta.ip,
    userAgent: meta.userAgent,
    details: { session_id: session.id, user_type: target.userType },
  });
  return { token: session.token, id: target.id };
}

/**
 * Ends the impersonation whose token made the request: the session is revoked at once. A normal session token
 * has nothing to end → 400 (rather than a silent 204, so a client that sent the wrong token finds out).
 */
export async function endImpersonation(ctx: AuthContext, actor: Actor, meta: RequestMeta): Promise<void> {
  if (actor.impersonatorId === null) throw nonFieldError(USER_MESSAGES.notImpersonating);
  await revokeSession(ctx.database.db, actor.sessionId, ctx.now());
  // Same convention as every request made under impersonation: actor = the user seen, impersonator = the ADMIN.
  await ctx.services.audit.record({
    action: IMPERSONATION_AUDIT.end,
    actorId: actor.id,
    impersonatorId: actor.impersonatorId,
    targetType: 'user',
    targetId: actor.id,
    ip: meta.ip,
    userAgent: meta.userAgent,
    details: { session_id: actor.sessionId },
  });
}
