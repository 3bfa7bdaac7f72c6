// Starting and ending sessions. A session token is 256 random bits, given once to the client and stored
// as its SHA-256 hash; it ends after SESSION_IDLE_MINUTES idle or SESSION_MAX_HOURS in all (impersonation: 1 hour).
import { IMPERSONATION_TTL_SECONDS } from '@sc/shared/constants';
import type { RequestMeta } from '../../http/actor.ts';
import { generateToken, sha256 } from '../../services/tokens.ts';
import type { AuthContext } from './auth.service.ts';
import { insertSession, type SessionKind } from './sessions.queries.ts';

export type NewSession = {
  userId: number;
  kind?: SessionKind;
  /** The ADMIN behind an impersonation session. */
  impersonatorId?: number | null;
  source?: string | null;
  meta?: Pick<RequestMeta, 'ip' | 'userAgent'> | null;
};

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
    impersonatorId: input.impersonatorId ?? null,
    source: input.source ?? null,
    ip: input.meta?.ip ?? null,
    userAgent: input.meta?.userAgent ?? null,
    created: at,
    expiresAt: new Date(at.getTime() + ttlMs),
  });
  return { token, id };
}
