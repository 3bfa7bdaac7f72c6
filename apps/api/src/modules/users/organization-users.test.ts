import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ZOrganizationUserList, type TOrganizationUser } from '@sc/shared/users';
import { users } from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, uniqueMobile } from '../../test/factories.ts';

const t = await setupTestApp({ RATE_LIMIT_DISABLED: 'true' });

const list = (token: string | null, query = '', headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/organization/user/${query ? `?${query}` : ''}`,
    headers: { ...(token ? auth(token) : {}), ...headers },
  });
const listIds = async (token: string, query = '') => {
  const res = await list(token, query);
  expect(res.statusCode).toBe(200);
  return ZOrganizationUserList.parse(res.json()).results.map((u) => u.id);
};

/**
 * A distributor with a sub-organization, a second stand-alone organization and one user of each in each,
 * plus users without an organization.
 */
async function world() {
  const distributor = await createOrganization(t, { name: 'Dist', canCreateOrganization: true });
  const sub = await createOrganization(t, { name: 'Dist Sub', parentId: distributor.id });
  const other = await createOrganization(t, { name: 'Other Clinic' });
  const distAdmin = await createUser(t, { userType: 'DISTRIBUTOR_ADMIN', organizationId: distributor.id });
  const subOrgAdmin = await createUser(t, { userType: 'ORG_ADMIN', organizationId: sub.id });
  const subTech = await createUser(t, { userType: 'TECHNICIAN', organizationId: sub.id });
  const otherOrgAdmin = await createUser(t, { userType: 'ORG_ADMIN', organizationId: other.id });
  const otherTech = await createUser(t, { userType: 'TECHNICIAN', organizationId: other.id });
  const subAdmin = await createUser(t, { userType: 'SUB_ADMIN' });
  const unassigned = await createUser(t, { userType: 'TECHNICIAN' });
  const manager = await createUser(t, { userType: 'MANAGER', linkedOrganizationIds: [sub.id] });
  const orgIds = [distributor.id, sub.id, other.id].join(',');
  return {
    distributor,
    sub,
    other,
    distAdmin,
    subOrgAdmin,
    subTech,
    otherOrgAdmin,
    otherTech,
    subAdmin,
    unassigned,
    manager,
    orgIds,
  };
}

describe('GET organization/user/', () => {
  it('answers 401 without a token and 403 to TECHNICIAN and CERVAICAL_REVIEWER', async () => {
    expect((await list(null)).statusCode).toBe(401);
    for (const userType of ['TECHNICIAN', 'CERVAICAL_REVIEWER'] as const) {
      const res = await list(await signIn(t, await createUser(t, { userType })));
      expect({ userType, status: res.statusCode, body: res.json() }).toEqual({
        userType,
        status: 403,
        body: { detail: AUTH_ERRORS.forbidden },
      });
    }
  });

  it('answers the list envelope with the row shape, and never a hash, PIN or token', async () => {
    const org = await createOrganization(t, { name: 'Shape Clinic', canCreateOrganization: true });
    const user = await createUser(t, {
      userType: 'ORG_ADMIN',
      organizationId: org.id,
      firstName: 'Shape',
      lastName: 'Person',
      mobile: uniqueMobile(),
    });
    await t.database.db.update(users).set({ pinHash: 'pin-hash-value' }).where(eq(users.id, user.id));
    const adminToken = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const userToken = await signIn(t, user);
    const res = await list(adminToken, `organization_id=${org.id}`);
    expect(res.statusCode).toBe(200);
    const body = ZOrganizationUserList.parse(res.json());
    expect(body).toMatchObject({ count: 1, next: null, previous: null });
    expect(body.results[0]).toEqual<TOrganizationUser>({
      id: user.id,
      first_name: 'Shape',
      last_name: 'Person',
      username: user.username,
      email: user.email,
      mobile: user.mobile,
      mobile_country_code: 'IN',
      user_type: 'ORG_ADMIN',
      is_trainer: false,
      is_available_demo: false,
      is_valid: true,
      organization: org.id,
      organization_data: { id: org.id, name: 'Shape Clinic', can_create_organization: true },
      ibe_training_status: 'NOT_STARTED',
      certificate_issue_date: null,
      certificate_expiry_date: null,
      created: user.created.toISOString(),
    });
    expect(res.body).not.toContain(user.passwordHash!);
    expect(res.body).not.toContain('pin-hash-value');
    expect(res.body).not.toContain(userToken);
    expect(res.body).not.toMatch(/password|pin_hash|token/);
  });

  it('shows an ADMIN and a SUB_ADMIN everyone, users without an organization included', async () => {
    const w = await world();
    for (const userType of ['ADMIN', 'SUB_ADMIN'] as const) {
      const token = await signIn(t, await createUser(t, { userType }));
      const ids = await listIds(token, 'limit=1000');
      expect(ids).toEqual(
        expect.arrayContaining([
          w.distAdmin.id,
          w.subTech.id,
          w.otherTech.id,
          w.subAdmin.id,
          w.unassigned.id,
          w.manager.id,
        ]),
      );
      const unassigned = await listIds(token, 'is_unassigned=true&limit=1000');
      expect(unassigned).toEqual(expect.arrayContaining([w.subAdmin.id, w.unassigned.id, w.manager.id]));
      expect(unassigned).not.toContain(w.subTech.id);
    }
  });

  it('does not return users of another organization (or without one) to an ORG_ADMIN', async () => {
    const w = await world();
    const ids = await listIds(await signIn(t, w.otherOrgAdmin), 'limit=1000');
    expect(ids.sort()).toEqual([w.otherOrgAdmin.id, w.otherTech.id].sort());
  });

  it('shows a DISTRIBUTOR_ADMIN its organization’s subtree only', async () => {
    const w = await world();
    const ids = await listIds(await signIn(t, w.distAdmin), 'limit=1000');
    expect(ids.sort()).toEqual([w.distAdmin.id, w.subOrgAdmin.id, w.subTech.id].sort());
  });

  it('shows a MANAGER the subtrees of its linked organizations only', async () => {
    const w = await world();
    const ids = await listIds(await signIn(t, w.manager), 'limit=1000');
    expect(ids.sort()).toEqual([w.subOrgAdmin.id, w.subTech.id].sort());
    const unlinked = await createUser(t, { userType: 'MANAGER' });
    expect(await listIds(await signIn(t, unlinked))).toEqual([]);
  });

  it('answers an empty list for an organization outside the scope, and for is_unassigned to a non-admin', async () => {
    const w = await world();
    const token = await signIn(t, w.distAdmin);
    const res = await list(token, `organization_id=${w.other.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect(await listIds(token, 'is_unassigned=true')).toEqual([]);
    expect((await listIds(token, `organization_id=${w.sub.id}`)).sort()).toEqual(
      [w.subOrgAdmin.id, w.subTech.id].sort(),
    );
  });

  it('filters by user_type as one value, a comma list or a repeated parameter, and by is_valid', async () => {
    const org = await createOrganization(t);
    const orgAdmin = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id });
    const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: org.id });
    const disabledTech = await createUser(t, {
      userType: 'TECHNICIAN',
      organizationId: org.id,
      isValid: false,
    });
    const manager = await createUser(t, { userType: 'DISTRIBUTOR_ADMIN', organizationId: org.id });
    const token = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const q = `organization_id=${org.id}`;
    expect(await listIds(token, `${q}&user_type=ORG_ADMIN`)).toEqual([orgAdmin.id]);
    expect((await listIds(token, `${q}&user_type=ORG_ADMIN,DISTRIBUTOR_ADMIN`)).sort()).toEqual(
      [orgAdmin.id, manager.id].sort(),
    );
    expect((await listIds(token, `${q}&user_type=ORG_ADMIN&user_type=TECHNICIAN`)).sort()).toEqual(
      [orgAdmin.id, tech.id, disabledTech.id].sort(),
    );
    expect(await listIds(token, `${q}&user_type=TECHNICIAN&is_valid=true`)).toEqual([tech.id]);
    expect(await listIds(token, `${q}&is_valid=false`)).toEqual([disabledTech.id]);
    const bad = await list(token, 'user_type=ROOT');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      user_type: ['Select a valid choice. ROOT is not one of the available choices.'],
    });
  });

  it('searches first and last name, mobile and e-mail, case-insensitively', async () => {
    const org = await createOrganization(t);
    const mobile = uniqueMobile();
    const a = await createUser(t, { organizationId: org.id, firstName: 'Meera', lastName: 'Kulkarni' });
    const b = await createUser(t, { organizationId: org.id, firstName: 'Ravi', lastName: 'Desai', mobile });
    const c = await createUser(t, { organizationId: org.id, email: 'zed.searchable@example.com' });
    const token = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const q = `organization_id=${org.id}`;
    expect(await listIds(token, `${q}&search=meera`)).toEqual([a.id]);
    expect(await listIds(token, `${q}&search=KULKA`)).toEqual([a.id]);
    expect(await listIds(token, `${q}&search=${mobile.slice(2)}`)).toEqual([b.id]);
    expect(await listIds(token, `${q}&search=zed.searchable`)).toEqual([c.id]);
    expect(await listIds(token, `${q}&search=${encodeURIComponent('%')}`)).toEqual([]);
  });

  it('orders by the whitelist (default newest first), pages, and refuses a bad limit or ordering', async () => {
    const org = await createOrganization(t);
    const t0 = Date.UTC(2026, 0, 1);
    const made = [];
    for (const [i, name] of ['Charlie', 'alpha', 'Bravo'].entries()) {
      const u = await createUser(t, { organizationId: org.id, firstName: name });
      await t.database.db
        .update(users)
        .set({ created: new Date(t0 + i * 60_000) })
        .where(eq(users.id, u.id));
      made.push(u.id);
    }
    const token = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const q = `organization_id=${org.id}`;
    expect(await listIds(token, q)).toEqual([...made].reverse());
    expect(await listIds(token, `${q}&ordering=created`)).toEqual(made);
    // PostgreSQL's collation decides where 'alpha' falls against 'Bravo': compare with the database's own order.
    const byName = await t.database.query<{ id: number }>(
      `select id from users where organization_id = ${org.id} order by first_name, id`,
    );
    expect(await listIds(token, `${q}&ordering=first_name`)).toEqual(byName.map((r) => r.id));
    expect(await listIds(token, `${q}&ordering=-first_name`)).toEqual(byName.map((r) => r.id).reverse());
    const page = await list(token, `${q}&limit=2&page=2`);
    expect(page.json()).toMatchObject({ count: 3, next: null, previous: expect.stringContaining('limit=2') });
    expect((await list(token, `${q}&limit=2`)).json()).toMatchObject({
      next: expect.stringContaining('page=2'),
    });

    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=abc', 'limit'],
      ['ordering=password_hash', 'ordering'],
      ['organization_id=abc', 'organization_id'],
      ['is_valid=maybe', 'is_valid'],
      ['created_after=2026-13-01', 'created_after'],
    ] as const) {
      const res = await list(token, query);
      expect({ query, status: res.statusCode }).toEqual({ query, status: 400 });
      expect(Object.keys(res.json<object>())).toContain(field);
    }
    expect((await list(token, `${q}&page=9`)).statusCode).toBe(404);
  });

  it('filters by creation date in the caller’s time zone', async () => {
    const org = await createOrganization(t);
    const early = await createUser(t, { organizationId: org.id });
    const late = await createUser(t, { organizationId: org.id });
    // 2026-03-01 20:00 UTC is 2026-03-02 01:30 in Kolkata.
    await t.database.db
      .update(users)
      .set({ created: new Date('2026-03-01T10:00:00Z') })
      .where(eq(users.id, early.id));
    await t.database.db
      .update(users)
      .set({ created: new Date('2026-03-01T20:00:00Z') })
      .where(eq(users.id, late.id));
    const token = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const q = `organization_id=${org.id}`;
    expect(await listIds(token, `${q}&created_after=2026-03-01`)).toEqual([early.id]);
    expect(await listIds(token, `${q}&date_time_after=2026-03-02&date_time_before=2026-03-05`)).toEqual([
      late.id,
    ]);
    const utc = await list(token, `${q}&created_after=2026-03-01`, { timezone: 'UTC' });
    expect(
      ZOrganizationUserList.parse(utc.json())
        .results.map((u) => u.id)
        .sort(),
    ).toEqual([early.id, late.id].sort());
  });

  it('leaves deleted (anonymised) accounts out', async () => {
    const org = await createOrganization(t);
    const gone = await createUser(t, { organizationId: org.id });
    const goneToken = await signIn(t, gone);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/v1/user/delete/me/', headers: auth(goneToken) }))
        .statusCode,
    ).toBe(204);
    const token = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    expect(await listIds(token, `organization_id=${org.id}`)).toEqual([]);
  });

  it('reads from the replica flag without changing the answer', async () => {
    const org = await createOrganization(t);
    const u = await createUser(t, { organizationId: org.id });
    const token = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    expect(await listIds(token, `organization_id=${org.id}&using_read_db=true`)).toEqual([u.id]);
  });
});

describe('GET organization/user/ for the re-certification list', () => {
  it('filters by training status and an inclusive certificate expiry range, and orders by expiry', async () => {
    const org = await createOrganization(t);
    const make = async (expiry: string | null) => {
      const u = await createUser(t, { organizationId: org.id });
      if (expiry) {
        await t.database.db
          .update(users)
          .set({
            ibeTrainingStatus: 'CERTIFIED',
            certificateIssueDate: '2025-01-01',
            certificateExpiryDate: expiry,
          })
          .where(eq(users.id, u.id));
      }
      return u.id;
    };
    const early = await make('2026-01-10');
    const middle = await make('2026-02-15');
    const late = await make('2026-03-31');
    await make(null);
    const token = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const q = `organization_id=${org.id}`;
    expect(
      await listIds(token, `${q}&ibe_training_status=CERTIFIED&ordering=certificate_expiry_date`),
    ).toEqual([early, middle, late]);
    expect(
      await listIds(
        token,
        `${q}&certificate_expiry_date_after=2026-01-10&certificate_expiry_date_before=2026-02-15`,
      ),
    ).toEqual(expect.arrayContaining([early, middle]));
    expect(
      (
        await listIds(
          token,
          `${q}&certificate_expiry_date_after=2026-01-11&certificate_expiry_date_before=2026-03-31`,
        )
      ).length,
    ).toBe(2);
    const bad = await list(
      token,
      `${q}&certificate_expiry_date_after=2026-03-01&certificate_expiry_date_before=2026-02-01`,
    );
    expect({ status: bad.statusCode, body: bad.json() }).toEqual({
      status: 400,
      body: { certificate_expiry_date_before: ['The end date must not be before the start date.'] },
    });
    const badStatus = await list(token, `${q}&ibe_training_status=GURU`);
    expect(badStatus.statusCode).toBe(400);
    expect(Object.keys(badStatus.json<object>())).toEqual(['ibe_training_status']);
  });

  it('orders by first_name and by organization name (the All Users view)', async () => {
    const a = await createOrganization(t, { name: 'Aardvark Clinic' });
    const z = await createOrganization(t, { name: 'Zebra Clinic' });
    const zed = await createUser(t, { organizationId: a.id, firstName: 'Zed' });
    const amy = await createUser(t, { organizationId: z.id, firstName: 'Amy' });
    const token = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const q = `search=${encodeURIComponent('')}&user_type=TECHNICIAN&limit=1000`;
    const byName = await listIds(token, `${q}&ordering=first_name`);
    expect(byName.indexOf(amy.id)).toBeLessThan(byName.indexOf(zed.id));
    const byOrg = await listIds(token, `${q}&ordering=organization_name`);
    expect(byOrg.indexOf(zed.id)).toBeLessThan(byOrg.indexOf(amy.id));
  });
});
