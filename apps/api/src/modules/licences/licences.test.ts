import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LICENCE_MESSAGES, type TLicence, type TLicenceLog, type TLicenceSaved } from '@sc/shared/licences';
import type { TPaginated } from '@sc/shared/list';
import type { TUserType } from '@sc/shared/roles';
import { auditLog, licenceLogs, licences } from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import { LICENCE_AUDIT } from './licences.service.ts';

const t = await setupTestApp();
const URL = '/api/v1/organization/license/';

async function tokenFor(userType: TUserType, organizationId: number | null = null) {
  return signIn(
    t,
    await createUser(t, { userType, password: null, organizationId, firstName: 'Lena', lastName: userType }),
  );
}

const post = (token: string, payload: object) =>
  t.app.inject({ method: 'POST', url: URL, headers: auth(token), payload });
const patch = (token: string, id: number, payload: object) =>
  t.app.inject({ method: 'PATCH', url: `${URL}${id}/`, headers: auth(token), payload });
const get = (token: string, path: string) =>
  t.app.inject({ method: 'GET', url: `${URL}${path}`, headers: auth(token) });
const remove = (token: string, id: number) =>
  t.app.inject({ method: 'DELETE', url: `${URL}${id}/`, headers: auth(token) });
const stored = async (id: number) =>
  (await t.database.db.select().from(licences).where(eq(licences.id, id)))[0];
const logsOf = async (id: number) =>
  t.database.db.select().from(licenceLogs).where(eq(licenceLogs.licenseId, id)).orderBy(licenceLogs.id);

async function createLicence(token: string, organization: number, count = 200, application = 'ORCA') {
  const res = await post(token, { organization, application, count, is_active: true });
  expect(res.statusCode).toBe(201);
  return res.json<TLicenceSaved>();
}

describe('organization/license/ without a token', () => {
  it('answers 401 to every method, before looking at the body', async () => {
    const calls = [
      t.app.inject({ method: 'GET', url: URL }),
      t.app.inject({ method: 'GET', url: `${URL}log/?license_id=1` }),
      t.app.inject({ method: 'POST', url: URL, payload: { count: 'x' } }),
      t.app.inject({ method: 'PATCH', url: `${URL}1/`, payload: { count: -1 } }),
      t.app.inject({ method: 'DELETE', url: `${URL}1/` }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: AUTH_ERRORS.notProvided });
    }
  });
});

describe('POST organization/license/', () => {
  it('creates a licence with a generated key and PIN, logs the grant and writes an audit row', async () => {
    const org = await createOrganization(t, { name: 'Licence Clinic' });
    const admin = await tokenFor('ADMIN');
    const saved = await createLicence(admin, org.id, 300, 'CERVAICAL');
    expect(saved).toMatchObject({
      organization: { id: org.id, name: 'Licence Clinic' },
      application: 'CERVAICAL',
      count: 300,
      total_license_count: 300,
      is_active: true,
      detail: LICENCE_MESSAGES.created,
      renewal: null,
    });
    expect(saved.license_code).toMatch(/^CRV-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(saved.pin).toMatch(/^\d{6}$/);
    expect(await logsOf(saved.id)).toMatchObject([{ beforeCount: 0, afterCount: 300 }]);
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, LICENCE_AUDIT.created), eq(auditLog.targetId, String(saved.id))));
    expect(audits).toHaveLength(1);
    // The audit row never holds the key or the PIN.
    expect(JSON.stringify(audits[0]?.details)).not.toContain(saved.pin);
    expect(JSON.stringify(audits[0]?.details)).not.toContain(saved.license_code);
  });

  it('gives each licence its own key', async () => {
    const org = await createOrganization(t);
    const admin = await tokenFor('SUB_ADMIN');
    const codes = new Set<string>();
    for (let i = 0; i < 5; i++) codes.add((await createLicence(admin, org.id)).license_code);
    expect(codes.size).toBe(5);
  });

  it('answers field errors for bad input and stores nothing', async () => {
    const org = await createOrganization(t);
    const admin = await tokenFor('ADMIN');
    const before = (await t.database.db.select().from(licences)).length;
    const cases: [object, Record<string, string[]>][] = [
      [{ application: 'ORCA', count: 100 }, { organization: [LICENCE_MESSAGES.organizationRequired] }],
      [
        { organization: org.id, application: 'IBE', count: 100 },
        { application: [LICENCE_MESSAGES.application] },
      ],
      [{ organization: org.id, count: 100 }, { application: [LICENCE_MESSAGES.application] }],
      [{ organization: org.id, application: 'ORCA', count: 0 }, { count: [LICENCE_MESSAGES.countMin] }],
      [{ organization: org.id, application: 'ORCA', count: 150 }, { count: [LICENCE_MESSAGES.countStep] }],
      [
        { organization: org.id, application: 'ORCA', count: 'many' },
        { count: ['A valid integer is required.'] },
      ],
      [
        { organization: 999_999, application: 'ORCA', count: 100 },
        { organization: ['Invalid pk "999999" - object does not exist.'] },
      ],
    ];
    for (const [payload, errors] of cases) {
      const res = await post(admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject(errors);
    }
    expect((await t.database.db.select().from(licences)).length).toBe(before);
  });

  it('refuses every role but ADMIN and SUB_ADMIN', async () => {
    const org = await createOrganization(t);
    for (const role of [
      'ORG_ADMIN',
      'DISTRIBUTOR_ADMIN',
      'MANAGER',
      'CERVAICAL_REVIEWER',
      'TECHNICIAN',
    ] as const) {
      const token = await tokenFor(role, org.id);
      const res = await post(token, { organization: org.id, application: 'ORCA', count: 100 });
      expect(res.statusCode, role).toBe(403);
      expect((await get(token, '')).statusCode, role).toBe(403);
    }
  });
});

describe('PATCH organization/license/{id}/ (renew)', () => {
  it('adds the difference to the available and the total count and answers current, added and total', async () => {
    const org = await createOrganization(t);
    const admin = await tokenFor('ADMIN');
    const created = await createLicence(admin, org.id, 200);
    // Two reports used two licences since.
    await t.database.db.update(licences).set({ count: 198 }).where(eq(licences.id, created.id));

    const res = await patch(admin, created.id, {
      organization: org.id,
      application: 'ORCA',
      count: 500,
      is_active: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<TLicenceSaved>()).toMatchObject({
      count: 498,
      total_license_count: 500,
      detail: LICENCE_MESSAGES.renewed,
      renewal: { current: 200, added: 300, total: 500 },
    });
    expect(await logsOf(created.id)).toMatchObject([
      { beforeCount: 0, afterCount: 200 },
      { beforeCount: 198, afterCount: 498 },
    ]);
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, LICENCE_AUDIT.renewed), eq(auditLog.targetId, String(created.id))));
    expect(audits).toHaveLength(1);
  });

  it('switches a licence off without a log row', async () => {
    const org = await createOrganization(t);
    const admin = await tokenFor('ADMIN');
    const created = await createLicence(admin, org.id);
    const res = await patch(admin, created.id, { is_active: false });
    expect(res.json<TLicenceSaved>()).toMatchObject({
      is_active: false,
      renewal: null,
      detail: LICENCE_MESSAGES.updated,
    });
    expect(await logsOf(created.id)).toHaveLength(1);
  });

  it('refuses a lower total, another step, and a changed organization or application, changing nothing', async () => {
    const org = await createOrganization(t);
    const other = await createOrganization(t);
    const admin = await tokenFor('ADMIN');
    const created = await createLicence(admin, org.id, 300);
    const cases: [object, Record<string, string[]>][] = [
      [{ count: 200 }, { count: [LICENCE_MESSAGES.countBelowTotal(300)] }],
      [{ count: 350 }, { count: [LICENCE_MESSAGES.countStep] }],
      [{ organization: other.id, count: 400 }, { organization: [LICENCE_MESSAGES.organizationFixed] }],
      [{ application: 'CERVAICAL', count: 400 }, { application: [LICENCE_MESSAGES.applicationFixed] }],
      [{ is_active: 'yes' }, { is_active: ['Must be a valid boolean.'] }],
    ];
    for (const [payload, errors] of cases) {
      const res = await patch(admin, created.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject(errors);
    }
    expect(await stored(created.id)).toMatchObject({ count: 300, totalLicenseCount: 300, isActive: true });
    expect(await logsOf(created.id)).toHaveLength(1);
  });

  it('adds up two renewals made at the same time', async () => {
    const org = await createOrganization(t);
    const admin = await tokenFor('ADMIN');
    const created = await createLicence(admin, org.id, 100);
    const [a, b] = await Promise.all([
      patch(admin, created.id, { count: 200 }),
      patch(admin, created.id, { count: 200 }),
    ]);
    // The second one sees the first's total of 200: adding nothing, it is an update.
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(await stored(created.id)).toMatchObject({ count: 200, totalLicenseCount: 200 });
  });
});

describe('GET organization/license/ and its log', () => {
  it('lists licences with the envelope, searches by key and reads one', async () => {
    const org = await createOrganization(t, { name: 'Searchable Oral Clinic' });
    const admin = await tokenFor('ADMIN');
    const a = await createLicence(admin, org.id, 100, 'ORCA');
    await createLicence(admin, org.id, 100, 'CERVAICAL');

    const byOrg = (await get(admin, `?organization=${org.id}`)).json<TPaginated<TLicence>>();
    expect(byOrg.count).toBe(2);
    const byKey = (await get(admin, `?search=${a.license_code.toLowerCase()}`)).json<TPaginated<TLicence>>();
    expect(byKey.results.map((r) => r.id)).toEqual([a.id]);
    const byApp = (await get(admin, `?organization=${org.id}&application=CERVAICAL`)).json<
      TPaginated<TLicence>
    >();
    expect(byApp.results.map((r) => r.application)).toEqual(['CERVAICAL']);

    const one = await get(admin, `${a.id}/?using_read_db=true`);
    expect(one.statusCode).toBe(200);
    expect(one.json<TLicence>()).toMatchObject({ id: a.id, pin: a.pin, license_code: a.license_code });
    expect((await get(admin, '?ordering=nonsense')).statusCode).toBe(400);
    expect((await get(admin, '?application=IBE')).statusCode).toBe(400);
  });

  it('answers the log newest first with who made each change', async () => {
    const org = await createOrganization(t);
    const admin = await tokenFor('ADMIN');
    const created = await createLicence(admin, org.id, 100);
    await patch(admin, created.id, { count: 300 });
    const res = await get(admin, `log/?license_id=${created.id}&ordering=-created&using_read_db=true`);
    expect(res.statusCode).toBe(200);
    const body = res.json<TPaginated<TLicenceLog>>();
    expect(body.count).toBe(2);
    expect(body.results.map((r) => [r.before_count, r.after_count])).toEqual([
      [100, 300],
      [0, 100],
    ]);
    expect(body.results[0]?.renewed_by_name).toBe('Lena ADMIN');
    expect((await get(admin, 'log/')).statusCode).toBe(400);
    expect((await get(admin, 'log/?license_id=999999')).json()).toMatchObject({ count: 0, results: [] });
  });

  it('answers 404 for an unknown id and a malformed one', async () => {
    const admin = await tokenFor('ADMIN');
    for (const id of ['999999', 'abc', '0']) {
      expect((await get(admin, `${id}/`)).statusCode).toBe(404);
      expect(
        (await t.app.inject({ method: 'PATCH', url: `${URL}${id}/`, headers: auth(admin), payload: {} }))
          .statusCode,
      ).toBe(404);
    }
  });
});

describe('DELETE organization/license/{id}/', () => {
  it('deletes the licence and its log, with an audit row', async () => {
    const org = await createOrganization(t);
    const admin = await tokenFor('ADMIN');
    const created = await createLicence(admin, org.id);
    const res = await remove(admin, created.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: LICENCE_MESSAGES.deleted });
    expect(await stored(created.id)).toBeUndefined();
    expect(await logsOf(created.id)).toHaveLength(0);
    expect((await remove(admin, created.id)).statusCode).toBe(404);
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, LICENCE_AUDIT.deleted), eq(auditLog.targetId, String(created.id))));
    expect(audits).toHaveLength(1);
  });

  it('is refused to an ORG_ADMIN of the licence organization', async () => {
    const org = await createOrganization(t);
    const created = await createLicence(await tokenFor('ADMIN'), org.id);
    const res = await remove(await tokenFor('ORG_ADMIN', org.id), created.id);
    expect(res.statusCode).toBe(403);
    expect(await stored(created.id)).toBeDefined();
  });
});
