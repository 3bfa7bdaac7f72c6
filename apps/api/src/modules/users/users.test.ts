import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, ZSessionUser } from '@sc/shared/auth';
import { auditLog, oneTimeCodes, scans, sessions, users } from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { setupTestApp } from '../../test/app.ts';
import {
  DEFAULT_PASSWORD,
  auth,
  createOrganization,
  createUser,
  signIn,
  uniqueMobile,
} from '../../test/factories.ts';
import { sha256 } from '../../services/tokens.ts';
import { issueIdToken } from '../auth/auth.service.ts';

const t = await setupTestApp({ RATE_LIMIT_DISABLED: 'true' });
const MINUTE = 60_000;

const getMe = (token: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: '/api/v1/user/', headers: { ...auth(token), ...headers } });
const login = (payload: object) => t.app.inject({ method: 'POST', url: '/api/v1/user/login/', payload });

describe('POST user/login/', () => {
  it('exchanges an id_token for a session token that is stored only as its hash', async () => {
    const user = await createUser(t, { isTrainer: true });
    const idToken = await issueIdToken(t.app.ctx, user.id);
    const res = await login({
      id_token: idToken,
      mobile_country_code: 'IN',
      source: 'DASHBOARD',
      user_type: 'ADMIN',
      is_login: true,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ token: string; id: number; is_trainer: boolean }>();
    expect(body).toEqual({ token: expect.any(String), id: user.id, is_trainer: true });
    expect(Buffer.from(body.token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(sha256(body.token));
    const [stored] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(stored?.lastLoginAt).not.toBeNull();
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'sign_in.session'));
    expect(audit.some((a) => a.actorId === user.id && a.outcome === 'success')).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(body.token);
    expect(JSON.stringify(audit)).not.toContain(idToken);
  });

  it('accepts an id_token only once', async () => {
    const user = await createUser(t);
    const idToken = await issueIdToken(t.app.ctx, user.id);
    expect((await login({ id_token: idToken })).statusCode).toBe(200);
    const again = await login({ id_token: idToken });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ id_token: [AUTH_MESSAGES.idTokenInvalid] });
  });

  it('refuses an id_token older than 5 minutes and an unknown one', async () => {
    const user = await createUser(t);
    const idToken = await issueIdToken(t.app.ctx, user.id);
    t.clock.advance(5 * MINUTE + 1000);
    expect((await login({ id_token: idToken })).json()).toEqual({ id_token: [AUTH_MESSAGES.idTokenInvalid] });
    expect((await login({ id_token: 'made-up-token-value' })).json()).toEqual({
      id_token: [AUTH_MESSAGES.idTokenInvalid],
    });
  });

  it('lets a technician sign in to the console (they land on user-delete)', async () => {
    const tech = await createUser(t, { userType: 'TECHNICIAN' });
    const res = await login({ id_token: await issueIdToken(t.app.ctx, tech.id), source: 'DASHBOARD' });
    expect(res.statusCode).toBe(200);
  });
});

describe('authentication', () => {
  it('answers 401 without a token and with an unknown one', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/v1/user/' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ detail: AUTH_ERRORS.notProvided });
    const bad = await getMe('x'.repeat(43));
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ detail: AUTH_ERRORS.invalidToken });
  });

  it('accepts the Bearer scheme as well as Token', async () => {
    const user = await createUser(t);
    const token = await signIn(t, user);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/user/',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
  });

  it('ends a session after 30 idle minutes', async () => {
    const user = await createUser(t);
    const token = await signIn(t, user);
    t.clock.advance(31 * MINUTE);
    expect((await getMe(token)).statusCode).toBe(401);
  });

  it('keeps an active session alive past 30 minutes, but not past 12 hours', async () => {
    const user = await createUser(t);
    const token = await signIn(t, user);
    for (let elapsed = 0; elapsed < 12 * 60 - 25; elapsed += 25) {
      t.clock.advance(25 * MINUTE);
      expect((await getMe(token)).statusCode).toBe(200);
    }
    t.clock.advance(25 * MINUTE);
    expect((await getMe(token)).statusCode).toBe(401);
  });

  it('refuses the token of a user who has been disabled', async () => {
    const user = await createUser(t);
    const token = await signIn(t, user);
    await t.database.db.update(users).set({ isValid: false }).where(eq(users.id, user.id));
    expect((await getMe(token)).statusCode).toBe(401);
  });

  it('accepts an impersonation token for GET only and says who impersonates', async () => {
    const admin = await createUser(t, { userType: 'ADMIN' });
    const target = await createUser(t, { userType: 'ORG_ADMIN' });
    const token = await signIn(t, target, { kind: 'impersonation', impersonatorId: admin.id });
    const me = await getMe(token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      id: target.id,
      is_impersonated: true,
      impersonator: { id: admin.id, email: admin.email },
    });

    const forbidden = { statusCode: 403, detail: AUTH_ERRORS.impersonationReadOnly };
    for (const [method, url, payload] of [
      ['POST', 'user/logout/', {}],
      ['PUT', 'user/last_dashboard_path/', { url: '/scan' }],
      ['DELETE', 'user/delete/me/', undefined],
    ] as const) {
      const res = await t.app.inject({ method, url: `/api/v1/${url}`, headers: auth(token), payload });
      expect({ statusCode: res.statusCode, detail: res.json<{ detail: string }>().detail }).toEqual(
        forbidden,
      );
    }
    const [stored] = await t.database.db.select().from(users).where(eq(users.id, target.id));
    expect(stored?.isValid).toBe(true);
  });

  it('ends an impersonation after one hour', async () => {
    const admin = await createUser(t, { userType: 'ADMIN' });
    const target = await createUser(t, { userType: 'MANAGER' });
    const token = await signIn(t, target, { kind: 'impersonation', impersonatorId: admin.id });
    for (let i = 0; i < 2; i++) {
      t.clock.advance(25 * MINUTE);
      expect((await getMe(token)).statusCode).toBe(200);
    }
    t.clock.advance(11 * MINUTE);
    expect((await getMe(token)).statusCode).toBe(401);
  });
});

describe('GET user/', () => {
  it('answers the session user shape without any password hash, PIN or token', async () => {
    const org = await createOrganization(t, { name: 'Alpha Clinic', canCreateOrganization: true });
    const user = await createUser(t, {
      userType: 'ORG_ADMIN',
      organizationId: org.id,
      mobile: uniqueMobile(),
    });
    await t.database.db.update(users).set({ pinHash: 'pin-hash-value' }).where(eq(users.id, user.id));
    const token = await signIn(t, user);
    const res = await getMe(token);
    expect(res.statusCode).toBe(200);
    const body = ZSessionUser.parse(res.json());
    expect(body).toMatchObject({
      id: user.id,
      user_type: 'ORG_ADMIN',
      organization: org.id,
      organization_data: { id: org.id, name: 'Alpha Clinic', can_create_organization: true },
      organizations: [{ id: org.id, name: 'Alpha Clinic', can_create_organization: true }],
      organizations_count: 1,
      is_impersonated: false,
      impersonator: null,
      scans_count: 0,
      dynamic_positivity_percentage: 0,
    });
    const text = res.body;
    expect(text).not.toContain(user.passwordHash!);
    expect(text).not.toContain('pin-hash-value');
    expect(text).not.toContain(token);
    expect(Object.keys(res.json<object>())).not.toEqual(
      expect.arrayContaining(['password', 'password_hash', 'pin', 'pin_hash', 'token']),
    );
  });

  it('lists the first 3 organizations by name for an ADMIN, with the total count', async () => {
    const admin = await createUser(t, { userType: 'ADMIN' });
    for (const name of ['zz Last', '0001 first', '0002 Second', '0003 third'])
      await createOrganization(t, { name });
    const body = (await getMe(await signIn(t, admin))).json<{
      organizations: Array<{ name: string }>;
      organizations_count: number;
    }>();
    expect(body.organizations.map((o) => o.name)).toEqual(['0001 first', '0002 Second', '0003 third']);
    const total = (await t.database.query<{ n: number }>('select count(*)::int as n from organizations'))[0]!
      .n;
    expect(body.organizations_count).toBe(total);
  });

  it('lists a manager’s linked organizations and counts their descendants too', async () => {
    const parent = await createOrganization(t, { name: 'Linked Parent', canCreateOrganization: true });
    await createOrganization(t, { name: 'Child A', parentId: parent.id });
    await createOrganization(t, { name: 'Child B', parentId: parent.id });
    await createOrganization(t, { name: 'Unrelated' });
    const manager = await createUser(t, { userType: 'MANAGER', linkedOrganizationIds: [parent.id] });
    const body = (await getMe(await signIn(t, manager))).json<{
      organizations: Array<{ id: number }>;
      organizations_count: number;
    }>();
    expect(body.organizations.map((o) => o.id)).toEqual([parent.id]);
    expect(body.organizations_count).toBe(3);
  });

  it('puts a distributor admin’s own organization first', async () => {
    const own = await createOrganization(t, { name: 'Zed Distributor', canCreateOrganization: true });
    await createOrganization(t, { name: 'Alpha Sub', parentId: own.id });
    const user = await createUser(t, { userType: 'DISTRIBUTOR_ADMIN', organizationId: own.id });
    const body = (await getMe(await signIn(t, user))).json<{
      organizations: Array<{ name: string }>;
      organizations_count: number;
    }>();
    expect(body.organizations.map((o) => o.name)).toEqual(['Zed Distributor', 'Alpha Sub']);
    expect(body.organizations_count).toBe(2);
  });

  it('counts a technician’s screening scans and their positivity', async () => {
    const org = await createOrganization(t);
    const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: org.id });
    const base = { organizationId: org.id, technicianId: tech.id, dateTime: new Date() };
    await t.database.db.insert(scans).values([
      { ...base, scanType: 'SCAN', leftBreastFinding: ['mass'] },
      { ...base, scanType: 'SCAN' },
      { ...base, scanType: 'SCAN' },
      { ...base, scanType: 'TRAINING', rightBreastFinding: ['mass'] },
    ]);
    const body = (await getMe(await signIn(t, tech))).json<{
      scans_count: number;
      dynamic_positivity_percentage: number;
    }>();
    expect(body.scans_count).toBe(3);
    expect(body.dynamic_positivity_percentage).toBe(33.3);
  });
});

describe('PUT user/last_dashboard_path/', () => {
  it('remembers the path and shows it on GET user/', async () => {
    const user = await createUser(t, { userType: 'ADMIN' });
    const token = await signIn(t, user);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user/last_dashboard_path/',
      headers: auth(token),
      payload: { url: '/scan?page=2' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: '/scan?page=2' });
    expect((await getMe(token)).json<{ last_used_dashboard_path: string }>().last_used_dashboard_path).toBe(
      '/scan?page=2',
    );
  });

  it('refuses a value that is not a path, and refuses anonymous callers', async () => {
    const token = await signIn(t, await createUser(t));
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user/last_dashboard_path/',
      headers: auth(token),
      payload: { url: 'https://evil.example' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ url: ['Enter a path that starts with /.'] });
    const anon = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user/last_dashboard_path/',
      payload: { url: '/scan' },
    });
    expect(anon.statusCode).toBe(401);
  });
});

describe('POST user/logout/', () => {
  it('revokes the session so the same token then answers 401', async () => {
    const user = await createUser(t);
    const token = await signIn(t, user);
    const other = await signIn(t, user);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/logout/',
      headers: auth(token),
      payload: {},
    });
    expect(res.statusCode).toBe(204);
    const after = await getMe(token);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ detail: AUTH_ERRORS.invalidToken });
    expect((await getMe(other)).statusCode).toBe(200);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'sign_out'));
    expect(audit.some((a) => a.actorId === user.id)).toBe(true);
  });
});

describe('DELETE user/delete/me/', () => {
  it('deactivates and anonymises the user, revokes every session and keeps their scans', async () => {
    const org = await createOrganization(t);
    const mobile = uniqueMobile();
    const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: org.id, mobile });
    const token = await signIn(t, tech);
    const other = await signIn(t, tech);
    await t.database.db
      .insert(scans)
      .values({ organizationId: org.id, technicianId: tech.id, dateTime: new Date() });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/otp/',
      payload: { mobile, mobile_country_code: 'IN' },
    });

    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/user/delete/me/',
      headers: auth(token),
    });
    expect(res.statusCode).toBe(204);

    const [stored] = await t.database.db.select().from(users).where(eq(users.id, tech.id));
    expect(stored).toMatchObject({
      isValid: false,
      firstName: 'Deleted',
      lastName: 'User',
      email: null,
      mobile: null,
      username: `deleted-${tech.id}`,
      passwordHash: null,
      pinHash: null,
    });
    expect(stored?.deletedAt).not.toBeNull();
    expect((await getMe(token)).statusCode).toBe(401);
    expect((await getMe(other)).statusCode).toBe(401);
    expect(
      await t.database.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, tech.id)),
    ).toHaveLength(0);
    const kept = await t.database.db.select().from(scans).where(eq(scans.technicianId, tech.id));
    expect(kept).toHaveLength(1);
    const signInAgain = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password/',
      payload: { email: tech.email, password: DEFAULT_PASSWORD },
    });
    expect(signInAgain.json()).toEqual({ non_field_errors: [AUTH_MESSAGES.userNotFound] });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'account.deleted'));
    expect(audit.some((a) => a.actorId === tech.id)).toBe(true);
  });

  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/user/delete/me/' });
    expect(res.statusCode).toBe(401);
  });
});
