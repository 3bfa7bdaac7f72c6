// Dashboard statistics through HTTP on a known fixture: each tile, the chart, By Technician, By Device and the
// leaderboard with its CSV; month boundaries in the caller's time zone (Asia/Kolkata starts April at 18:30 UTC on
// 31 March), an empty period, the scope of each role and the refused roles.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DASHBOARD_MESSAGES,
  LEADERBOARD_CSV_COLUMNS,
  LEADERBOARD_CSV_TIME_COLUMNS,
  type TDashboardChart,
  type TDashboardStats,
  type TDeviceStats,
  type TLeaderboardRow,
  type TTechnicianStats,
} from '@sc/shared/dashboard';
import { csvHeader } from '@sc/shared/constants';
import type { TPaginated } from '@sc/shared/list';
import type { TUserType } from '@sc/shared/roles';
import { devices, organizationDevices, reportLogs, scans } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import {
  auth,
  createOrganization,
  createUser,
  signIn,
  type OrganizationRow,
  type TestUser,
} from '../../test/factories.ts';

const t = await setupTestApp();
const db = t.database.db;
// Wednesday 15 April 2026, 11:30 in Kolkata.
t.clock.set(new Date('2026-04-15T06:00:00Z'));

let distributor: OrganizationRow;
let clinic: OrganizationRow;
let kenya: OrganizationRow;
let t1: TestUser;
let t2: TestUser;
let t3: TestUser;
const tokens = {} as Record<
  'admin' | 'subAdmin' | 'distributor' | 'orgAdmin' | 'manager' | 'technician' | 'reviewer',
  string
>;

async function tokenFor(
  userType: TUserType,
  organizationId: number | null,
  opts: { linkedOrganizationIds?: number[] } = {},
) {
  return signIn(t, await createUser(t, { userType, organizationId, password: null, ...opts }));
}

beforeAll(async () => {
  distributor = await createOrganization(t, {
    name: 'Delta Distribution',
    canCreateOrganization: true,
    address3: 'Pune',
    state: 'Maharashtra',
  });
  clinic = await createOrganization(t, {
    name: 'Clinic Under Delta',
    parentId: distributor.id,
    address3: 'Mumbai',
  });
  kenya = await createOrganization(t, {
    name: 'Kisumu Care',
    country: 'Kenya',
    countryCode: 'KE',
    address3: 'Kisumu',
  });
  t1 = await createUser(t, {
    userType: 'TECHNICIAN',
    organizationId: clinic.id,
    firstName: 'Asha',
    lastName: 'One',
    password: null,
  });
  t2 = await createUser(t, {
    userType: 'TECHNICIAN',
    organizationId: distributor.id,
    firstName: 'Bina',
    lastName: 'Two',
    password: null,
  });
  t3 = await createUser(t, {
    userType: 'TECHNICIAN',
    organizationId: kenya.id,
    firstName: 'Chao',
    lastName: 'Three',
    password: null,
  });
  const [dev1] = await db.insert(devices).values({ serialNumber: 'DASH-DEV-1' }).returning();
  await db.insert(organizationDevices).values({ deviceId: dev1!.id, organizationId: clinic.id });

  const scan = (
    id: string,
    org: OrganizationRow,
    tech: TestUser,
    at: string,
    opts: { device?: string | null; positive?: boolean; type?: 'SCAN' | 'TRAINING'; created?: string } = {},
  ) => ({
    localDbId: id,
    organizationId: org.id,
    technicianId: tech.id,
    deviceSerialNumber: opts.device === undefined ? null : opts.device,
    dateTime: new Date(at),
    created: new Date(opts.created ?? at),
    scanType: opts.type ?? 'SCAN',
    rightBreastFinding: opts.positive ? ['Lump'] : [],
  });
  await db.insert(scans).values([
    // 1 April 01:30 in Kolkata, still 31 March in UTC.
    scan('a', clinic, t1, '2026-03-31T20:00:00Z', { device: 'DASH-DEV-1', positive: true }),
    // 31 March 22:30 in Kolkata.
    scan('b', clinic, t1, '2026-03-31T17:00:00Z', { device: 'DASH-DEV-1' }),
    scan('c', distributor, t2, '2026-04-10T10:00:00Z', { device: 'DASH-DEV-2', positive: true }),
    scan('d', kenya, t3, '2026-04-14T10:00:00Z', { device: 'DASH-DEV-2', created: '2026-04-14T10:05:00Z' }),
    // Training scans are not statistics, but they are syncs.
    scan('e', kenya, t3, '2026-04-14T11:00:00Z', {
      positive: true,
      type: 'TRAINING',
      created: '2026-04-14T23:00:00Z',
    }),
    scan('f', clinic, t1, '2026-02-10T10:00:00Z', { device: 'DASH-DEV-1' }),
    scan('g', kenya, t3, '2026-04-14T12:00:00Z', { positive: true }),
  ]);

  tokens.admin = await tokenFor('ADMIN', null);
  tokens.subAdmin = await tokenFor('SUB_ADMIN', null);
  tokens.distributor = await tokenFor('DISTRIBUTOR_ADMIN', distributor.id);
  tokens.orgAdmin = await tokenFor('ORG_ADMIN', clinic.id);
  tokens.manager = await tokenFor('MANAGER', null, { linkedOrganizationIds: [distributor.id] });
  tokens.technician = await tokenFor('TECHNICIAN', clinic.id);
  tokens.reviewer = await tokenFor('CERVAICAL_REVIEWER', null);
});

async function get<T>(token: string, url: string, timezone?: string): Promise<T> {
  const res = await t.app.inject({
    method: 'GET',
    url,
    headers: { ...auth(token), ...(timezone ? { timezone } : {}) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
}
const stats = (token: string, query = '', timezone?: string) =>
  get<TDashboardStats>(token, `/api/v1/scan/dashboard/${query}`, timezone);
const tiles = (scansCount: number, positives: number, rate: number): TDashboardStats => ({
  scans_in_data_range_count: scansCount,
  positive_scans_in_data_range_count: positives,
  positivity_rate_in_data_range_count: rate,
});

describe('GET scan/dashboard/ (tiles)', () => {
  it('counts SCAN-type scans and positives (a finding on either side) for all time', async () => {
    expect(await stats(tokens.admin)).toEqual(tiles(6, 3, 50));
    expect(await stats(tokens.subAdmin)).toEqual(tiles(6, 3, 50));
  });

  it("reads this month in the caller's time zone: April in Kolkata starts at 18:30 UTC on 31 March", async () => {
    expect(await stats(tokens.admin, '?month=this_month')).toEqual(tiles(4, 3, 75));
    expect(await stats(tokens.admin, '?month=this_month', 'UTC')).toEqual(tiles(3, 2, 66.7));
    expect(await stats(tokens.admin, '?month=last_month')).toEqual(tiles(1, 0, 0));
    expect(await stats(tokens.admin, '?month=last_month', 'UTC')).toEqual(tiles(2, 1, 50));
  });

  it('reads date_time_after/before as whole local days, both ends included, and custom_range with its end excluded', async () => {
    expect(await stats(tokens.admin, '?custom_range=2026-04-01,2026-04-02')).toEqual(tiles(1, 1, 100));
    expect(await stats(tokens.admin, '?date_time_after=2026-03-31&date_time_before=2026-04-10')).toEqual(
      tiles(3, 2, 66.7),
    );
    expect(await stats(tokens.admin, '?date_time_after=2026-04-14', 'Africa/Nairobi')).toEqual(
      tiles(2, 1, 50),
    );
    expect(await stats(tokens.admin, '?day=today')).toEqual(tiles(0, 0, 0));
  });

  it('answers 0 everywhere for an empty period', async () => {
    expect(await stats(tokens.admin, '?date_time_after=2025-01-01&date_time_before=2025-01-31')).toEqual(
      tiles(0, 0, 0),
    );
  });

  it('gives a DISTRIBUTOR_ADMIN its tree and an ORG_ADMIN its own organization only', async () => {
    expect(await stats(tokens.distributor)).toEqual(tiles(4, 2, 50));
    expect(await stats(tokens.orgAdmin)).toEqual(tiles(3, 1, 33.3));
  });

  it('refuses MANAGER, TECHNICIAN and CERVAICAL_REVIEWER (403) and anonymous callers (401)', async () => {
    for (const url of [
      '/api/v1/scan/dashboard/',
      '/api/v1/scan/dashboard/chart/',
      '/api/v1/scan/device-positive/',
      '/api/v1/organization/technician-positive/',
      '/api/v1/organization/leaderboard/',
    ]) {
      for (const token of [tokens.manager, tokens.technician, tokens.reviewer]) {
        const res = await t.app.inject({ method: 'GET', url, headers: auth(token) });
        expect(res.statusCode, url).toBe(403);
      }
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });

  it('answers 400 on the field for a bad range, an end before its start or an unknown time zone', async () => {
    const bad = async (query: string, headers: Record<string, string> = {}) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/scan/dashboard/${query}`,
        headers: { ...auth(tokens.admin), ...headers },
      });
      expect(res.statusCode).toBe(400);
      return res.json<Record<string, string[]>>();
    };
    expect(await bad('?custom_range=2026-04-01')).toEqual({
      custom_range: ['Enter the range as two dates: YYYY-MM-DD,YYYY-MM-DD.'],
    });
    // The end is exclusive: an end on or before the start leaves no day.
    for (const range of ['2026-04-05,2026-04-01', '2026-04-05,2026-04-05']) {
      expect(await bad(`?custom_range=${range}`)).toEqual({ custom_range: [DASHBOARD_MESSAGES.customRangeEnd] });
    }
    expect(await bad('?month=next_month')).toHaveProperty('month');
    expect(await bad('?day=today', { timezone: 'Mars/Olympus' })).toEqual({
      Timezone: ['Unknown time zone.'],
    });
  });
});

describe('GET scan/dashboard/chart/', () => {
  it('shows this month per local day, adding up to the tiles, with scans of 1 April (Kolkata) on that day', async () => {
    const chart = await get<TDashboardChart>(tokens.admin, '/api/v1/scan/dashboard/chart/?month=this_month');
    expect(chart.interval).toBe('day');
    expect(chart.points).toHaveLength(30);
    expect(chart.points[0]).toEqual({ date: '2026-04-01', scans: 1, positives: 1 });
    expect(chart.points.find((p) => p.date === '2026-04-14')).toEqual({
      date: '2026-04-14',
      scans: 2,
      positives: 1,
    });
    expect(chart.points.reduce((s, p) => s + p.scans, 0)).toBe(4);
  });

  it('shows all time per month from the first scan', async () => {
    const chart = await get<TDashboardChart>(tokens.admin, '/api/v1/scan/dashboard/chart/');
    expect(chart.interval).toBe('month');
    expect(chart.points).toEqual([
      { date: '2026-02-01', scans: 1, positives: 0 },
      { date: '2026-03-01', scans: 1, positives: 0 },
      { date: '2026-04-01', scans: 4, positives: 3 },
    ]);
    const own = await get<TDashboardChart>(tokens.orgAdmin, '/api/v1/scan/dashboard/chart/', 'UTC');
    expect(own.points).toEqual([
      { date: '2026-02-01', scans: 1, positives: 0 },
      { date: '2026-03-01', scans: 2, positives: 1 },
      { date: '2026-04-01', scans: 0, positives: 0 },
    ]);
  });
});

describe('GET organization/technician-positive/', () => {
  const list = (token: string, query = '') =>
    get<TPaginated<TTechnicianStats>>(token, `/api/v1/organization/technician-positive/${query}`);

  it('lists technicians by scans (default -scans_count) with their organization and its country', async () => {
    const page = await list(tokens.admin);
    expect(page.count).toBe(3);
    expect(page.results).toEqual([
      {
        id: t1.id,
        first_name: 'Asha',
        last_name: 'One',
        username: t1.username,
        organization: { id: clinic.id, name: 'Clinic Under Delta', country: 'India' },
        scans_count: 3,
        positive_scans_count: 1,
        dynamic_positivity_percentage: 33.3,
      },
      {
        id: t3.id,
        first_name: 'Chao',
        last_name: 'Three',
        username: t3.username,
        organization: { id: kenya.id, name: 'Kisumu Care', country: 'Kenya' },
        scans_count: 2,
        positive_scans_count: 1,
        dynamic_positivity_percentage: 50,
      },
      {
        id: t2.id,
        first_name: 'Bina',
        last_name: 'Two',
        username: t2.username,
        organization: { id: distributor.id, name: 'Delta Distribution', country: 'India' },
        scans_count: 1,
        positive_scans_count: 1,
        dynamic_positivity_percentage: 100,
      },
    ]);
  });

  it('sorts by positivity, accepts the original `order` name, searches and pages', async () => {
    expect(
      (await list(tokens.admin, '?ordering=-dynamic_positivity_percentage')).results.map((r) => r.id),
    ).toEqual([t2.id, t3.id, t1.id]);
    expect((await list(tokens.admin, '?order=scans_count')).results.map((r) => r.id)).toEqual([
      t2.id,
      t3.id,
      t1.id,
    ]);
    expect((await list(tokens.admin, '?search=chao')).results.map((r) => r.id)).toEqual([t3.id]);
    const second = await list(tokens.admin, '?limit=2&page=2');
    expect(second).toMatchObject({
      count: 3,
      next: null,
      previous: '/api/v1/organization/technician-positive/?limit=2',
    });
    expect(second.results.map((r) => r.id)).toEqual([t2.id]);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/organization/technician-positive/?ordering=password',
      headers: auth(tokens.admin),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ ordering: ['Invalid ordering field: password.'] });
  });

  it('counts the period exactly and keeps each role to its scope', async () => {
    expect(
      (await list(tokens.admin, '?custom_range=2026-04-01,2026-05-01')).results.map((r) => [
        r.id,
        r.scans_count,
      ]),
    ).toEqual([
      [t3.id, 2],
      // A tie is broken by the technician (descending like the sort), so pages are stable.
      [t2.id, 1],
      [t1.id, 1],
    ]);
    expect((await list(tokens.distributor)).results.map((r) => r.id)).toEqual([t1.id, t2.id]);
    expect((await list(tokens.orgAdmin)).results.map((r) => r.id)).toEqual([t1.id]);
    expect(await list(tokens.admin, '?date_time_after=2025-01-01&date_time_before=2025-01-02')).toMatchObject(
      { count: 0, results: [] },
    );
  });
});

describe('GET scan/device-positive/', () => {
  const list = (token: string, query = '') =>
    get<TPaginated<TDeviceStats>>(token, `/api/v1/scan/device-positive/${query}`);

  it('lists devices by positivity (default) with the registered device and its organization', async () => {
    const page = await list(tokens.admin);
    expect(page.results).toEqual([
      {
        device_serial_number: 'DASH-DEV-2',
        scans_count: 2,
        positive_scans_count: 1,
        positivity_percentage: 50,
        device_data: null,
      },
      {
        device_serial_number: 'DASH-DEV-1',
        scans_count: 3,
        positive_scans_count: 1,
        positivity_percentage: 33.3,
        device_data: {
          id: expect.any(Number) as number,
          serial_number: 'DASH-DEV-1',
          organization: clinic.id,
          organization_name: 'Clinic Under Delta',
        },
      },
    ]);
    expect(
      (await list(tokens.admin, '?ordering=-scans_count')).results.map((r) => r.device_serial_number),
    ).toEqual(['DASH-DEV-1', 'DASH-DEV-2']);
    expect((await list(tokens.admin, '?search=dev-1')).results.map((r) => r.device_serial_number)).toEqual([
      'DASH-DEV-1',
    ]);
  });

  it("counts only the scans of the caller's organizations", async () => {
    expect((await list(tokens.orgAdmin)).results.map((r) => [r.device_serial_number, r.scans_count])).toEqual(
      [['DASH-DEV-1', 3]],
    );
    expect(
      (await list(tokens.distributor, '?ordering=-scans_count')).results.map((r) => [
        r.device_serial_number,
        r.scans_count,
      ]),
    ).toEqual([
      ['DASH-DEV-1', 3],
      ['DASH-DEV-2', 1],
    ]);
    expect(
      (await list(tokens.admin, '?month=last_month')).results.map((r) => [
        r.device_serial_number,
        r.scans_count,
      ]),
    ).toEqual([['DASH-DEV-1', 1]]);
  });
});

describe('GET organization/leaderboard/', () => {
  const list = (token: string, query = '') =>
    get<TPaginated<TLeaderboardRow>>(token, `/api/v1/organization/leaderboard/${query}`);

  it('ranks every organization in scope by scans, with positivity, last sync (any scan type) and location', async () => {
    const page = await list(tokens.admin, '?search=a');
    const names = page.results.map((r) => r.name);
    expect(names.slice(0, 3)).toEqual(['Clinic Under Delta', 'Kisumu Care', 'Delta Distribution']);
    expect(page.results[1]).toEqual({
      id: kenya.id,
      name: 'Kisumu Care',
      country: 'Kenya',
      location: 'Kisumu, Kenya',
      scans_count: 2,
      positive_scans_count: 1,
      dynamic_positivity_percentage: 50,
      last_sync_date: '2026-04-14T23:00:00.000Z',
    });
    expect(page.results[2]).toMatchObject({
      location: 'Pune, Maharashtra, India',
      scans_count: 1,
      dynamic_positivity_percentage: 100,
    });
  });

  it('counts a period exactly and shows organizations without scans in it as 0', async () => {
    const page = await list(tokens.admin, '?custom_range=2026-03-01,2026-04-01');
    const byName = Object.fromEntries(
      page.results.map((r) => [r.name, [r.scans_count, r.dynamic_positivity_percentage]]),
    );
    expect(byName).toMatchObject({
      'Clinic Under Delta': [1, 0],
      'Kisumu Care': [0, 0],
      'Delta Distribution': [0, 0],
    });
  });

  it('gives a DISTRIBUTOR_ADMIN its tree and refuses an ORG_ADMIN', async () => {
    expect((await list(tokens.distributor)).results.map((r) => r.name)).toEqual([
      'Clinic Under Delta',
      'Delta Distribution',
    ]);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/organization/leaderboard/',
      headers: auth(tokens.orgAdmin),
    });
    expect(res.statusCode).toBe(403);
  });

  it('streams leaderboard.csv with every row and records the download in the report log', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/organization/leaderboard/?format=csv&limit=1&custom_range=2026-04-01,2026-04-30',
      headers: { ...auth(tokens.distributor), 'user-agent': 'csv-test' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename=leaderboard_2026-04-01_2026-04-(29|30)\.csv$/,
    );
    expect(res.body.trim().split('\n')).toEqual([
      `${csvHeader(LEADERBOARD_CSV_COLUMNS, LEADERBOARD_CSV_TIME_COLUMNS, 'Asia/Kolkata').join(',')}`,
      // The last syncs (20:00 and 10:00 UTC) in the reader's zone, Asia/Kolkata without a Timezone header.
      `Clinic Under Delta,1,100.0%,2026-04-01 01:30,"Mumbai, India"`,
      `Delta Distribution,1,100.0%,2026-04-10 15:30,"Pune, Maharashtra, India"`,
    ]);
    const logs = await db.select().from(reportLogs).where(eq(reportLogs.userAgent, 'csv-test'));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      api: '/api/v1/organization/leaderboard/',
      userType: 'DISTRIBUTOR_ADMIN',
    });
    expect(logs[0]!.apiQp).toMatchObject({ format: 'csv', custom_range: '2026-04-01,2026-04-30' });
  });
});
