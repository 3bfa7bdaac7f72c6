// Small fixture builders for API tests. Each test builds what it needs; nothing depends on demo data.
//   const org = await createOrganization(t, { name: 'Clinic' });
//   const user = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id, mobile: '9876500001' });
//   const token = await signIn(t, user);            // a session straight in the database
//   await t.app.inject({ method: 'GET', url: '/api/v1/user/', headers: auth(token) });
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { storedMobileCandidates } from '@sc/shared/auth-extra';
import type { TUserType } from '@sc/shared/roles';
import { files, languages, managerOrganizations, organizations, users } from '../db/schema/index.ts';
import { createSession } from '../modules/auth/sessions.service.ts';
import { hashPassword } from '../services/passwords.ts';
import type { TestContext } from './app.ts';

/** Meets the password rule (8+ characters, a letter and a digit). */
export const DEFAULT_PASSWORD = 'Secret-pass1';

type Target = TestContext | FastifyInstance;
const appOf = (t: Target): FastifyInstance => ('app' in t ? t.app : t);
const dbOf = (t: Target) => appOf(t).ctx.database.db;

let seq = 0;
const next = () => ++seq;

/** A valid Indian mobile number, unique within the test file: '98' + 8 digits. */
export function uniqueMobile(): string {
  return `98${String(process.pid % 10_000).padStart(4, '0')}${String(next() % 10_000).padStart(4, '0')}`;
}

export type OrganizationRow = typeof organizations.$inferSelect;

export async function createOrganization(
  t: Target,
  opts: Partial<Omit<typeof organizations.$inferInsert, 'id' | 'treePath'>> = {},
): Promise<OrganizationRow> {
  const db = dbOf(t);
  const [org] = await db
    .insert(organizations)
    .values({ name: `Organization ${next()}`, country: 'India', countryCode: 'IN', ...opts })
    .returning();
  if (!org) throw new Error('organization not created');
  let parentPath = '/';
  if (org.parentId) {
    const [parent] = await db.select().from(organizations).where(eq(organizations.id, org.parentId));
    parentPath = parent?.treePath ?? '/';
  }
  const [withPath] = await db
    .update(organizations)
    .set({ treePath: `${parentPath}${org.id}/` })
    .where(eq(organizations.id, org.id))
    .returning();
  return withPath ?? org;
}

/** One argon2 hash per password and test file (~13 ms each, hundreds of users): a salted hash verifies for any user. */
const hashes = new Map<string, Promise<string>>();
function hashOnce(password: string): Promise<string> {
  let hashed = hashes.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    hashes.set(password, hashed);
  }
  return hashed;
}

export type UserRow = typeof users.$inferSelect;
export type TestUser = UserRow & { password: string | null };

export type UserOptions = {
  userType?: TUserType;
  /** null for a user without e-mail; default a unique address. */
  email?: string | null;
  /** National digits ('9876500001') or the stored form ('+91-9876500001'). */
  mobile?: string | null;
  mobileCountryCode?: string;
  /** null for a user without password; default DEFAULT_PASSWORD. */
  password?: string | null;
  organizationId?: number | null;
  firstName?: string;
  lastName?: string;
  isValid?: boolean;
  isTrainer?: boolean;
  /** MANAGER links. */
  linkedOrganizationIds?: number[];
};

export async function createUser(t: Target, opts: UserOptions = {}): Promise<TestUser> {
  const db = dbOf(t);
  const n = next();
  const country = opts.mobileCountryCode ?? 'IN';
  const mobile = opts.mobile
    ? opts.mobile.startsWith('+')
      ? opts.mobile
      : (storedMobileCandidates(opts.mobile, country)[0] ?? null)
    : null;
  const password = opts.password === undefined ? DEFAULT_PASSWORD : opts.password;
  const [user] = await db
    .insert(users)
    .values({
      firstName: opts.firstName ?? 'Test',
      lastName: opts.lastName ?? `User${n}`,
      username: `user${n}-${process.pid}`,
      email: opts.email === undefined ? `user${n}-${process.pid}@example.com` : opts.email,
      mobile,
      mobileCountryCode: mobile ? country : null,
      userType: opts.userType ?? 'TECHNICIAN',
      organizationId: opts.organizationId ?? null,
      isValid: opts.isValid ?? true,
      isTrainer: opts.isTrainer ?? false,
      passwordHash: password ? await hashOnce(password) : null,
    })
    .returning();
  if (!user) throw new Error('user not created');
  for (const organizationId of opts.linkedOrganizationIds ?? []) {
    await db.insert(managerOrganizations).values({ userId: user.id, organizationId });
  }
  return { ...user, password };
}

/**
 * A session token for `user`, created directly (no sign-in calls, no audit rows). An impersonation token lives
 * within a session of its ADMIN's: a new one unless `parentSessionId` names it.
 */
export async function signIn(
  t: Target,
  user: { id: number },
  opts: { kind?: 'session' | 'impersonation'; impersonatorId?: number; parentSessionId?: number } = {},
): Promise<string> {
  const ctx = appOf(t).ctx;
  if (opts.kind !== 'impersonation') return (await createSession(ctx, { userId: user.id })).token;
  if (opts.impersonatorId === undefined) throw new Error('An impersonation token needs its impersonatorId.');
  const parentSessionId = opts.parentSessionId ?? (await createSession(ctx, { userId: opts.impersonatorId })).id;
  const { token } = await createSession(ctx, {
    userId: user.id,
    kind: 'impersonation',
    impersonatorId: opts.impersonatorId,
    parentSessionId,
  });
  return token;
}

/** The Authorization header for a token. */
export const auth = (token: string) => ({ authorization: `Token ${token}` });

/** A language row (platform reference data). */
export async function createLanguage(
  t: Target,
  opts: { name: string; isoCode: string; ibeConsentForm?: string[] },
): Promise<typeof languages.$inferSelect> {
  const [row] = await dbOf(t)
    .insert(languages)
    .values({ name: opts.name, isoCode: opts.isoCode, ibeConsentForm: opts.ibeConsentForm ?? [] })
    .returning();
  if (!row) throw new Error('language not created');
  return row;
}

/** A files row as `POST file/upload/` leaves it (no stored bytes): for modules that keep upload paths. */
export async function createUploadedFile(
  t: Target,
  opts: { folder: string; userId: number; organizationId?: number | null; name?: string },
): Promise<typeof files.$inferSelect> {
  const [row] = await dbOf(t)
    .insert(files)
    .values({
      path: `${opts.folder}/${String(next()).padStart(16, '0')}_${Date.now()}_${opts.name ?? 'image.png'}`,
      folder: opts.folder,
      originalName: opts.name ?? 'image.png',
      organizationId: opts.organizationId ?? null,
      userId: opts.userId,
      contentType: 'image/png',
      size: 100,
    })
    .returning();
  if (!row) throw new Error('file not created');
  return row;
}
