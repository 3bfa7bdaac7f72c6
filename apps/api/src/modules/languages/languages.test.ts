// GET language/: signed-in callers, the list envelope, search by name or iso_code.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TLanguageList } from '@sc/shared/languages';
import { languages } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createUser, signIn } from '../../test/factories.ts';

const t = await setupTestApp();
let token = '';

beforeAll(async () => {
  await t.database.db.delete(languages);
  await t.database.db.insert(languages).values([
    { name: 'English', isoCode: 'en', isTutorialAvailable: true },
    { name: 'Hindi', isoCode: 'hi', isTutorialAvailable: true },
    { name: 'Swahili', isoCode: 'sw' },
    { name: 'Spanish', isoCode: 'es' },
  ]);
  token = await signIn(t, await createUser(t, { userType: 'ORG_ADMIN' }));
});

const list = async (query = '') => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/language/${query}`, headers: auth(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TLanguageList>();
};

describe('GET language/', () => {
  it('refuses an anonymous caller with 401', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/language/' });
    expect(res.statusCode).toBe(401);
  });

  it('answers the list envelope sorted by name with every field', async () => {
    const body = await list();
    expect(body.count).toBe(4);
    expect(body.results.map((l) => l.name)).toEqual(['English', 'Hindi', 'Spanish', 'Swahili']);
    expect(body.results[1]).toEqual({
      id: expect.any(Number) as number,
      name: 'Hindi',
      iso_code: 'hi',
      is_tutorial_available: true,
      app_version: null,
      ibe_consent_form: [],
    });
  });

  it('pages with limit and page', async () => {
    const body = await list('?limit=2&page=2');
    expect(body.count).toBe(4);
    expect(body.results.map((l) => l.iso_code)).toEqual(['es', 'sw']);
    expect(body.previous).toBe('/api/v1/language/?limit=2');
    expect(body.next).toBeNull();
  });

  it('searches the name and the iso_code case-insensitively', async () => {
    expect((await list('?search=SPA')).results.map((l) => l.iso_code)).toEqual(['es']);
    expect((await list('?search=sw')).results.map((l) => l.iso_code)).toEqual(['sw']);
  });

  it('filters by is_tutorial_available', async () => {
    expect((await list('?is_tutorial_available=true')).count).toBe(2);
  });

  it('refuses an unknown ordering field with 400', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/language/?ordering=secret', headers: auth(token) });
    expect(res.statusCode).toBe(400);
  });
});
