// The period reports through HTTP on a known fixture: each technician and organization row of a quarter, a month, a
// half and a year compared with the previous one, the quarter and year boundaries in the caller's time zone
// (Asia/Kolkata's 1 January starts at 18:30 UTC on 31 December), an empty period, each role's scope and the
// organization filter, the CSV file (columns, percent signs, names, file name), the report log and bad input.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TPaginated } from '@sc/shared/list';
import {
  REPORT_MESSAGES,
  reportQueryFor,
  type TOrganizationReportRow,
  type TReportPeriod,
  type TTechnicianReportRow,
} from '@sc/shared/reports';
import type { TUserType } from '@sc/shared/roles';
import { reportLogs, scans } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, type OrganizationRow, type TestUser } from '../../test/factories.ts';

const t = await setupTestApp();
const db = t.database.db;
t.clock.set(new Date('2026-04-15T06:00:00Z'));

const TECH = '/api/v1/organization/report-generate/';
const ORG = '/api/v1/organization/leaderboard/report-generate/';

let distributor: OrganizationRow;
let clinic: OrganizationRow;
let kenya: OrganizationRow;
let t1: TestUser;
let t2: TestUser;
let t3: TestUser;
let worker: TestUser;
const tokens = {} as Record<
  'admin' | 'subAdmin' | 'distributor' | 'orgAdmin' | 'manager' | 'technician' | 'reviewer',
  string
>;

async function tokenFor(userType: TUserType, organizationId: number | null, linkedOrganizationIds?: number[]) {
  return signIn(t, await createUser(t, { userType, organizationId, password: null, linkedOrganizationIds }));
}

beforeAll(async () => {
  distributor = await createOrganization(t, { name: 'Delta Distribution', canCreateOrganization: true });
  clinic = await createOrganization(t, { name: 'Clinic Under Delta', parentId: distributor.id });
  kenya = await createOrganization(t, { name: 'Kisumu Care,\nWest', country: 'Kenya', countryCode: 'KE' });
  const tech = (organizationId: number, firstName: string, lastName: string, userType: TUserType = 'TECHNICIAN') =>
    createUser(t, { userType, organizationId, firstName, lastName, password: null });
  t1 = await tech(clinic.id, 'Asha', 'One');
  t2 = await tech(distributor.id, 'Bina', 'Two');
  t3 = await tech(kenya.id, 'Chao', 'Three');
  worker = await tech(clinic.id, 'Dev', 'Four', 'ORG_ADMIN');

  const scan = (id: string, org: OrganizationRow, who: TestUser, at: string, positive = false, type: 'SCAN' | 'TRAINING' = 'SCAN') => ({
    localDbId: `rep-${id}`,
    organizationId: org.id,
    technicianId: who.id,
    dateTime: new Date(at),
    created: new Date(at),
    scanType: type,
    leftBreastFinding: positive && id.charCodeAt(0) % 2 ? ['Lump'] : [],
    rightBreastFinding: positive && id.charCodeAt(0) % 2 === 0 ? ['Lump'] : [],
  });
  await db.insert(scans).values([
    // 1 April 01:30 in Kolkata (Q2), 31 March in UTC (Q1).
    scan('a', clinic, t1, '2026-03-31T20:00:00Z'),
    // 31 March 22:30 in Kolkata.
    scan('b', clinic, t1, '2026-03-31T17:00:00Z', true),
    scan('c', clinic, t1, '2026-01-01T18:00:00Z'),
    // 1 January 2026 00:30 in Kolkata (Q1 2026), 31 December 2025 in UTC (Q4 2025).
    scan('d', clinic, t1, '2025-12-31T19:00:00Z'),
    scan('e', distributor, t2, '2025-11-10T10:00:00Z', true),
    scan('f', distributor, t2, '2026-02-10T10:00:00Z', true),
    scan('g', kenya, t3, '2026-02-15T10:00:00Z'),
    scan('h', kenya, t3, '2025-10-01T05:00:00Z', true),
    scan('i', clinic, worker, '2026-03-15T10:00:00Z', true),
    // Training scans are not statistics.
    scan('j', clinic, t1, '2026-03-10T10:00:00Z', true, 'TRAINING'),
    // 1 October 2025 00:30 in Kolkata (Q4), 30 September in UTC (Q3).
    scan('k', kenya, t3, '2025-09-30T19:00:00Z'),
    scan('l', kenya, t3, '2024-06-01T10:00:00Z'),
  ]);

  tokens.admin = await tokenFor('ADMIN', null);
  tokens.subAdmin = await tokenFor('SUB_ADMIN', null);
  tokens.distributor = await tokenFor('DISTRIBUTOR_ADMIN', distributor.id);
  tokens.orgAdmin = await tokenFor('ORG_ADMIN', clinic.id);
  tokens.manager = await tokenFor('MANAGER', null, [distributor.id]);
  tokens.technician = await tokenFor('TECHNICIAN', clinic.id);
  tokens.reviewer = await tokenFor('CERVAICAL_REVIEWER', null);
});

const Q1_2026: TReportPeriod = { year: 2026, type: 'QUARTERLY', index: 0 };
const qs = (q: Record<string, string | number>) => `?${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)]))}`;
const queryOf = (period: TReportPeriod, extra: Record<string, string | number> = {}) => {
  const { report_log: _log, ...base } = reportQueryFor(period);
  return qs({ ...base, ...extra });
};

async function call(token: string | undefined, url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers: { ...(token ? auth(token) : {}), ...headers } });
}
async function get<T>(token: string, url: string, timezone?: string): Promise<TPaginated<T>> {
  const res = await call(token, url, timezone ? { timezone } : {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TPaginated<T>>();
}
const techRows = async (token: string, query: string, timezone?: string) =>
  (await get<TTechnicianReportRow>(token, `${TECH}${query}`, timezone)).results;
const orgRows = async (token: string, query: string, timezone?: string) =>
  (await get<TOrganizationReportRow>(token, `${ORG}${query}`, timezone)).results;

/** [id, scans 1, positives 1, rate 1, scans 2, positives 2, rate 2, scan diff, rate diff] */
const figures = (r: TTechnicianReportRow | TOrganizationReportRow) => [
  r.id,
  r.scans_count_1,
  r.positivity_1,
  r.dynamic_positivity_percentage_1,
  r.scans_count_2,
  r.positivity_2,
  r.dynamic_positivity_percentage_2,
  r.no_of_scan_diff,
  r.positivity_percentage_diff,
];

describe('organization/report-generate/ (technicians)', () => {
  it("compares Q1 2026 with Q4 2025 in Kolkata: a scan at 00:30 on 1 January belongs to the new year", async () => {
    const rows = await techRows(tokens.admin, queryOf(Q1_2026));
    expect(rows.map(figures)).toEqual([
      [t1.id, 0, 0, 0, 3, 1, 33.3, 3, 33.3],
      [t3.id, 2, 1, 50, 1, 0, 0, -1, -50],
      [t2.id, 1, 1, 100, 1, 1, 100, 0, 0],
      [worker.id, 0, 0, 0, 1, 1, 100, 1, 100],
    ]);
    expect(rows[0]).toMatchObject({ first_name: 'Asha', last_name: 'One', user_type: 'TECHNICIAN' });
    expect(rows[3]).toMatchObject({ first_name: 'Dev', user_type: 'ORG_ADMIN' });
  });

  it('reads the same dates in UTC when the caller says so', async () => {
    const rows = await techRows(tokens.admin, queryOf(Q1_2026), 'UTC');
    expect(rows.map(figures)).toEqual([
      [t1.id, 1, 0, 0, 3, 1, 33.3, 2, 33.3],
      [t2.id, 1, 1, 100, 1, 1, 100, 0, 0],
      [t3.id, 1, 1, 100, 1, 0, 0, 0, -100],
      [worker.id, 0, 0, 0, 1, 1, 100, 1, 100],
    ]);
  });

  it('gives a DISTRIBUTOR_ADMIN and a MANAGER their tree, an ORG_ADMIN its own organization', async () => {
    const ids = async (token: string) => (await techRows(token, queryOf(Q1_2026))).map((r) => r.id);
    expect(await ids(tokens.distributor)).toEqual([t1.id, t2.id, worker.id]);
    expect(await ids(tokens.manager)).toEqual([t1.id, t2.id, worker.id]);
    expect(await ids(tokens.orgAdmin)).toEqual([t1.id, worker.id]);
    expect(await ids(tokens.subAdmin)).toEqual([t1.id, t3.id, t2.id, worker.id]);
  });

  it('pages the rows with count, next and previous', async () => {
    const page1 = await get<TTechnicianReportRow>(tokens.admin, `${TECH}${queryOf(Q1_2026, { limit: 3 })}`);
    expect(page1.count).toBe(4);
    expect(page1.results).toHaveLength(3);
    expect(page1.next).toContain('page=2');
    const page2 = await get<TTechnicianReportRow>(tokens.admin, `${TECH}${queryOf(Q1_2026, { limit: 3, page: 2 })}`);
    expect(page2.results.map((r) => r.id)).toEqual([worker.id]);
    expect((await call(tokens.admin, `${TECH}${queryOf(Q1_2026, { limit: 3, page: 3 })}`)).statusCode).toBe(404);
  });
});

describe('organization/leaderboard/report-generate/ (organizations)', () => {
  it('compares Q1 2026 with Q4 2025 per organization', async () => {
    const rows = await orgRows(tokens.admin, queryOf(Q1_2026));
    expect(rows.map(figures)).toEqual([
      [clinic.id, 0, 0, 0, 4, 2, 50, 4, 50],
      [kenya.id, 2, 1, 50, 1, 0, 0, -1, -50],
      [distributor.id, 1, 1, 100, 1, 1, 100, 0, 0],
    ]);
    expect(rows[1]!.name).toBe('Kisumu Care,\nWest');
  });

  it('compares March with February (month boundary in Kolkata)', async () => {
    const rows = await orgRows(tokens.admin, queryOf({ year: 2026, type: 'MONTHLY', index: 2 }));
    expect(rows.map(figures)).toEqual([
      [clinic.id, 0, 0, 0, 2, 2, 100, 2, 100],
      [distributor.id, 1, 1, 100, 0, 0, 0, -1, -100],
      [kenya.id, 1, 0, 0, 0, 0, 0, -1, 0],
    ]);
  });

  it('compares 2025 with 2024, and a half with the one before across the year boundary', async () => {
    expect((await orgRows(tokens.admin, queryOf({ year: 2025, type: 'ANNUALLY', index: 0 }))).map(figures)).toEqual([
      [kenya.id, 1, 0, 0, 2, 1, 50, 1, 50],
      [distributor.id, 0, 0, 0, 1, 1, 100, 1, 100],
    ]);
    // H2 2024 has no scans, but H1 2024 has: the row shows the drop.
    expect((await orgRows(tokens.admin, queryOf({ year: 2024, type: 'HALF_YEARLY', index: 1 }))).map(figures)).toEqual([
      [kenya.id, 1, 0, 0, 0, 0, 0, -1, 0],
    ]);
    // H1 2026 against H2 2025: 2026-01-01 00:30 Kolkata is in H1.
    const h1 = await orgRows(tokens.admin, queryOf({ year: 2026, type: 'HALF_YEARLY', index: 0 }));
    expect(h1.map(figures)).toEqual([
      [clinic.id, 0, 0, 0, 5, 2, 40, 5, 40],
      [kenya.id, 2, 1, 50, 1, 0, 0, -1, -50],
      [distributor.id, 1, 1, 100, 1, 1, 100, 0, 0],
    ]);
  });

  it("answers 404 'No scans found' when neither period has a scan, and writes no report log", async () => {
    const before = await db.$count(reportLogs);
    for (const url of [ORG, TECH]) {
      const res = await call(tokens.admin, `${url}${queryOf({ year: 2019, type: 'ANNUALLY', index: 0 }, { report_log: 'true' })}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: REPORT_MESSAGES.noScans });
    }
    expect(await db.$count(reportLogs)).toBe(before);
  });

  it('narrows to an organization and its sub-organizations, within the caller’s scope only', async () => {
    const ids = async (token: string, orgId: number) =>
      (await orgRows(token, queryOf(Q1_2026, { organization_id: orgId }))).map((r) => r.id);
    expect(await ids(tokens.admin, distributor.id)).toEqual([clinic.id, distributor.id]);
    expect(await ids(tokens.admin, clinic.id)).toEqual([clinic.id]);
    expect(await ids(tokens.manager, clinic.id)).toEqual([clinic.id]);
    expect(await ids(tokens.orgAdmin, clinic.id)).toEqual([clinic.id]);
    // Outside the scope: the same 404 as a missing organization.
    for (const [token, orgId] of [
      [tokens.distributor, kenya.id],
      [tokens.orgAdmin, distributor.id],
      [tokens.admin, 999_999],
    ] as const) {
      const res = await call(token, `${ORG}${queryOf(Q1_2026, { organization_id: orgId })}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    }
  });

  it('gives a DISTRIBUTOR_ADMIN its tree and an ORG_ADMIN its own organization', async () => {
    expect((await orgRows(tokens.distributor, queryOf(Q1_2026))).map((r) => r.id)).toEqual([clinic.id, distributor.id]);
    expect((await orgRows(tokens.orgAdmin, queryOf(Q1_2026))).map((r) => r.id)).toEqual([clinic.id]);
  });
});

describe('roles', () => {
  it('refuses TECHNICIAN and CERVAICAL_REVIEWER (403) and anonymous callers (401)', async () => {
    for (const url of [TECH, ORG]) {
      for (const token of [tokens.technician, tokens.reviewer]) {
        expect((await call(token, `${url}${queryOf(Q1_2026)}`)).statusCode).toBe(403);
      }
      expect((await call(undefined, `${url}${queryOf(Q1_2026)}`)).statusCode).toBe(401);
    }
  });
});

describe('format=csv', () => {
  it('streams the technician report with both periods, percent signs and the user type in brackets', async () => {
    const res = await call(tokens.admin, `${TECH}${queryOf(Q1_2026, { format: 'csv' })}`, { 'user-agent': 'report-test' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="Quarterly_technician_report_(1 Jan - 31 Mar - 2026).csv"',
    );
    expect(res.body.trim().split('\n')).toEqual([
      'ID,Name,Number of scans (1 Oct - 31 Dec - 2025),Positive scans (1 Oct - 31 Dec - 2025),Positivity rate (1 Oct - 31 Dec - 2025),' +
        'Number of scans (1 Jan - 31 Mar - 2026),Positive scans (1 Jan - 31 Mar - 2026),Positivity rate (1 Jan - 31 Mar - 2026),' +
        'Scan differ count,Positivity differ percentage %',
      `${t1.id},Asha One,0,0,0.0%,3,1,33.3%,3,33.3`,
      `${t3.id},Chao Three,2,1,50.0%,1,0,0.0%,-1,-50.0`,
      `${t2.id},Bina Two,1,1,100.0%,1,1,100.0%,0,0.0`,
      `${worker.id},Dev Four (ORG_ADMIN),0,0,0.0%,1,1,100.0%,1,100.0`,
    ]);
    const [log] = await db.select().from(reportLogs).where(eq(reportLogs.userAgent, 'report-test'));
    expect(log).toMatchObject({ api: TECH, requestedMethod: 'GET', userType: 'ADMIN' });
    expect(log!.apiQp).toMatchObject({ format: 'csv', report_start_date_2: '2026-01-01 00:00:00' });
  });

  it('names the organization report after the filter and cleans organization names', async () => {
    const res = await call(tokens.admin, `${ORG}${queryOf({ year: 2026, type: 'MONTHLY', index: 1 }, { format: 'csv' })}`);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="Monthly_organization_report_(1 - 28 Feb - 2026).csv"',
    );
    expect(res.body).toContain(`${kenya.id},Kisumu Care  West,0,0,0.0%,1,0,0.0%,1,0.0`);

    const filtered = await call(
      tokens.manager,
      `${ORG}${queryOf(Q1_2026, { format: 'csv', organization_id: distributor.id })}`,
    );
    expect(filtered.statusCode).toBe(200);
    expect(filtered.headers['content-disposition']).toBe(
      'attachment; filename="Delta Distribution_Quarterly_organization_report_(1 Jan - 31 Mar - 2026).csv"',
    );
    expect(filtered.body.trim().split('\n').slice(1)).toEqual([
      `${clinic.id},Clinic Under Delta,0,0,0.0%,4,2,50.0%,4,50.0`,
      `${distributor.id},Delta Distribution,1,1,100.0%,1,1,100.0%,0,0.0`,
    ]);
  });

  it('names a report of an organization whose name is not ASCII in UTF-8, with an ASCII fallback', async () => {
    // A period no other test reads (Q3 2022), so the new organization's scan changes no other report.
    const sao = await createOrganization(t, { name: 'Clínica São Paulo' });
    const who = await createUser(t, { userType: 'TECHNICIAN', organizationId: sao.id, password: null });
    await db.insert(scans).values({
      localDbId: 'rep-sao',
      organizationId: sao.id,
      technicianId: who.id,
      dateTime: new Date('2022-08-10T10:00:00Z'),
      created: new Date('2022-08-10T10:00:00Z'),
      scanType: 'SCAN',
    });
    const res = await call(
      tokens.admin,
      `${ORG}${queryOf({ year: 2022, type: 'QUARTERLY', index: 2 }, { format: 'csv', organization_id: sao.id })}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="Clinica Sao Paulo_Quarterly_organization_report_(1 Jul - 30 Sep - 2022).csv"; ' +
        "filename*=UTF-8''Cl%C3%ADnica%20S%C3%A3o%20Paulo_Quarterly_organization_report_%281%20Jul%20-%2030%20Sep%20-%202022%29.csv",
    );
  });

  it('answers an empty report with the 404 the console shows, not an empty file', async () => {
    const res = await call(tokens.admin, `${ORG}${queryOf({ year: 2018, type: 'MONTHLY', index: 5 }, { format: 'csv' })}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'No scans found' });
  });
});

describe('report log of JSON pages', () => {
  it('writes one row for the first page of a download with report_log=true, none for later pages or without it', async () => {
    const count = () => db.$count(reportLogs, eq(reportLogs.userAgent, 'json-pages'));
    const ua = { 'user-agent': 'json-pages' };
    await call(tokens.admin, `${TECH}${queryOf(Q1_2026, { limit: 2, report_log: 'true' })}`, ua);
    await call(tokens.admin, `${TECH}${queryOf(Q1_2026, { limit: 2, page: 2, report_log: 'true' })}`, ua);
    await call(tokens.admin, `${TECH}${queryOf(Q1_2026)}`, ua);
    expect(await count()).toBe(1);
  });
});

describe('bad input', () => {
  const good = reportQueryFor(Q1_2026);
  const cases: [Record<string, string | number | undefined>, string, string][] = [
    [{ report_start_date_1: undefined }, 'report_start_date_1', REPORT_MESSAGES.dateFormat],
    [{ report_end_date_2: '2026-02-30 23:59:59' }, 'report_end_date_2', REPORT_MESSAGES.dateFormat],
    [{ report_start_date_2: '2026-01-01 24:00:00' }, 'report_start_date_2', REPORT_MESSAGES.dateFormat],
    [{ report_start_date_1: 'yesterday' }, 'report_start_date_1', REPORT_MESSAGES.dateFormat],
    [{ report_end_date_2: '2025-12-31 23:59:59' }, 'report_end_date_2', REPORT_MESSAGES.endBeforeStart],
    [{ organization_id: 'abc' }, 'organization_id', 'A valid integer is required.'],
    [{ limit: 0 }, 'limit', 'Ensure limit is greater than or equal to 1.'],
    [{ format: 'xml' }, 'format', 'Select a valid choice: json, csv.'],
  ];
  it.each(cases)('answers 400 for %o on the field', async (change, field, message) => {
    const q: Record<string, string | number> = {};
    for (const [k, v] of Object.entries({ ...good, ...change })) if (v !== undefined) q[k] = v;
    for (const url of [TECH, ORG]) {
      const res = await call(tokens.admin, `${url}${qs(q)}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()[field]).toEqual([message]);
    }
  });

  it('answers 400, never 500, for repeated, malformed and hostile parameters', async () => {
    const base = queryOf(Q1_2026).slice(1);
    for (const extra of [
      'report_start_date_1=2026-01-01',
      'organization_id=1&organization_id=2',
      'page=0x2',
      'limit=1e1',
      'limit=2000',
      'using_read_db=true&using_read_db=true',
      'report_log=maybe',
      'organization_id=99999999999',
    ]) {
      for (const url of [TECH, ORG]) {
        const res = await call(tokens.admin, `${url}?${base}&${extra}`);
        expect(res.statusCode, `${extra}: ${res.body}`).toBe(400);
      }
    }
    const nul = await call(tokens.admin, `${TECH}?${base.replace('report_end_date_2=2026-03-31', 'report_end_date_2=2026-03-31%00')}`);
    expect(nul.statusCode).toBe(400);
  });

  it('answers 400 for an unknown time zone, and writes nothing to the report log', async () => {
    const before = await db.$count(reportLogs);
    const res = await call(tokens.admin, `${ORG}${queryOf(Q1_2026, { format: 'csv' })}`, { timezone: 'Mars/Base' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ Timezone: ['Unknown time zone.'] });
    expect(await db.$count(reportLogs)).toBe(before);
  });
});
