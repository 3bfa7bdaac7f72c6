// The user dialog's calls (part 2 §2.3, §6, §7, §8): Reset Pin, Reset Password, Certify, re-certify, scan counts,
// tutorial status and a MANAGER's organization links — each with 401, the role's 403, the scope's 404 and its rules.
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { USER_MESSAGES } from '@sc/shared/user-input';
import {
  ZPinResetResponse,
  ZTutorialStatus,
  ZUserOrganizationLinkList,
  ZUserOrganizationLinkSaved,
  ZUserSaved,
  ZUserScanCount,
} from '@sc/shared/users';
import {
  auditLog,
  outboxMessages,
  scans,
  tutorialModuleCompletions,
  tutorialModules,
  users,
} from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';

const t = await setupTestApp({ RATE_LIMIT_DISABLED: 'true' });
const API = '/api/v1';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token: string | null, payload?: Record<string, unknown>) =>
  t.app.inject({
    method,
    url: `${API}${url}`,
    headers: token ? auth(token) : {},
    ...(payload === undefined ? {} : { payload }),
  });

async function world() {
  const distributor = await createOrganization(t, { name: 'Dist', canCreateOrganization: true });
  const sub = await createOrganization(t, { name: 'Dist Sub', parentId: distributor.id });
  const clinic = await createOrganization(t, { name: 'Clinic' });
  const admin = await createUser(t, { userType: 'ADMIN' });
  const subAdmin = await createUser(t, { userType: 'SUB_ADMIN' });
  const distAdmin = await createUser(t, { userType: 'DISTRIBUTOR_ADMIN', organizationId: distributor.id });
  const manager = await createUser(t, { userType: 'MANAGER', linkedOrganizationIds: [sub.id] });
  const subOrgAdmin = await createUser(t, { userType: 'ORG_ADMIN', organizationId: sub.id });
  const clinicOrgAdmin = await createUser(t, { userType: 'ORG_ADMIN', organizationId: clinic.id });
  const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: sub.id });
  const tokens = {
    admin: await signIn(t, admin),
    subAdmin: await signIn(t, subAdmin),
    distAdmin: await signIn(t, distAdmin),
    manager: await signIn(t, manager),
    subOrgAdmin: await signIn(t, subOrgAdmin),
    clinicOrgAdmin: await signIn(t, clinicOrgAdmin),
    tech: await signIn(t, tech),
  };
  return {
    distributor,
    sub,
    clinic,
    admin,
    subAdmin,
    distAdmin,
    manager,
    subOrgAdmin,
    clinicOrgAdmin,
    tech,
    tokens,
  };
}

const auditCount = async (action: string, targetId: number) =>
  (
    await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(targetId))))
  ).length;

const userRow = async (id: number) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!;

describe('PUT organization/user/{id}/reset/pin/', () => {
  it('sets the flag the device app reads in user/, with the §8 message and an audit row', async () => {
    const w = await world();
    await t.database.db.update(users).set({ pinHash: 'old-pin-hash' }).where(eq(users.id, w.tech.id));
    const url = `/organization/user/${w.tech.id}/reset/pin/`;
    expect((await call('PUT', url, null, { pin_reset_request: true })).statusCode).toBe(401);
    expect((await call('PUT', url, w.tokens.tech, { pin_reset_request: true })).statusCode).toBe(403);
    expect((await call('PUT', url, w.tokens.clinicOrgAdmin, { pin_reset_request: true })).statusCode).toBe(
      404,
    );
    expect((await call('PUT', url, w.tokens.subOrgAdmin, { pin_reset_request: false })).json()).toEqual({
      pin_reset_request: ['Send pin_reset_request: true to reset the PIN.'],
    });
    const res = await call('PUT', url, w.tokens.subOrgAdmin, { pin_reset_request: true });
    expect(ZPinResetResponse.parse(res.json())).toEqual({
      detail: 'Successfully Reset Pin',
      pin_reset_request: true,
    });
    expect(await userRow(w.tech.id)).toMatchObject({ pinResetRequest: true, pinHash: null });
    const me = await call('GET', '/user/', w.tokens.tech);
    expect(me.json()).toMatchObject({ pin_reset_request: true });
    expect(await auditCount('user.pin_reset', w.tech.id)).toBe(1);
  });

  it('refuses a target above the actor', async () => {
    const w = await world();
    const res = await call('PUT', `/organization/user/${w.distAdmin.id}/reset/pin/`, w.tokens.admin, {
      pin_reset_request: true,
    });
    expect(res.statusCode).toBe(200);
    const da = await createUser(t, { userType: 'DISTRIBUTOR_ADMIN', organizationId: w.sub.id });
    const denied = await call('PUT', `/organization/user/${da.id}/reset/pin/`, w.tokens.manager, {
      pin_reset_request: true,
    });
    expect({ status: denied.statusCode, body: denied.json() }).toEqual({
      status: 403,
      body: { detail: USER_MESSAGES.accessDenied },
    });
  });
});

describe('POST organization/user/{id}/reset/password/', () => {
  it('e-mails a reset link that sets the password', async () => {
    const w = await world();
    const url = `/organization/user/${w.tech.id}/reset/password/`;
    expect((await call('POST', url, null, {})).statusCode).toBe(401);
    expect((await call('POST', url, w.tokens.tech, {})).statusCode).toBe(403);
    expect((await call('POST', url, w.tokens.clinicOrgAdmin, {})).statusCode).toBe(404);
    const res = await call('POST', url, w.tokens.manager, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      detail: USER_MESSAGES.passwordLinkSent(w.tech.email!),
      email: w.tech.email,
    });
    const [mail] = await t.database.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, w.tech.email!))
      .orderBy(desc(outboxMessages.id));
    const token = new URL(mail!.link!).searchParams.get('token');
    const confirm = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/password-reset/confirm/`,
      payload: { token, password: 'Reset-by-admin1' },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/password/`,
      payload: { email: w.tech.email, password: 'Reset-by-admin1' },
    });
    expect(login.statusCode).toBe(200);
    expect(await auditCount('user.password_link_sent', w.tech.id)).toBe(1);
  });

  it('refuses a user without an e-mail on the email field', async () => {
    const w = await world();
    const noEmail = await createUser(t, { organizationId: w.sub.id, email: null, mobile: '9876512345' });
    const res = await call('POST', `/organization/user/${noEmail.id}/reset/password/`, w.tokens.admin, {});
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 400,
      body: { email: [USER_MESSAGES.noEmail] },
    });
  });
});

describe('GET user/certify/{id}/', () => {
  it('certifies for a year from today as ADMIN or SUB_ADMIN, and writes the audit log', async () => {
    const w = await world();
    t.clock.set(new Date('2026-05-10T20:00:00Z')); // 11 May in Kolkata
    try {
      const url = `/user/certify/${w.tech.id}/`;
      expect((await call('GET', url, null)).statusCode).toBe(401);
      for (const token of [w.tokens.distAdmin, w.tokens.manager, w.tokens.subOrgAdmin]) {
        const res = await call('GET', url, token);
        expect({ status: res.statusCode, body: res.json() }).toEqual({
          status: 403,
          body: { detail: AUTH_ERRORS.forbidden },
        });
      }
      const res = await call('GET', url, w.tokens.subAdmin);
      expect(res.statusCode, res.body).toBe(200);
      expect(ZUserSaved.parse(res.json())).toMatchObject({
        ibe_training_status: 'CERTIFIED',
        certificate_issue_date: '2026-05-11',
        certificate_expiry_date: '2027-05-11',
        detail: 'User certified successfully',
      });
      expect(await auditCount('user.certified', w.tech.id)).toBe(1);
      const again = await call('GET', url, w.tokens.admin);
      expect({ status: again.statusCode, body: again.json() }).toEqual({
        status: 400,
        body: { non_field_errors: [USER_MESSAGES.alreadyCertified] },
      });
    } finally {
      t.clock.set(new Date());
    }
  });

  it('refuses a MANAGER, CERVAICAL_REVIEWER or ADMIN target and a user without an organization', async () => {
    const w = await world();
    const reviewer = await createUser(t, { userType: 'CERVAICAL_REVIEWER', organizationId: w.sub.id });
    for (const target of [w.manager, reviewer, w.admin]) {
      expect((await call('GET', `/user/certify/${target.id}/`, w.tokens.admin)).json()).toEqual({
        non_field_errors: [USER_MESSAGES.certifyType],
      });
    }
    const loose = await createUser(t, { userType: 'TECHNICIAN' });
    expect((await call('GET', `/user/certify/${loose.id}/`, w.tokens.admin)).json()).toEqual({
      non_field_errors: [USER_MESSAGES.certifyNeedsOrganization],
    });
    expect((await userRow(loose.id)).ibeTrainingStatus).toBe('NOT_STARTED');
  });

  it('changes nothing through a (read-only) impersonation token', async () => {
    const w = await world();
    const token = await signIn(t, w.subAdmin, { kind: 'impersonation', impersonatorId: w.admin.id });
    const res = await call('GET', `/user/certify/${w.tech.id}/`, token);
    expect(res.statusCode).toBe(403);
    expect((await userRow(w.tech.id)).ibeTrainingStatus).toBe('NOT_STARTED');
  });
});

describe('POST organization/user/{id}/re-certify/', () => {
  it('gives a certified technician a new year from today, and refuses one not certified', async () => {
    const w = await world();
    const url = `/organization/user/${w.tech.id}/re-certify/`;
    expect((await call('POST', url, null, {})).statusCode).toBe(401);
    expect((await call('POST', url, w.tokens.manager, {})).statusCode).toBe(403);
    expect((await call('POST', url, w.tokens.admin, {})).json()).toEqual({
      non_field_errors: [USER_MESSAGES.notCertified],
    });
    await t.database.db
      .update(users)
      .set({
        ibeTrainingStatus: 'CERTIFIED',
        certificateIssueDate: '2025-01-02',
        certificateExpiryDate: '2026-01-02',
      })
      .where(eq(users.id, w.tech.id));
    t.clock.set(new Date('2026-02-28T06:00:00Z'));
    try {
      const res = await call('POST', url, w.tokens.admin, {});
      expect(ZUserSaved.parse(res.json())).toMatchObject({
        certificate_issue_date: '2026-02-28',
        certificate_expiry_date: '2027-02-28',
        detail: USER_MESSAGES.reCertified,
      });
      expect(await auditCount('user.re_certified', w.tech.id)).toBe(1);
    } finally {
      t.clock.set(new Date());
    }
  });
});

describe('GET organization/user/{id}/scan/count/', () => {
  it('counts pre-training, training and practice scans (not duplicates), within the scope', async () => {
    const w = await world();
    const insert = (
      scanType: 'PRE_TRAINING' | 'TRAINING' | 'PRACTICE' | 'SCAN',
      parentScanId: number | null = null,
    ) =>
      t.database.db
        .insert(scans)
        .values({
          technicianId: w.tech.id,
          organizationId: w.sub.id,
          dateTime: new Date(),
          scanType,
          parentScanId,
        })
        .returning();
    await insert('PRE_TRAINING');
    const [training] = await insert('TRAINING');
    await insert('TRAINING');
    await insert('TRAINING', training!.id);
    await insert('PRACTICE');
    await insert('SCAN');
    const url = `/organization/user/${w.tech.id}/scan/count/`;
    expect((await call('GET', url, null)).statusCode).toBe(401);
    expect((await call('GET', url, w.tokens.tech)).statusCode).toBe(403);
    expect((await call('GET', url, w.tokens.clinicOrgAdmin)).statusCode).toBe(404);
    const res = await call('GET', `${url}?using_read_db=true`, w.tokens.manager);
    expect(ZUserScanCount.parse(res.json())).toEqual({ pre_training: 1, training: 2, practice: 1 });
  });
});

describe('GET tutorial/module/status/', () => {
  it('lists the published modules with the user’s completion and the totals', async () => {
    const w = await world();
    const [m1] = await t.database.db
      .insert(tutorialModules)
      .values({ name: 'Basics', zOrder: -20 })
      .returning();
    const [m2] = await t.database.db
      .insert(tutorialModules)
      .values({ name: 'Scanning', zOrder: -10 })
      .returning();
    await t.database.db.insert(tutorialModules).values({ name: 'Draft', zOrder: -15, status: 'DRAFT' });
    await t.database.db.insert(tutorialModuleCompletions).values([
      { userId: w.tech.id, moduleId: m1!.id, completed: true, progress: 100 },
      { userId: w.tech.id, moduleId: m2!.id, completed: false, progress: 40 },
    ]);
    const url = `/tutorial/module/status/?user_id=${w.tech.id}&using_read_db=true`;
    expect((await call('GET', url, null)).statusCode).toBe(401);
    expect((await call('GET', url, w.tokens.tech)).statusCode).toBe(403);
    expect((await call('GET', url, w.tokens.clinicOrgAdmin)).statusCode).toBe(404);
    expect((await call('GET', '/tutorial/module/status/', w.tokens.admin)).json()).toHaveProperty('user_id');
    const status = ZTutorialStatus.parse((await call('GET', url, w.tokens.subOrgAdmin)).json());
    const mine = status.results.filter((r) => r.id === m1!.id || r.id === m2!.id);
    expect(mine).toEqual([
      { id: m1!.id, name: 'Basics', completed: true, progress: 100 },
      { id: m2!.id, name: 'Scanning', completed: false, progress: 40 },
    ]);
    expect(status.results.map((r) => r.name)).not.toContain('Draft');
    expect(status.completed).toBe(1);
    expect(status.total).toBe(status.results.length);
    expect(status.progress_completed).toBe(Math.round((1 / status.total) * 100));
  });
});

describe('user/organizations/ (a MANAGER’s organization links)', () => {
  it('adds, lists and removes links one by one, refusing duplicates, with audit rows', async () => {
    const w = await world();
    expect((await call('GET', `/user/organizations/?user=${w.manager.id}`, null)).statusCode).toBe(401);
    const add = await call('POST', '/user/organizations/', w.tokens.subAdmin, {
      organization: w.clinic.id,
      user: w.manager.id,
    });
    expect(add.statusCode, add.body).toBe(201);
    const link = ZUserOrganizationLinkSaved.parse(add.json());
    expect(link).toMatchObject({
      user: w.manager.id,
      organization: w.clinic.id,
      organization_data: { id: w.clinic.id, name: 'Clinic' },
      detail: USER_MESSAGES.linkAdded,
    });
    const dup = await call('POST', '/user/organizations/', w.tokens.admin, {
      organization: w.clinic.id,
      user: w.manager.id,
    });
    expect({ status: dup.statusCode, body: dup.json() }).toEqual({
      status: 400,
      body: { organization: [USER_MESSAGES.duplicateLink] },
    });
    const list = ZUserOrganizationLinkList.parse(
      (await call('GET', `/user/organizations/?user=${w.manager.id}&limit=1000`, w.tokens.admin)).json(),
    );
    expect(list.results.map((l) => l.organization_data.name)).toEqual(['Clinic', 'Dist Sub']);
    // The manager reads its own links, and its scope now holds the clinic.
    const own = ZUserOrganizationLinkList.parse(
      (await call('GET', `/user/organizations/?user=${w.manager.id}`, w.tokens.manager)).json(),
    );
    expect(own.count).toBe(2);
    expect(
      (await call('GET', `/organization/user/${w.clinicOrgAdmin.id}/`, w.tokens.manager)).statusCode,
    ).toBe(200);

    const del = await call('DELETE', `/user/organizations/${link.id}/`, w.tokens.subAdmin);
    expect({ status: del.statusCode, body: del.json() }).toEqual({
      status: 200,
      body: { detail: USER_MESSAGES.linkRemoved },
    });
    expect((await call('DELETE', `/user/organizations/${link.id}/`, w.tokens.subAdmin)).statusCode).toBe(404);
    expect(
      (await call('GET', `/organization/user/${w.clinicOrgAdmin.id}/`, w.tokens.manager)).statusCode,
    ).toBe(404);
    expect(await auditCount('user.organization_linked', w.manager.id)).toBe(1);
    expect(await auditCount('user.organization_unlinked', w.manager.id)).toBe(1);
  });

  it('links MANAGER users only, and only ADMIN and SUB_ADMIN may change links', async () => {
    const w = await world();
    const tech = await call('POST', '/user/organizations/', w.tokens.admin, {
      organization: w.clinic.id,
      user: w.tech.id,
    });
    expect(tech.json()).toEqual({ user: [USER_MESSAGES.managerLinksOnly] });
    for (const token of [w.tokens.distAdmin, w.tokens.manager, w.tokens.subOrgAdmin, w.tokens.tech]) {
      const res = await call('POST', '/user/organizations/', token, {
        organization: w.sub.id,
        user: w.manager.id,
      });
      expect(res.statusCode).toBe(403);
    }
    const unknown = await call('POST', '/user/organizations/', w.tokens.admin, {
      organization: 2_000_000_000,
      user: w.manager.id,
    });
    expect(unknown.json()).toEqual({ organization: ['Invalid pk "2000000000" - object does not exist.'] });
    // Another manager's links are not visible to a manager (managers are outside its scope).
    const other = await createUser(t, { userType: 'MANAGER', linkedOrganizationIds: [w.clinic.id] });
    expect((await call('GET', `/user/organizations/?user=${other.id}`, w.tokens.manager)).statusCode).toBe(
      404,
    );
    expect((await call('GET', '/user/organizations/', w.tokens.admin)).json()).toHaveProperty('user');
  });
});

describe('OpenAPI', () => {
  it('documents every users path under the users tag, with a summary', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    type Operation = { tags?: string[]; summary?: string };
    const paths = res.json<{ paths: Record<string, Record<string, Operation>> }>().paths;
    const expected: [string, string][] = [
      ['/api/v1/organization/user/', 'get'],
      ['/api/v1/organization/user/', 'post'],
      ['/api/v1/organization/user/{id}/', 'get'],
      ['/api/v1/organization/user/{id}/', 'put'],
      ['/api/v1/organization/user/{id}/', 'patch'],
      ['/api/v1/organization/user/{id}/reset/pin/', 'put'],
      ['/api/v1/organization/user/{id}/reset/password/', 'post'],
      ['/api/v1/organization/user/{id}/re-certify/', 'post'],
      ['/api/v1/organization/user/{id}/scan/count/', 'get'],
      ['/api/v1/user/certify/{id}/', 'get'],
      ['/api/v1/tutorial/module/status/', 'get'],
      ['/api/v1/user/organizations/', 'get'],
      ['/api/v1/user/organizations/', 'post'],
      ['/api/v1/user/organizations/{id}/', 'delete'],
    ];
    for (const [path, method] of expected) {
      const op = paths[path]?.[method];
      expect({ path, method, tags: op?.tags, hasSummary: Boolean(op?.summary) }).toEqual({
        path,
        method,
        tags: ['users'],
        hasSummary: true,
      });
    }
  });
});
