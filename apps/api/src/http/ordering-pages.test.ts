// Issue 23.22: a list sorted by a key with ties ends with a stable tie-break (the id, parseOrdering), so paging
// through rows that share their sort key neither repeats nor skips one; the OpenAPI says so on `ordering`.
import { beforeAll, describe, expect, it } from 'vitest';
import { ORDERING_DESCRIPTION } from '@sc/shared/list';
import { scans } from '../db/schema/index.ts';
import { setupTestApp } from '../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../test/factories.ts';

const t = await setupTestApp();
let admin = '';
const SAME_TIME = new Date('2026-03-10T05:00:00Z');
const ROWS = 11;

beforeAll(async () => {
  const clinic = await createOrganization(t, { name: 'Tie Clinic' });
  const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: clinic.id, password: null });
  // Eleven scans taken at the same instant, inserted in shuffled local ids: only the tie-break orders them.
  await t.database.db.insert(scans).values(
    Array.from({ length: ROWS }, (_, i) => ({
      localDbId: `tie-${(i * 7) % ROWS}`,
      organizationId: clinic.id,
      technicianId: tech.id,
      dateTime: SAME_TIME,
      created: SAME_TIME,
      scanType: 'SCAN' as const,
    })),
  );
  admin = await signIn(t, await createUser(t, { userType: 'ADMIN', password: null }));
});

async function pageThrough(ordering: string, limit: number): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ids.length < ROWS; page++) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/scan/?ordering=${ordering}&limit=${limit}&page=${page}`,
      headers: auth(admin),
    });
    expect(res.statusCode, res.body).toBe(200);
    ids.push(...res.json<{ results: { id: number }[] }>().results.map((r) => r.id));
  }
  return ids;
}

describe('paging through ties (issue 23.22)', () => {
  // -date_time is the example; the scan type (the same for every row, no index to walk) makes the database
  // sort, whose order of equal keys is its own.
  it.each([
    ['-date_time', 'desc'],
    ['date_time', 'asc'],
    ['scan_type', 'asc'],
    ['-scan_type', 'desc'],
    ['scan_type,-created', 'desc'],
  ] as const)('%s: every row once, ordered by the id in the direction of the sort, the same every time', async (ordering, dir) => {
    const first = await pageThrough(ordering, 3);
    const sorted = [...first].sort((a, b) => (dir === 'desc' ? b - a : a - b));
    expect(first).toEqual(sorted);
    expect(new Set(first).size).toBe(ROWS);
    expect(await pageThrough(ordering, 4)).toEqual(first);
  });

  it('is documented on the ordering parameter', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, { get?: { parameters?: { name: string; description?: string }[] } }>;
    }>();
    for (const path of ['/api/v1/scan/', '/api/v1/patient/', '/api/v1/organization/', '/api/v1/booking/']) {
      const param = doc.paths[path]?.get?.parameters?.find((p) => p.name === 'ordering');
      expect(param?.description, path).toBe(ORDERING_DESCRIPTION);
    }
  });
});
