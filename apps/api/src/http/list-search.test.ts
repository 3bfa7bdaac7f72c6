// Issue 23.2: a search longer than the lists take answers 400 on `search` with the shared message, on every operation
// that takes a `search` (read from the OpenAPI document, so a new list is covered by being documented) — never a
// silent no-search. Lengths count as the console counts them (the same zod schema): Unicode code points, an emoji 1.
import { beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_MAX_LENGTH, SEARCH_TOO_LONG_MESSAGE } from '@sc/shared/list';
import { setupTestApp } from '../test/app.ts';
import { auth, createUser, signIn } from '../test/factories.ts';

const t = await setupTestApp({ RATE_LIMIT_DISABLED: 'true', GEOCODER_URL: 'http://127.0.0.1:9' });

/** Serial-number lookups (and the spec's alias of one) take at most 64 characters, with their own message. */
const OWN_LIMIT = new Set([
  '/api/v1/scan/sensor-serial-numbers/',
  '/api/v1/scan/sensor-serial-number/',
  '/api/v1/scan/devices/',
]);

type Operation = { parameters?: { in: string; name: string }[] };
let admin = '';
let searchPaths: string[] = [];

beforeAll(async () => {
  admin = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
    paths: Record<string, Record<string, Operation>>;
  }>();
  searchPaths = Object.entries(doc.paths)
    .filter(([, ops]) => ops.get?.parameters?.some((p) => p.in === 'query' && p.name === 'search'))
    .map(([path]) => path.replace(/\{[^}]+\}/g, '1'));
});

const get = (path: string, search: string) =>
  t.app.inject({ method: 'GET', url: `${path}?search=${encodeURIComponent(search)}`, headers: auth(admin) });

describe('an over-long search (issue 23.2)', () => {
  it('is documented on the lists', () => {
    // The scan, patient, organization and booking lists at least; the test below walks every one found.
    for (const path of ['/api/v1/scan/', '/api/v1/patient/', '/api/v1/organization/', '/api/v1/booking/']) {
      expect(searchPaths).toContain(path);
    }
  });

  it.each([
    ['201 letters', 'a'.repeat(SEARCH_MAX_LENGTH + 1)],
    ['an emoji and 3,000 letters', `🙂${'a'.repeat(3000)}`],
    ['200 letters and an emoji', `${'a'.repeat(SEARCH_MAX_LENGTH)}🙂`],
  ])('%s answers 400 with the message on search, on every list', async (_label, search) => {
    const problems: string[] = [];
    for (const path of searchPaths) {
      const res = await get(path, search);
      const body = res.statusCode === 400 ? res.json<Record<string, unknown>>() : {};
      const message = (body.search as string[] | undefined)?.[0];
      if (!message || (!OWN_LIMIT.has(path) && message !== SEARCH_TOO_LONG_MESSAGE)) {
        problems.push(`${path}: ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('takes a search of exactly the limit, surrounding spaces not counted', async () => {
    const res = await get('/api/v1/scan/', ` ${'a'.repeat(SEARCH_MAX_LENGTH - 1)}🙂 `);
    expect(res.statusCode, res.body).toBe(200);
  });
});
