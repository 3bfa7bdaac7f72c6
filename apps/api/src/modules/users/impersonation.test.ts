import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { IMPERSONATION_TTL_SECONDS } from '@sc/shared/constants';
import { USER_MESSAGES, ZImpersonationResponse } from '@sc/shared/users';
import { auditLog, outboxMessages, sessions, users } from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { sha256 } from '../../services/tokens.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import { IMPERSONATION_ERRORS } from './impersonation.service.ts';

const t = await setupTestApp({ RATE_LIMIT_DISABLED: 'true' });
const MINUTE = 60_000;

const impersonate = (token: string | null, id: number | string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/user/impersonation/${id}/`,
    headers: token ? auth(token) : {},
  });
const endImpersonation = (token: string) =>
  t.app.inject({ method: 'DELETE', url: '/api/v1/user/impersonation/', headers: auth(token) });
const getMe = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/user/', headers: auth(token) });

async function adminAndOrgAdmin() {
  const org = await createOrganization(t, { name: 'Seen Clinic' });
  const admin = await createUser(t, { userType: 'ADMIN' });
  const target = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id });
  return { org, admin, target, adminToken: await signIn(t, admin) };
}

describe('GET user/impersonation/{id}/', () => {
  it('gives an ADMIN a token with which GET user/ answers the ORG_ADMIN, naming the impersonator', async () => {
    const { admin, target, adminToken, org } = await adminAndOrgAdmin();
    const res = await impersonate(adminToken, target.id);
    expect(res.statusCode).toBe(200);
    const body = ZImpersonationResponse.parse(res.json());
    expect(body.id).toBe(target.id);
    expect(Object.keys(res.json<object>()).sort()).toEqual(['id', 'token']);

    const me = await getMe(body.token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      id: target.id,
      user_type: 'ORG_ADMIN',
      organization: org.id,
      is_impersonated: true,
      impersonator: { id: admin.id, email: admin.email },
    });
    // The ADMIN's own session is untouched and still answers the ADMIN.
    expect((await getMe(adminToken)).json()).toMatchObject({ id: admin.id, is_impersonated: false });

    const [session] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(body.token)));
    expect(session).toMatchObject({ kind: 'impersonation', userId: target.id, impersonatorId: admin.id });
    expect(session!.expiresAt.getTime() - session!.created.getTime()).toBe(IMPERSONATION_TTL_SECONDS * 1000);
  });

  it('lets an ADMIN impersonate every listed type but ADMIN', async () => {
    const org = await createOrganization(t);
    const adminToken = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    for (const userType of [
      'SUB_ADMIN',
      'DISTRIBUTOR_ADMIN',
      'MANAGER',
      'CERVAICAL_REVIEWER',
      'ORG_ADMIN',
    ] as const) {
      const user = await createUser(t, {
        userType,
        organizationId: userType === 'SUB_ADMIN' ? null : org.id,
      });
      const res = await impersonate(adminToken, user.id);
      expect({ userType, status: res.statusCode }).toEqual({ userType, status: 200 });
    }
  });

  it('refuses impersonation of the impersonation token: POST, PUT and DELETE answer 403 and change nothing', async () => {
    const { target, adminToken } = await adminAndOrgAdmin();
    const { token } = ZImpersonationResponse.parse((await impersonate(adminToken, target.id)).json());
    for (const [method, url, payload] of [
      ['POST', 'user/logout/', {}],
      ['PUT', 'user/last_dashboard_path/', { url: '/scan' }],
      ['DELETE', 'user/delete/me/', undefined],
      ['POST', 'organization/', { name: 'Made while impersonating' }],
    ] as const) {
      const res = await t.app.inject({ method, url: `/api/v1/${url}`, headers: auth(token), payload });
      expect({ method, url, status: res.statusCode, detail: res.json<{ detail: string }>().detail }).toEqual({
        method,
        url,
        status: 403,
        detail: AUTH_ERRORS.impersonationReadOnly,
      });
    }
    const me = (await getMe(token)).json<{ is_valid: boolean; last_used_dashboard_path: string | null }>();
    expect(me.is_valid).toBe(true);
    expect(me.last_used_dashboard_path).toBeNull();
  });

  it('does not let a SUB_ADMIN (or any other role) impersonate', async () => {
    const { target } = await adminAndOrgAdmin();
    for (const userType of [
      'SUB_ADMIN',
      'DISTRIBUTOR_ADMIN',
      'MANAGER',
      'ORG_ADMIN',
      'TECHNICIAN',
    ] as const) {
      const token = await signIn(t, await createUser(t, { userType }));
      const res = await impersonate(token, target.id);
      expect({ userType, status: res.statusCode, body: res.json() }).toEqual({
        userType,
        status: 403,
        body: { detail: AUTH_ERRORS.forbidden },
      });
    }
  });

  it('does not let an ADMIN impersonate another ADMIN, itself, a technician or a disabled user', async () => {
    const { adminToken, admin } = await adminAndOrgAdmin();
    const otherAdmin = await createUser(t, { userType: 'ADMIN' });
    const technician = await createUser(t, { userType: 'TECHNICIAN' });
    const disabled = await createUser(t, { userType: 'ORG_ADMIN', isValid: false });
    for (const user of [otherAdmin, admin, technician, disabled]) {
      const res = await impersonate(adminToken, user.id);
      expect({ id: user.id, status: res.statusCode, body: res.json() }).toEqual({
        id: user.id,
        status: 403,
        body: { detail: USER_MESSAGES.cannotImpersonate },
      });
    }
    const failures = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'impersonation.start'), eq(auditLog.targetId, String(otherAdmin.id))));
    expect(failures).toMatchObject([{ actorId: admin.id, outcome: 'failure' }]);
    const minted = await t.database.db.select().from(sessions).where(eq(sessions.userId, otherAdmin.id));
    expect(minted).toHaveLength(0);
  });

  it('answers 404 for an unknown or malformed id and 401 without a token', async () => {
    const { adminToken } = await adminAndOrgAdmin();
    for (const id of ['999999999', 'abc', '0', '99999999999']) {
      const res = await impersonate(adminToken, id);
      expect({ id, status: res.statusCode, body: res.json() }).toEqual({
        id,
        status: 404,
        body: { detail: 'Not found.' },
      });
    }
    expect((await impersonate(null, 1)).statusCode).toBe(401);
  });

  it('does not let an impersonation token start another impersonation', async () => {
    const { target, adminToken } = await adminAndOrgAdmin();
    const { token } = ZImpersonationResponse.parse((await impersonate(adminToken, target.id)).json());
    const other = await createUser(t, { userType: 'MANAGER' });
    const res = await impersonate(token, other.id);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: IMPERSONATION_ERRORS.nested });
  });

  it('ends the impersonation token after one hour while the ADMIN session goes on', async () => {
    const { target, adminToken } = await adminAndOrgAdmin();
    const { token } = ZImpersonationResponse.parse((await impersonate(adminToken, target.id)).json());
    t.clock.advance(29 * MINUTE);
    expect((await getMe(token)).statusCode).toBe(200);
    expect((await getMe(adminToken)).statusCode).toBe(200);
    t.clock.advance(29 * MINUTE);
    expect((await getMe(token)).statusCode).toBe(200);
    expect((await getMe(adminToken)).statusCode).toBe(200);
    t.clock.advance(2 * MINUTE + 1000);
    const expired = await getMe(token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ detail: AUTH_ERRORS.invalidToken });
    expect((await getMe(adminToken)).statusCode).toBe(200);
  });

  it('records the start in the audit log with both identities and no token', async () => {
    const { admin, target, adminToken } = await adminAndOrgAdmin();
    const { token } = ZImpersonationResponse.parse((await impersonate(adminToken, target.id)).json());
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'impersonation.start'), eq(auditLog.targetId, String(target.id))));
    expect(rows).toMatchObject([{ actorId: admin.id, targetType: 'user', outcome: 'success' }]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});

describe('DELETE user/impersonation/', () => {
  it('revokes the impersonation token (then 401), keeps the ADMIN signed in, and audits both identities', async () => {
    const { admin, target, adminToken } = await adminAndOrgAdmin();
    const { token } = ZImpersonationResponse.parse((await impersonate(adminToken, target.id)).json());
    const res = await endImpersonation(token);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const after = await getMe(token);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ detail: AUTH_ERRORS.invalidToken });
    expect((await getMe(adminToken)).json()).toMatchObject({ id: admin.id });

    const [row] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'impersonation.end'), eq(auditLog.impersonatorId, admin.id)));
    expect(row).toMatchObject({ actorId: target.id, impersonatorId: admin.id, targetId: String(target.id) });
    expect(JSON.stringify(row)).not.toContain(token);
    // Once revoked, the token cannot end anything again.
    expect((await endImpersonation(token)).statusCode).toBe(401);
  });

  it('answers 400 to a normal session token and leaves that session alone', async () => {
    const { adminToken } = await adminAndOrgAdmin();
    const res = await endImpersonation(adminToken);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [USER_MESSAGES.notImpersonating] });
    expect((await getMe(adminToken)).statusCode).toBe(200);
  });

  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/user/impersonation/' });
    expect(res.statusCode).toBe(401);
  });
});

describe('an impersonation token lives within the ADMIN session that started it', () => {
  async function impersonating() {
    const setup = await adminAndOrgAdmin();
    const { token } = ZImpersonationResponse.parse((await impersonate(setup.adminToken, setup.target.id)).json());
    expect((await getMe(token)).statusCode).toBe(200);
    return { ...setup, token };
  }
  const expectRefused = async (token: string) => {
    const res = await getMe(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: AUTH_ERRORS.invalidToken });
  };
  const sessionOf = async (token: string) =>
    (await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, sha256(token))))[0]!;

  it('an impersonation token stops working when the admin signs out', async () => {
    const { adminToken, token } = await impersonating();
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/user/logout/', headers: auth(adminToken) });
    expect(out.statusCode).toBeLessThan(300);
    await expectRefused(token);
    // Revoked on the server too, not only refused.
    expect((await sessionOf(token)).revokedAt).not.toBeNull();
  });

  it("an impersonation token stops working when the admin's session expires", async () => {
    const { adminToken, token } = await impersonating();
    // The ADMIN signed in almost 12 hours ago: their session reaches its maximum age within the impersonation's hour.
    const admin = await sessionOf(adminToken);
    await t.database.db
      .update(sessions)
      .set({ created: new Date(t.clock.now().getTime() - 12 * 60 * MINUTE + 2 * MINUTE) })
      .where(eq(sessions.id, admin.id));
    expect((await getMe(token)).statusCode).toBe(200);
    t.clock.advance(3 * MINUTE);
    expect((await getMe(adminToken)).statusCode).toBe(401);
    await expectRefused(token);
  });

  it("an impersonation token stops working when the admin's session is revoked", async () => {
    const { adminToken, token } = await impersonating();
    await t.database.db.update(sessions).set({ revokedAt: t.clock.now() }).where(eq(sessions.tokenHash, sha256(adminToken)));
    await expectRefused(token);
  });

  it("an impersonation token stops working when the admin's password is reset", async () => {
    const { admin, token } = await impersonating();
    const asked = await t.app.inject({ method: 'POST', url: '/api/v1/auth/password-reset/', payload: { email: admin.email } });
    expect(asked.statusCode).toBe(200);
    const [message] = await t.database.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, admin.email!))
      .orderBy(desc(outboxMessages.id))
      .limit(1);
    const resetToken = new URL(message!.link!).searchParams.get('token')!;
    const done = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset/confirm/',
      payload: { token: resetToken, password: 'Brand-new-pass9' },
    });
    expect(done.statusCode).toBe(200);
    await expectRefused(token);
    expect((await sessionOf(token)).revokedAt).not.toBeNull();
  });

  it('an impersonation token stops working when the admin deletes their account', async () => {
    const { adminToken, token } = await impersonating();
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/user/delete/me/', headers: auth(adminToken) });
    expect(res.statusCode).toBeLessThan(300);
    await expectRefused(token);
    expect((await sessionOf(token)).revokedAt).not.toBeNull();
  });

  it('an impersonation token stops working when the admin is disabled', async () => {
    const { admin, token } = await impersonating();
    await t.database.db.update(users).set({ isValid: false }).where(eq(users.id, admin.id));
    await expectRefused(token);
  });

  it("signing out of another of the admin's sessions leaves the impersonation alone", async () => {
    const { admin, token } = await impersonating();
    const otherBrowser = await signIn(t, admin);
    await t.app.inject({ method: 'POST', url: '/api/v1/user/logout/', headers: auth(otherBrowser) });
    expect((await getMe(token)).statusCode).toBe(200);
  });

  it("reading through the impersonation keeps the admin's own session from going idle", async () => {
    const { adminToken, token } = await impersonating();
    for (let i = 0; i < 4; i++) {
      t.clock.advance(10 * MINUTE);
      expect((await getMe(token)).statusCode).toBe(200);
    }
    // 40 minutes without a request on the ADMIN's own token, more than the 30 idle minutes.
    expect((await getMe(adminToken)).statusCode).toBe(200);
  });

  it('refuses an impersonation token that names no ADMIN session (issued before the link existed)', async () => {
    const { admin, target } = await adminAndOrgAdmin();
    const token = await signIn(t, target, { kind: 'impersonation', impersonatorId: admin.id });
    expect((await getMe(token)).statusCode).toBe(200);
    await t.database.db.update(sessions).set({ parentSessionId: null }).where(eq(sessions.tokenHash, sha256(token)));
    await expectRefused(token);
  });
});
