// Session rows: created by user/login/ and impersonation, read on every request, revoked on sign-out,
// password reset, account deletion and disabling a user. An impersonation session hangs off the ADMIN's session
// that started it (`parent_session_id`): it is read with that session and its user, and revoked with them.
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { literalLimit, preparedQueries, type Db, type DbOrTx } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/index.ts';

export type SessionKind = 'session' | 'impersonation';

const parentSessions = alias(sessions, 'parent_sessions');
const impersonators = alias(users, 'impersonators');

/**
 * The session of a token hash with its user, and for an impersonation the ADMIN's session and account: read on every
 * request, so built once and run as a named prepared statement (preparedQueries).
 */
const sessionLookup = preparedQueries('session_lookup', (db, name) =>
  db
    .select({
      id: sessions.id,
      kind: sessions.kind,
      userId: sessions.userId,
      impersonatorId: sessions.impersonatorId,
      created: sessions.created,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
      user: {
        id: users.id,
        userType: users.userType,
        organizationId: users.organizationId,
        email: users.email,
        isValid: users.isValid,
      },
      parent: {
        id: parentSessions.id,
        kind: parentSessions.kind,
        userId: parentSessions.userId,
        created: parentSessions.created,
        lastSeenAt: parentSessions.lastSeenAt,
        expiresAt: parentSessions.expiresAt,
        revokedAt: parentSessions.revokedAt,
        userIsValid: impersonators.isValid,
      },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(parentSessions, eq(parentSessions.id, sessions.parentSessionId))
    .leftJoin(impersonators, eq(impersonators.id, parentSessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .limit(literalLimit(1))
    .prepare(name),
);

/** The session of a token hash with its user, and for an impersonation the ADMIN's session and account. */
export async function findSessionWithUser(db: Db, tokenHash: string) {
  const [row] = await sessionLookup(db, '', undefined).execute({ tokenHash });
  if (!row) return null;
  // Left-joined columns come back nullable one by one: a parent is there, whole, or not at all.
  const p = row.parent;
  const parent =
    p?.id != null && p.kind != null && p.userId != null && p.created && p.lastSeenAt && p.expiresAt
      ? { ...p, id: p.id, kind: p.kind, userId: p.userId, created: p.created, lastSeenAt: p.lastSeenAt, expiresAt: p.expiresAt, userIsValid: p.userIsValid === true }
      : null;
  return { ...row, parent };
}

export type SessionWithUser = NonNullable<Awaited<ReturnType<typeof findSessionWithUser>>>;

export async function insertSession(
  db: Db,
  values: {
    tokenHash: string;
    userId: number;
    kind: SessionKind;
    impersonatorId?: number | null;
    parentSessionId?: number | null;
    source?: string | null;
    ip?: string | null;
    userAgent?: string | null;
    created: Date;
    expiresAt: Date;
  },
) {
  const [row] = await db
    .insert(sessions)
    .values({ ...values, lastSeenAt: values.created, userAgent: values.userAgent?.slice(0, 500) ?? null })
    .returning();
  if (!row) throw new Error('The session was not created.');
  return { id: row.id };
}

/** Marks sessions as used at `at` (an impersonation's use is its ADMIN's activity too). */
export async function touchSessions(db: Db, ids: readonly number[], at: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: at }).where(inArray(sessions.id, [...ids]));
}

/** Revokes a session and the impersonations started from it. */
export async function revokeSession(db: Db, id: number, at: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(or(eq(sessions.id, id), eq(sessions.parentSessionId, id)), isNull(sessions.revokedAt)));
}

/** Revokes every live session of a user: their own, impersonations of them, and impersonations they started. */
export async function revokeUserSessions(db: DbOrTx, userId: number, at: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(or(eq(sessions.userId, userId), eq(sessions.impersonatorId, userId)), isNull(sessions.revokedAt)));
}
