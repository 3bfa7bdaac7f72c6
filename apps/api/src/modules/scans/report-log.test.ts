// GET scan/report-log/ (part 3 "Report log page", §3, §7): ADMIN only; search by the user's name and mobile and by a
// serial number in the download's query; the period filters day=yesterday, date_time_after/before and month on the
// download time in the caller's zone; the list envelope; bad input answered with field errors.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TPaginated } from '@sc/shared/list';
import type { TReportLogRow } from '@sc/shared/scans';
import { reportLogs } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, type TestUser } from '../../test/factories.ts';

const t = await setupTestApp();
const { db } = t.database;
// Sunday 15 March 2026, 17:30 in Kolkata.
t.clock.set(new Date('2026-03-15T12:00:00Z'));

let admin: TestUser;
let orgAdmin: TestUser;
const tokens = {} as Record<'admin' | 'subAdmin' | 'orgAdmin', string>;
const ids = {} as Record<'today' | 'yesterday' | 'lastMonth' | 'edge' | 'old', number>;

beforeAll(async () => {
  const clinic = await createOrganization(t, { name: 'Log Clinic' });
  admin = await createUser(t, { userType: 'ADMIN', firstName: 'Radha', lastName: 'Logreader', mobile: '9876512345' });
  orgAdmin = await createUser(t, { userType: 'ORG_ADMIN', organizationId: clinic.id, firstName: 'Omar', lastName: 'Clinic' });
  const row = (at: string, userId: number, userType: string, api: string, apiQp: Record<string, unknown>) => ({
    api,
    apiQp,
    userAgent: 'Mozilla/5.0 test',
    requestedMethod: 'GET',
    userId,
    userType,
    created: new Date(at),
  });
  const inserted = await db
    .insert(reportLogs)
    .values([
      row('2026-03-15T06:00:00Z', admin.id, 'ADMIN', '/api/v1/scan/', { format: 'csv', device: 'IBE-SER-7781' }),
      row('2026-03-14T06:00:00Z', orgAdmin.id, 'ORG_ADMIN', '/api/v1/device/', { format: 'csv', search: 'north' }),
      row('2026-02-10T06:00:00Z', admin.id, 'ADMIN', '/api/v1/organization/leaderboard/', { format: 'csv' }),
      // 1 March 01:30 in Kolkata, still February in UTC.
      row('2026-02-28T20:00:00Z', orgAdmin.id, 'ORG_ADMIN', '/api/v1/user/training/report/pdf/3/', {}),
      row('2025-11-01T06:00:00Z', admin.id, 'ADMIN', '/api/v1/scan/', { format: 'csv', limit: '10' }),
    ])
    .returning();
  [ids.today, ids.yesterday, ids.lastMonth, ids.edge, ids.old] = inserted.map((r) => r.id) as [
    number,
    number,
    number,
    number,
    number,
  ];
  tokens.admin = await signIn(t, admin);
  tokens.orgAdmin = await signIn(t, orgAdmin);
  tokens.subAdmin = await signIn(t, await createUser(t, { userType: 'SUB_ADMIN' }));
});

const call = (token: string | null, query = '', timezone?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/scan/report-log/${query}`,
    headers: { ...(token ? auth(token) : {}), ...(timezone ? { timezone } : {}) },
  });

async function idsOf(query: string, timezone?: string): Promise<number[]> {
  const res = await call(tokens.admin, query, timezone);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<TPaginated<TReportLogRow>>();
  expect(body.count, query).toBe(body.results.length);
  return body.results.map((r) => r.id);
}

describe('GET scan/report-log/', () => {
  it('lists every download newest first with the columns of the page', async () => {
    const res = await call(tokens.admin, '?limit=2');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<TPaginated<TReportLogRow>>();
    expect(body.count).toBe(5);
    expect(body.next).toContain('page=2');
    expect(body.results[0]).toEqual({
      id: ids.today,
      api: '/api/v1/scan/',
      api_qp: { format: 'csv', device: 'IBE-SER-7781' },
      requested_method: 'GET',
      user_agent: 'Mozilla/5.0 test',
      user: admin.id,
      user_data: { id: admin.id, first_name: 'Radha', last_name: 'Logreader', username: admin.username },
      user_type: 'ADMIN',
      created: '2026-03-15T06:00:00.000Z',
    });
    expect(await idsOf('?ordering=created')).toEqual([ids.old, ids.lastMonth, ids.edge, ids.yesterday, ids.today]);
  });

  it("searches the user's name and mobile and the serial number in a download's query, not parameter names", async () => {
    expect(await idsOf('?search=logreader')).toEqual([ids.today, ids.lastMonth, ids.old]);
    expect(await idsOf('?search=98765123')).toEqual([ids.today, ids.lastMonth, ids.old]);
    expect(await idsOf('?search=ser-7781')).toEqual([ids.today]);
    expect(await idsOf('?search=north')).toEqual([ids.yesterday]);
    expect(await idsOf('?search=training')).toEqual([ids.edge]);
    // 'limit' is a parameter's name in one row's query: not a match.
    expect(await idsOf('?search=limit')).toEqual([]);
    expect(await idsOf('?search=%25')).toEqual([]);
  });

  it("filters yesterday, a date range and this or last month on the download time in the caller's zone", async () => {
    expect(await idsOf('?day=yesterday')).toEqual([ids.yesterday]);
    expect(await idsOf('?date_time_after=2026-03-14&date_time_before=2026-03-15')).toEqual([ids.today, ids.yesterday]);
    expect(await idsOf('?date_time_after=2026-03-14')).toEqual([ids.yesterday]);
    // Kolkata: the edge row is 1 March, this month; in UTC it is 28 February, last month.
    expect(await idsOf('?month=this_month')).toEqual([ids.today, ids.yesterday, ids.edge]);
    expect(await idsOf('?month=last_month')).toEqual([ids.lastMonth]);
    expect(await idsOf('?month=this_month', 'UTC')).toEqual([ids.today, ids.yesterday]);
    expect(await idsOf('?month=last_month', 'UTC')).toEqual([ids.edge, ids.lastMonth]);
    expect(await idsOf('?month=this_month&search=clinic')).toEqual([ids.yesterday, ids.edge]);
  });

  it('is for ADMIN only: 403 for SUB_ADMIN and ORG_ADMIN, 401 without a token', async () => {
    expect((await call(tokens.subAdmin)).statusCode).toBe(403);
    expect((await call(tokens.orgAdmin)).statusCode).toBe(403);
    expect((await call(null)).statusCode).toBe(401);
  });

  it('answers a field error for a bad period, ordering or page', async () => {
    const cases: [string, string][] = [
      ['?day=tomorrow', 'day'],
      ['?month=next_month', 'month'],
      ['?date_time_after=2026-13-01', 'date_time_after'],
      ['?date_time_after=2026-03-10&date_time_before=2026-03-01', 'date_time_before'],
      ['?ordering=password', 'ordering'],
      ['?limit=0x10', 'limit'],
    ];
    for (const [query, field] of cases) {
      const res = await call(tokens.admin, query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json(), query).toHaveProperty(field);
    }
    expect((await call(tokens.admin, '?page=9')).statusCode).toBe(404);
  });
});
