// organization/user/{id}/ GET, POST, PUT and PATCH (part 2 §2.3, §4–§8; architecture §6, §7b): scope, levels, the §5
// messages, the set-password link, assign / unassign / transfer with and without the user's scans, the audit log.
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { USER_MESSAGES } from '@sc/shared/user-input';
import { ZUserDetail, ZUserSaved } from '@sc/shared/users';
import { MESSAGES } from '@sc/shared/validation';
import { auditLog, outboxMessages, scans, users } from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, uniqueMobile } from '../../test/factories.ts';

const t = await setupTestApp({ RATE_LIMIT_DISABLED: 'true' });
const API = '/api/v1';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
const call = (method: Method, url: string, token: string | null, payload?: Record<string, unknown>) =>
  t.app.inject({
    method,
    url: `${API}${url}`,
    headers: token ? auth(token) : {},
    ...(payload === undefined ? {} : { payload }),
  });

let seq = 0;
const uniqueEmail = () => `new${++seq}-${process.pid}@example.com`;
const body = (extra: Record<string, unknown> = {}) => ({
  first_name: 'Asha',
  last_name: 'Rao',
  user_type: 'TECHNICIAN',
  email: uniqueEmail(),
  mobile_country_code: 'IN',
  ...extra,
});

/** A distributor with a sub-organization, a stand-alone clinic, and a user of each role. */
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
  const subTech = await createUser(t, { userType: 'TECHNICIAN', organizationId: sub.id });
  const clinicTech = await createUser(t, { userType: 'TECHNICIAN', organizationId: clinic.id });
  const unassigned = await createUser(t, { userType: 'TECHNICIAN' });
  const tokens = {
    admin: await signIn(t, admin),
    subAdmin: await signIn(t, subAdmin),
    distAdmin: await signIn(t, distAdmin),
    manager: await signIn(t, manager),
    subOrgAdmin: await signIn(t, subOrgAdmin),
    clinicOrgAdmin: await signIn(t, clinicOrgAdmin),
    subTech: await signIn(t, subTech),
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
    subTech,
    clinicTech,
    unassigned,
    tokens,
  };
}

const auditRows = (action: string, targetId: number) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(targetId))));

async function addScan(technicianId: number, organizationId: number | null) {
  await t.database.db
    .insert(scans)
    .values({ technicianId, organizationId, dateTime: new Date(), scanType: 'SCAN' });
}
const scanOrganizations = async (technicianId: number) =>
  (
    await t.database.db
      .select({ org: scans.organizationId })
      .from(scans)
      .where(eq(scans.technicianId, technicianId))
  ).map((r) => r.org);

describe('GET organization/user/{id}/', () => {
  it('answers 401 without a token, 403 to TECHNICIAN, and the user with pin_reset_request', async () => {
    const w = await world();
    expect((await call('GET', `/organization/user/${w.subTech.id}/`, null)).statusCode).toBe(401);
    const refused = await call('GET', `/organization/user/${w.subTech.id}/`, w.tokens.subTech);
    expect({ status: refused.statusCode, body: refused.json() }).toEqual({
      status: 403,
      body: { detail: AUTH_ERRORS.forbidden },
    });
    const res = await call('GET', `/organization/user/${w.subTech.id}/`, w.tokens.subOrgAdmin);
    expect(res.statusCode).toBe(200);
    const user = ZUserDetail.parse(res.json());
    expect(user).toMatchObject({ id: w.subTech.id, organization: w.sub.id, pin_reset_request: false });
    expect(res.body).not.toMatch(/password|pin_hash|token/);
  });

  it('does not return a user of another organization to an ORG_ADMIN (404)', async () => {
    const w = await world();
    const res = await call('GET', `/organization/user/${w.subTech.id}/`, w.tokens.clinicOrgAdmin);
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 404,
      body: { detail: 'Not found.' },
    });
    // An unassigned user is outside every scope but ADMIN's and SUB_ADMIN's; a malformed id names nothing.
    expect((await call('GET', `/organization/user/${w.unassigned.id}/`, w.tokens.distAdmin)).statusCode).toBe(
      404,
    );
    expect((await call('GET', `/organization/user/${w.unassigned.id}/`, w.tokens.subAdmin)).statusCode).toBe(
      200,
    );
    expect((await call('GET', '/organization/user/0x1/', w.tokens.admin)).statusCode).toBe(404);
  });
});

describe('POST organization/user/', () => {
  it('answers 401 before looking at the body, and 403 to TECHNICIAN and CERVAICAL_REVIEWER', async () => {
    expect((await call('POST', '/organization/user/', null, { junk: true })).statusCode).toBe(401);
    for (const userType of ['TECHNICIAN', 'CERVAICAL_REVIEWER'] as const) {
      const token = await signIn(t, await createUser(t, { userType }));
      expect((await call('POST', '/organization/user/', token, body())).statusCode).toBe(403);
    }
  });

  it('creates a technician, e-mails a set-password link that sets the password, and writes the audit log', async () => {
    const w = await world();
    const email = uniqueEmail();
    const res = await call(
      'POST',
      '/organization/user/',
      w.tokens.admin,
      body({ email: email.toUpperCase(), organization: w.sub.id, mobile: `+91 ${uniqueMobile()}` }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const saved = ZUserSaved.parse(res.json());
    expect(saved).toMatchObject({
      detail: USER_MESSAGES.created,
      password_link_message: USER_MESSAGES.passwordLinkSent(email),
      email,
      user_type: 'TECHNICIAN',
      organization: w.sub.id,
      organization_data: { id: w.sub.id, name: 'Dist Sub', can_create_organization: false },
      is_trainer: false,
      ibe_training_status: 'NOT_STARTED',
    });
    expect(saved.mobile).toMatch(/^\+91-98\d{8}$/);
    expect(saved.password_link_message).toBe(
      `Password link sent to email ${email}. Tip: request user to check spam/junk folders if not found in inbox.`,
    );
    const [mail] = await t.database.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, email))
      .orderBy(desc(outboxMessages.id));
    expect(mail?.link).toMatch(/\/reset-password\?token=/);
    const token = new URL(mail!.link!).searchParams.get('token');
    const confirm = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/password-reset/confirm/`,
      payload: { token, password: 'Brand-new-pass1' },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const signInRes = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/password/`,
      payload: { email, password: 'Brand-new-pass1' },
    });
    expect(signInRes.statusCode, signInRes.body).toBe(200);
    expect(await auditRows('user.created', saved.id)).toHaveLength(1);
    const [linkAudit] = await auditRows('user.password_link_sent', saved.id);
    expect(JSON.stringify(linkAudit?.details)).not.toContain(token!);
  });

  it('creates a user with a mobile only, without a password link', async () => {
    const w = await world();
    const res = await call(
      'POST',
      '/organization/user/',
      w.tokens.admin,
      body({ email: '', mobile: uniqueMobile(), organization: w.clinic.id }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(ZUserSaved.parse(res.json())).toMatchObject({ email: null, password_link_message: null });
  });

  it('answers each §5 message on its field and changes nothing', async () => {
    const w = await world();
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [
        body({ email: null, organization: w.sub.id }),
        { email: [MESSAGES.emailOrMobile], mobile: [MESSAGES.emailOrMobile] },
      ],
      [body({ email: 'a@b.c', organization: w.sub.id }), { email: [MESSAGES.invalidEmail] }],
      [body({ mobile: '12345', organization: w.sub.id }), { mobile: [MESSAGES.invalidPhone] }],
      [body({ first_name: '', organization: w.sub.id }), { first_name: [MESSAGES.required] }],
      [
        body({ mobile_country_code: undefined, organization: w.sub.id }),
        { mobile_country_code: ['Select a country.'] },
      ],
      [body({ user_type: 'KING', organization: w.sub.id }), { user_type: ['"KING" is not a valid choice.'] }],
    ];
    const before = (await t.database.db.select({ id: users.id }).from(users)).length;
    for (const [payload, errors] of cases) {
      const res = await call('POST', '/organization/user/', w.tokens.admin, payload);
      expect({ payload, status: res.statusCode, body: res.json() }).toEqual({
        payload,
        status: 400,
        body: errors,
      });
    }
    expect((await t.database.db.select({ id: users.id }).from(users)).length).toBe(before);
  });

  it('refuses every bad mobile form on the mobile field and reads +91 forms as the number', async () => {
    const w = await world();
    const bad = [
      '+1555',
      '0000000000',
      '12345678901234567890',
      '9876500001,9876500002',
      '9876500001\n9876500002',
      '９８７６５００００１',
    ];
    for (const mobile of bad) {
      const res = await call(
        'POST',
        '/organization/user/',
        w.tokens.admin,
        body({ mobile, organization: w.sub.id }),
      );
      expect({ mobile, status: res.statusCode, body: res.json() }).toEqual({
        mobile,
        status: 400,
        body: { mobile: [MESSAGES.invalidPhone] },
      });
    }
    const national = uniqueMobile();
    const res = await call(
      'POST',
      '/organization/user/',
      w.tokens.admin,
      body({ mobile: `+91-${national}`, organization: w.sub.id }),
    );
    expect(ZUserSaved.parse(res.json()).mobile).toBe(`+91-${national}`);
  });

  it('asks MANAGER and DISTRIBUTOR_ADMIN actors to select an organization', async () => {
    const w = await world();
    for (const token of [w.tokens.manager, w.tokens.distAdmin]) {
      const res = await call('POST', '/organization/user/', token, body());
      expect({ status: res.statusCode, body: res.json() }).toEqual({
        status: 400,
        body: { organization: [USER_MESSAGES.selectOrganization] },
      });
    }
    expect(
      (await call('POST', '/organization/user/', w.tokens.manager, body({ organization: w.sub.id })))
        .statusCode,
    ).toBe(201);
  });

  it('refuses a duplicate e-mail or mobile on the field', async () => {
    const w = await world();
    const mobile = uniqueMobile();
    const first = await call(
      'POST',
      '/organization/user/',
      w.tokens.admin,
      body({ mobile, organization: w.sub.id }),
    );
    const email = ZUserSaved.parse(first.json()).email!;
    const res = await call(
      'POST',
      '/organization/user/',
      w.tokens.admin,
      body({ email: email.toUpperCase(), mobile: `+91${mobile}`, organization: w.sub.id }),
    );
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 400,
      body: { email: [USER_MESSAGES.duplicateEmail], mobile: [USER_MESSAGES.duplicateMobile] },
    });
  });

  it('answers concurrent creates with one user per e-mail and a distinct username each, never a 500', async () => {
    const w = await world();
    const email = uniqueEmail();
    const same = await Promise.all(
      [1, 2, 3].map(() =>
        call('POST', '/organization/user/', w.tokens.admin, body({ email, organization: w.sub.id })),
      ),
    );
    expect(same.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
    for (const r of same.filter((x) => x.statusCode === 400)) {
      expect(r.json()).toEqual({ email: [USER_MESSAGES.duplicateEmail] });
    }
    const local = `twin${process.pid}`;
    const twins = await Promise.all(
      ['a.test', 'b.test', 'c.test'].map((domain) =>
        call(
          'POST',
          '/organization/user/',
          w.tokens.admin,
          body({ email: `${local}@${domain}`, organization: w.sub.id }),
        ),
      ),
    );
    expect(twins.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const names = twins.map((r) => ZUserSaved.parse(r.json()).username);
    expect(new Set(names).size).toBe(3);
    expect(names).toContain(local);
  });

  it('does not let a MANAGER create an ADMIN, SUB_ADMIN, MANAGER or DISTRIBUTOR_ADMIN', async () => {
    const w = await world();
    for (const userType of ['ADMIN', 'SUB_ADMIN', 'MANAGER', 'DISTRIBUTOR_ADMIN', 'CERVAICAL_REVIEWER']) {
      const res = await call(
        'POST',
        '/organization/user/',
        w.tokens.manager,
        body({ user_type: userType, organization: w.sub.id }),
      );
      expect({ userType, status: res.statusCode, body: res.json() }).toEqual({
        userType,
        status: 400,
        body: { user_type: [USER_MESSAGES.typeNotAllowed] },
      });
    }
  });

  it('creates SUB_ADMIN and ADMIN users only as ADMIN, and without an organization for ADMIN and MANAGER', async () => {
    const w = await world();
    const bySub = await call(
      'POST',
      '/organization/user/',
      w.tokens.subAdmin,
      body({ user_type: 'SUB_ADMIN' }),
    );
    expect(bySub.json()).toEqual({ user_type: [USER_MESSAGES.typeNotAllowed] });
    expect(
      (await call('POST', '/organization/user/', w.tokens.admin, body({ user_type: 'SUB_ADMIN' })))
        .statusCode,
    ).toBe(201);
    expect(
      (await call('POST', '/organization/user/', w.tokens.subAdmin, body({ user_type: 'MANAGER' })))
        .statusCode,
    ).toBe(201);
    const managerInOrg = await call(
      'POST',
      '/organization/user/',
      w.tokens.admin,
      body({ user_type: 'MANAGER', organization: w.sub.id }),
    );
    expect(managerInOrg.json()).toEqual({ organization: [USER_MESSAGES.typeWithoutOrganization] });
  });

  it('accepts the DISTRIBUTOR_ADMIN type only for a distributor organization', async () => {
    const w = await world();
    const clinic = await call(
      'POST',
      '/organization/user/',
      w.tokens.admin,
      body({ user_type: 'DISTRIBUTOR_ADMIN', organization: w.clinic.id }),
    );
    expect({ status: clinic.statusCode, body: clinic.json() }).toEqual({
      status: 400,
      body: { user_type: [USER_MESSAGES.distributorNeedsDistributorOrganization] },
    });
    const dist = await call(
      'POST',
      '/organization/user/',
      w.tokens.distAdmin,
      body({ user_type: 'DISTRIBUTOR_ADMIN', organization: w.distributor.id }),
    );
    expect(dist.statusCode, dist.body).toBe(201);
  });

  it('lets an ORG_ADMIN create TECHNICIAN and ORG_ADMIN users in its own organization only', async () => {
    const w = await world();
    const own = await call('POST', '/organization/user/', w.tokens.clinicOrgAdmin, body());
    expect(own.statusCode, own.body).toBe(201);
    expect(ZUserSaved.parse(own.json()).organization).toBe(w.clinic.id);
    const other = await call(
      'POST',
      '/organization/user/',
      w.tokens.clinicOrgAdmin,
      body({ organization: w.sub.id }),
    );
    expect({ status: other.statusCode, body: other.json() }).toEqual({
      status: 400,
      body: { organization: [`Invalid pk "${w.sub.id}" - object does not exist.`] },
    });
    const reviewer = await call(
      'POST',
      '/organization/user/',
      w.tokens.clinicOrgAdmin,
      body({ user_type: 'CERVAICAL_REVIEWER' }),
    );
    expect(reviewer.json()).toEqual({ user_type: [USER_MESSAGES.typeNotAllowed] });
  });

  it('refuses an organization outside the actor’s scope like a missing one', async () => {
    const w = await world();
    const res = await call(
      'POST',
      '/organization/user/',
      w.tokens.manager,
      body({ organization: w.clinic.id }),
    );
    expect(res.json()).toEqual({ organization: [`Invalid pk "${w.clinic.id}" - object does not exist.`] });
  });

  it('lets only ADMIN and SUB_ADMIN set the trainer and demo flags', async () => {
    const w = await world();
    const res = await call(
      'POST',
      '/organization/user/',
      w.tokens.manager,
      body({ organization: w.sub.id, is_trainer: true, is_available_demo: true }),
    );
    expect(res.json()).toEqual({
      is_trainer: [MESSAGES.noFieldPermission],
      is_available_demo: [MESSAGES.noFieldPermission],
    });
    expect(
      (
        await call(
          'POST',
          '/organization/user/',
          w.tokens.manager,
          body({ organization: w.sub.id, is_trainer: false }),
        )
      ).statusCode,
    ).toBe(201);
    const bySub = await call(
      'POST',
      '/organization/user/',
      w.tokens.subAdmin,
      body({ organization: w.sub.id, is_trainer: true, is_available_demo: true }),
    );
    expect(ZUserSaved.parse(bySub.json())).toMatchObject({ is_trainer: true, is_available_demo: true });
  });
});

describe('PUT organization/user/{id}/', () => {
  const edit = (
    u: { id: number; firstName: string; lastName: string; userType: string },
    extra: Record<string, unknown> = {},
  ) => ({
    first_name: u.firstName,
    last_name: u.lastName,
    user_type: u.userType,
    ...extra,
  });

  it('edits the names and answers the §8 message; 401, 403 and 404 as usual', async () => {
    const w = await world();
    expect((await call('PUT', `/organization/user/${w.subTech.id}/`, null, edit(w.subTech))).statusCode).toBe(
      401,
    );
    expect(
      (await call('PUT', `/organization/user/${w.subTech.id}/`, w.tokens.subTech, edit(w.subTech)))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('PUT', `/organization/user/${w.subTech.id}/`, w.tokens.clinicOrgAdmin, edit(w.subTech)))
        .statusCode,
    ).toBe(404);
    const res = await call(
      'PUT',
      `/organization/user/${w.subTech.id}/`,
      w.tokens.subOrgAdmin,
      edit(w.subTech, { first_name: 'Renamed', email: w.subTech.email }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(ZUserSaved.parse(res.json())).toMatchObject({
      first_name: 'Renamed',
      detail: USER_MESSAGES.updated,
    });
    const [row] = await auditRows('user.updated', w.subTech.id);
    expect(row?.details).toMatchObject({ fields: ['first_name'] });
  });

  it('answers 403 "Access denied for your permission level." for a target above the actor', async () => {
    const w = await world();
    const res = await call(
      'PUT',
      `/organization/user/${w.distAdmin.id}/`,
      w.tokens.subAdmin,
      edit(w.distAdmin),
    );
    expect(res.statusCode).toBe(200);
    const byManager = await createUser(t, { userType: 'DISTRIBUTOR_ADMIN', organizationId: w.sub.id });
    const denied = await call(
      'PUT',
      `/organization/user/${byManager.id}/`,
      w.tokens.manager,
      edit(byManager, { first_name: 'X' }),
    );
    expect({ status: denied.statusCode, body: denied.json() }).toEqual({
      status: 403,
      body: { detail: USER_MESSAGES.accessDenied },
    });
    const admin2 = await createUser(t, { userType: 'ADMIN' });
    expect(
      (await call('PUT', `/organization/user/${admin2.id}/`, w.tokens.subAdmin, edit(admin2))).json(),
    ).toEqual({
      detail: USER_MESSAGES.accessDenied,
    });
    const reviewer = await createUser(t, { userType: 'CERVAICAL_REVIEWER', organizationId: w.sub.id });
    expect(
      (await call('PUT', `/organization/user/${reviewer.id}/`, w.tokens.subOrgAdmin, edit(reviewer)))
        .statusCode,
    ).toBe(403);
  });

  it('keeps e-mail, mobile and country locked', async () => {
    const w = await world();
    const tech = await createUser(t, { organizationId: w.sub.id, mobile: uniqueMobile() });
    const same = await call(
      'PUT',
      `/organization/user/${tech.id}/`,
      w.tokens.admin,
      edit(tech, { email: tech.email, mobile: tech.mobile!.split('-')[1], mobile_country_code: 'IN' }),
    );
    expect(same.statusCode, same.body).toBe(200);
    const res = await call(
      'PUT',
      `/organization/user/${tech.id}/`,
      w.tokens.admin,
      edit(tech, { email: 'other@example.com', mobile: uniqueMobile(), mobile_country_code: 'US' }),
    );
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 400,
      body: {
        email: [USER_MESSAGES.locked],
        mobile: [USER_MESSAGES.locked],
        mobile_country_code: [USER_MESSAGES.locked],
      },
    });
  });

  it('refuses a changed trainer flag from a role that may not set it, and accepts the stored value', async () => {
    const w = await world();
    const trainer = await createUser(t, { organizationId: w.sub.id, isTrainer: true });
    expect(
      (
        await call(
          'PUT',
          `/organization/user/${trainer.id}/`,
          w.tokens.manager,
          edit(trainer, { is_trainer: true }),
        )
      ).statusCode,
    ).toBe(200);
    const res = await call(
      'PUT',
      `/organization/user/${trainer.id}/`,
      w.tokens.manager,
      edit(trainer, { is_trainer: false }),
    );
    expect(res.json()).toEqual({ is_trainer: [MESSAGES.noFieldPermission] });
  });

  it('lets a type change only to a type the actor may give', async () => {
    const w = await world();
    const res = await call(
      'PUT',
      `/organization/user/${w.subTech.id}/`,
      w.tokens.manager,
      edit(w.subTech, { user_type: 'DISTRIBUTOR_ADMIN' }),
    );
    expect(res.json()).toEqual({ user_type: [USER_MESSAGES.typeNotAllowed] });
    const ok = await call(
      'PUT',
      `/organization/user/${w.subTech.id}/`,
      w.tokens.manager,
      edit(w.subTech, { user_type: 'ORG_ADMIN' }),
    );
    expect(ZUserSaved.parse(ok.json()).user_type).toBe('ORG_ADMIN');
    const own = await call(
      'PUT',
      `/organization/user/${w.subOrgAdmin.id}/`,
      w.tokens.subOrgAdmin,
      edit(w.subOrgAdmin, { user_type: 'TECHNICIAN' }),
    );
    expect(own.json()).toEqual({ user_type: [USER_MESSAGES.ownTypeOrOrganization] });
  });

  it('transfers with a new organization and moves the scans only with is_update_scan_organization', async () => {
    const w = await world();
    const keep = await createUser(t, { organizationId: w.sub.id });
    await addScan(keep.id, w.sub.id);
    const res = await call(
      'PUT',
      `/organization/user/${keep.id}/`,
      w.tokens.admin,
      edit(keep, { organization: w.clinic.id }),
    );
    expect(ZUserSaved.parse(res.json())).toMatchObject({ organization: w.clinic.id });
    expect(await scanOrganizations(keep.id)).toEqual([w.sub.id]);

    const move = await createUser(t, { organizationId: w.sub.id });
    await addScan(move.id, w.sub.id);
    await addScan(move.id, w.sub.id);
    const moved = await call(
      'PUT',
      `/organization/user/${move.id}/`,
      w.tokens.admin,
      edit(move, { organization: w.clinic.id, is_update_scan_organization: true }),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await scanOrganizations(move.id)).toEqual([w.clinic.id, w.clinic.id]);
    const [row] = await auditRows('user.transferred', move.id);
    expect(row?.details).toMatchObject({ from: w.sub.id, to: w.clinic.id, scans_moved: 2 });
  });

  it('keeps an organization for MANAGER and DISTRIBUTOR_ADMIN actors editing', async () => {
    const w = await world();
    const res = await call(
      'PUT',
      `/organization/user/${w.subTech.id}/`,
      w.tokens.manager,
      edit(w.subTech, { organization: null }),
    );
    expect(res.json()).toEqual({ organization: [USER_MESSAGES.selectOrganization] });
  });
});

describe('PATCH organization/user/{id}/ (assign, unassign, transfer)', () => {
  it('answers 401 without a token, 403 to a TECHNICIAN and 404 outside the scope', async () => {
    const w = await world();
    const url = `/organization/user/${w.clinicTech.id}/`;
    expect((await call('PATCH', url, null, { organization: null })).statusCode).toBe(401);
    expect((await call('PATCH', url, w.tokens.subTech, { organization: null })).statusCode).toBe(403);
    expect((await call('PATCH', url, w.tokens.manager, { organization: null })).statusCode).toBe(404);
    expect((await call('PATCH', url, w.tokens.distAdmin, { organization: w.sub.id })).statusCode).toBe(404);
  });

  it('unassigns and keeps the user’s scans where they are', async () => {
    const w = await world();
    const tech = await createUser(t, { organizationId: w.sub.id });
    await addScan(tech.id, w.sub.id);
    const res = await call('PATCH', `/organization/user/${tech.id}/`, w.tokens.manager, {
      organization: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(ZUserSaved.parse(res.json())).toMatchObject({
      organization: null,
      organization_data: null,
      detail: USER_MESSAGES.unassigned,
    });
    expect(await scanOrganizations(tech.id)).toEqual([w.sub.id]);
    expect(await auditRows('user.unassigned', tech.id)).toHaveLength(1);
    // Unassigned, the user has left the manager's scope.
    expect((await call('GET', `/organization/user/${tech.id}/`, w.tokens.manager)).statusCode).toBe(404);
  });

  it('assigns an unassigned user (ADMIN), but never a MANAGER', async () => {
    const w = await world();
    const res = await call('PATCH', `/organization/user/${w.unassigned.id}/`, w.tokens.admin, {
      organization: w.clinic.id,
    });
    expect(ZUserSaved.parse(res.json())).toMatchObject({
      organization: w.clinic.id,
      detail: USER_MESSAGES.assigned,
    });
    expect(await auditRows('user.assigned', w.unassigned.id)).toHaveLength(1);
    const manager = await call('PATCH', `/organization/user/${w.manager.id}/`, w.tokens.admin, {
      organization: w.clinic.id,
    });
    expect(manager.json()).toEqual({ organization: [USER_MESSAGES.typeWithoutOrganization] });
  });

  it('transfers within the actor’s scope with the §8 message, and refuses an organization outside it', async () => {
    const w = await world();
    const other = await createOrganization(t, { name: 'Dist Sub 2', parentId: w.distributor.id });
    const res = await call('PATCH', `/organization/user/${w.subTech.id}/`, w.tokens.distAdmin, {
      organization: other.id,
    });
    expect(ZUserSaved.parse(res.json())).toMatchObject({
      organization: other.id,
      detail: USER_MESSAGES.transferred,
    });
    const out = await call('PATCH', `/organization/user/${w.subTech.id}/`, w.tokens.distAdmin, {
      organization: w.clinic.id,
    });
    expect(out.json()).toEqual({ organization: [`Invalid pk "${w.clinic.id}" - object does not exist.`] });
  });

  it('refuses assign, unassign and transfer to an ORG_ADMIN (403)', async () => {
    const w = await world();
    const res = await call('PATCH', `/organization/user/${w.subTech.id}/`, w.tokens.subOrgAdmin, {
      organization: null,
    });
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 403,
      body: { detail: USER_MESSAGES.accessDenied },
    });
    const [row] = await t.database.db
      .select({ org: users.organizationId })
      .from(users)
      .where(eq(users.id, w.subTech.id));
    expect(row?.org).toBe(w.sub.id);
  });

  it('refuses a DISTRIBUTOR_ADMIN moved to an organization that is not a distributor', async () => {
    const w = await world();
    const da = await createUser(t, { userType: 'DISTRIBUTOR_ADMIN', organizationId: w.distributor.id });
    const res = await call('PATCH', `/organization/user/${da.id}/`, w.tokens.admin, {
      organization: w.clinic.id,
    });
    expect(res.json()).toEqual({ organization: [USER_MESSAGES.distributorNeedsDistributorOrganization] });
  });
});
