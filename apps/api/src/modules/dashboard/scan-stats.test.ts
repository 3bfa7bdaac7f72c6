// The statistics tables must equal a full recount of scans after anything that writes scans: inserts (one row and
// many), moves between organizations, technicians and devices, type changes, finding changes, date changes,
// deletes, an organization's deletion (its scans' organization set to NULL) and a TRUNCATE; and the rebuild must
// give the same tables from scratch.
import { inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { organizations, scans } from '../../db/schema/index.ts';
import { Rng } from '../../demo/rng.ts';
import { setupTestApp } from '../../test/app.ts';
import { createOrganization, createUser } from '../../test/factories.ts';
import { rebuildScanStats, setScanStatsTriggers } from './scan-stats.maintenance.ts';

const t = await setupTestApp();
const db = t.database.db;
const DAY = 86_400_000;

type Snapshot = { orgDaily: string[]; orgHourly: string[]; technicianDaily: string[]; deviceDaily: string[]; orgTotal: string[] };

const line = (r: Record<string, unknown>) => JSON.stringify(r);

/** The aggregate tables as sorted lines; rows that dropped to zero are the same as no row. */
async function stored(): Promise<Snapshot> {
  const q = (text: string) => t.database.query(text).then((rows) => rows.map(line));
  return {
    orgDaily: await q(`SELECT day::text, organization_id, scans, positives FROM scan_stats_org_daily
      WHERE scans <> 0 OR positives <> 0 ORDER BY 1, 2`),
    orgHourly: await q(`SELECT hour, organization_id, scans, positives FROM scan_stats_org_hourly
      WHERE scans <> 0 OR positives <> 0 ORDER BY 1, 2`),
    technicianDaily:
      await q(`SELECT day::text, technician_id, organization_id, scans, positives FROM scan_stats_technician_daily
      WHERE scans <> 0 OR positives <> 0 ORDER BY 1, 2, 3`),
    deviceDaily:
      await q(`SELECT day::text, device_serial_number, organization_id, scans, positives FROM scan_stats_device_daily
      WHERE scans <> 0 OR positives <> 0 ORDER BY 1, 2, 3`),
    orgTotal: await q(`SELECT organization_id, scans, positives, last_sync FROM scan_stats_org_total
      WHERE scans <> 0 OR positives <> 0 OR last_sync IS NOT NULL ORDER BY 1`),
  };
}

/** The same figures counted from scans (the definition the tables must match). */
async function recount(): Promise<Snapshot> {
  const q = (text: string) => t.database.query(text).then((rows) => rows.map(line));
  const day = `((date_time AT TIME ZONE 'UTC')::date)::text`;
  return {
    orgDaily: await q(`SELECT ${day} AS day, organization_id, count(*)::int AS scans,
      (count(*) FILTER (WHERE is_positive))::int AS positives FROM scans WHERE scan_type = 'SCAN' GROUP BY 1, 2 ORDER BY 1, 2`),
    orgHourly: await q(`SELECT date_trunc('hour', date_time) AS hour, organization_id, count(*)::int AS scans,
      (count(*) FILTER (WHERE is_positive))::int AS positives FROM scans WHERE scan_type = 'SCAN' GROUP BY 1, 2 ORDER BY 1, 2`),
    technicianDaily: await q(`SELECT ${day} AS day, technician_id, organization_id, count(*)::int AS scans,
      (count(*) FILTER (WHERE is_positive))::int AS positives FROM scans WHERE scan_type = 'SCAN' AND technician_id IS NOT NULL
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
    deviceDaily: await q(`SELECT ${day} AS day, device_serial_number, organization_id, count(*)::int AS scans,
      (count(*) FILTER (WHERE is_positive))::int AS positives FROM scans WHERE scan_type = 'SCAN' AND device_serial_number IS NOT NULL
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
    orgTotal: await q(`SELECT organization_id, (count(*) FILTER (WHERE scan_type = 'SCAN'))::int AS scans,
      (count(*) FILTER (WHERE scan_type = 'SCAN' AND is_positive))::int AS positives, max(created) AS last_sync
      FROM scans GROUP BY 1 ORDER BY 1`),
  };
}

async function expectExact(step: string) {
  const [have, want] = [await stored(), await recount()];
  expect(have, step).toEqual(want);
}

describe('scan statistics tables', () => {
  it('stay equal to a full recount through a random sequence of inserts, moves, type and finding changes and deletes', async () => {
    const rng = new Rng(20261123);
    const orgs = await Promise.all([1, 2, 3, 4].map(() => createOrganization(t)));
    const orgIds: (number | null)[] = [...orgs.map((o) => o.id), null];
    const technicians = await Promise.all(
      orgs
        .slice(0, 3)
        .map((o) => createUser(t, { userType: 'TECHNICIAN', organizationId: o.id, password: null })),
    );
    const techIds: (number | null)[] = [...technicians.map((u) => u.id), null];
    const serials: (string | null)[] = ['STAT-A', 'STAT-B', 'STAT-C', null];
    const types = ['SCAN', 'SCAN', 'SCAN', 'TRAINING', 'PRACTICE', 'PRE_TRAINING'] as const;
    const findings = [[], [], ['Lump'], ['Lump', 'Cyst']];
    // Around midnight UTC and in the last days of a month, so day buckets are crossed by moves in time.
    const base = Date.UTC(2026, 2, 30, 23, 0);
    const randomScan = (i: number) => ({
      organizationId: rng.pick(orgIds),
      technicianId: rng.pick(techIds),
      deviceSerialNumber: rng.pick(serials),
      localDbId: `stats-${i}`,
      scanType: rng.pick(types),
      leftBreastFinding: rng.pick(findings),
      rightBreastFinding: rng.pick(findings),
      dateTime: new Date(base + rng.int(-3 * 24, 3 * 24) * 3_600_000 + rng.int(0, 59) * 60_000),
      created: new Date(base + rng.int(0, 10 * 24) * 3_600_000),
    });
    let n = 0;
    const ids = async () => (await db.select({ id: scans.id }).from(scans)).map((r) => r.id);
    const someIds = async (k: number) => {
      const all = await ids();
      return Array.from({ length: Math.min(k, all.length) }, () => rng.pick(all));
    };

    for (let step = 0; step < 60; step++) {
      const op = rng.int(0, 8);
      let what = '';
      switch (op) {
        case 0:
        case 1: {
          const rows = Array.from({ length: rng.int(1, 12) }, () => randomScan(++n));
          await db.insert(scans).values(rows);
          what = `insert ${rows.length}`;
          break;
        }
        case 2: {
          const target = await someIds(rng.int(1, 5));
          await db
            .update(scans)
            .set({ organizationId: rng.pick(orgIds) })
            .where(inArray(scans.id, target));
          what = 'move organization';
          break;
        }
        case 3: {
          const target = await someIds(rng.int(1, 5));
          await db
            .update(scans)
            .set({ scanType: rng.pick(types) })
            .where(inArray(scans.id, target));
          what = 'change type';
          break;
        }
        case 4: {
          const target = await someIds(rng.int(1, 5));
          await db
            .update(scans)
            .set({ leftBreastFinding: rng.pick(findings), rightBreastFinding: rng.pick(findings) })
            .where(inArray(scans.id, target));
          what = 'change findings';
          break;
        }
        case 5: {
          const target = await someIds(rng.int(1, 4));
          await db
            .update(scans)
            .set({ technicianId: rng.pick(techIds), deviceSerialNumber: rng.pick(serials) })
            .where(inArray(scans.id, target));
          what = 'move technician and device';
          break;
        }
        case 6: {
          const target = await someIds(rng.int(1, 4));
          await db
            .update(scans)
            .set({
              dateTime: sql`${scans.dateTime} + interval '5 hours'`,
              created: sql`${scans.created} - interval '1 day'`,
            })
            .where(inArray(scans.id, target));
          what = 'move in time';
          break;
        }
        case 7: {
          const target = await someIds(rng.int(1, 6));
          await db.delete(scans).where(inArray(scans.id, target));
          what = 'delete';
          break;
        }
        case 8: {
          // An update that touches nothing counted changes nothing.
          const target = await someIds(3);
          await db
            .update(scans)
            .set({ notes: { message: `step ${step}` } })
            .where(inArray(scans.id, target));
          what = 'notes only';
          break;
        }
      }
      await expectExact(`step ${step}: ${what}`);
    }
    expect((await ids()).length).toBeGreaterThan(10);

    // Deleting an organization sets its scans' organization to NULL (a cascade the triggers see too).
    await db.delete(organizations).where(inArray(organizations.id, [orgs[3]!.id]));
    await expectExact('organization deleted');
    orgIds.splice(orgIds.indexOf(orgs[3]!.id), 1);

    // A bulk load with the triggers off, then one rebuild.
    await setScanStatsTriggers(t.database, false);
    await db.insert(scans).values(Array.from({ length: 40 }, () => randomScan(++n)));
    expect(await stored()).not.toEqual(await recount());
    await setScanStatsTriggers(t.database, true);
    await rebuildScanStats(t.database);
    await expectExact('rebuilt');

    await db.execute(sql`TRUNCATE scans CASCADE`);
    await expectExact('truncated');
    expect((await stored()).orgTotal).toEqual([]);
  });

  it("keeps an organization's last sync at its latest remaining scan when the latest is deleted or moved", async () => {
    const a = await createOrganization(t);
    const b = await createOrganization(t);
    const at = (d: number) => new Date(Date.UTC(2026, 0, 10) + d * DAY);
    const [older, newer] = await db
      .insert(scans)
      .values([
        { organizationId: a.id, localDbId: 'ls-1', dateTime: at(0), created: at(1), scanType: 'TRAINING' },
        { organizationId: a.id, localDbId: 'ls-2', dateTime: at(0), created: at(5), scanType: 'SCAN' },
      ])
      .returning();
    const lastSync = async (orgId: number) =>
      (
        await t.database.query<{ last_sync: Date | null }>(
          'SELECT last_sync FROM scan_stats_org_total WHERE organization_id = $1',
          [orgId],
        )
      )[0]?.last_sync ?? null;
    expect(await lastSync(a.id)).toEqual(at(5));
    await db
      .update(scans)
      .set({ organizationId: b.id })
      .where(inArray(scans.id, [newer!.id]));
    expect(await lastSync(a.id)).toEqual(at(1));
    expect(await lastSync(b.id)).toEqual(at(5));
    await db.delete(scans).where(inArray(scans.id, [older!.id]));
    expect(await lastSync(a.id)).toBeNull();
  });
});
