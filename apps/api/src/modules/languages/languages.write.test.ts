// POST, GET one, PUT and PATCH language/: ADMIN only, the spec's ISO code rule and message, a unique ISO code, an
// app version of the IBE app only, 404 for unknown ids, nothing changed by a refused write, an audit row per write.
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGE_MESSAGES, type TLanguageSaved } from '@sc/shared/languages';
import { appVersions, auditLog, languages } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';

const t = await setupTestApp();
const URL = '/api/v1/language/';
let admin = '';
const tokens: Record<string, string> = {};
let ibeVersion = 0;
let orcaVersion = 0;
let hindi = 0;

beforeAll(async () => {
  const org = await createOrganization(t, { name: 'Lang Clinic' });
  const [adminToken, subAdmin, orgAdmin, technician] = await Promise.all([
    createUser(t, { userType: 'ADMIN' }).then((u) => signIn(t, u)),
    createUser(t, { userType: 'SUB_ADMIN' }).then((u) => signIn(t, u)),
    createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id }).then((u) => signIn(t, u)),
    createUser(t, { userType: 'TECHNICIAN', organizationId: org.id }).then((u) => signIn(t, u)),
  ]);
  admin = adminToken;
  Object.assign(tokens, { SUB_ADMIN: subAdmin, ORG_ADMIN: orgAdmin, TECHNICIAN: technician });
  const rows = await t.database.db
    .insert(appVersions)
    .values([
      { name: '3.0.0', code: '300', type: 'IBE', notes: { note: 'First' } },
      { name: '1.0.0', code: '100', type: 'ORCA', notes: { note: 'First' } },
    ])
    .returning();
  ibeVersion = rows[0]!.id;
  orcaVersion = rows[1]!.id;
  const [row] = await t.database.db
    .insert(languages)
    .values({ name: 'Hindi', isoCode: 'hi', isTutorialAvailable: true })
    .returning();
  hindi = row!.id;
});

const send = (method: 'POST' | 'PUT' | 'PATCH' | 'GET', url: string, payload?: object, token = admin) =>
  t.app.inject({ method, url, headers: auth(token), ...(payload ? { payload } : {}) });

describe('POST language/', () => {
  it('creates a language with the success message, the ISO code in lower case and an IBE app version', async () => {
    const res = await send('POST', URL, {
      name: '  Swahili ',
      iso_code: 'SW',
      is_tutorial_available: true,
      app_version: ibeVersion,
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<TLanguageSaved>();
    expect(body).toEqual({
      id: expect.any(Number) as number,
      name: 'Swahili',
      iso_code: 'sw',
      is_tutorial_available: true,
      app_version: ibeVersion,
      ibe_consent_form: [],
      detail: LANGUAGE_MESSAGES.created,
    });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'language.created'), eq(auditLog.targetId, String(body.id))));
    expect(audit).toHaveLength(1);
  });

  it('defaults is_tutorial_available to false and app_version to null', async () => {
    const res = await send('POST', URL, { name: 'Yoruba', iso_code: 'yo' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ is_tutorial_available: false, app_version: null });
  });

  it.each([
    ['three characters', 'eng', LANGUAGE_MESSAGES.isoInvalid],
    ['a digit', 'e1', LANGUAGE_MESSAGES.isoInvalid],
    ['blank', '  ', LANGUAGE_MESSAGES.isoRequired],
  ])('refuses an ISO code with %s on iso_code', async (_label, iso, message) => {
    const res = await send('POST', URL, { name: 'Odd', iso_code: iso });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ iso_code: [message] });
  });

  it('refuses a missing or blank name and a missing ISO code with their messages', async () => {
    const res = await send('POST', URL, { name: '   ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      name: [LANGUAGE_MESSAGES.nameRequired],
      iso_code: [LANGUAGE_MESSAGES.isoRequired],
    });
  });

  it('refuses an ISO code another language has, in any case', async () => {
    const res = await send('POST', URL, { name: 'Hindi again', iso_code: 'HI' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ iso_code: [LANGUAGE_MESSAGES.isoTaken] });
  });

  it('refuses an app version of another app, and one that does not exist', async () => {
    const orca = await send('POST', URL, { name: 'Tamil', iso_code: 'ta', app_version: orcaVersion });
    expect(orca.statusCode).toBe(400);
    expect(orca.json()).toEqual({ app_version: [LANGUAGE_MESSAGES.appVersionNotIbe] });
    const missing = await send('POST', URL, { name: 'Tamil', iso_code: 'ta', app_version: 999999 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ app_version: ['Invalid pk "999999" - object does not exist.'] });
    const [row] = await t.database.db.select().from(languages).where(eq(languages.isoCode, 'ta'));
    expect(row).toBeUndefined();
  });

  it.each(['SUB_ADMIN', 'ORG_ADMIN', 'TECHNICIAN'])('refuses a %s with 403, before looking at the body', async (role) => {
    const res = await send('POST', URL, { name: '' }, tokens[role]);
    expect(res.statusCode).toBe(403);
  });

  it('refuses an anonymous caller with 401', async () => {
    const res = await t.app.inject({ method: 'POST', url: URL, payload: { name: 'x', iso_code: 'xx' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET, PUT and PATCH language/{id}/', () => {
  it('reads one language for any signed-in user, and 404 for an unknown id', async () => {
    const res = await send('GET', `${URL}${hindi}/`, undefined, tokens.TECHNICIAN);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: hindi, name: 'Hindi', iso_code: 'hi' });
    expect((await send('GET', `${URL}999999/`)).statusCode).toBe(404);
    expect((await send('GET', `${URL}abc/`)).statusCode).toBe(404);
  });

  it('edits every field by PUT, as the form sends it, with the success message', async () => {
    const res = await send('PUT', `${URL}${hindi}/`, {
      id: hindi,
      name: 'Hindi (India)',
      iso_code: 'hi',
      is_tutorial_available: false,
      app_version: ibeVersion,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Hindi (India)',
      is_tutorial_available: false,
      app_version: ibeVersion,
      detail: LANGUAGE_MESSAGES.updated,
    });
  });

  it('PATCH changes only the fields sent and can clear the app version', async () => {
    const res = await send('PATCH', `${URL}${hindi}/`, { app_version: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Hindi (India)', iso_code: 'hi', app_version: null });
  });

  it("refuses another language's ISO code and changes nothing", async () => {
    const res = await send('PATCH', `${URL}${hindi}/`, { name: 'Renamed', iso_code: 'sw' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ iso_code: [LANGUAGE_MESSAGES.isoTaken] });
    const [row] = await t.database.db.select().from(languages).where(eq(languages.id, hindi));
    expect(row).toMatchObject({ name: 'Hindi (India)', isoCode: 'hi' });
  });

  it('stores and returns ibe_consent_form (part 1 §3 Language): POST, PATCH, GET one, the list; PUT without it keeps it', async () => {
    const created = await send('POST', URL, { name: 'Zulu', iso_code: 'zu', ibe_consent_form: ['Ngiyavuma.'] });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<TLanguageSaved>().id;
    expect(created.json()).toMatchObject({ ibe_consent_form: ['Ngiyavuma.'] });
    // Blank items are dropped and a newline becomes a space, as the organization's consent lists are saved.
    const patched = await send('PATCH', `${URL}${id}/`, { ibe_consent_form: ['Line one\nline two', '  ', 'Second.'] });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ ibe_consent_form: ['Line one line two', 'Second.'] });
    expect((await send('GET', `${URL}${id}/`)).json()).toMatchObject({ ibe_consent_form: ['Line one line two', 'Second.'] });
    const list = await send('GET', `${URL}?search=zu`);
    expect(list.json<{ results: unknown[] }>().results).toContainEqual(
      expect.objectContaining({ id, ibe_consent_form: ['Line one line two', 'Second.'] }),
    );
    const put = await send('PUT', `${URL}${id}/`, { id, name: 'isiZulu', iso_code: 'zu', is_tutorial_available: false });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ name: 'isiZulu', ibe_consent_form: ['Line one line two', 'Second.'] });
    const [row] = await t.database.db.select().from(languages).where(eq(languages.id, id));
    expect(row?.ibeConsentForm).toEqual(['Line one line two', 'Second.']);
  });

  it('refuses a consent text that is not a list of texts, or over 400 words, on the field and changes nothing', async () => {
    const long = Array.from({ length: 401 }, () => 'word').join(' ');
    for (const ibe_consent_form of ['one text', [1], [long]]) {
      const res = await send('PATCH', `${URL}${hindi}/`, { ibe_consent_form });
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json<object>()).every((k) => k.startsWith('ibe_consent_form'))).toBe(true);
    }
    const [row] = await t.database.db.select().from(languages).where(eq(languages.id, hindi));
    expect(row?.ibeConsentForm).toEqual([]);
  });

  it('answers 404 for an unknown id, and 403 to a non-ADMIN', async () => {
    expect((await send('PATCH', `${URL}999999/`, { name: 'X' })).statusCode).toBe(404);
    expect((await send('PATCH', `${URL}${hindi}/`, { name: 'X' }, tokens.SUB_ADMIN)).statusCode).toBe(403);
    expect((await send('PUT', `${URL}${hindi}/`, { name: 'X', iso_code: 'hi' }, tokens.ORG_ADMIN)).statusCode).toBe(403);
  });
});
