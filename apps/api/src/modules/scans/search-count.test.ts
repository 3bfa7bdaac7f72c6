// A text search's bounded count (SEARCH_COUNT_AHEAD, docs/decisions.md "Bounded search counts"): the breast scan list and
// the patient list count a search's rows up to 200 past the page's first row; beyond, `count` is that bound with
// `count_capped: true` and a next page, and a page further on counts further, exactly once the end is in reach.
import { beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_COUNT_AHEAD } from '@sc/shared/list';
import { patients, scans } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';

const t = await setupTestApp();
const { db } = t.database;
const MATCHING = 230;
let admin = '';
let orgAdmin = '';

type Page = { count: number; count_capped?: boolean; next: string | null; results: { id: number }[] };

const get = async (url: string, token = admin) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: auth(token) });
  return res;
};
const page = async (url: string, token = admin): Promise<Page> => {
  const res = await get(url, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
};

beforeAll(async () => {
  const clinic = await createOrganization(t, { name: 'Capped Clinic' });
  admin = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
  orgAdmin = await signIn(t, await createUser(t, { userType: 'ORG_ADMIN', organizationId: clinic.id }));
  // 230 patients whose name holds 'qzv' (one scan each), 5 of them also 'qzvx7', and 3 others.
  const rows = await db
    .insert(patients)
    .values([
      ...Array.from({ length: MATCHING }, (_, i) => ({
        firstName: i < 5 ? `Qzvx7 ${i}` : `Qzv ${i}`,
        lastName: 'Capped',
        organizationId: clinic.id,
      })),
      ...['Anna', 'Bela', 'Cora'].map((firstName) => ({ firstName, lastName: 'Other', organizationId: clinic.id })),
    ])
    .returning();
  await db.insert(scans).values(
    rows.map((p, i) => ({
      patientId: p.id,
      organizationId: clinic.id,
      localDbId: `capped-${i}`,
      dateTime: new Date(Date.UTC(2026, 2, 1) + i * 60_000),
    })),
  );
});

describe('a text search counts up to SEARCH_COUNT_AHEAD rows past the page', () => {
  it.each([
    ['scan/', 'breast scan list'],
    ['patient/', 'patient list'],
  ])('%s (%s): capped on the first pages, exact once the end is in reach', async (path) => {
    expect(SEARCH_COUNT_AHEAD).toBe(200);
    const first = await page(`${path}?search=qzv&limit=10`);
    expect(first).toMatchObject({ count: 200, count_capped: true });
    expect(first.results).toHaveLength(10);
    expect(first.next).toContain('page=2');

    // Page 20 (rows 191–200) still counts to 190 + 200 > 230: exact.
    const twentieth = await page(`${path}?search=qzv&limit=10&page=20`);
    expect(twentieth.count).toBe(MATCHING);
    expect(twentieth.count_capped).toBeUndefined();
    const last = await page(`${path}?search=qzv&limit=10&page=23`);
    expect(last).toMatchObject({ count: MATCHING, next: null });
    expect(last.results).toHaveLength(10);
    expect((await get(`${path}?search=qzv&limit=10&page=24`)).statusCode).toBe(404);

    // Every row once across the pages: the bound changes the count only, never the rows.
    const ids = new Set<number>();
    for (let n = 1; n <= 3; n++) for (const r of (await page(`${path}?search=qzv&limit=100&page=${n}`)).results) ids.add(r.id);
    expect(ids.size).toBe(MATCHING);

    // A narrower search is exact and uncapped; a search without rows counts 0.
    expect(await page(`${path}?search=qzvx7`)).toMatchObject({ count: 5, next: null });
    expect((await page(`${path}?search=qzvx7`)).count_capped).toBeUndefined();
    expect(await page(`${path}?search=nomatch`)).toMatchObject({ count: 0, results: [] });
    // Without a search the count stays exact (the 233 rows of the clinic).
    expect(await page(`${path}?limit=10`)).toMatchObject({ count: MATCHING + 3 });
    // The scope still applies to a capped search (the ORG_ADMIN's clinic holds them all).
    expect(await page(`${path}?search=qzv&limit=10`, orgAdmin)).toMatchObject({ count: 200, count_capped: true });
  });
});
