// Authentication (architecture §4, §5): `Authorization: Token <t>` or `Bearer <t>` → the session whose SHA-256
// hash matches → `request.actor`. Public routes see `actor = null`; guards below turn that into a 401.
// Impersonation tokens are read-only: any method other than GET/HEAD answers 403, unless the route opts in
// with `config: { impersonationAllowed: true }` (ending the impersonation). They are accepted only while the ADMIN's
// session that started them is live (modules/auth/sessions.service.ts), and their use keeps that session alive.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_TIMEZONE } from '@sc/shared/constants';
import type { TUserType } from '@sc/shared/roles';
import { findSessionWithUser, touchSessions, type SessionWithUser } from '../modules/auth/sessions.queries.ts';
import { isSessionUsable } from '../modules/auth/sessions.service.ts';
import { sha256 } from '../services/tokens.ts';
import type { Actor, RequestMeta } from './actor.ts';
import { AppError } from './errors.ts';
import { SessionCache, sessionCacheOn } from './session-cache.ts';

declare module 'fastify' {
  // Module augmentation merges into Fastify's interface; a type alias cannot.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyContextConfig {
    /** Lets an impersonation token call this non-GET route (ending the impersonation). */
    impersonationAllowed?: boolean;
    /** No session lookup, whatever Authorization says (health probes, the metrics scrape: http/health.ts). */
    sessionless?: boolean;
  }
}

export const AUTH_ERRORS = {
  notProvided: 'Authentication credentials were not provided.',
  invalidToken: 'Invalid token.',
  forbidden: 'You do not have permission to perform this action.',
  impersonationReadOnly: 'Impersonation is read-only: only GET requests are allowed.',
} as const;

/** Why a request carrying a token has no actor (bad, revoked, expired token, disabled user). */
const rejectedToken = new WeakSet<FastifyRequest>();

// Touch last_seen_at at most once a minute: the idle timeout is in minutes, a write per request is waste.
const TOUCH_INTERVAL_MS = 60_000;
const TOKEN_PATTERN = /^(?:Token|Bearer)\s+([A-Za-z0-9._~+/=-]{16,512})\s*$/i;

/** Methods that never change anything here (architecture §5: GETs change nothing, besides a session's last use). */
const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The session cache of an app, when it has one (tests look at it). */
export const sessionCaches = new WeakMap<FastifyInstance, SessionCache>();

export function registerAuthentication(app: FastifyInstance): void {
  app.decorateRequest('actor', null);
  const { config, database } = app.ctx;
  const cache = sessionCacheOn(config.sessionCache, database.kind) ? new SessionCache() : null;
  if (cache) {
    sessionCaches.set(app, cache);
    const listener = database.listen('sc_auth_changed', {
      onNotify: () => cache.clear(),
      onLive: () => cache.setLive(true),
      onLost: () => cache.setLive(false),
    });
    app.addHook('onClose', async () => listener.close());
    // Before the answer leaves: the client's next request must not meet a session this request revoked.
    app.addHook('onSend', async (request) => {
      if (!READ_ONLY_METHODS.has(request.method)) cache.clear();
    });
  }

  /** The usable session of a token hash, from the cache when it is there and still usable, else the database. */
  const usableSession = async (tokenHash: string, at: Date): Promise<SessionWithUser | null> => {
    const cached = cache?.get(tokenHash);
    if (cached && isSessionUsable(cached, at, config)) return cached;
    const generation = cache?.generation ?? 0;
    const session = await findSessionWithUser(database.db, tokenHash);
    if (!session || !isSessionUsable(session, at, config)) return null;
    cache?.set(tokenHash, session, generation);
    return session;
  };

  app.addHook('onRequest', async (request) => {
    request.actor = null;
    const header = request.headers.authorization;
    if (!header || request.routeOptions.config.sessionless) return;
    const token = TOKEN_PATTERN.exec(header)?.[1];
    if (!token) {
      rejectedToken.add(request);
      return;
    }
    const { now } = app.ctx;
    const at = now();
    const session = await usableSession(sha256(token), at);
    if (!session) {
      rejectedToken.add(request);
      return;
    }
    if (session.kind === 'impersonation') {
      const readOnly = request.method === 'GET' || request.method === 'HEAD';
      if (!readOnly && !request.routeOptions.config.impersonationAllowed) {
        throw new AppError('forbidden', AUTH_ERRORS.impersonationReadOnly);
      }
    }
    // Reading as someone else is the ADMIN's activity: their own session does not go idle meanwhile.
    const stale = [session, session.parent].flatMap((s) =>
      s && at.getTime() - s.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS ? [s.id] : [],
    );
    if (stale.length > 0) {
      await touchSessions(database.db, stale, at);
      // The cached copy (when it is one) says so too, or every request would touch again.
      for (const s of [session, session.parent]) if (s && stale.includes(s.id)) s.lastSeenAt = at;
    }
    request.actor = {
      id: session.user.id,
      userType: session.user.userType,
      organizationId: session.user.organizationId,
      email: session.user.email,
      sessionId: session.id,
      impersonatorId: session.kind === 'impersonation' ? session.impersonatorId : null,
    };
  });
}

/** The signed-in caller, or 401: 'Invalid token.' when a token was sent but refused, else 'not provided'. */
export function requireActor(request: FastifyRequest): Actor {
  if (request.actor) return request.actor;
  throw new AppError(
    'unauthorized',
    rejectedToken.has(request) ? AUTH_ERRORS.invalidToken : AUTH_ERRORS.notProvided,
  );
}

/** The signed-in caller when their type is one of `roles`, else 403 (401 when not signed in). */
export function requireRole(request: FastifyRequest, roles: readonly TUserType[]): Actor {
  const actor = requireActor(request);
  if (!roles.includes(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
  return actor;
}

// IANA names only ('Asia/Kolkata', 'UTC'); offsets and free text fall back to the default.
const TIMEZONE_PATTERN = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;
const validTimezones = new Map<string, boolean>();

export function isValidTimezone(name: string): boolean {
  if (name.length > 64 || !TIMEZONE_PATTERN.test(name)) return false;
  let ok = validTimezones.get(name);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      ok = true;
    } catch {
      ok = false;
    }
    if (validTimezones.size < 1000) validTimezones.set(name, ok);
  }
  return ok;
}

/** Where a request comes from, for the audit log and for period filters (the `Timezone` header). */
export function requestMeta(request: FastifyRequest): RequestMeta {
  const tzHeader = request.headers.timezone;
  const tz = (Array.isArray(tzHeader) ? tzHeader[0] : tzHeader)?.trim();
  const ua = request.headers['user-agent'];
  return {
    ip: request.ip,
    userAgent: ua ? ua.slice(0, 500) : null,
    timezone: tz && isValidTimezone(tz) ? tz : DEFAULT_TIMEZONE,
  };
}
