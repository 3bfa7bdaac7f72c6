// Session rows: created by user/login/ and impersonation, read on every request, revoked on sign-out,
// password reset, account deletion and disabling a user.
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/index.ts';

export type SessionKind = 'session' | 'impersonation';

export async function findSessionWithUser(db: Db, tokenHash: string) {
  const [row] = await db
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
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

export async function insertSession(
  db: Db,
  values: {
    tokenHash: string;
    userId: number;
    kind: SessionKind;
    impersonatorId?: number | null;
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

export async function touchSession(db: Db, id: number, at: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, id));
}

export async function revokeSession(db: Db, id: number, at: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

/** Revokes every live session of a user, their own and impersonations of them. */
export async function revokeUserSessions(db: Db, userId: number, at: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}
