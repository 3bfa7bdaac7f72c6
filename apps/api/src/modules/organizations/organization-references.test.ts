import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@sc/shared/validation';
import { REFERENCE_MESSAGES, type TReference } from '@sc/shared/references';
import type { TPaginated } from '@sc/shared/list';
import type { TUserType } from '@sc/shared/roles';
import { references } from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, type OrganizationRow } from '../../test/factories.ts';

const t = await setupTestApp();
const URL = '/api/v1/organization/reference/';

async function tokenFor(userType: TUserType, opts: { organizationId?: number | null; linkedOrganizationIds?: number[] } = {}) {
  const user = await createUser(t, { userType, password: null, ...opts });
  return signIn(t, user);
}

async function addReference(org: OrganizationRow, name: string, isActive = true) {
  const [row] = await t.database.db.insert(references).values({ name, isActive, organizationId: org.id }).returning();
  if (!row) throw new Error('reference not created');
  return row;
}

const list = (token: string, query = '') => t.app.inject({ method: 'GET', url: `${URL}${query}`, headers: auth(token) });
const post = (token: string, payload: object) => t.app.inject({ method: 'POST', url: URL, headers: auth(token), payload });
const patch = (token: string, id: number, payload: object) =>
  t.app.inject({ method: 'PATCH', url: `${URL}${id}/`, headers: auth(token), payload });
const remove = (token: string, id: number) => t.app.inject({ method: 'DELETE', url: `${URL}${id}/`, headers: auth(token) });
const stored = async (id: number) => (await t.database.db.select().from(references).where(eq(references.id, id)))[0];

describe('organization/reference/ without a token', () => {
  it('answers 401 to every method, before looking at the body', async () => {
    const org = await createOrganization(t);
    const ref = await addReference(org, 'Walk-in');
    const calls = [
      t.app.inject({ method: 'GET', url: URL }),
      t.app.inject({ method: 'POST', url: URL, payload: { name: '', organization: 'x' } }),
      t.app.inject({ method: 'PATCH', url: `${URL}${ref.id}/`, payload: { is_active: false } }),
      t.app.inject({ method: 'DELETE', url: `${URL}${ref.id}/` }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: AUTH_ERRORS.notProvided });
    }
    expect((await stored(ref.id))?.isActive).toBe(true);
  });
});

describe('GET organization/reference/', () => {
  it('answers the list envelope with the count, filtered by organization, search and is_active', async () => {
    const org = await createOrganization(t);
    const other = await createOrganization(t);
    await addReference(org, 'Camp North');
    await addReference(org, 'Camp South', false);
    await addReference(org, 'Hospital referral');
    await addReference(other, 'Camp elsewhere');
    const admin = await tokenFor('ADMIN');

    const all = await list(admin, `?organization=${org.id}`);
    expect(all.statusCode).toBe(200);
    const body = all.json<TPaginated<TReference>>();
    expect(body.count).toBe(3);
    expect(body.next).toBeNull();
    expect(body.previous).toBeNull();
    expect(body.results[0]).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      is_active: expect.any(Boolean),
      organization: org.id,
      created: expect.any(String),
      modified: expect.any(String),
    });

    const searched = (await list(admin, `?organization=${org.id}&search=camp&ordering=name`)).json<TPaginated<TReference>>();
    expect(searched.count).toBe(2);
    expect(searched.results.map((r) => r.name)).toEqual(['Camp North', 'Camp South']);

    const inactive = (await list(admin, `?organization=${org.id}&is_active=false`)).json<TPaginated<TReference>>();
    expect(inactive.results.map((r) => r.name)).toEqual(['Camp South']);

    const paged = (await list(admin, `?organization=${org.id}&limit=2&ordering=-name`)).json<TPaginated<TReference>>();
    expect(paged.count).toBe(3);
    expect(paged.results.map((r) => r.name)).toEqual(['Hospital referral', 'Camp South']);
    expect(paged.next).toContain('page=2');
  });

  it('refuses an ordering field that is not whitelisted', async () => {
    const res = await list(await tokenFor('ADMIN'), '?ordering=organization_id');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('ordering');
  });

  it("does not return another organization's references to an ORG_ADMIN, a MANAGER or a DISTRIBUTOR_ADMIN", async () => {
    const mine = await createOrganization(t);
    const theirs = await createOrganization(t);
    await addReference(mine, 'Mine');
    await addReference(theirs, 'Theirs');
    const tokens = [
      await tokenFor('ORG_ADMIN', { organizationId: mine.id }),
      await tokenFor('MANAGER', { linkedOrganizationIds: [mine.id] }),
      await tokenFor('DISTRIBUTOR_ADMIN', { organizationId: mine.id }),
    ];
    for (const token of tokens) {
      const all = (await list(token)).json<TPaginated<TReference>>();
      expect(all.results.map((r) => r.name)).toEqual(['Mine']);
      const asked = (await list(token, `?organization=${theirs.id}`)).json<TPaginated<TReference>>();
      expect(asked).toMatchObject({ count: 0, results: [] });
    }
  });

  it("lets a technician read its own organization's references only (the device app's picker)", async () => {
    const mine = await createOrganization(t);
    const theirs = await createOrganization(t);
    await addReference(mine, 'Tech ref');
    await addReference(theirs, 'Not for tech');
    const res = await list(await tokenFor('TECHNICIAN', { organizationId: mine.id }));
    expect(res.json<TPaginated<TReference>>().results.map((r) => r.name)).toEqual(['Tech ref']);
  });
});

describe('POST organization/reference/', () => {
  it('adds a reference and answers it with the success message', async () => {
    const org = await createOrganization(t);
    const res = await post(await tokenFor('ADMIN'), { name: '  Camp Ñandú (2024)  ', is_active: true, organization: org.id });
    expect(res.statusCode).toBe(201);
    const body = res.json<TReference & { detail: string }>();
    expect(body).toMatchObject({ name: 'Camp Ñandú (2024)', is_active: true, organization: org.id, detail: REFERENCE_MESSAGES.created });
    expect((await stored(body.id))?.name).toBe('Camp Ñandú (2024)');
  });

  it.each([
    ['blank', '   ', MESSAGES.required],
    ['emoji', 'Camp 🎉', MESSAGES.referenceText],
  ])('refuses a %s name with the field message and stores nothing', async (_label, name, message) => {
    const org = await createOrganization(t);
    const res = await post(await tokenFor('ADMIN'), { name, is_active: true, organization: org.id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ name: [message] });
    expect(await t.database.db.select().from(references).where(eq(references.organizationId, org.id))).toHaveLength(0);
  });

  it('refuses a missing organization', async () => {
    const res = await post(await tokenFor('ADMIN'), { name: 'Camp' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ organization: [MESSAGES.required] });
  });

  it('refuses a name the organization already has, whatever its case', async () => {
    const org = await createOrganization(t);
    await addReference(org, 'Camp North');
    const res = await post(await tokenFor('ADMIN'), { name: 'camp north', organization: org.id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ name: [REFERENCE_MESSAGES.duplicate] });
    // Another organization may use the same name.
    const other = await createOrganization(t);
    expect((await post(await tokenFor('ADMIN'), { name: 'Camp North', organization: other.id })).statusCode).toBe(201);
  });

  it("lets an ORG_ADMIN add to its own organization but answers 404 for another organization's", async () => {
    const mine = await createOrganization(t);
    const theirs = await createOrganization(t);
    const token = await tokenFor('ORG_ADMIN', { organizationId: mine.id });
    expect((await post(token, { name: 'Ours', organization: mine.id })).statusCode).toBe(201);
    const res = await post(token, { name: 'Intruder', organization: theirs.id });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
    expect(await t.database.db.select().from(references).where(eq(references.organizationId, theirs.id))).toHaveLength(0);
  });

  it.each(['DISTRIBUTOR_ADMIN', 'MANAGER', 'CERVAICAL_REVIEWER', 'TECHNICIAN'] as const)(
    'refuses a %s with 403 even within its scope',
    async (userType) => {
      const org = await createOrganization(t);
      const token = await tokenFor(userType, { organizationId: org.id, linkedOrganizationIds: userType === 'MANAGER' ? [org.id] : [] });
      const res = await post(token, { name: 'Not allowed', organization: org.id });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: AUTH_ERRORS.forbidden });
    },
  );
});

describe('PATCH organization/reference/{id}/', () => {
  it('inactivates and activates with the console messages', async () => {
    const org = await createOrganization(t);
    const ref = await addReference(org, 'Toggle me');
    const token = await tokenFor('SUB_ADMIN');
    const off = await patch(token, ref.id, { is_active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ id: ref.id, is_active: false, detail: REFERENCE_MESSAGES.inactivated });
    expect((await stored(ref.id))?.isActive).toBe(false);
    const on = await patch(token, ref.id, { is_active: true });
    expect(on.json()).toMatchObject({ is_active: true, detail: REFERENCE_MESSAGES.activated });
  });

  it('renames, refusing a blank, an emoji or a duplicate name without changing anything', async () => {
    const org = await createOrganization(t);
    const ref = await addReference(org, 'Old name');
    await addReference(org, 'Taken');
    const token = await tokenFor('ORG_ADMIN', { organizationId: org.id });
    const renamed = await patch(token, ref.id, { name: 'New name' });
    expect(renamed.json()).toMatchObject({ name: 'New name', detail: REFERENCE_MESSAGES.updated });
    expect((await patch(token, ref.id, { name: ' ' })).json()).toEqual({ name: [MESSAGES.required] });
    expect((await patch(token, ref.id, { name: '🙂' })).json()).toEqual({ name: [MESSAGES.referenceText] });
    const dup = await patch(token, ref.id, { name: 'TAKEN' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ name: [REFERENCE_MESSAGES.duplicate] });
    expect((await stored(ref.id))?.name).toBe('New name');
    // Its own name, in another case, is not a duplicate.
    expect((await patch(token, ref.id, { name: 'NEW NAME' })).statusCode).toBe(200);
  });

  it("does not touch another organization's reference for an ORG_ADMIN: 404", async () => {
    const mine = await createOrganization(t);
    const theirs = await createOrganization(t);
    const ref = await addReference(theirs, 'Theirs');
    const token = await tokenFor('ORG_ADMIN', { organizationId: mine.id });
    const res = await patch(token, ref.id, { is_active: false });
    expect(res.statusCode).toBe(404);
    expect((await stored(ref.id))?.isActive).toBe(true);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const token = await tokenFor('ADMIN');
    expect((await patch(token, 999_999, { is_active: false })).statusCode).toBe(404);
    const res = await t.app.inject({ method: 'PATCH', url: `${URL}abc/`, headers: auth(token), payload: { is_active: false } });
    expect(res.statusCode).toBe(404);
  });

  it('refuses a MANAGER with 403', async () => {
    const org = await createOrganization(t);
    const ref = await addReference(org, 'Managed');
    const token = await tokenFor('MANAGER', { linkedOrganizationIds: [org.id] });
    expect((await patch(token, ref.id, { is_active: false })).statusCode).toBe(403);
  });
});

describe('DELETE organization/reference/{id}/', () => {
  it('deletes with the console message', async () => {
    const org = await createOrganization(t);
    const ref = await addReference(org, 'Gone soon');
    const res = await remove(await tokenFor('ORG_ADMIN', { organizationId: org.id }), ref.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: REFERENCE_MESSAGES.deleted });
    expect(await stored(ref.id)).toBeUndefined();
  });

  it("answers 404 to an ORG_ADMIN for another organization's reference and keeps it", async () => {
    const mine = await createOrganization(t);
    const theirs = await createOrganization(t);
    const ref = await addReference(theirs, 'Keep me');
    const res = await remove(await tokenFor('ORG_ADMIN', { organizationId: mine.id }), ref.id);
    expect(res.statusCode).toBe(404);
    expect(await stored(ref.id)).toBeDefined();
  });

  it('refuses a DISTRIBUTOR_ADMIN with 403', async () => {
    const org = await createOrganization(t);
    const ref = await addReference(org, 'Distributed');
    const res = await remove(await tokenFor('DISTRIBUTOR_ADMIN', { organizationId: org.id }), ref.id);
    expect(res.statusCode).toBe(403);
    expect(await stored(ref.id)).toBeDefined();
  });
});
