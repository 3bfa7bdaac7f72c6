// Issue 23.22: `custom_range` as the spec's client sends it (part 2 §7: the chosen end extended by one day), read
// with the end exclusive on every call that takes it (tiles, chart, technician positivity, leaderboard, device
// positivity), in the caller's time zone; documented so in the OpenAPI.
import { beforeAll, describe, expect, it } from 'vitest';
import { CUSTOM_RANGE_DESCRIPTION, customRangeParam } from '@sc/shared/dashboard';
import { devices, organizationDevices, scans } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';

const t = await setupTestApp();
t.clock.set(new Date('2026-06-15T06:00:00Z'));
let admin = '';

// The 30 days 1–30 April 2026 chosen in the console, in Asia/Kolkata (UTC+5:30).
const FIRST = '2026-04-01';
const LAST = '2026-04-30';
const SPEC_FORM = '2026-04-01,2026-05-01';

beforeAll(async () => {
  const clinic = await createOrganization(t, { name: 'Range Clinic' });
  const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: clinic.id, password: null });
  const [device] = await t.database.db.insert(devices).values({ serialNumber: 'RANGE-DEV-1' }).returning();
  await t.database.db.insert(organizationDevices).values({ deviceId: device!.id, organizationId: clinic.id });
  const scan = (id: string, at: string) => ({
    localDbId: id,
    organizationId: clinic.id,
    technicianId: tech.id,
    deviceSerialNumber: 'RANGE-DEV-1',
    dateTime: new Date(at),
    created: new Date(at),
    scanType: 'SCAN' as const,
    rightBreastFinding: [],
  });
  await t.database.db.insert(scans).values([
    scan('before', '2026-03-31T18:29:00Z'), // 31 March 23:59 in Kolkata: out
    scan('first', '2026-03-31T18:30:00Z'), // 1 April 00:00: in
    scan('middle', '2026-04-15T06:00:00Z'), // in
    scan('last', '2026-04-30T18:29:00Z'), // 30 April 23:59: in
    scan('after', '2026-04-30T18:30:00Z'), // 1 May 00:00 (end date + 1 day): out
  ]);
  admin = await signIn(t, await createUser(t, { userType: 'ADMIN', password: null }));
});

const get = async <T>(path: string, query: string): Promise<T> => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/${path}?${query}`,
    headers: { ...auth(admin), timezone: 'Asia/Kolkata' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
};
type Rows = { results: { scans_count: number }[] };

describe('custom_range with the end exclusive (issue 23.22)', () => {
  it('is what the console sends for the chosen days: the end one day past the last', () => {
    expect(customRangeParam(FIRST, LAST)).toBe(SPEC_FORM);
    expect(customRangeParam('2024-02-28', '2024-02-29')).toBe('2024-02-28,2024-03-01');
  });

  it('counts exactly the 30 days on every call that takes it: 23:59 of the last day in, 00:00 after it out', async () => {
    const q = `custom_range=${SPEC_FORM}`;
    expect(await get('scan/dashboard/', q)).toMatchObject({ scans_in_data_range_count: 3 });
    const sum = (rows: Rows) => rows.results.reduce((n, r) => n + r.scans_count, 0);
    expect(sum(await get<Rows>('organization/technician-positive/', q))).toBe(3);
    expect(sum(await get<Rows>('organization/leaderboard/', q))).toBe(3);
    expect(sum(await get<Rows>('scan/device-positive/', q))).toBe(3);
    const chart = await get<{ points: { date: string; scans: number }[] }>('scan/dashboard/chart/', q);
    expect(chart.points).toHaveLength(30);
    expect(chart.points.at(-1)).toMatchObject({ date: LAST, scans: 1 });
    // The same days as date_time_after/before, whose end is inclusive.
    expect(await get('scan/dashboard/', `date_time_after=${FIRST}&date_time_before=${LAST}`)).toMatchObject({
      scans_in_data_range_count: 3,
    });
  });

  it('documents the exclusive end on the parameter in the OpenAPI', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, { get?: { parameters?: { name: string; description?: string }[] } }>;
    }>();
    for (const path of ['scan/dashboard/', 'organization/technician-positive/', 'organization/leaderboard/', 'scan/device-positive/']) {
      const param = doc.paths[`/api/v1/${path}`]?.get?.parameters?.find((p) => p.name === 'custom_range');
      expect(param?.description, path).toBe(CUSTOM_RANGE_DESCRIPTION);
    }
  });
});
