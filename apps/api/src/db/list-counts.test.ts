// list_counts (migration 0009) and scan_hour_counts (0017) must equal a full recount of scans and patients per
// organization (and UTC hour) after anything that writes them: inserts (one row and many), moves between
// organizations, corrected times, updates that move nothing, deletes, an organization's deletion (its rows'
// organization set to NULL) and a TRUNCATE; and the lists that read them must answer the same count as counting the
// rows, for each scope, all time and over periods whose edges are not whole UTC hours.
import { inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { organizations, patients, scans } from './schema/index.ts';
import { Rng } from '../demo/rng.ts';
import { setupTestApp } from '../test/app.ts';
import { createOrganization } from '../test/factories.ts';
import { countFromTotals, splitIntoHours } from './list-counts.ts';
import { countScans, type ScanFilters } from '../modules/scans/scan-list.queries.ts';

const t = await setupTestApp();
const db = t.database.db;

const line = (r: Record<string, unknown>) => JSON.stringify(r);

async function stored(): Promise<string[]> {
  const rows = await t.database.query(
    `SELECT list, organization_id, n::int AS n FROM list_counts WHERE n <> 0 ORDER BY 1, 2`,
  );
  return rows.map(line);
}

async function storedHours(): Promise<string[]> {
  const rows = await t.database.query(
    `SELECT organization_id, hour, n::int AS n FROM scan_hour_counts WHERE n <> 0 ORDER BY 1, 2`,
  );
  return rows.map(line);
}

async function recountHours(): Promise<string[]> {
  const rows = await t.database.query(
    `SELECT organization_id, date_trunc('hour', date_time, 'UTC') AS hour, count(*)::int AS n FROM scans
     GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  return rows.map(line);
}

async function recount(): Promise<string[]> {
  const rows = await t.database.query(
    `SELECT 'patients' AS list, organization_id, count(*)::int AS n FROM patients GROUP BY 2
     UNION ALL SELECT 'scans', organization_id, count(*)::int FROM scans GROUP BY 2 ORDER BY 1, 2`,
  );
  return rows.map(line);
}

async function expectExact(step: string) {
  expect(await stored(), step).toEqual(await recount());
  expect(await storedHours(), step).toEqual(await recountHours());
}

describe('list_counts', () => {
  it('stays equal to a full recount through a random sequence of inserts, moves and deletes', async () => {
    const rng = new Rng(20261124);
    const orgs = await Promise.all([1, 2, 3].map(() => createOrganization(t)));
    const orgIds: (number | null)[] = [...orgs.map((o) => o.id), null];
    let n = 0;
    const idsOf = async (table: typeof scans | typeof patients) =>
      (await db.select({ id: table.id }).from(table)).map((r) => r.id);
    const some = async (table: typeof scans | typeof patients, k: number) => {
      const all = await idsOf(table);
      return Array.from({ length: Math.min(k, all.length) }, () => rng.pick(all));
    };

    for (let step = 0; step < 50; step++) {
      const op = rng.int(0, 8);
      let what = '';
      switch (op) {
        case 0: {
          const rows = Array.from({ length: rng.int(1, 8) }, () => ({
            firstName: `P${++n}`,
            organizationId: rng.pick(orgIds),
          }));
          await db.insert(patients).values(rows);
          what = `insert ${rows.length} patients`;
          break;
        }
        case 1:
        case 2: {
          const patientIds = await idsOf(patients);
          if (patientIds.length === 0) continue;
          const rows = Array.from({ length: rng.int(1, 10) }, () => ({
            patientId: rng.pick(patientIds),
            organizationId: rng.pick(orgIds),
            localDbId: `lc-${++n}`,
            // Spread over three days, to the second: many hours, several scans in some.
            dateTime: new Date(Date.UTC(2026, 5, 1) + rng.int(0, 72 * 60) * 60_000 + rng.int(0, 59) * 1000),
          }));
          await db.insert(scans).values(rows);
          what = `insert ${rows.length} scans`;
          break;
        }
        case 3: {
          await db
            .update(scans)
            .set({ organizationId: rng.pick(orgIds) })
            .where(inArray(scans.id, await some(scans, rng.int(1, 5))));
          what = 'move scans';
          break;
        }
        case 4: {
          await db
            .update(patients)
            .set({ organizationId: rng.pick(orgIds) })
            .where(inArray(patients.id, await some(patients, rng.int(1, 4))));
          what = 'move patients';
          break;
        }
        case 5: {
          await db
            .update(scans)
            .set({ notes: { message: `step ${step}` } })
            .where(inArray(scans.id, await some(scans, 3)));
          what = 'notes only';
          break;
        }
        case 6: {
          await db.delete(scans).where(inArray(scans.id, await some(scans, rng.int(1, 5))));
          what = 'delete scans';
          break;
        }
        case 8: {
          await db
            .update(scans)
            .set({ dateTime: sql`${scans.dateTime} + interval '${sql.raw(String(rng.int(1, 300)))} minutes'` })
            .where(inArray(scans.id, await some(scans, rng.int(1, 5))));
          what = 'correct scan times';
          break;
        }
        case 7: {
          // A patient's scans go with it (ON DELETE CASCADE): both lists change in one statement.
          await db.delete(patients).where(inArray(patients.id, await some(patients, 1)));
          what = 'delete a patient';
          break;
        }
      }
      await expectExact(`step ${step}: ${what}`);
    }
    expect((await idsOf(scans)).length).toBeGreaterThan(5);

    // Unfiltered counts per scope, one organization, assigned and unassigned: the same as counting rows.
    const orgA = orgs[0]!.id;
    const direct = async (table: 'scans' | 'patients', where: string) =>
      Number((await t.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`))[0]?.n);
    for (const table of ['scans', 'patients'] as const) {
      expect(await countFromTotals(db, table, { kind: 'all' }, undefined, undefined)).toBe(await direct(table, 'true'));
      expect(await countFromTotals(db, table, { kind: 'all' }, orgA, undefined)).toBe(
        await direct(table, `organization_id = ${orgA}`),
      );
      expect(await countFromTotals(db, table, { kind: 'all' }, undefined, false)).toBe(
        await direct(table, 'organization_id IS NULL'),
      );
      expect(await countFromTotals(db, table, { kind: 'all' }, undefined, true)).toBe(
        await direct(table, 'organization_id IS NOT NULL'),
      );
      expect(await countFromTotals(db, table, { kind: 'orgs', exact: [orgA], subtreePaths: [] }, undefined, undefined)).toBe(
        await direct(table, `organization_id = ${orgA}`),
      );
      expect(await countFromTotals(db, table, { kind: 'none' }, undefined, undefined)).toBe(0);
    }

    // Counts over periods (scan_hour_counts plus the partial edge hours) equal counting the rows: local days in
    // +5:30 (edges at half past), whole UTC hours, a period inside one hour, open ends, each scope.
    const day = (d: number, h = 0, m = 0) => new Date(Date.UTC(2026, 5, d, h, m));
    const periods = [
      { from: day(1, 18, 30), to: day(2, 18, 30) },
      { from: day(1, 18, 15), to: day(3, 18, 45) },
      { from: day(1), to: day(4) },
      { from: day(2, 5, 10), to: day(2, 5, 50) },
      { from: day(2, 7, 30) },
      { to: day(2, 7, 30) },
      { from: day(2, 7, 30), to: day(2, 7, 30) },
    ];
    const scopes = [
      { kind: 'all' as const },
      { kind: 'orgs' as const, exact: [orgA], subtreePaths: [] },
      { kind: 'none' as const },
    ];
    // Scans inside the partial hours at the periods' edges and just outside them, in orgA and unassigned.
    const edgePatient = (await idsOf(patients))[0]!;
    await db.insert(scans).values(
      [day(1, 18, 20), day(1, 18, 40), day(2, 18, 20), day(2, 18, 40), day(3, 18, 50), day(2, 5, 5), day(2, 5, 20),
        day(2, 7, 10), day(2, 7, 45)].flatMap((dateTime, i) => [
        { patientId: edgePatient, organizationId: orgA, localDbId: `edge-a-${i}`, dateTime },
        { patientId: edgePatient, organizationId: null, localDbId: `edge-n-${i}`, dateTime },
      ]),
    );
    await expectExact('edge scans');
    const iso = (d: Date | undefined) => (d ? `'${d.toISOString()}'` : null);
    let periodsWithEdges = 0;
    for (const range of periods) {
      if ((splitIntoHours(range)?.edges.length ?? 0) > 0) periodsWithEdges++;
      const where = [
        range.from ? `date_time >= ${iso(range.from)}` : 'true',
        range.to ? `date_time < ${iso(range.to)}` : 'true',
      ].join(' AND ');
      for (const scope of scopes) {
        for (const extra of [{}, { organizationId: orgA }, { hasOrganization: false }, { hasOrganization: true }]) {
          const f: ScanFilters = { range, ...extra };
          const conditions = [
            where,
            scope.kind === 'none' ? 'false' : scope.kind === 'orgs' ? `organization_id = ${orgA}` : 'true',
            'organizationId' in extra ? `organization_id = ${orgA}` : 'true',
            'hasOrganization' in extra ? `organization_id IS ${extra.hasOrganization ? 'NOT ' : ''}NULL` : 'true',
          ].join(' AND ');
          expect(await countScans(db, scope, f), `${JSON.stringify(range)} ${scope.kind} ${JSON.stringify(extra)}`).toBe(
            await direct('scans', conditions),
          );
        }
      }
    }
    expect(periodsWithEdges).toBeGreaterThanOrEqual(4);

    await db.delete(organizations).where(inArray(organizations.id, [orgs[2]!.id]));
    await expectExact('organization deleted');

    await db.execute(sql`TRUNCATE scans CASCADE`);
    await expectExact('scans truncated');
    await db.execute(sql`TRUNCATE patients CASCADE`);
    await expectExact('patients truncated');
    expect(await stored()).toEqual([]);
  }, 180_000);
});
