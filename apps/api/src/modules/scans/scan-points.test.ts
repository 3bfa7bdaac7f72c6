// The scan map's points (GET scan/lat-long/, issue 24 "Map points as fast as the lists"): read in (date_time, id)
// order from scans_points_date_idx (migration 0021) in keyset batches. Every point of the period and scope exactly
// once, also when a batch ends among scans of the same instant, and the period read from that index.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeScanPoints } from '@sc/shared/scans';
import { patients, scans } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import { scanPointsFromScans } from './scan-list.service.ts';

const t = await setupTestApp();
const { db } = t.database;
t.clock.set(new Date('2026-03-15T12:00:00Z'));

let admin = '';
let orgAdmin = '';
type Seeded = { id: number; organizationId: number; dateTime: Date; located: boolean };
const seeded: Seeded[] = [];
/** Five scans of one clinic at this instant: more than a batch of 2 holds. */
const SAME_INSTANT = new Date('2026-03-10T04:30:00.123Z');
const SAME_INSTANT_US = '2026-03-10 04:30:00.123456+00';

const pointIds = async (query: string, token = admin): Promise<number[]> => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/scan/lat-long/?${query}`,
    headers: auth(token),
  });
  expect(res.statusCode, res.body).toBe(200);
  const raw = new Uint8Array(res.rawPayload);
  const decoded = decodeScanPoints(raw.buffer);
  expect(raw.byteLength).toBe(decoded.count * 12);
  return [...decoded.ids].sort((a, b) => a - b);
};
const expected = (pred: (s: Seeded) => boolean) =>
  seeded
    .filter((s) => s.located && pred(s))
    .map((s) => s.id)
    .sort((a, b) => a - b);

beforeAll(async () => {
  const clinic = await createOrganization(t, { name: 'Points Clinic' });
  const other = await createOrganization(t, { name: 'Points Elsewhere' });
  admin = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
  orgAdmin = await signIn(t, await createUser(t, { userType: 'ORG_ADMIN', organizationId: clinic.id }));
  const [patient] = await db
    .insert(patients)
    .values({ firstName: 'Pia', lastName: 'Points', organizationId: clinic.id })
    .returning();
  const specs: Omit<Seeded, 'id'>[] = [
    // One a day from 1 February, alternating organizations; every seventh without coordinates.
    ...Array.from({ length: 40 }, (_, i) => ({
      organizationId: i % 2 ? other.id : clinic.id,
      dateTime: new Date(Date.UTC(2026, 1, 1, 3) + i * 86_400_000),
      located: i % 7 !== 3,
    })),
    ...Array.from({ length: 5 }, () => ({
      organizationId: clinic.id,
      dateTime: SAME_INSTANT,
      located: true,
    })),
    // 18:29 UTC on 28 February is 23:59 in Kolkata (inside a period ending that day), 18:31 is 1 March.
    { organizationId: clinic.id, dateTime: new Date('2026-02-28T18:29:00Z'), located: true },
    { organizationId: clinic.id, dateTime: new Date('2026-02-28T18:31:00Z'), located: true },
  ];
  // Inserted in an order unlike their dates, so id order and date order differ.
  const order = specs.map((_, i) => i).sort((a, b) => ((a * 17) % 47) - ((b * 17) % 47));
  for (const i of order) {
    const s = specs[i]!;
    const [row] = await db
      .insert(scans)
      .values({
        patientId: patient!.id,
        organizationId: s.organizationId,
        localDbId: `points-${i}`,
        dateTime: s.dateTime,
        latitude: s.located ? 10 + i / 100 : null,
        longitude: s.located ? 70 + i / 100 : null,
      })
      .returning();
    seeded.push({ ...s, id: row!.id });
  }
  // With microseconds, which a JavaScript Date cannot hold.
  await db.execute(
    sql`update scans set date_time = ${SAME_INSTANT_US}::timestamptz where date_time = ${SAME_INSTANT.toISOString()}::timestamptz`,
  );
});

describe('GET scan/lat-long/ read by date', () => {
  it('answers every located scan of a period once, its local days bounding it (Asia/Kolkata)', async () => {
    const from = new Date('2026-02-10T00:00:00+05:30');
    const to = new Date('2026-03-01T00:00:00+05:30');
    const ids = await pointIds('date_time_after=2026-02-10&date_time_before=2026-02-28');
    expect(ids).toEqual(expected((s) => s.dateTime >= from && s.dateTime < to));
    expect(ids.length).toBeGreaterThan(10);
    expect(await pointIds('')).toEqual(expected(() => true));
  });

  it('answers a period at the start of the calendar, east and west of UTC, with no points rather than an error', async () => {
    for (const zone of ['America/Los_Angeles', 'Pacific/Kiritimati']) {
      for (const period of [
        'date_time_before=0001-01-02',
        'date_time_after=0001-01-01&date_time_before=0001-01-01',
      ]) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/v1/scan/lat-long/?${period}`,
          headers: { ...auth(admin), timezone: zone },
        });
        expect([res.statusCode, res.rawPayload.byteLength], `${zone} ${period}`).toEqual([200, 0]);
      }
    }
  });

  it('answers a period that ends at the end of the calendar, west and east of UTC, with its points (no 500)', async () => {
    for (const zone of ['America/Los_Angeles', 'Pacific/Kiritimati']) {
      for (const path of ['scan/lat-long/', 'scan/']) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/v1/${path}?date_time_after=2026-02-10&date_time_before=9999-12-31`,
          headers: { ...auth(admin), timezone: zone },
        });
        expect(res.statusCode, `${zone} ${path} ${res.body.slice(0, 200)}`).toBe(200);
      }
    }
    expect(await pointIds('date_time_after=2026-02-10&date_time_before=9999-12-31')).toEqual(
      expected((s) => s.dateTime >= new Date('2026-02-10T00:00:00+05:30')),
    );
  });

  it("gives an ORG_ADMIN the period's points of their own organization only", async () => {
    const clinicId = seeded.find((s) => s.dateTime === SAME_INSTANT)!.organizationId;
    const ids = await pointIds('date_time_after=2026-03-01&date_time_before=2026-03-15', orgAdmin);
    const from = new Date('2026-03-01T00:00:00+05:30');
    expect(ids).toEqual(expected((s) => s.organizationId === clinicId && s.dateTime >= from));
    expect(ids.length).toBeGreaterThanOrEqual(5);
  });

  it('shows a scan written, moved or deleted at the next request', async () => {
    const query = 'date_time_after=2026-03-01&date_time_before=2026-03-15';
    const before = await pointIds(query);
    const moved = seeded.find((s) => s.located && s.dateTime < new Date('2026-02-05'))!;
    await db.execute(
      sql`update scans set date_time = ${SAME_INSTANT.toISOString()}::timestamptz where id = ${moved.id}`,
    );
    expect(await pointIds(query)).toEqual([...before, moved.id].sort((a, b) => a - b));
    await db.execute(sql`delete from scans where id = ${moved.id}`);
    expect(await pointIds(query)).toEqual(before);
    seeded.splice(seeded.indexOf(moved), 1);
  });
});

const idsOf = (batch: Uint8Array): number[] => {
  const bytes = Buffer.from(batch).swap32();
  return Array.from({ length: bytes.byteLength / 12 }, (_, i) => bytes.readInt32LE(i * 12));
};

describe('the packed days', () => {
  it("read a period's whole UTC days from scan_point_days and only its edge days from the scans", async () => {
    const period = 'date_time_after=2026-02-10&date_time_before=2026-02-28';
    const all = await pointIds(period);
    // Emptied for a moment, the packed rows of 15 February (UTC) take that day's scans off the map; the edge days stay.
    const day = '2026-02-15';
    const [saved] = (await db.execute(sql`select points from scan_point_days where day = ${day}::date`))
      .rows as {
      points: Uint8Array;
    }[];
    expect(saved!.points.length).toBe(12);
    await db.execute(sql`update scan_point_days set points = ''::bytea where day = ${day}::date`);
    const onDay = (s: Seeded) => s.dateTime.toISOString().startsWith(day);
    try {
      expect(await pointIds(period)).toEqual(
        all.filter((id) => !seeded.some((s) => s.id === id && onDay(s))),
      );
      // Any other filter reads the scans themselves; a blank search filters nothing and keeps the packed days.
      expect(await pointIds(`${period}&scan_type=SCAN`)).toEqual(all);
      expect(await pointIds(`${period}&search=`)).not.toEqual(all);
    } finally {
      await db.execute(sql`update scan_point_days set points = ${saved!.points} where day = ${day}::date`);
    }
    expect(await pointIds(period)).toEqual(all);
  });
});

describe('the points read from the scans (any other filter, and the edge days of a period)', () => {
  it('gives every point once in batches cut at a scan time, every scan of one instant in one batch', async () => {
    const batches: number[][] = [];
    for await (const batch of scanPointsFromScans(db, { kind: 'all' }, { range: {} }, 2))
      batches.push(idsOf(batch));
    expect(batches.flat().sort((a, b) => a - b)).toEqual(expected(() => true));
    expect(batches.length).toBeGreaterThan(10);
    // Five scans at one instant (to the microsecond) exceed a batch of 2: they come together, in a batch of their own.
    const sameInstant = seeded.filter((s) => s.dateTime === SAME_INSTANT).map((s) => s.id);
    const theirs = batches.filter((b) => b.some((id) => sameInstant.includes(id)));
    expect(theirs.map((b) => [...b].sort((x, y) => x - y))).toEqual([[...sameInstant].sort((x, y) => x - y)]);
  });

  it('answers a filter beyond scope, organization and period exactly as the packed days do', async () => {
    const period = 'date_time_after=2026-02-10&date_time_before=2026-03-12';
    const fromDays = await pointIds(period);
    expect(await pointIds(`${period}&scan_type=SCAN`)).toEqual(fromDays);
    expect(await pointIds(`${period}&survivor=true`)).toEqual([]);
  });

  it('reads a period from scans_points_date_idx (an index range, not a walk of every id)', async () => {
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      const cut = tx
        .select({ at: scans.dateTime })
        .from(scans)
        .where(
          sql`${scans.dateTime} >= '2026-03-01' and ${scans.dateTime} < '2026-03-15' and ${scans.latitude} is not null and ${scans.longitude} is not null`,
        )
        .orderBy(scans.dateTime)
        .offset(99)
        .limit(1);
      const rows = (await tx.execute(sql`explain ${cut}`)).rows as { 'QUERY PLAN': string }[];
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index Only Scan using scans_points_date_idx/);
    expect(plan).not.toMatch(/Sort/);
  });
});

describe('scan_point_days (migration 0021)', () => {
  /** Each organization's and UTC day's records (hex, sorted), as stored and as recounted from the scans. */
  const stored = async () =>
    (
      await db.execute(sql`
        select organization_id, day::text, array(
          select encode(substring(points from i * 12 + 1 for 12), 'hex') from generate_series(0, length(points) / 12 - 1) i order by 1
        )::text as records
        from scan_point_days where length(points) > 0 order by 1, 2`)
    ).rows;
  const recount = async () =>
    (
      await db.execute(sql`
        select organization_id, day, array_agg(record order by record)::text as records from (
          select organization_id, (date_time at time zone 'UTC')::date::text as day,
            encode(int4send(id) || float4send(latitude::float4) || float4send(longitude::float4), 'hex') as record
          from scans where latitude is not null and longitude is not null
        ) r group by 1, 2 order by 1, 2`)
    ).rows;
  const expectExact = async (step: string) => expect(await stored(), step).toEqual(await recount());

  it('stays equal to the scans through inserts, moves, coordinate changes, other updates and deletes', async () => {
    await expectExact('after the fill');
    expect((await stored()).length).toBeGreaterThan(20);
    const [patient] = await db.select({ id: patients.id }).from(patients).limit(1);
    const clinicId = seeded[0]!.organizationId;
    const otherId = seeded.find((s) => s.organizationId !== clinicId)!.organizationId;
    const added = await db
      .insert(scans)
      .values(
        Array.from({ length: 6 }, (_, i) => ({
          patientId: patient!.id,
          organizationId: i % 3 === 0 ? null : clinicId,
          localDbId: `points-more-${i}`,
          dateTime: new Date(Date.UTC(2026, 2, 5, 22 + i)),
          latitude: i === 5 ? null : 12 + i,
          longitude: 77,
        })),
      )
      .returning();
    await expectExact('after a many-row insert');
    const ids = added.map((a) => a.id);
    await db.execute(
      sql`update scans set organization_id = ${otherId} where id = any(${`{${ids.slice(0, 3).join(',')}}`}::int[])`,
    );
    await expectExact('after a transfer');
    await db.execute(sql`update scans set date_time = date_time + interval '3 days' where id = ${ids[1]!}`);
    await expectExact('after a change of time');
    await db.execute(sql`update scans set latitude = null where id = ${ids[2]!}`);
    await db.execute(sql`update scans set latitude = 13.5 where id = ${ids[5]!}`);
    await db.execute(sql`update scans set longitude = 77.25 where id = ${ids[3]!}`);
    await expectExact('after coordinates removed, added and changed');
    await db.execute(
      sql`update scans set notes = '{"message": "seen"}'::jsonb where id = any(${`{${ids.join(',')}}`}::int[])`,
    );
    await expectExact('after an update that moves nothing');
    await db.execute(
      sql`delete from scans where id = any(${`{${[ids[0]!, ids[4]!, seeded[0]!.id].join(',')}}`}::int[])`,
    );
    await expectExact('after deletes');
  });
});
