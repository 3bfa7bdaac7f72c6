// app_version/: ADMIN lists one app's versions (search, ordering), reads, creates and edits them with the spec's
// rules (§5: name and note required and not blank, code at most 10, tutorial version numeric); a code is unique in
// its app; the app never changes; others get 403, unknown ids 404. The device read answers the newest version with
// an ETag and 304 to a device that has it.
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_VERSION_MESSAGES, type TAppVersion, type TAppVersionSaved } from '@sc/shared/app-versions';
import type { TPaginated } from '@sc/shared/list';
import { appVersions, auditLog } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';

const t = await setupTestApp();
const URL = '/api/v1/app_version/';
let admin = '';
const tokens: Record<string, string> = {};

beforeAll(async () => {
  const org = await createOrganization(t, { name: 'Version Clinic' });
  const [adminToken, subAdmin, orgAdmin, technician] = await Promise.all([
    createUser(t, { userType: 'ADMIN' }).then((u) => signIn(t, u)),
    createUser(t, { userType: 'SUB_ADMIN' }).then((u) => signIn(t, u)),
    createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id }).then((u) => signIn(t, u)),
    createUser(t, { userType: 'TECHNICIAN', organizationId: org.id }).then((u) => signIn(t, u)),
  ]);
  admin = adminToken;
  Object.assign(tokens, { SUB_ADMIN: subAdmin, ORG_ADMIN: orgAdmin, TECHNICIAN: technician });
  const day = (n: number) => new Date(Date.UTC(2026, 0, n));
  await t.database.db.insert(appVersions).values([
    { name: '3.0.0', code: '300', type: 'IBE', tutorialVersion: 1, notes: { note: 'First IBE' }, created: day(1) },
    { name: '3.0.1', code: '301', type: 'IBE', tutorialVersion: 1.5, notes: { note: 'Fixes' }, created: day(2) },
    { name: '3.1.0', code: '310', type: 'IBE', notes: { note: 'Offline mode' }, created: day(3) },
    { name: '1.0.0', code: '100', type: 'ORCA', notes: { note: 'First ORCA' }, created: day(4) },
  ]);
});

const send = (method: 'POST' | 'PUT' | 'PATCH' | 'GET', url: string, payload?: object, token = admin) =>
  t.app.inject({ method, url, headers: auth(token), ...(payload ? { payload } : {}) });

const list = async (query: string) => {
  const res = await send('GET', `${URL}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TPaginated<TAppVersion>>();
};

const valid = { name: '2.0.0', code: '200', notes: { note: 'New screen.\nBug fixes.' }, type: 'CERVAICAL' };

describe('GET app_version/', () => {
  it("lists one app's versions, newest first, in the list envelope", async () => {
    const body = await list('?type=IBE');
    expect(body.count).toBe(3);
    expect(body.results.map((v) => v.code)).toEqual(['310', '301', '300']);
    expect(body.results[1]).toEqual({
      id: expect.any(Number) as number,
      name: '3.0.1',
      code: '301',
      tutorial_version: 1.5,
      notes: { note: 'Fixes' },
      type: 'IBE',
      created: '2026-01-02T00:00:00.000Z',
      modified: expect.any(String) as string,
    });
  });

  it('searches the name or the code, sorts by a whitelisted field, refuses an unknown one and a bad type', async () => {
    expect((await list('?type=IBE&search=3.0')).results.map((v) => v.code)).toEqual(['301', '300']);
    expect((await list('?type=IBE&ordering=name')).results.map((v) => v.name)).toEqual(['3.0.0', '3.0.1', '3.1.0']);
    expect((await list('?type=ORCA&search=310')).count).toBe(0);
    expect((await send('GET', `${URL}?ordering=notes`)).statusCode).toBe(400);
    const bad = await send('GET', `${URL}?type=ibe`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ type: [APP_VERSION_MESSAGES.type] });
  });

  it.each(['SUB_ADMIN', 'ORG_ADMIN', 'TECHNICIAN'])('refuses a %s with 403', async (role) => {
    expect((await send('GET', `${URL}?type=IBE`, undefined, tokens[role])).statusCode).toBe(403);
  });

  it('refuses an anonymous caller with 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
  });
});

describe('POST app_version/', () => {
  it('creates a version with its multi-line release note and the success message, and audits it', async () => {
    const res = await send('POST', URL, { ...valid, tutorial_version: '2.5' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<TAppVersionSaved>();
    expect(body).toMatchObject({
      name: '2.0.0',
      code: '200',
      tutorial_version: 2.5,
      notes: { note: 'New screen.\nBug fixes.' },
      type: 'CERVAICAL',
      detail: APP_VERSION_MESSAGES.created,
    });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'app_version.created'), eq(auditLog.targetId, String(body.id))));
    expect(audit).toHaveLength(1);
  });

  it('refuses blank name and note, a missing code, with their messages, and stores nothing', async () => {
    const res = await send('POST', URL, { name: '  ', notes: { note: ' \n ' }, type: 'ORCA' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      name: [APP_VERSION_MESSAGES.nameRequired],
      code: [APP_VERSION_MESSAGES.codeRequired],
      'notes.note': [APP_VERSION_MESSAGES.noteRequired],
    });
    expect((await list('?type=ORCA')).count).toBe(1);
  });

  it('refuses a code longer than 10 characters, a missing note and type, and a tutorial version that is not a number', async () => {
    const res = await send('POST', URL, { name: 'x', code: '12345678901', tutorial_version: 'v2' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: [APP_VERSION_MESSAGES.codeTooLong],
      notes: [APP_VERSION_MESSAGES.noteRequired],
      type: [APP_VERSION_MESSAGES.type],
      tutorial_version: [APP_VERSION_MESSAGES.tutorialVersion],
    });
  });

  it('accepts a code of exactly 10 characters and no tutorial version', async () => {
    const res = await send('POST', URL, { ...valid, code: '1234567890', tutorial_version: null });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ code: '1234567890', tutorial_version: null });
  });

  it('refuses a code the app already has, and allows it in another app', async () => {
    const dup = await send('POST', URL, { ...valid, type: 'IBE', code: '300' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ code: [APP_VERSION_MESSAGES.duplicateCode] });
    expect((await send('POST', URL, { ...valid, type: 'ORCA', code: '300' })).statusCode).toBe(201);
  });

  it.each(['SUB_ADMIN', 'ORG_ADMIN', 'TECHNICIAN'])('refuses a %s with 403, before looking at the body', async (role) => {
    expect((await send('POST', URL, {}, tokens[role])).statusCode).toBe(403);
  });
});

describe('GET, PUT and PATCH app_version/{id}/', () => {
  let id = 0;
  beforeAll(async () => {
    const res = await send('POST', URL, { ...valid, code: '900', type: 'ORCA' });
    id = res.json<TAppVersionSaved>().id;
  });

  it('reads one version, and answers 404 for an unknown or malformed id', async () => {
    expect((await send('GET', `${URL}${id}/`)).json()).toMatchObject({ id, code: '900' });
    expect((await send('GET', `${URL}999999/`)).statusCode).toBe(404);
    expect((await send('GET', `${URL}1e3/`)).statusCode).toBe(404);
    expect((await send('GET', `${URL}${id}/`, undefined, tokens.SUB_ADMIN)).statusCode).toBe(403);
  });

  it('updates every field by PUT with the success message', async () => {
    const res = await send('PUT', `${URL}${id}/`, {
      id,
      name: '1.1.0',
      code: '110',
      notes: { note: 'Updated' },
      type: 'ORCA',
      tutorial_version: 3,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: '1.1.0',
      code: '110',
      notes: { note: 'Updated' },
      tutorial_version: 3,
      detail: APP_VERSION_MESSAGES.updated,
    });
  });

  it('PATCH keeps what is left out; blank fields, another app and a taken code are refused and change nothing', async () => {
    expect((await send('PATCH', `${URL}${id}/`, { tutorial_version: '' })).json()).toMatchObject({
      name: '1.1.0',
      tutorial_version: null,
    });
    const blank = await send('PATCH', `${URL}${id}/`, { name: ' ', notes: { note: '' } });
    expect(blank.json()).toEqual({
      name: [APP_VERSION_MESSAGES.nameRequired],
      'notes.note': [APP_VERSION_MESSAGES.noteRequired],
    });
    const moved = await send('PATCH', `${URL}${id}/`, { type: 'IBE', name: 'Moved' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toEqual({ type: [APP_VERSION_MESSAGES.typeFixed] });
    const taken = await send('PATCH', `${URL}${id}/`, { code: '100', name: 'Taken' });
    expect(taken.json()).toEqual({ code: [APP_VERSION_MESSAGES.duplicateCode] });
    const [row] = await t.database.db.select().from(appVersions).where(eq(appVersions.id, id));
    expect(row).toMatchObject({ name: '1.1.0', code: '110', type: 'ORCA' });
  });

  it('answers 404 to an edit of an unknown id and 403 to a non-ADMIN', async () => {
    expect((await send('PATCH', `${URL}999999/`, { name: 'x' })).statusCode).toBe(404);
    expect((await send('PATCH', `${URL}${id}/`, { name: 'x' }, tokens.ORG_ADMIN)).statusCode).toBe(403);
  });
});

describe('GET app_version/latest/ (device read)', () => {
  const latest = (type: string, headers: Record<string, string> = {}, token = tokens.TECHNICIAN!) =>
    t.app.inject({ method: 'GET', url: `${URL}latest/?type=${type}`, headers: { ...auth(token), ...headers } });

  it('answers the newest version of the app with an ETag, then 304 with no body while it is unchanged', async () => {
    const first = await latest('IBE');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ name: '3.1.0', code: '310', type: 'IBE' });
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^".+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await latest('IBE', { 'if-none-match': tag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await latest('IBE', { 'if-none-match': '"stale"' })).statusCode).toBe(200);
  });

  it('answers 200 with a new ETag once a newer version is released', async () => {
    const before = (await latest('CERVAICAL')).headers.etag as string;
    t.clock.advance(60_000);
    const created = await send('POST', URL, { ...valid, code: '999', name: '9.9.9' });
    expect(created.statusCode).toBe(201);
    const after = await latest('CERVAICAL', { 'if-none-match': before });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ code: '999' });
    expect(after.headers.etag).not.toBe(before);
  });

  it('answers 404 for an app without versions, 400 for an unknown type, 401 without a token', async () => {
    await t.database.db.delete(appVersions).where(eq(appVersions.type, 'ORCA'));
    const none = await latest('ORCA');
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ detail: APP_VERSION_MESSAGES.noneYet });
    expect((await latest('PHONE')).statusCode).toBe(400);
    expect((await latest('')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `${URL}latest/?type=IBE` })).statusCode).toBe(401);
  });

  it('puts no ETag on the other app version routes', async () => {
    const res = await send('GET', `${URL}?type=IBE`);
    expect(res.headers.etag).toBeUndefined();
  });
});
