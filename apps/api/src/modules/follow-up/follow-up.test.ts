import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  FOLLOW_UP_AUDIT,
  FOLLOW_UP_CSV_HEADER,
  FOLLOW_UP_MESSAGES,
  type TFollowUpAssignee,
  type TFollowUpCase,
  type TFollowUpRow,
} from '@sc/shared/follow-up';
import type { TPaginated } from '@sc/shared/list';
import type { TUserType } from '@sc/shared/roles';
import { auditLog, followUpEntries, reportLogs } from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import { createCase, createScan, userToken } from './follow-up.fixtures.ts';

const t = await setupTestApp();
const URL = '/api/v1/follow-up/';
const NOW = new Date('2026-11-20T12:00:00Z');
t.clock.set(NOW);

const get = (token: string, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...auth(token), ...headers } });
const list = async (token: string, query = '') => {
  const res = await get(token, `${URL}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TPaginated<TFollowUpRow>>();
};
const ids = (page: TPaginated<TFollowUpRow>) => page.results.map((r) => r.id).sort((a, b) => a - b);
const days = (n: number) => n * 86_400_000;

// A tree: distributor → clinic A, clinic B; and an unrelated clinic C.
const distributor = await createOrganization(t, { name: 'Distributor' });
const clinicA = await createOrganization(t, { name: 'Clinic A', parentId: distributor.id });
const clinicB = await createOrganization(t, { name: 'Clinic B', parentId: distributor.id });
const clinicC = await createOrganization(t, { name: 'Clinic C' });
const caseA = await createCase(t, clinicA.id, { openedAt: new Date(NOW.getTime() - days(20)), patient: { firstName: 'Asha' } });
const caseB = await createCase(t, clinicB.id, { openedAt: new Date(NOW.getTime() - days(2)), modalities: ['CERVICAL'] });
const caseC = await createCase(t, clinicC.id, { openedAt: new Date(NOW.getTime() - days(1)), modalities: ['ORAL'] });
const all = [caseA.id, caseB.id, caseC.id].sort((a, b) => a - b);

describe('follow-up/ roles and scope', () => {
  it('answers 401 without a token, 403 with the area message for CERVAICAL_REVIEWER and TECHNICIAN', async () => {
    expect((await t.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
    const res401 = await t.app.inject({ method: 'POST', url: `${URL}${caseA.id}/actions/`, payload: { kind: 'NOTE' } });
    expect(res401.json()).toEqual({ detail: AUTH_ERRORS.notProvided });
    for (const role of ['CERVAICAL_REVIEWER', 'TECHNICIAN'] as TUserType[]) {
      const { token } = await userToken(t, role, { organizationId: clinicA.id });
      for (const res of [
        await get(token, URL),
        await get(token, `${URL}${caseA.id}/`),
        await get(token, `/api/v1/organization/${clinicA.id}/follow-up-settings/`),
        await t.app.inject({ method: 'POST', url: `${URL}${caseA.id}/actions/`, headers: auth(token), payload: { kind: 'NOTE', note: 'x' } }),
        await t.app.inject({ method: 'PATCH', url: `${URL}${caseA.id}/`, headers: auth(token), payload: { assigned_user: null } }),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ detail: FOLLOW_UP_MESSAGES.role });
      }
    }
  });

  it('shows each role the cases of its scope, and answers 404 on a case outside it (GET, PATCH, POST)', async () => {
    const scopes: [TUserType, object, number[]][] = [
      ['ADMIN', {}, all],
      ['SUB_ADMIN', {}, all],
      ['DISTRIBUTOR_ADMIN', { organizationId: distributor.id }, [caseA.id, caseB.id]],
      ['MANAGER', { linkedOrganizationIds: [clinicB.id, clinicC.id] }, [caseB.id, caseC.id]],
      ['ORG_ADMIN', { organizationId: clinicA.id }, [caseA.id]],
    ];
    for (const [role, opts, expected] of scopes) {
      const { token } = await userToken(t, role, opts);
      expect(ids(await list(token)), role).toEqual(expected.sort((a, b) => a - b));
      for (const id of all.filter((i) => !expected.includes(i))) {
        expect((await get(token, `${URL}${id}/`)).statusCode, role).toBe(404);
        const patch = await t.app.inject({ method: 'PATCH', url: `${URL}${id}/`, headers: auth(token), payload: { assigned_user: null } });
        expect(patch.statusCode).toBe(404);
        const post = await t.app.inject({ method: 'POST', url: `${URL}${id}/actions/`, headers: auth(token), payload: { kind: 'NOTE', note: 'x' } });
        expect(post.statusCode).toBe(404);
      }
    }
    const { token } = await userToken(t, 'ORG_ADMIN', { organizationId: clinicA.id });
    expect((await get(token, `${URL}?organization=${clinicB.id}`)).statusCode).toBe(404);
    const entries = await t.database.db.select().from(followUpEntries).where(eq(followUpEntries.kind, 'NOTE'));
    expect(entries).toEqual([]);
  });

  it('refuses a POST with an impersonation token (read-only)', async () => {
    const admin = await createUser(t, { userType: 'ADMIN', password: null });
    const target = await createUser(t, { userType: 'ORG_ADMIN', organizationId: clinicA.id, password: null });
    const token = await signIn(t, target, { kind: 'impersonation', impersonatorId: admin.id });
    expect((await get(token, URL)).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'POST', url: `${URL}${caseA.id}/actions/`, headers: auth(token), payload: { kind: 'NOTE', note: 'x' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: AUTH_ERRORS.impersonationReadOnly });
  });
});

describe('GET follow-up/ filters, ordering and CSV', () => {
  it('filters by search, status, overdue, due window, organization, modality, assignee, period, patient and source', async () => {
    const { user, token } = await userToken(t, 'ADMIN');
    const org = await createOrganization(t, { name: 'Filter clinic' });
    const scanCase = await createCase(t, org.id, { openedAt: new Date(NOW.getTime() - days(3)), patient: { firstName: 'Zerelda', mobile: '+91-9811122233' } });
    const scan = await createScan(t, scanCase.patientId, org.id, new Date(NOW.getTime() - days(3)));
    const sourced = await createCase(t, org.id, { openedAt: new Date(NOW.getTime() - days(40)), status: 'REFERRED', statusChanged: new Date(NOW.getTime() - days(40)), assignedUserId: user.id, modalities: ['BREAST', 'ORAL'], source: { kind: 'SCAN', id: scan.id } });
    const closed = await createCase(t, org.id, { openedAt: new Date(NOW.getTime() - days(50)), status: 'CLOSED', statusChanged: new Date(NOW.getTime() - days(5)) });
    const q = (s: string) => list(token, `?organization=${org.id}&${s}`);
    expect(ids(await q('search=zereld'))).toEqual([scanCase.id]);
    expect(ids(await q('search=9811122233'))).toEqual([scanCase.id]);
    expect(ids(await q('status=REFERRED'))).toEqual([sourced.id]);
    expect(ids(await q('status=active'))).toEqual([scanCase.id, sourced.id]);
    expect(ids(await q('status=closing'))).toEqual([closed.id]);
    expect(ids(await q('overdue=true'))).toEqual([sourced.id]);
    expect(ids(await q('overdue=false'))).toEqual([scanCase.id, closed.id]);
    // scanCase: opened 2026-11-17 (Kolkata) + 7 → due 2026-11-24; sourced: 2026-10-11 + 30 → 2026-11-10.
    expect(ids(await q('due_after=2026-11-24&due_before=2026-11-24'))).toEqual([scanCase.id]);
    expect(ids(await q('due_before=2026-11-23'))).toEqual([sourced.id]);
    expect(ids(await q('modality=ORAL'))).toEqual([sourced.id]);
    expect(ids(await q(`assigned_user=${user.id}`))).toEqual([sourced.id]);
    expect(ids(await q('assigned_user=none'))).toEqual([scanCase.id, closed.id]);
    expect(ids(await q('date_time_after=2026-11-10&date_time_before=2026-11-20'))).toEqual([scanCase.id]);
    expect(ids(await q('date_time_after=2026-10-11&date_time_before=2026-10-11'))).toEqual([sourced.id]);
    expect(ids(await q(`patient=${closed.patientId}`))).toEqual([closed.id]);
    expect(ids(await q(`scan=${scan.id}`))).toEqual([sourced.id]);
    expect(ids(await q(`cervical_exam=${scan.id}`))).toEqual([]);
    const bad = await get(token, `${URL}?status=NOPE&overdue=maybe`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json() as object)).toEqual(expect.arrayContaining(['status', 'overdue']));
  });

  it('sorts overdue first (longest overdue on top), closing cases last, and shows overdue and days_overdue', async () => {
    const { token } = await userToken(t, 'ADMIN');
    const org = await createOrganization(t, { name: 'Order clinic', timezone: 'Asia/Kolkata' });
    const soon = await createCase(t, org.id, { openedAt: new Date(NOW.getTime() - days(1)) });
    const closed = await createCase(t, org.id, { openedAt: new Date(NOW.getTime() - days(90)), status: 'DECLINED', statusChanged: new Date(NOW.getTime() - days(80)) });
    const longOverdue = await createCase(t, org.id, { openedAt: new Date(NOW.getTime() - days(30)) });
    const overdue = await createCase(t, org.id, { openedAt: new Date(NOW.getTime() - days(10)) });
    const page = await list(token, `?organization=${org.id}`);
    expect(page.results.map((r) => r.id)).toEqual([longOverdue.id, overdue.id, soon.id, closed.id]);
    const [a, b, c, d] = page.results;
    expect(a).toMatchObject({ overdue: true, days_overdue: 23, status: 'OPEN' });
    expect(b).toMatchObject({ overdue: true, days_overdue: 3 });
    expect(c).toMatchObject({ overdue: false, days_overdue: 0 });
    expect(d).toMatchObject({ overdue: false, next_due: null, status: 'DECLINED' });
    expect(a!.organization).toEqual({ id: org.id, name: 'Order clinic', timezone: 'Asia/Kolkata' });
    expect(a!.last_action).toEqual({ kind: 'OPENED', at: expect.any(String) });
    const desc = await list(token, `?organization=${org.id}&ordering=-opened`);
    expect(desc.results.map((r) => r.id)).toEqual([soon.id, overdue.id, longOverdue.id, closed.id]);
    expect((await get(token, `${URL}?ordering=nope`)).statusCode).toBe(400);
  });

  it('streams follow-up.csv with the header, the filtered rows in order, and a report log row', async () => {
    const { user, token } = await userToken(t, 'ADMIN');
    const org = await createOrganization(t, { name: '=Clinic CSV' });
    const first = await createCase(t, org.id, { openedAt: new Date(NOW.getTime() - days(30)), patient: { firstName: 'Csv', lastName: 'One' } });
    const second = await createCase(t, org.id, { openedAt: new Date(NOW.getTime() - days(1)) });
    const res = await get(token, `${URL}?organization=${org.id}&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('follow-up');
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\n');
    // Times in the reader's zone (no Timezone header: Asia/Kolkata), named in their column's header.
    expect(lines[0]).toBe(
      FOLLOW_UP_CSV_HEADER.map((h) => (['Opened', 'Last Action On'].includes(h) ? `${h} (Asia/Kolkata)` : h)).join(','),
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`${first.id},Csv One,`);
    expect(lines[1]).toContain("'=Clinic CSV");
    expect(lines[1]).toContain('Yes (23 days)');
    expect(lines[2]!.startsWith(`${second.id},`)).toBe(true);
    const logs = await t.database.db.select().from(reportLogs).where(eq(reportLogs.userId, user.id));
    expect(logs).toHaveLength(1);
    expect(logs[0]!.api).toBe('/api/v1/follow-up/');
  });
});

describe('GET follow-up/{id}/ and assignment', () => {
  it('answers the case with its sources, timeline and next statuses, and audits every read', async () => {
    const { user, token } = await userToken(t, 'ORG_ADMIN', { organizationId: clinicA.id });
    const scan = await createScan(t, caseA.patientId, clinicA.id, caseA.openedAt);
    const kase = await createCase(t, clinicA.id, { source: { kind: 'SCAN', id: scan.id }, status: 'CONTACTED', openedAt: caseA.openedAt });
    const res = await get(token, `${URL}${kase.id}/`);
    expect(res.statusCode).toBe(200);
    const body = res.json<TFollowUpCase>();
    expect(body.sources).toEqual([{ kind: 'SCAN', id: scan.id, modality: 'BREAST', date_time: caseA.openedAt.toISOString() }]);
    expect(body.timeline).toEqual([
      expect.objectContaining({ kind: 'OPENED', by: null, to_status: 'OPEN', corrects: null, corrected_by: [] }),
    ]);
    expect(body.next_statuses).toEqual(['REFERRED', 'SEEN', 'LOST_TO_FOLLOW_UP', 'DECLINED']);
    await get(token, `${URL}${kase.id}/`);
    const reads = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, FOLLOW_UP_AUDIT.read), eq(auditLog.targetId, String(kase.id))));
    expect(reads).toHaveLength(2);
    expect(reads[0]).toMatchObject({ actorId: user.id, targetType: 'follow_up_case' });
  });

  it('lists assignees of an organization and assigns a case, writing an ASSIGNMENT entry and an audit row', async () => {
    const { user: admin, token } = await userToken(t, 'ADMIN', { firstName: 'Ada' });
    const own = await createUser(t, { userType: 'ORG_ADMIN', organizationId: clinicA.id, firstName: 'Own', password: null });
    const dist = await createUser(t, { userType: 'DISTRIBUTOR_ADMIN', organizationId: distributor.id, password: null });
    const manager = await createUser(t, { userType: 'MANAGER', linkedOrganizationIds: [clinicA.id], password: null });
    const elsewhere = await createUser(t, { userType: 'ORG_ADMIN', organizationId: clinicB.id, password: null });
    const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: clinicA.id, password: null });
    const disabled = await createUser(t, { userType: 'ORG_ADMIN', organizationId: clinicA.id, isValid: false, password: null });
    const res = await get(token, `${URL}assignees/?organization=${clinicA.id}`);
    expect(res.statusCode).toBe(200);
    const got = res.json<TFollowUpAssignee[]>().map((u) => u.id);
    expect(got).toEqual(expect.arrayContaining([admin.id, own.id, dist.id, manager.id]));
    for (const id of [elsewhere.id, tech.id, disabled.id]) expect(got).not.toContain(id);
    const { token: orgAdmin } = await userToken(t, 'ORG_ADMIN', { organizationId: clinicB.id });
    expect((await get(orgAdmin, `${URL}assignees/?organization=${clinicA.id}`)).statusCode).toBe(404);

    const kase = await createCase(t, clinicA.id);
    const patch = (assigned_user: unknown) =>
      t.app.inject({ method: 'PATCH', url: `${URL}${kase.id}/`, headers: auth(token), payload: { assigned_user } });
    const refused = await patch(elsewhere.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ assigned_user: [FOLLOW_UP_MESSAGES.assigneeInvalid] });
    expect((await patch('abc')).statusCode).toBe(400);
    const missing = await t.app.inject({ method: 'PATCH', url: `${URL}${kase.id}/`, headers: auth(token), payload: {} });
    expect(missing.json()).toEqual({ assigned_user: [FOLLOW_UP_MESSAGES.assigneeInvalid] });
    const nothing = await t.app.inject({ method: 'PATCH', url: `${URL}999999/`, headers: auth(token), payload: {} });
    expect(nothing.statusCode).toBe(404);
    const ok = await patch(own.id);
    expect(ok.statusCode).toBe(200);
    const body = ok.json<TFollowUpCase>();
    expect(body.assigned_user).toEqual({ id: own.id, name: `Own ${own.lastName}` });
    expect(body.timeline.at(-1)).toMatchObject({ kind: 'ASSIGNMENT', by: { id: admin.id }, data: { from: null, to: own.id } });
    const back = (await patch(null)).json<TFollowUpCase>();
    expect(back.assigned_user).toBeNull();
    expect(back.timeline.at(-1)).toMatchObject({ kind: 'ASSIGNMENT', data: { from: own.id, to: null } });
    const audits = await t.database.db.select().from(auditLog).where(and(eq(auditLog.action, FOLLOW_UP_AUDIT.assign), eq(auditLog.targetId, String(kase.id))));
    expect(audits).toHaveLength(2);
  });
});
