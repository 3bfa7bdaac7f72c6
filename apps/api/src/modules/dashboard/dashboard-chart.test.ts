// The chart's buckets are assembled from whole UTC days, whole UTC hours and raw minutes (dashboard.service.ts
// countBuckets). On random scans around month ends and daylight-saving changes, every point must equal a plain
// count of the scans whose local date (or local month) is the point's, in zones a whole, half and three-quarter
// hour from UTC on either side and zones whose midnight moves or is skipped, for day and month charts, a range cut
// at both ends, and each role's scope. The buckets' boundaries equal each local midnight looked up one by one.
import { describe, expect, it } from 'vitest';
import type { TDashboardChart } from '@sc/shared/dashboard';
import { inArray } from 'drizzle-orm';
import { scans } from '../../db/schema/index.ts';
import { Rng } from '../../demo/rng.ts';
import { startOfLocalDay } from '../../http/period.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import { chartBuckets, chartPlan } from './dashboard.service.ts';

const t = await setupTestApp();
const db = t.database.db;
t.clock.set(new Date('2026-04-20T06:00:00Z'));

// New York moves its clocks at 02:00 on 8 March 2026, Beirut skips midnight on 29 March, Santiago repeats 23:00 on
// 4 April.
const ZONES = [
  'UTC',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'America/St_Johns',
  'America/New_York',
  'Asia/Beirut',
  'America/Santiago',
  'Pacific/Chatham',
];
const FROM = Date.parse('2026-01-20T00:00:00Z');
const TO = Date.parse('2026-04-12T00:00:00Z');

const clinic = await createOrganization(t, { name: 'Chart Clinic' });
// 'Chart Other' sits under a distributor (no scans of its own): the distributor's admin sees a subtree scope.
const distributor = await createOrganization(t, { name: 'Chart Distributor' });
const other = await createOrganization(t, { name: 'Chart Other', parentId: distributor.id });
const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: clinic.id, password: null });
const tech2 = await createUser(t, { userType: 'TECHNICIAN', organizationId: other.id, password: null });
const admin = await signIn(t, await createUser(t, { userType: 'ADMIN', organizationId: null, password: null }));
const orgAdmin = await signIn(t, await createUser(t, { userType: 'ORG_ADMIN', organizationId: clinic.id, password: null }));
const distributorAdmin = await signIn(
  t,
  await createUser(t, { userType: 'DISTRIBUTOR_ADMIN', organizationId: distributor.id, password: null }),
);

const rng = new Rng(9);
const rows = Array.from({ length: 1500 }, (_, i) => {
  // Half of the scans within 50 minutes of a half or whole hour, where zone boundaries cut.
  const base = FROM + rng.int(0, Math.floor((TO - FROM) / 1_800_000) - 1) * 1_800_000;
  const at = rng.chance(0.5) ? base + rng.int(-50, 50) * 60_000 : FROM + rng.int(0, TO - FROM - 1);
  return {
    localDbId: `chart-${i}`,
    organizationId: rng.chance(0.7) ? clinic.id : other.id,
    technicianId: rng.chance(0.5) ? tech.id : tech2.id,
    deviceSerialNumber: rng.chance(0.2) ? null : `CHART-DEV-${rng.int(1, 3)}`,
    dateTime: new Date(Math.max(FROM, at)),
    scanType: rng.chance(0.9) ? ('SCAN' as const) : ('TRAINING' as const),
    rightBreastFinding: rng.chance(0.2) ? ['Lump'] : [],
  };
});
await db.insert(scans).values(rows);

async function chart(token: string, zone: string, query: string): Promise<TDashboardChart> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/scan/dashboard/chart/${query}`,
    headers: { ...auth(token), timezone: zone },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TDashboardChart>();
}

/** The same points counted from scans: local date (or month; the first from the range's start) of each SCAN-type scan. */
async function recount(zone: string, interval: 'day' | 'month', from: string, to: string, orgId?: number) {
  const label = interval === 'day' ? `(date_time AT TIME ZONE $1)::date` : `greatest(date_trunc('month', date_time AT TIME ZONE $1)::date, $2::date)`;
  const found = await t.database.query<{ date: string; scans: number; positives: number }>(
    `SELECT ${label}::text AS date, count(*)::int AS scans, (count(*) FILTER (WHERE is_positive))::int AS positives
       FROM scans WHERE scan_type = 'SCAN' AND (date_time AT TIME ZONE $1)::date BETWEEN $2::date AND $3::date
       AND ($4::int IS NULL OR organization_id = $4) GROUP BY 1`,
    [zone, from, to, orgId ?? null],
  );
  return new Map(found.map((r) => [r.date, r]));
}

function expectPoints(points: TDashboardChart['points'], expected: Map<string, { scans: number; positives: number }>, what: string) {
  for (const p of points) {
    const want = expected.get(p.date) ?? { scans: 0, positives: 0 };
    expect({ date: p.date, scans: p.scans, positives: p.positives }, `${what} ${p.date}`).toEqual({
      date: p.date,
      scans: want.scans,
      positives: want.positives,
    });
  }
  const total = [...expected.values()].reduce((s, r) => s + r.scans, 0);
  expect(points.reduce((s, p) => s + p.scans, 0), what).toBe(total);
}

describe('GET scan/dashboard/chart/ against a recount', () => {
  it('gives every day of a 45-day range across March (daylight saving in New York) in every zone', async () => {
    for (const zone of ZONES) {
      const got = await chart(admin, zone, '?date_time_after=2026-02-20&date_time_before=2026-04-05');
      expect(got.interval).toBe('day');
      expect(got.points).toHaveLength(45);
      expectPoints(got.points, await recount(zone, 'day', '2026-02-20', '2026-04-05'), zone);
    }
  });

  it('gives every month of a custom range and of all time, for ADMIN, an ORG_ADMIN and a DISTRIBUTOR_ADMIN', async () => {
    for (const zone of ZONES) {
      const got = await chart(admin, zone, '?custom_range=2026-01-25,2026-04-11');
      expect(got.interval).toBe('month');
      expectPoints(got.points, await recount(zone, 'month', '2026-01-25', '2026-04-10'), `${zone} custom`);
      const all = await chart(orgAdmin, zone, '');
      expectPoints(all.points, await recount(zone, 'month', '2000-01-01', '2100-01-01', clinic.id), `${zone} all time`);
      const subtree = await chart(distributorAdmin, zone, '?date_time_after=2026-02-20&date_time_before=2026-04-05');
      expectPoints(subtree.points, await recount(zone, 'day', '2026-02-20', '2026-04-05', other.id), `${zone} distributor`);
    }
  });

  it('gives one day and an empty range', async () => {
    for (const zone of ZONES) {
      const got = await chart(admin, zone, '?custom_range=2026-03-08,2026-03-09');
      expect(got.points).toHaveLength(1);
      expectPoints(got.points, await recount(zone, 'day', '2026-03-08', '2026-03-08'), zone);
      const none = await chart(admin, zone, '?custom_range=2025-03-01,2025-03-04');
      expect(none.points.map((p) => p.scans)).toEqual([0, 0, 0]);
    }
  });
});

describe('GET scan/dashboard/chart/ as scans arrive and go', () => {
  it('counts scans added and deleted after the same chart was drawn (its plan is kept, its counts are not)', async () => {
    const zone = 'Asia/Kolkata';
    const query = '?date_time_after=2026-03-01&date_time_before=2026-03-10';
    expectPoints((await chart(admin, zone, query)).points, await recount(zone, 'day', '2026-03-01', '2026-03-10'), 'before');
    // 4 March in Kolkata is 3 March 18:30 to 4 March 18:30 UTC: a raw minute (18:40 UTC), a whole hour of the cut
    // piece (20:15 UTC), the day's longest piece (06:00 UTC) and the minutes before its end (18:20 UTC).
    const added = await db
      .insert(scans)
      .values(
        ['2026-03-03T18:40:00Z', '2026-03-03T20:15:00Z', '2026-03-04T06:00:00Z', '2026-03-04T18:20:00Z'].map((at, i) => ({
          localDbId: `chart-late-${i}`,
          organizationId: clinic.id,
          technicianId: tech.id,
          dateTime: new Date(at),
          scanType: 'SCAN' as const,
          rightBreastFinding: i % 2 ? ['Lump'] : [],
        })),
      )
      .returning();
    const after = await chart(admin, zone, query);
    expectPoints(after.points, await recount(zone, 'day', '2026-03-01', '2026-03-10'), 'after the upload');
    await db.delete(scans).where(inArray(scans.id, added.map((r) => r.id)));
    const again = await chart(admin, zone, query);
    expect(after.points.find((p) => p.date === '2026-03-04')!.scans).toBe(again.points.find((p) => p.date === '2026-03-04')!.scans + 4);
    expectPoints(again.points, await recount(zone, 'day', '2026-03-01', '2026-03-10'), 'after the delete');
  });
});

describe('chartPlan', () => {
  it('reads a month chart as a run of days per month, the cut days as hours and minutes, and keeps the plan', () => {
    const zone = 'Asia/Kolkata';
    const from = startOfLocalDay('2026-01-01', zone);
    const to = startOfLocalDay('2026-05-01', zone);
    const plan = chartPlan(from, to, zone, 'month');
    expect(plan.labels).toEqual(['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01']);
    // Each month's UTC days from its second (the first UTC day's longest piece is the previous month's), and the last
    // day of April's 18.5 hours, read as that day minus its last 5.5 hours.
    expect(plan.pieces.days).toEqual({ runs: ['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01'], to: '2026-05-01' });
    expect(plan.runBuckets).toEqual([0, 1, 2, 3]);
    // 5 whole hours (19:00–24:00 UTC) and half an hour (18:30–19:00) at each of the five cuts (the range's ends too).
    expect(plan.pieces.hours).toHaveLength(25);
    expect(plan.pieces.raw).toHaveLength(5);
    expect(plan.pieces.raw[1]).toEqual({ from: new Date('2026-01-31T18:30:00Z'), to: new Date('2026-01-31T19:00:00Z') });
    expect(plan.rawShares[1]).toEqual({ plus: 1, minus: 0 });
    expect(chartPlan(new Date(from), new Date(to), zone, 'month')).toBe(plan);
  });
});

describe('chartBuckets', () => {
  it('gives every local midnight (or month start) that a lookup per boundary gives, over two years in every zone', () => {
    const from = (zone: string) => startOfLocalDay('2025-01-01', zone);
    const to = (zone: string) => startOfLocalDay('2027-01-01', zone);
    for (const zone of [...ZONES, 'Australia/Lord_Howe', 'America/Havana', 'Africa/Casablanca', 'Asia/Tehran']) {
      for (const interval of ['day', 'month'] as const) {
        const { bounds, labels } = chartBuckets(from(zone), to(zone), zone, interval);
        expect(bounds.length, zone).toBe(labels.length + 1);
        expect(labels.length, zone).toBe(interval === 'day' ? 730 : 24);
        labels.forEach((label, i) => expect(bounds[i]!.getTime(), `${zone} ${label}`).toBe(startOfLocalDay(label, zone).getTime()));
      }
    }
  });
});

describe('By Technician and By Device against a recount', () => {
  const list = async <T,>(url: string, zone: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { ...auth(admin), timezone: zone } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ count: number; results: T[] }>().results;
  };
  const recountBy = async (key: string, zone: string, from: string, to: string) =>
    (
      await t.database.query<{ k: string; scans: number; positives: number }>(
        `SELECT ${key} AS k, count(*)::int AS scans, (count(*) FILTER (WHERE is_positive))::int AS positives FROM scans
          WHERE scan_type = 'SCAN' AND ${key.split(' || ')[0]} IS NOT NULL AND (date_time AT TIME ZONE $1)::date BETWEEN $2::date AND $3::date
          GROUP BY 1 ORDER BY 1`,
        [zone, from, to],
      )
    ).map((r) => ({ k: String(r.k), scans: r.scans, positives: r.positives }));

  it('counts each technician (per organization) and each device exactly over ranges whose edges cut UTC days', async () => {
    for (const zone of ZONES) {
      for (const [from, to] of [
        ['2026-02-20', '2026-03-21'],
        ['2026-03-01', '2026-03-31'],
        ['2026-01-25', '2026-04-10'],
      ] as const) {
        const query = `?date_time_after=${from}&date_time_before=${to}&limit=100`;
        const techs = await list<{ id: number; organization: { id: number } | null; scans_count: number; positive_scans_count: number }>(
          `/api/v1/organization/technician-positive/${query}`,
          zone,
        );
        expect(
          techs.map((r) => ({ k: `${r.id}-${r.organization?.id}`, scans: r.scans_count, positives: r.positive_scans_count })).sort((a, b) => a.k.localeCompare(b.k)),
          `${zone} ${from} technicians`,
        ).toEqual(await recountBy(`technician_id || '-' || organization_id`, zone, from, to));
        const devs = await list<{ device_serial_number: string; scans_count: number; positive_scans_count: number }>(
          `/api/v1/scan/device-positive/${query}`,
          zone,
        );
        expect(
          devs.map((r) => ({ k: r.device_serial_number, scans: r.scans_count, positives: r.positive_scans_count })).sort((a, b) => a.k.localeCompare(b.k)),
          `${zone} ${from} devices`,
        ).toEqual(await recountBy('device_serial_number', zone, from, to));
      }
    }
  });
});
