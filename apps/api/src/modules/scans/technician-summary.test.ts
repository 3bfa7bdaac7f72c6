// GET scan/technician-summary/ (part 2 §2.11, §3, §7): exact figures on a known fixture (all time, a period whose
// edges cut UTC days in the caller's zone, an empty period), the scope of each role, refused roles and bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TUserType } from '@sc/shared/roles';
import type { TTechnicianSummary } from '@sc/shared/scans';
import { scans } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, type TestUser } from '../../test/factories.ts';

const t = await setupTestApp();
const { db } = t.database;
// Wednesday 15 April 2026, 11:30 in Kolkata.
t.clock.set(new Date('2026-04-15T06:00:00Z'));

let tech: TestUser;
let techOther: TestUser;
let manager: TestUser;
const tokens = {} as Record<TUserType | 'managerOfOther', string>;

beforeAll(async () => {
  const distributor = await createOrganization(t, { name: 'Summary Distribution', canCreateOrganization: true });
  const clinic = await createOrganization(t, { name: 'Summary Clinic', parentId: distributor.id });
  const other = await createOrganization(t, { name: 'Summary Elsewhere' });
  tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: clinic.id, password: null });
  techOther = await createUser(t, { userType: 'TECHNICIAN', organizationId: other.id, password: null });
  manager = await createUser(t, { userType: 'MANAGER', password: null, linkedOrganizationIds: [clinic.id] });

  const scan = (
    id: string,
    organizationId: number,
    technicianId: number,
    at: string,
    opts: { positive?: boolean; type?: 'SCAN' | 'TRAINING' } = {},
  ) => ({
    localDbId: id,
    organizationId,
    technicianId,
    deviceSerialNumber: 'SUMMARY-DEV',
    dateTime: new Date(at),
    created: new Date(at),
    scanType: opts.type ?? 'SCAN',
    leftBreastFinding: opts.positive ? ['Lump'] : [],
  });
  await db.insert(scans).values([
    // 1 April 01:30 in Kolkata, still 31 March in UTC.
    scan('a', clinic.id, tech.id, '2026-03-31T20:00:00Z', { positive: true }),
    // 31 March 22:30 in Kolkata.
    scan('b', clinic.id, tech.id, '2026-03-31T17:00:00Z'),
    scan('c', clinic.id, tech.id, '2026-04-10T10:00:00Z', { positive: true }),
    scan('d', clinic.id, tech.id, '2026-04-12T10:00:00Z'),
    // Training scans are not statistics.
    scan('e', clinic.id, tech.id, '2026-04-13T10:00:00Z', { positive: true, type: 'TRAINING' }),
    // The technician's work for another organization (before a move).
    scan('f', other.id, tech.id, '2026-04-11T10:00:00Z', { positive: true }),
    scan('g', other.id, techOther.id, '2026-04-11T11:00:00Z', { positive: true }),
  ]);

  const tokenFor = async (userType: TUserType, organizationId: number | null, links?: number[]) =>
    signIn(t, await createUser(t, { userType, organizationId, password: null, linkedOrganizationIds: links }));
  tokens.ADMIN = await tokenFor('ADMIN', null);
  tokens.SUB_ADMIN = await tokenFor('SUB_ADMIN', null);
  tokens.DISTRIBUTOR_ADMIN = await tokenFor('DISTRIBUTOR_ADMIN', distributor.id);
  tokens.MANAGER = await signIn(t, manager);
  tokens.managerOfOther = await tokenFor('MANAGER', null, [other.id]);
  tokens.ORG_ADMIN = await tokenFor('ORG_ADMIN', clinic.id);
  tokens.TECHNICIAN = await signIn(t, tech);
  tokens.CERVAICAL_REVIEWER = await tokenFor('CERVAICAL_REVIEWER', null);
});

const call = (token: string | null, query: string, timezone?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/scan/technician-summary/${query}`,
    headers: { ...(token ? auth(token) : {}), ...(timezone ? { timezone } : {}) },
  });

async function summary(token: string, query: string, timezone?: string): Promise<TTechnicianSummary> {
  const res = await call(token, query, timezone);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TTechnicianSummary>();
}

const figures = (scansCount: number, positives: number, rate: number, latest: string | null): TTechnicianSummary => ({
  scans_in_data_range_count: scansCount,
  positive_scans_in_data_range_count: positives,
  positivity_rate_in_data_range_count: rate,
  most_recent_scan_date: latest,
});

describe('GET scan/technician-summary/', () => {
  it("counts every SCAN-type scan of the technician for ADMIN and SUB_ADMIN, training scans left out", async () => {
    const expected = figures(5, 3, 60, '2026-04-12T10:00:00.000Z');
    expect(await summary(tokens.ADMIN, `?technician=${tech.id}`)).toEqual(expected);
    expect(await summary(tokens.SUB_ADMIN, `?technician=${tech.id}&using_read_db=true`)).toEqual(expected);
  });

  it("reads the period's days in the caller's time zone, exactly at both edges", async () => {
    const q = `?technician=${tech.id}&date_time_after=2026-04-01&date_time_before=2026-04-15`;
    // Kolkata: 1 April starts at 18:30 UTC on 31 March, so scan a is in and scan b is out.
    expect(await summary(tokens.ADMIN, q)).toEqual(figures(4, 3, 75, '2026-04-12T10:00:00.000Z'));
    expect(await summary(tokens.ADMIN, q, 'UTC')).toEqual(figures(3, 2, 66.7, '2026-04-12T10:00:00.000Z'));
    // A start alone is that one day (architecture §4).
    expect(await summary(tokens.ADMIN, `?technician=${tech.id}&date_time_after=2026-04-10`)).toEqual(
      figures(1, 1, 100, '2026-04-10T10:00:00.000Z'),
    );
  });

  it('answers zeros, positivity 0 and no latest scan for an empty period', async () => {
    expect(
      await summary(tokens.ADMIN, `?technician=${tech.id}&date_time_after=2026-01-01&date_time_before=2026-01-31`),
    ).toEqual(figures(0, 0, 0, null));
  });

  it("counts only the scans of organizations in a DISTRIBUTOR_ADMIN's or MANAGER's scope", async () => {
    const own = figures(4, 2, 50, '2026-04-12T10:00:00.000Z');
    expect(await summary(tokens.DISTRIBUTOR_ADMIN, `?technician=${tech.id}`)).toEqual(own);
    expect(await summary(tokens.MANAGER, `?technician=${tech.id}`)).toEqual(own);
  });

  it('answers 404 for a technician outside the scope, a missing one and a user who is not a technician type', async () => {
    for (const [token, id] of [
      [tokens.managerOfOther, tech.id],
      [tokens.DISTRIBUTOR_ADMIN, techOther.id],
      [tokens.ADMIN, 999_999],
      [tokens.ADMIN, manager.id],
    ] as const) {
      const res = await call(token, `?technician=${id}`);
      expect(res.statusCode, `${id}: ${res.body}`).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    }
  });

  it('refuses ORG_ADMIN, TECHNICIAN and CERVAICAL_REVIEWER with 403 and an anonymous caller with 401', async () => {
    for (const role of ['ORG_ADMIN', 'TECHNICIAN', 'CERVAICAL_REVIEWER'] as const) {
      expect((await call(tokens[role], `?technician=${tech.id}`)).statusCode, role).toBe(403);
    }
    expect((await call(null, `?technician=${tech.id}`)).statusCode).toBe(401);
  });

  it('answers a field error for a missing or malformed technician and a bad period', async () => {
    const cases: [string, Record<string, string[]>][] = [
      ['', { technician: ['This field is required.'] }],
      ['?technician=abc', { technician: ['A valid integer is required.'] }],
      ['?technician=0x10', { technician: ['A valid integer is required.'] }],
      ['?technician=0', { technician: ['Ensure technician is greater than or equal to 1.'] }],
      [`?technician=${tech.id}&date_time_after=2026-02-30`, { date_time_after: ['Enter a valid date in YYYY-MM-DD format.'] }],
      [
        `?technician=${tech.id}&date_time_after=2026-04-10&date_time_before=2026-04-01`,
        { date_time_before: ['End date must not be before the start date.'] },
      ],
    ];
    for (const [query, fields] of cases) {
      const res = await call(tokens.ADMIN, query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json(), query).toMatchObject(fields);
    }
    const zone = await call(tokens.ADMIN, `?technician=${tech.id}&date_time_after=2026-04-01`, 'Mars/Olympus');
    expect(zone.statusCode).toBe(400);
    expect(zone.json()).toMatchObject({ Timezone: ['Unknown time zone.'] });
  });
});
