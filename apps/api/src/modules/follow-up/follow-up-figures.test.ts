// The programme's follow-up figures through HTTP, recounted against the raw follow_up_cases rows after a mix of
// inserts, moves, outcome corrections, joins, transfers and deletes (the expected numbers come from the cases
// themselves, never from the pre-aggregates); period boundaries in two caller zones; scope per role; 403/404/400;
// the CSV with its report log; and the triggers' tables equal to a rebuild from scratch.
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIVE_FOLLOW_UP_STATUSES,
  FOLLOW_UP_FIGURES_CSV_HEADER,
  FOLLOW_UP_MESSAGES,
  isDiagnosticOutcome,
  medianOfCounts,
  percentOf,
  type TFollowUpFigures,
  type TFollowUpFiguresOrgRow,
  type TFollowUpModality,
  type TFollowUpOutcome,
  type TFollowUpStatus,
} from '@sc/shared/follow-up';
import type { TPaginated } from '@sc/shared/list';
import type { TUserType } from '@sc/shared/roles';
import { followUpCases, organizations, patients, reportLogs } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, type OrganizationRow } from '../../test/factories.ts';

const t = await setupTestApp();
const db = t.database.db;
// Wednesday 15 April 2026, 11:30 in Kolkata.
const NOW = new Date('2026-04-15T06:00:00Z');
t.clock.set(NOW);

let distributor: OrganizationRow;
let clinic: OrganizationRow;
let kenya: OrganizationRow;
const tokens = {} as Record<'admin' | 'subAdmin' | 'distributor' | 'orgAdmin' | 'manager' | 'technician' | 'reviewer', string>;

async function tokenFor(userType: TUserType, organizationId: number | null, opts: { linkedOrganizationIds?: number[] } = {}) {
  return signIn(t, await createUser(t, { userType, organizationId, password: null, ...opts }));
}

// A deterministic mix: a small linear congruential generator.
let seed = 26;
const rand = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return (seed >> 16) % n;
};
const pick = <T>(values: readonly T[]): T => values[rand(values.length)]!;
const STATUSES: TFollowUpStatus[] = ['OPEN', 'CONTACTED', 'REFERRED', 'SEEN', 'CLOSED', 'LOST_TO_FOLLOW_UP', 'DECLINED'];
const OUTCOMES: TFollowUpOutcome[] = ['NO_ABNORMALITY', 'BENIGN', 'MALIGNANT', 'OTHER', 'UNKNOWN'];
const MODALITIES: TFollowUpModality[] = ['BREAST', 'CERVICAL', 'ORAL'];
const localDay = (at: Date, zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(at);
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** A case's columns as a move leaves them: closing states carry their outcome, a CLOSED one its diagnosis date. */
function caseState(openedAt: Date, zone: string) {
  const status = pick(STATUSES);
  const outcome = status === 'CLOSED' ? pick(OUTCOMES) : null;
  const active = (ACTIVE_FOLLOW_UP_STATUSES as readonly string[]).includes(status);
  return {
    status,
    outcome,
    diagnosisDate: outcome && outcome !== 'UNKNOWN' ? addDays(localDay(openedAt, zone), rand(40)) : null,
    // Half the active cases are overdue now; the others are due later today, tomorrow or in a few days (UTC).
    dueAt: active ? new Date(NOW.getTime() + (rand(2) ? -1 : 1) * (1 + rand(80)) * 3_600_000) : null,
  };
}

async function insertCase(org: OrganizationRow | null) {
  const [patient] = await db.insert(patients).values({ firstName: `P${rand(100000)}`, organizationId: org?.id ?? null }).returning();
  // 20 March to 15 April, at any minute (edges of Kolkata's :30 days included).
  const openedAt = new Date(Date.parse('2026-03-20T00:00:00Z') + rand(26 * 24 * 60) * 60_000);
  const [row] = await db
    .insert(followUpCases)
    .values({
      patientId: patient!.id,
      organizationId: org?.id ?? null,
      modalities: [pick(MODALITIES)],
      openedAt,
      ...caseState(openedAt, org?.timezone ?? 'UTC'),
    })
    .returning();
  return row!;
}

beforeAll(async () => {
  distributor = await createOrganization(t, { name: 'Delta Distribution', canCreateOrganization: true, timezone: 'Asia/Kolkata' });
  clinic = await createOrganization(t, { name: 'Clinic Under Delta', parentId: distributor.id, timezone: 'Asia/Kolkata' });
  kenya = await createOrganization(t, { name: 'Kisumu Care', timezone: 'Africa/Nairobi' });
  tokens.admin = await tokenFor('ADMIN', null);
  tokens.subAdmin = await tokenFor('SUB_ADMIN', null);
  tokens.distributor = await tokenFor('DISTRIBUTOR_ADMIN', distributor.id);
  tokens.orgAdmin = await tokenFor('ORG_ADMIN', clinic.id);
  tokens.manager = await tokenFor('MANAGER', null, { linkedOrganizationIds: [distributor.id] });
  tokens.technician = await tokenFor('TECHNICIAN', clinic.id);
  tokens.reviewer = await tokenFor('CERVAICAL_REVIEWER', null);

  const orgs = [distributor, clinic, kenya, kenya, null];
  const ids: number[] = [];
  for (let i = 0; i < 60; i++) ids.push((await insertCase(pick(orgs))).id);
  // Moves and outcome corrections, as actions write them.
  for (let i = 0; i < 20; i++) {
    const id = pick(ids);
    const [row] = await db.select().from(followUpCases).where(eq(followUpCases.id, id));
    if (!row) continue;
    const org = [distributor, clinic, kenya].find((o) => o.id === row.organizationId);
    await db.update(followUpCases).set(caseState(row.openedAt, org?.timezone ?? 'UTC')).where(eq(followUpCases.id, id));
  }
  // A further positive of another modality joins some cases.
  for (let i = 0; i < 6; i++)
    await db.update(followUpCases).set({ modalities: sql`array_append(${followUpCases.modalities}, 'ORAL')` }).where(eq(followUpCases.id, pick(ids)));
  // Transfers between organizations of different zones, and deleted cases (a patient's deletion cascades).
  for (let i = 0; i < 8; i++) await db.update(followUpCases).set({ organizationId: pick([clinic, kenya]).id }).where(eq(followUpCases.id, pick(ids)));
  for (let i = 0; i < 5; i++) await db.delete(followUpCases).where(eq(followUpCases.id, pick(ids)));
  // One statement moving many rows at once.
  await db.update(followUpCases).set({ status: 'LOST_TO_FOLLOW_UP', dueAt: null }).where(sql`${followUpCases.id} % 7 = 0 AND ${followUpCases.status} = 'SEEN'`);
});

type RawCase = {
  organization_id: number | null;
  tree_path: string | null;
  timezone: string | null;
  opened_at: string | Date;
  modalities: string[];
  status: TFollowUpStatus;
  outcome: TFollowUpOutcome | null;
  diagnosis_date: string | Date | null;
  due_at: string | Date | null;
};

/** The figures recounted from the cases themselves. */
async function expected(opts: {
  from?: string;
  to?: string;
  orgs?: (orgId: number | null, treePath: string | null) => boolean;
  modality?: TFollowUpModality;
}): Promise<TFollowUpFigures & { byOrg: Map<number, TFollowUpFigures> }> {
  const { rows } = await db.execute(sql`SELECT c.organization_id, o.tree_path, o.timezone, c.opened_at, c.modalities, c.status,
    c.outcome, to_char(c.diagnosis_date, 'YYYY-MM-DD') AS diagnosis_date, c.due_at
    FROM follow_up_cases c LEFT JOIN organizations o ON o.id = c.organization_id`);
  const cases = (rows as RawCase[]).filter(
    (c) => (opts.orgs ?? (() => true))(c.organization_id, c.tree_path) && (!opts.modality || c.modalities.includes(opts.modality)),
  );
  const figures = (list: RawCase[]): TFollowUpFigures => {
    const inPeriod = list.filter((c) => {
      const at = new Date(c.opened_at).getTime();
      return (!opts.from || at >= Date.parse(opts.from)) && (!opts.to || at < Date.parse(opts.to));
    });
    const completed = inPeriod.filter((c) => c.status === 'CLOSED' && isDiagnosticOutcome(c.outcome));
    const lost = inPeriod.filter((c) => c.status === 'LOST_TO_FOLLOW_UP').length;
    const days = new Map<number, number>();
    for (const c of completed) {
      if (!c.diagnosis_date) continue;
      const opened = localDay(new Date(c.opened_at), c.timezone ?? 'UTC');
      const n = (Date.parse(`${String(c.diagnosis_date)}T00:00:00Z`) - Date.parse(`${opened}T00:00:00Z`)) / 86_400_000;
      days.set(n, (days.get(n) ?? 0) + 1);
    }
    return {
      screen_positives: inPeriod.length,
      completed: completed.length,
      completion_pct: percentOf(completed.length, inPeriod.length),
      lost,
      lost_pct: percentOf(lost, inPeriod.length),
      declined: inPeriod.filter((c) => c.status === 'DECLINED').length,
      overdue: list.filter(
        (c) => (ACTIVE_FOLLOW_UP_STATUSES as readonly string[]).includes(c.status) && c.due_at && new Date(c.due_at) <= NOW,
      ).length,
      median_days_to_diagnosis: medianOfCounts(days),
    };
  };
  const byOrg = new Map<number, TFollowUpFigures>();
  for (const id of new Set(cases.map((c) => c.organization_id))) {
    if (id === null) continue;
    const f = figures(cases.filter((c) => c.organization_id === id));
    if (f.screen_positives > 0 || f.overdue > 0) byOrg.set(id, f);
  }
  return { ...figures(cases), byOrg };
}

async function get<T>(token: string, url: string, timezone?: string): Promise<T> {
  const res = await t.app.inject({ method: 'GET', url, headers: { ...auth(token), ...(timezone ? { timezone } : {}) } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
}
const figures = (token: string, query = '', timezone?: string) => get<TFollowUpFigures>(token, `/api/v1/follow-up/figures/${query}`, timezone);
const byOrg = (token: string, query = '', timezone?: string) =>
  get<TPaginated<TFollowUpFiguresOrgRow>>(token, `/api/v1/follow-up/figures/organizations/${query}`, timezone);
const only = ({ byOrg: _, ...rest }: Awaited<ReturnType<typeof expected>>) => rest;

describe('GET follow-up/figures/', () => {
  it('has cases in every state, some completed, lost and overdue (the fixture is not trivial)', async () => {
    const all = await expected({});
    expect(all.screen_positives).toBeGreaterThan(40);
    expect(all.completed).toBeGreaterThan(0);
    expect(all.lost).toBeGreaterThan(0);
    expect(all.overdue).toBeGreaterThan(0);
    expect(all.median_days_to_diagnosis).not.toBeNull();
  });

  it('recounts all time against the raw cases, for ADMIN and SUB_ADMIN, and per modality', async () => {
    expect(await figures(tokens.admin)).toEqual(only(await expected({})));
    expect(await figures(tokens.subAdmin)).toEqual(only(await expected({})));
    for (const modality of ['BREAST', 'CERVICAL', 'ORAL'] as const)
      expect(await figures(tokens.admin, `?modality=${modality}`)).toEqual(only(await expected({ modality })));
  });

  it("reads the period in the caller's zone: a Kolkata day starts at 18:30 UTC, a UTC day at midnight", async () => {
    const q = '?date_time_after=2026-03-25&date_time_before=2026-04-05';
    expect(await figures(tokens.admin, q)).toEqual(only(await expected({ from: '2026-03-24T18:30:00Z', to: '2026-04-05T18:30:00Z' })));
    expect(await figures(tokens.admin, q, 'UTC')).toEqual(only(await expected({ from: '2026-03-25T00:00:00Z', to: '2026-04-06T00:00:00Z' })));
    expect(await figures(tokens.admin, '?month=this_month', 'UTC')).toEqual(only(await expected({ from: '2026-04-01T00:00:00Z', to: '2026-05-01T00:00:00Z' })));
    expect(await figures(tokens.admin, '?month=last_month')).toEqual(only(await expected({ from: '2026-02-28T18:30:00Z', to: '2026-03-31T18:30:00Z' })));
    // Less than a day: all of it from the cases.
    expect(await figures(tokens.admin, '?date_time_after=2026-04-02&date_time_before=2026-04-02')).toEqual(
      only(await expected({ from: '2026-04-01T18:30:00Z', to: '2026-04-02T18:30:00Z' })),
    );
  });

  it('gives each role its scope, and an organization filter in it', async () => {
    const tree = (_: number | null, path: string | null) => path !== null && path.startsWith(distributor.treePath);
    expect(await figures(tokens.distributor)).toEqual(only(await expected({ orgs: tree })));
    expect(await figures(tokens.manager)).toEqual(only(await expected({ orgs: tree })));
    expect(await figures(tokens.orgAdmin)).toEqual(only(await expected({ orgs: (id) => id === clinic.id })));
    expect(await figures(tokens.distributor, `?organization=${clinic.id}&modality=BREAST`)).toEqual(
      only(await expected({ orgs: (id) => id === clinic.id, modality: 'BREAST' })),
    );
  });

  it('answers 404 for an organization outside the scope, 403 for other roles, 401 anonymous, 400 for bad input', async () => {
    for (const url of ['/api/v1/follow-up/figures/', '/api/v1/follow-up/figures/organizations/']) {
      let res = await t.app.inject({ method: 'GET', url: `${url}?organization=${kenya.id}`, headers: auth(tokens.orgAdmin) });
      expect(res.statusCode).toBe(404);
      res = await t.app.inject({ method: 'GET', url: `${url}?organization=999999`, headers: auth(tokens.admin) });
      expect(res.statusCode).toBe(404);
      for (const token of [tokens.technician, tokens.reviewer]) {
        res = await t.app.inject({ method: 'GET', url, headers: auth(token) });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ detail: FOLLOW_UP_MESSAGES.role });
      }
      res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
      res = await t.app.inject({ method: 'GET', url: `${url}?modality=LUNG`, headers: auth(tokens.admin) });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json())).toContain('modality');
      res = await t.app.inject({ method: 'GET', url: `${url}?month=this_month`, headers: { ...auth(tokens.admin), timezone: 'Mars/Olympus' } });
      expect(res.statusCode).toBe(400);
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/follow-up/figures/organizations/?ordering=bogus', headers: auth(tokens.admin) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ ordering: ['Invalid ordering field: bogus.'] });
  });
});

describe('GET follow-up/figures/organizations/', () => {
  it('lists each organization in scope with its figures, recounted, most screen-positives first', async () => {
    const want = await expected({ from: '2026-03-24T18:30:00Z', to: '2026-04-05T18:30:00Z' });
    const page = await byOrg(tokens.admin, '?date_time_after=2026-03-25&date_time_before=2026-04-05');
    expect(page.count).toBe(want.byOrg.size);
    for (const row of page.results) expect(row).toEqual({ id: row.id, name: expect.any(String), ...want.byOrg.get(row.id) });
    const counts = page.results.map((r) => r.screen_positives);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('orders, searches and pages, within the scope', async () => {
    const asc = await byOrg(tokens.admin, '?ordering=name');
    expect(asc.results.map((r) => r.name)).toEqual(['Clinic Under Delta', 'Delta Distribution', 'Kisumu Care'].filter((n) => asc.results.some((r) => r.name === n)));
    const searched = await byOrg(tokens.admin, '?search=kisumu');
    expect(searched.results.map((r) => r.id)).toEqual([kenya.id]);
    const first = await byOrg(tokens.admin, '?limit=1&ordering=-overdue');
    expect(first.count).toBe(asc.count);
    expect(first.next).not.toBeNull();
    expect((await byOrg(tokens.orgAdmin)).results.map((r) => r.id)).toEqual([clinic.id]);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/follow-up/figures/organizations/?page=99', headers: auth(tokens.admin) });
    expect(res.statusCode).toBe(404);
  });

  it('streams the CSV with the same rows and records it in the report log', async () => {
    const page = await byOrg(tokens.admin, '?ordering=name');
    const before = (await db.select().from(reportLogs)).length;
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/follow-up/figures/organizations/?format=csv&ordering=name', headers: auth(tokens.admin) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('follow-up-organizations');
    const lines = res.body.trim().split(/\r?\n/);
    expect(lines[0]).toBe(FOLLOW_UP_FIGURES_CSV_HEADER.join(','));
    expect(lines).toHaveLength(page.results.length + 1);
    const r = page.results[0]!;
    expect(lines[1]).toBe(
      [r.name, r.screen_positives, r.completed, r.completion_pct === null ? '' : `${r.completion_pct.toFixed(1)}%`, r.lost,
        r.lost_pct === null ? '' : `${r.lost_pct.toFixed(1)}%`, r.declined, r.overdue, r.median_days_to_diagnosis ?? ''].join(','),
    );
    expect((await db.select().from(reportLogs)).length).toBe(before + 1);
  });
});

describe('the pre-aggregates', () => {
  const snapshot = async () =>
    (
      await db.execute(sql`SELECT 'o' AS t, day::text, organization_id, modality, screen_positives AS a, completed AS b, lost AS c, declined AS d
        FROM follow_up_stats_org_daily WHERE (screen_positives, completed, lost, declined) <> (0, 0, 0, 0)
        UNION ALL SELECT 'd', day::text, organization_id, modality, days, cases, 0, 0 FROM follow_up_stats_diagnosis_daily WHERE cases <> 0
        UNION ALL SELECT 't', 'all', organization_id, modality, screen_positives, completed, lost, declined
        FROM follow_up_stats_org_total WHERE (screen_positives, completed, lost, declined) <> (0, 0, 0, 0)
        UNION ALL SELECT 'u', 'all', organization_id, modality, days, cases, 0, 0 FROM follow_up_stats_diagnosis_total WHERE cases <> 0
        UNION ALL SELECT 'a', 'all', organization_id, modality, cases, 0, 0, 0 FROM follow_up_stats_active_total WHERE cases <> 0
        UNION ALL SELECT 'w', due_day::text, organization_id, modality, cases, 0, 0, 0 FROM follow_up_stats_due_daily WHERE cases <> 0
        ORDER BY 1, 2, 3, 4, 5, 6`)
    ).rows;

  it('kept by the triggers equal a rebuild from the cases, also after a change of an organization zone', async () => {
    const kept = await snapshot();
    await db.execute(sql`SELECT follow_up_stats_rebuild()`);
    expect(await snapshot()).toEqual(kept);
    await db.update(organizations).set({ timezone: 'Pacific/Kiritimati' }).where(eq(organizations.id, kenya.id));
    const afterZone = await snapshot();
    await db.execute(sql`SELECT follow_up_stats_rebuild()`);
    expect(await snapshot()).toEqual(afterZone);
    expect(await figures(tokens.admin)).toEqual(only(await expected({})));
  });

  it('count overdue exactly as time passes: due later today, tomorrow, in days (UTC days of the due instants)', async () => {
    const dueDays = await db.execute(sql`SELECT count(DISTINCT (due_at AT TIME ZONE 'UTC')::date)::int AS n FROM follow_up_cases
      WHERE status IN ('OPEN', 'CONTACTED', 'REFERRED', 'SEEN')`);
    expect(Number(dueDays.rows[0]!.n)).toBeGreaterThan(3);
    try {
      for (const hours of [0, 1, 17.5, 18, 30, 47, 90]) {
        const at = new Date(NOW.getTime() + hours * 3_600_000);
        t.clock.set(at);
        // A session of its own at that time (the fixture's sessions are idle past their life by then).
        const admin = await tokenFor('ADMIN', null);
        const raw = await db.execute(sql`SELECT count(*)::int AS n, count(*) FILTER (WHERE organization_id = ${kenya.id})::int AS kenya
          FROM follow_up_cases WHERE status IN ('OPEN', 'CONTACTED', 'REFERRED', 'SEEN') AND due_at <= ${at}`);
        expect((await figures(admin)).overdue, `${hours} h`).toBe(Number(raw.rows[0]!.n));
        expect((await figures(admin, `?organization=${kenya.id}`)).overdue, `${hours} h`).toBe(Number(raw.rows[0]!.kenya));
        const row = (await byOrg(admin, '?limit=100')).results.find((r) => r.id === kenya.id);
        expect(row?.overdue ?? 0, `${hours} h`).toBe(Number(raw.rows[0]!.kenya));
      }
    } finally {
      t.clock.set(NOW);
    }
  });
});
