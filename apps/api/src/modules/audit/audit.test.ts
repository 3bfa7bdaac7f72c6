// The audit screen's API (issue 27): filters, each role's scope, keyset pages both ways, bad inputs on the field, the
// CSV (itself audited), one row, the retention setting and its prune, and that nothing but the prune deletes a row.
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIT_COUNT_AHEAD,
  AUDIT_KEYSET_BOTH,
  AUDIT_PRUNED,
  AUDIT_READ,
  AUDIT_RETENTION_CHANGED,
  AUDIT_RETENTION_MESSAGE,
  AUDIT_TARGET_ID_NEEDS_TYPE,
  ZAuditPage,
  ZAuditRow,
  auditGroupOf,
  type TAuditRow,
} from '@sc/shared/audit';
import { auditLog, reportLogs } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { parseCsv } from '../../test/csv.ts';
import { auth, createOrganization, createUser, signIn, type OrganizationRow, type TestUser } from '../../test/factories.ts';
import { pruneAudit } from './audit.service.ts';

const t = await setupTestApp();
const { db } = t.database;
const API = '/api/v1/audit/';
const DAY = 86_400_000;
const NOW = new Date('2026-06-15T08:00:00Z');

let distributor: OrganizationRow;
let clinicA: OrganizationRow; // under the distributor
let clinicB: OrganizationRow; // elsewhere
const tokens: Record<string, string> = {};
let admin: TestUser;
let clerk: TestUser;
/** The ids of the seeded rows, oldest first. */
let seeded: number[] = [];
let firstSeeded = 0;

type Seed = Partial<typeof auditLog.$inferInsert> & { action: string };

async function seed(rows: Seed[]): Promise<number[]> {
  const inserted = await db
    .insert(auditLog)
    .values(rows.map((r) => ({ actionGroup: auditGroupOf(r.action), ...r })))
    .returning();
  return inserted.map((r) => r.id);
}

async function get(url: string, token = tokens.admin!, timezone?: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: { ...auth(token), ...(timezone ? { timezone } : {}) } });
  return res;
}

async function page(url: string, token = tokens.admin!) {
  const res = await get(url, token);
  expect(res.statusCode, res.body).toBe(200);
  return ZAuditPage.parse(res.json());
}

/** The ids of a page's rows that the seed wrote (other tests' rows, such as sign-ins, left out). */
const seededIds = (rows: TAuditRow[]) => rows.map((r) => r.id).filter((id) => id >= firstSeeded && seeded.includes(id));

beforeAll(async () => {
  t.clock.set(NOW);
  distributor = await createOrganization(t, { name: 'Distributor' });
  clinicA = await createOrganization(t, { name: 'Clinic A', parentId: distributor.id });
  clinicB = await createOrganization(t, { name: 'Clinic B' });
  admin = await createUser(t, { userType: 'ADMIN', firstName: 'Ada', lastName: 'Admin' });
  clerk = await createUser(t, { userType: 'ORG_ADMIN', organizationId: clinicA.id, firstName: 'Cleo', lastName: 'Clerk' });
  const users = {
    admin,
    sub: await createUser(t, { userType: 'SUB_ADMIN' }),
    dist: await createUser(t, { userType: 'DISTRIBUTOR_ADMIN', organizationId: distributor.id }),
    org: clerk,
    orgB: await createUser(t, { userType: 'ORG_ADMIN', organizationId: clinicB.id }),
    manager: await createUser(t, { userType: 'MANAGER', linkedOrganizationIds: [clinicA.id] }),
    technician: await createUser(t, { userType: 'TECHNICIAN', organizationId: clinicA.id }),
  };
  for (const [k, u] of Object.entries(users)) tokens[k] = await signIn(t, u);
  const at = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * DAY);
  seeded = await seed([
    { action: 'patient.updated', actorId: clerk.id, targetType: 'patient', targetId: '7', organizationId: clinicA.id, created: at(40), changes: [{ field: 'first_name', before: 'A', after: 'B' }], ip: '10.0.0.1' },
    { action: 'patient.read', actorId: clerk.id, targetType: 'patient', targetId: '7', organizationId: clinicA.id, created: at(30) },
    { action: 'user.created', actorId: admin.id, targetType: 'user', targetId: String(clerk.id), organizationId: clinicA.id, created: at(20) },
    { action: 'sign_in.password', actorId: users.orgB.id, outcome: 'failure', organizationId: clinicB.id, created: at(10) },
    { action: 'organization.updated', actorId: users.orgB.id, impersonatorId: admin.id, targetType: 'organization', targetId: String(clinicB.id), organizationId: clinicB.id, created: at(5) },
    { action: 'scan.deleted', actorId: admin.id, targetType: 'scan', targetId: '99', organizationId: distributor.id, created: at(2) },
    { action: 'firmware.uploaded', actorId: admin.id, targetType: 'firmware', targetId: '3', organizationId: null, created: at(1) },
  ]);
  firstSeeded = seeded[0]!;
});

describe('GET audit/', () => {
  it('lists newest first with names joined and the row in the contract shape', async () => {
    const body = await page(`${API}?limit=200`);
    const ids = seededIds(body.results);
    expect(ids).toEqual([...seeded].reverse());
    const imp = body.results.find((r) => r.action === 'organization.updated')!;
    expect(imp.actor?.name).toMatch(/^Test User/);
    expect(imp.impersonator).toEqual({ id: admin.id, name: 'Ada Admin', user_type: 'ADMIN' });
    expect(imp.organization).toEqual({ id: clinicB.id, name: 'Clinic B' });
    expect(imp.action_group).toBe('organizations');
    const upd = body.results.find((r) => r.action === 'patient.updated')!;
    expect(upd.changes).toEqual([{ field: 'first_name', before: 'A', after: 'B' }]);
    expect(upd.ip).toBe('10.0.0.1');
    expect(body.results.find((r) => r.action === 'firmware.uploaded')!.organization).toBeNull();
  });

  it('filters by group, action, actor (or impersonator), target, organization, outcome and period', async () => {
    const ids = async (q: string) => seededIds((await page(`${API}?limit=200&${q}`)).results);
    expect(await ids('group=reads')).toEqual([seeded[1]]);
    expect(await ids('group=patients')).toEqual([seeded[0]]);
    expect(await ids('action=user.created')).toEqual([seeded[2]]);
    // The admin acted (scan, firmware, user) or impersonated (organization.updated).
    expect(await ids(`actor=${admin.id}`)).toEqual([seeded[6], seeded[5], seeded[4], seeded[2]]);
    expect(await ids('target_type=patient&target_id=7')).toEqual([seeded[1], seeded[0]]);
    expect(await ids('target_type=scan')).toEqual([seeded[5]]);
    expect(await ids(`organization=${clinicB.id}`)).toEqual([seeded[4], seeded[3]]);
    expect(await ids('outcome=failure')).toEqual([seeded[3]]);
    // 2026-06-05 is 10 days before NOW (08:00 UTC = 13:30 in Kolkata): the sign-in failure, that day only.
    expect(await ids('created_after=2026-06-05')).toEqual([seeded[3]]);
    expect(await ids('created_after=2026-06-01&created_before=2026-06-13')).toEqual([seeded[5], seeded[4], seeded[3]]);
    expect(await ids('month=last_month')).toEqual([seeded[2], seeded[1], seeded[0]]);
  });

  it('reads the period in the Timezone header', async () => {
    // 2026-06-13 in UTC holds the scan's row (2 days ago, 08:00 UTC); in Honolulu (UTC-10) that row falls on the 12th
    // and the firmware's (1 day ago, 08:00 UTC = 22:00 on the 13th) on the 13th.
    const res = await get(`${API}?created_after=2026-06-13&limit=200`, tokens.admin, 'Pacific/Honolulu');
    expect(seededIds(ZAuditPage.parse(res.json()).results)).toEqual([seeded[6]]);
    const utc = await get(`${API}?created_after=2026-06-13&limit=200`, tokens.admin, 'UTC');
    expect(seededIds(ZAuditPage.parse(utc.json()).results)).toEqual([seeded[5]]);
    const bad = await get(`${API}?created_after=2026-06-13`, tokens.admin, 'Mars/Base');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ Timezone: ['Unknown time zone.'] });
  });

  it('scopes rows per role: all for ADMIN and SUB_ADMIN, the subtree for DISTRIBUTOR_ADMIN, the organization for ORG_ADMIN', async () => {
    const all = [...seeded].reverse();
    expect(seededIds((await page(`${API}?limit=200`, tokens.sub)).results)).toEqual(all);
    // Distributor: its own org's row and its clinic's rows.
    expect(seededIds((await page(`${API}?limit=200`, tokens.dist)).results)).toEqual([seeded[5], seeded[2], seeded[1], seeded[0]]);
    expect(seededIds((await page(`${API}?limit=200`, tokens.org)).results)).toEqual([seeded[2], seeded[1], seeded[0]]);
    expect(seededIds((await page(`${API}?limit=200`, tokens.orgB)).results)).toEqual([seeded[4], seeded[3]]);
    // A filter by an organization outside the scope answers 404, as every list's.
    expect((await get(`${API}?organization=${clinicB.id}`, tokens.org)).statusCode).toBe(404);
    expect((await get(`${API}?organization=${distributor.id}`, tokens.org)).statusCode).toBe(404);
    expect(seededIds((await page(`${API}?organization=${clinicA.id}&limit=200`, tokens.dist)).results)).toEqual([seeded[2], seeded[1], seeded[0]]);
  });

  it('refuses MANAGER and TECHNICIAN with 403, and anonymous callers with 401', async () => {
    for (const who of ['manager', 'technician'] as const) {
      expect((await get(API, tokens[who])).statusCode).toBe(403);
      expect((await get(`${API}${seeded[0]}/`, tokens[who])).statusCode).toBe(403);
      expect((await get(`${API}settings/`, tokens[who])).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: API })).statusCode).toBe(401);
  });

  it('pages by keyset both ways, the other filters kept in the links', async () => {
    const first = await page(`${API}?limit=2&organization=${clinicA.id}`);
    expect(first.results.map((r) => r.id)).toEqual([seeded[2], seeded[1]]);
    expect(first.previous).toBeNull();
    expect(first.count).toBe(3);
    expect(first.count_capped).toBeUndefined();
    expect(first.next).toBe(`/api/v1/audit/?limit=2&organization=${clinicA.id}&before=${seeded[1]}`);
    const second = await page(first.next!);
    expect(second.results.map((r) => r.id)).toEqual([seeded[0]]);
    expect(second.next).toBeNull();
    expect(second.previous).toBe(`/api/v1/audit/?limit=2&organization=${clinicA.id}&after=${seeded[0]}`);
    const back = await page(second.previous!);
    expect(back.results.map((r) => r.id)).toEqual([seeded[2], seeded[1]]);
    expect(back.previous).toBeNull();
    expect(back.next).toBe(`/api/v1/audit/?limit=2&organization=${clinicA.id}&before=${seeded[1]}`);
    // after= reads the rows just newer than it, not the newest.
    const mid = await page(`${API}?limit=1&organization=${clinicA.id}&after=${seeded[0]}`);
    expect(mid.results.map((r) => r.id)).toEqual([seeded[1]]);
    expect(mid.previous).toBe(`/api/v1/audit/?limit=1&organization=${clinicA.id}&after=${seeded[1]}`);
    expect(mid.next).toBe(`/api/v1/audit/?limit=1&organization=${clinicA.id}&before=${seeded[1]}`);
  });

  it('counts exactly up to AUDIT_COUNT_AHEAD past the page, then says the count is capped', async () => {
    const org = await createOrganization(t, { name: 'Busy clinic' });
    const n = AUDIT_COUNT_AHEAD + 5;
    await seed(Array.from({ length: n }, () => ({ action: 'patient.read', organizationId: org.id, created: NOW })));
    const capped = await page(`${API}?limit=3&organization=${org.id}`);
    expect(capped).toMatchObject({ count: 3 + AUDIT_COUNT_AHEAD, count_capped: true });
    const exact = await page(`${API}?limit=10&organization=${org.id}`);
    expect(exact.count).toBe(n);
    expect(exact.count_capped).toBeUndefined();
  });

  it('answers 400 on the field for bad input', async () => {
    const bad = async (q: string, field: string, message?: string) => {
      const res = await get(`${API}?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(Object.keys(res.json()), q).toContain(field);
      if (message) expect(res.json()[field], q).toEqual([message]);
    };
    await bad('target_id=7', 'target_id', AUDIT_TARGET_ID_NEEDS_TYPE);
    await bad('before=5&after=2', 'after', AUDIT_KEYSET_BOTH);
    await bad('before=0', 'before');
    await bad('after=x', 'after');
    await bad('limit=201', 'limit');
    await bad('group=nope', 'group');
    await bad('target_type=nope', 'target_type');
    await bad('outcome=maybe', 'outcome');
    await bad('action=DROP%20TABLE', 'action');
    await bad('actor=2147483648', 'actor');
    await bad('created_after=2026-02-30', 'created_after');
    await bad('created_after=2026-03-02&created_before=2026-03-01', 'created_before');
  });
});

describe('GET audit/{id}/', () => {
  it('answers one row in scope, 404 outside it or missing', async () => {
    const res = await get(`${API}${seeded[0]}/`, tokens.org);
    expect(res.statusCode).toBe(200);
    expect(ZAuditRow.parse(res.json())).toMatchObject({ id: seeded[0], action: 'patient.updated' });
    expect((await get(`${API}${seeded[3]}/`, tokens.org)).statusCode).toBe(404);
    expect((await get(`${API}${seeded[6]}/`, tokens.dist)).statusCode).toBe(404);
    expect((await get(`${API}${seeded[6]}/`, tokens.sub)).statusCode).toBe(200);
    expect((await get(`${API}2147483647/`)).statusCode).toBe(404);
    expect((await get(`${API}abc/`)).statusCode).toBe(404);
  });
});

describe('GET audit/?format=csv', () => {
  it('streams the selected rows with the header, report-logs and audits the export with its filters and count', async () => {
    const res = await get(`${API}?format=csv&organization=${clinicA.id}&limit=1`, tokens.org, 'UTC');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const [header, ...records] = parseCsv(res.body);
    expect(header).toEqual(['id', 'when (UTC)', 'action', 'group', 'actor_id', 'actor', 'impersonator', 'target_type', 'target_id', 'organization', 'outcome', 'address', 'changed_fields']);
    // Every selected row, not one page.
    expect(records.map((r) => Number(r[0]))).toEqual([seeded[2], seeded[1], seeded[0]]);
    expect(records[2]).toEqual([String(seeded[0]), '2026-05-06 08:00', 'patient.updated', 'patients', String(clerk.id), 'Cleo Clerk', '', 'patient', '7', 'Clinic A', 'success', '10.0.0.1', 'first_name']);
    const [exported] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, AUDIT_READ.csv), eq(auditLog.actorId, clerk.id)));
    expect(exported).toMatchObject({ actionGroup: 'reads', organizationId: clinicA.id });
    expect(exported!.details).toMatchObject({ report: '/api/v1/audit/', rows: 3, filters: { organization: String(clinicA.id) } });
    const logs = await db.select().from(reportLogs).where(eq(reportLogs.userId, clerk.id));
    expect(logs.map((l) => l.api)).toEqual(['/api/v1/audit/']);
  });
});

describe('audit/settings/', () => {
  it('reads and writes the retention (ADMIN only), with an audit row of its change', async () => {
    expect((await get(`${API}settings/`)).json()).toEqual({ retention_days: null });
    const put = (body: unknown, token = tokens.admin!) =>
      t.app.inject({ method: 'PUT', url: `${API}settings/`, headers: auth(token), payload: body as object });
    expect((await put({ retention_days: 400 }, tokens.sub)).statusCode).toBe(403);
    for (const bad of [{ retention_days: 30 }, { retention_days: 1.5 }, { retention_days: '400' }, { retention_days: 99_999 }]) {
      const res = await put(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json()).toEqual({ retention_days: [AUDIT_RETENTION_MESSAGE] });
    }
    const ok = await put({ retention_days: 400 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ retention_days: 400 });
    expect((await get(`${API}settings/`)).json()).toEqual({ retention_days: 400 });
    const [row] = await db.select().from(auditLog).where(eq(auditLog.action, AUDIT_RETENTION_CHANGED));
    expect(row).toMatchObject({ actorId: admin.id, actionGroup: 'settings', changes: [{ field: 'retention_days', before: null, after: 400 }] });
    expect((await put({ retention_days: null })).json()).toEqual({ retention_days: null });
  });
});

describe('the prune', () => {
  it('keeps everything without a retention, deletes older rows in batches with one audit.pruned row when set', async () => {
    const org = await createOrganization(t, { name: 'Old clinic' });
    const old = await seed(Array.from({ length: 7 }, (_, i) => ({ action: 'patient.read', organizationId: org.id, created: new Date(NOW.getTime() - (800 + i) * DAY) })));
    const young = await seed([{ action: 'patient.read', organizationId: org.id, created: new Date(NOW.getTime() - 300 * DAY) }]);
    expect(await pruneAudit(t.app.ctx)).toBe(0);
    await t.app.inject({ method: 'PUT', url: `${API}settings/`, headers: auth(tokens.admin!), payload: { retention_days: 365 } });
    expect(await pruneAudit(t.app.ctx, 3)).toBeGreaterThanOrEqual(7);
    const left = await db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.organizationId, org.id));
    expect(left.map((r) => r.id)).toEqual(young);
    const pruned = await db.select().from(auditLog).where(eq(auditLog.action, AUDIT_PRUNED));
    expect(pruned).toHaveLength(1);
    expect(pruned[0]!.details).toMatchObject({ before: new Date(NOW.getTime() - 365 * DAY).toISOString(), retention_days: 365 });
    expect(Number(pruned[0]!.details.rows)).toBeGreaterThanOrEqual(old.length);
    // Nothing left to prune: no second row.
    expect(await pruneAudit(t.app.ctx)).toBe(0);
    expect(await db.select().from(auditLog).where(eq(auditLog.action, AUDIT_PRUNED))).toHaveLength(1);
    await t.app.inject({ method: 'PUT', url: `${API}settings/`, headers: auth(tokens.admin!), payload: { retention_days: null } });
  });
});

describe('append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of audit_log outside the prune', async () => {
    const [id] = await seed([{ action: 'patient.read', created: NOW }]);
    await expect(t.database.query('UPDATE audit_log SET action = $1 WHERE id = $2', ['x.y', id])).rejects.toThrow(/append-only/);
    await expect(t.database.query('DELETE FROM audit_log WHERE id = $1', [id])).rejects.toThrow(/append-only/);
    await expect(t.database.exec('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    // The prune's setting holds for its own transaction only.
    await expect(
      t.database.exec(`BEGIN; SELECT set_config('sc.audit_prune', 'on', true); COMMIT; DELETE FROM audit_log WHERE id = ${id};`),
    ).rejects.toThrow(/append-only/);
    const kept = await db.select({ id: auditLog.id }).from(auditLog).where(inArray(auditLog.id, [id!]));
    expect(kept).toHaveLength(1);
  });

  it('has no route that updates or deletes a row: only GETs under audit/ and the settings PUT', () => {
    const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> };
    const writes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/v1/audit/'))
      .flatMap(([path, ops]) => Object.keys(ops).filter((m) => m !== 'get').map((m) => `${m.toUpperCase()} ${path}`));
    expect(writes).toEqual(['PUT /api/v1/audit/settings/']);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/v1/audit/')).sort()).toEqual([
      '/api/v1/audit/',
      '/api/v1/audit/settings/',
      '/api/v1/audit/{id}/',
    ]);
  });
});
