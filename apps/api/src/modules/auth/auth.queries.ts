// Queries of the sign-in flows: users by e-mail or mobile, one-time codes, failure counts.
import { and, count, desc, eq, gt, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { auditLog, oneTimeCodes, users } from '../../db/schema/index.ts';

/** A transaction handed out by `db.transaction` (PGlite or node-postgres). */
export type { DbOrTx, Tx };

/**
 * Holds an advisory lock on `key` until the transaction ends: callers that check a sign-in limit and then
 * write the row it counts queue behind each other, so the second one sees the first one's row.
 * hashtextextended gives a 64-bit key (PostgreSQL 11+, PGlite); a rare collision only makes two keys wait.
 */
export async function lockSignInKey(tx: Tx, key: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

export type CodePurpose = (typeof oneTimeCodes.$inferSelect)['purpose'];

const signInUserColumns = {
  id: users.id,
  email: users.email,
  mobile: users.mobile,
  mobileCountryCode: users.mobileCountryCode,
  userType: users.userType,
  isValid: users.isValid,
  passwordHash: users.passwordHash,
  firstName: users.firstName,
};
export type SignInUser = { [K in keyof typeof signInUserColumns]: (typeof users.$inferSelect)[K] };

export async function findUserByEmail(db: Db, email: string): Promise<SignInUser | null> {
  const [row] = await db
    .select(signInUserColumns)
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row ?? null;
}

export async function findUserByMobile(db: Db, storedForms: string[]): Promise<SignInUser | null> {
  if (storedForms.length === 0) return null;
  const [row] = await db
    .select(signInUserColumns)
    .from(users)
    .where(inArray(users.mobile, storedForms))
    .limit(1);
  return row ?? null;
}

export async function findUserById(db: Db, id: number): Promise<SignInUser | null> {
  const [row] = await db.select(signInUserColumns).from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function insertCode(
  db: DbOrTx,
  values: {
    purpose: CodePurpose;
    target: string;
    userId: number | null;
    codeHash: string;
    created: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insert(oneTimeCodes).values(values);
}

/** The newest code sent to `target` for any of `purposes`: only the newest one is ever accepted. */
export async function findLatestCode(db: DbOrTx, purposes: CodePurpose[], target: string) {
  const [row] = await db
    .select()
    .from(oneTimeCodes)
    .where(and(inArray(oneTimeCodes.purpose, purposes), eq(oneTimeCodes.target, target)))
    .orderBy(desc(oneTimeCodes.created), desc(oneTimeCodes.id))
    .limit(1);
  return row ?? null;
}

/** Codes sent to `target` since `since`, oldest first (for the hourly cap and its Retry-After). */
export async function listCodesSince(db: DbOrTx, purposes: CodePurpose[], target: string, since: Date) {
  return db
    .select({ id: oneTimeCodes.id, created: oneTimeCodes.created })
    .from(oneTimeCodes)
    .where(
      and(
        inArray(oneTimeCodes.purpose, purposes),
        eq(oneTimeCodes.target, target),
        gte(oneTimeCodes.created, since),
      ),
    )
    .orderBy(oneTimeCodes.created);
}

/** Marks the still-usable codes of a target (or of a user) used, so only a newer one can work. */
export async function invalidateCodes(
  db: DbOrTx,
  purposes: CodePurpose[],
  by: { target: string } | { userId: number },
  at: Date,
) {
  await db
    .update(oneTimeCodes)
    .set({ usedAt: at })
    .where(
      and(
        inArray(oneTimeCodes.purpose, purposes),
        'target' in by ? eq(oneTimeCodes.target, by.target) : eq(oneTimeCodes.userId, by.userId),
        isNull(oneTimeCodes.usedAt),
      ),
    );
}

/** Counts a wrong try; answers the new number of attempts (a concurrent burn cannot be skipped). */
export async function addCodeAttempt(db: DbOrTx, id: number): Promise<number> {
  const [row] = await db
    .update(oneTimeCodes)
    .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
    .where(eq(oneTimeCodes.id, id))
    .returning();
  return row?.attempts ?? Number.MAX_SAFE_INTEGER;
}

/**
 * Uses a code exactly once: true only for the one caller that flips used_at while it is still
 * unused, unexpired and under the try limit (two concurrent right answers: one wins).
 */
export async function useCode(db: DbOrTx, id: number, at: Date, maxAttempts: number): Promise<boolean> {
  const rows = await db
    .update(oneTimeCodes)
    .set({ usedAt: at })
    .where(
      and(
        eq(oneTimeCodes.id, id),
        isNull(oneTimeCodes.usedAt),
        gt(oneTimeCodes.expiresAt, at),
        lt(oneTimeCodes.attempts, maxAttempts),
      ),
    )
    .returning();
  return rows.length === 1;
}

/** Consumes a single-use token found by its hash; answers its row when it was usable. */
export async function consumeTokenByHash(db: Db, purposes: CodePurpose[], codeHash: string, at: Date) {
  const [row] = await db
    .update(oneTimeCodes)
    .set({ usedAt: at })
    .where(
      and(
        inArray(oneTimeCodes.purpose, purposes),
        eq(oneTimeCodes.codeHash, codeHash),
        isNull(oneTimeCodes.usedAt),
        gt(oneTimeCodes.expiresAt, at),
      ),
    )
    .returning();
  return row ? { id: row.id, userId: row.userId, purpose: row.purpose } : null;
}

export async function countCodesForUserSince(
  db: DbOrTx,
  purpose: CodePurpose,
  userId: number,
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.purpose, purpose),
        eq(oneTimeCodes.userId, userId),
        gte(oneTimeCodes.created, since),
      ),
    );
  return row?.n ?? 0;
}

/**
 * Failed audit rows of one action from one client address (`details.client`) since a time, on one account when
 * `userId` is given: the wrong-password limits.
 */
export async function countFailuresSince(
  db: DbOrTx,
  action: string,
  by: { client: string; userId?: number },
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, action),
        by.userId === undefined ? undefined : eq(auditLog.actorId, by.userId),
        eq(auditLog.outcome, 'failure'),
        gte(auditLog.created, since),
        sql`${auditLog.details}->>'client' = ${by.client}`,
      ),
    );
  return row?.n ?? 0;
}

export async function setPasswordHash(db: Db, userId: number, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

