// Starting sessions and deciding whether one is live. A session token is 256 random bits, given once to the client
// and stored as its SHA-256 hash; it ends when revoked, after SESSION_IDLE_MINUTES idle or SESSION_MAX_HOURS in all.
// An impersonation ends after 1 hour, and with the ADMIN's session that started it (however that one ends).
import { IMPERSONATION_TTL_SECONDS } from '@sc/shared/constants';
import type { Config } from '../../config.ts';
import type { RequestMeta } from '../../http/actor.ts';
import { generateToken, sha256 } from '../../services/tokens.ts';
import type { AuthContext } from './auth.service.ts';
import { insertSession, type SessionWithUser } from './sessions.queries.ts';

type SessionOptions = {
  userId: number;
  source?: string | null;
  meta?: Pick<RequestMeta, 'ip' | 'userAgent'> | null;
};

export type NewSession =
  | (SessionOptions & { kind?: 'session' })
  /** The ADMIN behind an impersonation, and the session of theirs it lives within. */
  | (SessionOptions & { kind: 'impersonation'; impersonatorId: number; parentSessionId: number });

export async function createSession(
  ctx: Pick<AuthContext, 'config' | 'database' | 'now'>,
  input: NewSession,
): Promise<{ token: string; id: number }> {
  const at = ctx.now();
  const kind = input.kind ?? 'session';
  const ttlMs =
    kind === 'impersonation' ? IMPERSONATION_TTL_SECONDS * 1000 : ctx.config.SESSION_MAX_HOURS * 3_600_000;
  const token = generateToken(32);
  const { id } = await insertSession(ctx.database.db, {
    tokenHash: sha256(token),
    userId: input.userId,
    kind,
    impersonatorId: input.kind === 'impersonation' ? input.impersonatorId : null,
    parentSessionId: input.kind === 'impersonation' ? input.parentSessionId : null,
    source: input.source ?? null,
    ip: input.meta?.ip ?? null,
    userAgent: input.meta?.userAgent ?? null,
    created: at,
    expiresAt: new Date(at.getTime() + ttlMs),
  });
  return { token, id };
}

type SessionTimes = Pick<SessionWithUser, 'created' | 'lastSeenAt' | 'expiresAt' | 'revokedAt'>;
export type SessionLimits = Pick<Config, 'SESSION_IDLE_MINUTES' | 'SESSION_MAX_HOURS'>;

/** Not revoked, not expired, not idle past SESSION_IDLE_MINUTES, not older than SESSION_MAX_HOURS. */
export function isSessionLive(session: SessionTimes, at: Date, limits: SessionLimits): boolean {
  const now = at.getTime();
  return (
    session.revokedAt === null &&
    session.expiresAt.getTime() > now &&
    now - session.lastSeenAt.getTime() <= limits.SESSION_IDLE_MINUTES * 60_000 &&
    now - session.created.getTime() <= limits.SESSION_MAX_HOURS * 3_600_000
  );
}

/**
 * Whether a token's session may act now: live, its user enabled, and for an impersonation, the ADMIN's session
 * that started it live too (signed out, expired or revoked ends the impersonation) and that ADMIN still enabled.
 */
export function isSessionUsable(session: SessionWithUser, at: Date, limits: SessionLimits): boolean {
  if (!session.user.isValid || !isSessionLive(session, at, limits)) return false;
  if (session.kind === 'session') return true;
  const parent = session.parent;
  // An impersonation without its ADMIN's session (issued before the link existed) has nothing to live within.
  if (!parent || parent.kind !== 'session' || parent.userId !== session.impersonatorId) return false;
  return parent.userIsValid === true && isSessionLive(parent, at, limits);
}
