// The recount test of the trash (issue 27): on a small data set, every list count, dashboard tile, leaderboard,
// device and technician row, chart, map point, follow-up figure and CSV row count is taken; a patient with scans
// (one a duplicate), a cervical and an ORCA exam and a follow-up case is deleted: each figure drops by exactly its
// rows and every pre-aggregate table equals a recount from the raw tables; a restore brings every figure and table
// back exactly. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
import { describe, expect, it } from 'vitest';
import { decodeScanPoints } from '@sc/shared/scan-points';
import type { TTrashList } from '@sc/shared/trash';
import { cervicalExams, followUpEntries, orcaExams, patients, scans } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { parseCsv } from '../../test/csv.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import { createCase } from '../follow-up/follow-up.fixtures.ts';

const t = await setupTestApp();
const { db } = t.database;
const API = '/api/v1';
const RANGE = 'custom_range=2026-01-01,2026-07-01';

let admin = '';

const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url: `${API}${url}`, headers: { ...auth(admin), timezone: 'UTC' } });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res;
};
const json = async <T = Record<string, unknown>>(url: string) => (await get(url)).json() as T;
const countOf = async (url: string) => (await json<{ count: number }>(url)).count;
const csvRows = async (url: string) => parseCsv((await get(url)).body).length - 1;
const mapPoints = async () => decodeScanPoints(new Uint8Array((await get(`/scan/lat-long/?${RANGE}`)).rawPayload).buffer).count;

/** What the console shows, through HTTP. */
async function figures() {
  return {
    patients: await countOf('/patient/'),
    scans: await countOf('/scan/'),
    cervical: await countOf('/cervaical/'),
    orca: await countOf('/orca/'),
    scanCsv: await csvRows('/scan/?format=csv'),
    mapPoints: await mapPoints(),
    dashboard: await json(`/scan/dashboard/?${RANGE}`),
    chart: await json(`/scan/dashboard/chart/?${RANGE}`),
    devices: await json(`/scan/device-positive/?${RANGE}`),
    technicians: await json(`/organization/technician-positive/?${RANGE}`),
    leaderboard: await json(`/organization/leaderboard/?${RANGE}`),
    leaderboardCsv: await csvRows(`/organization/leaderboard/?format=csv&${RANGE}`),
    followUp: await json<{ screen_positives: number }>('/follow-up/figures/'),
    followUpOrgs: await json('/follow-up/figures/organizations/'),
  };
}

const lines = async (text: string) => (await t.database.query(text)).map((r) => JSON.stringify(r));
const day = `((date_time AT TIME ZONE 'UTC')::date)::text`;

/** Every pre-aggregate table, as stored (rows that dropped to zero are the same as no row). */
async function stored() {
  return {
    listCounts: await lines(`SELECT list, organization_id, n::int AS n FROM list_counts WHERE n <> 0 ORDER BY 1, 2`),
    hours: await lines(`SELECT organization_id, hour, n::int AS n FROM scan_hour_counts WHERE n <> 0 ORDER BY 1, 2`),
    orgDaily: await lines(`SELECT day::text, organization_id, scans, positives FROM scan_stats_org_daily
      WHERE scans <> 0 OR positives <> 0 ORDER BY 1, 2`),
    technicianDaily: await lines(`SELECT day::text, technician_id, organization_id, scans, positives
      FROM scan_stats_technician_daily WHERE scans <> 0 OR positives <> 0 ORDER BY 1, 2, 3`),
    deviceDaily: await lines(`SELECT day::text, device_serial_number, organization_id, scans, positives
      FROM scan_stats_device_daily WHERE scans <> 0 OR positives <> 0 ORDER BY 1, 2, 3`),
    orgTotal: await lines(`SELECT organization_id, scans, positives FROM scan_stats_org_total
      WHERE scans <> 0 OR positives <> 0 ORDER BY 1`),
    pointDays: await lines(`SELECT organization_id, day::text, length(points) / 12 AS n FROM scan_point_days
      WHERE length(points) > 0 ORDER BY 1, 2`),
  };
}

/** The same tables counted from the raw rows (the definition they must match). */
async function recount() {
  return {
    listCounts: await lines(`SELECT 'patients' AS list, organization_id, count(*)::int AS n FROM patients GROUP BY 2
      UNION ALL SELECT 'scans', organization_id, count(*)::int FROM scans GROUP BY 2 ORDER BY 1, 2`),
    hours: await lines(`SELECT organization_id, date_trunc('hour', date_time, 'UTC') AS hour, count(*)::int AS n
      FROM scans GROUP BY 1, 2 ORDER BY 1, 2`),
    orgDaily: await lines(`SELECT ${day} AS day, organization_id, count(*)::int AS scans,
      (count(*) FILTER (WHERE is_positive))::int AS positives FROM scans WHERE scan_type = 'SCAN' GROUP BY 1, 2 ORDER BY 1, 2`),
    technicianDaily: await lines(`SELECT ${day} AS day, technician_id, organization_id, count(*)::int AS scans,
      (count(*) FILTER (WHERE is_positive))::int AS positives FROM scans
      WHERE scan_type = 'SCAN' AND technician_id IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
    deviceDaily: await lines(`SELECT ${day} AS day, device_serial_number, organization_id, count(*)::int AS scans,
      (count(*) FILTER (WHERE is_positive))::int AS positives FROM scans
      WHERE scan_type = 'SCAN' AND device_serial_number IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
    orgTotal: await lines(`SELECT organization_id, (count(*) FILTER (WHERE scan_type = 'SCAN'))::int AS scans,
      (count(*) FILTER (WHERE scan_type = 'SCAN' AND is_positive))::int AS positives
      FROM scans GROUP BY 1 HAVING count(*) FILTER (WHERE scan_type = 'SCAN') > 0 ORDER BY 1`),
    pointDays: await lines(`SELECT organization_id, ${day} AS day, count(*)::int AS n FROM scans
      WHERE latitude IS NOT NULL AND longitude IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`),
  };
}

async function expectExact(step: string) {
  expect(await stored(), step).toEqual(await recount());
}

describe('delete → trash → restore, recounted', () => {
  it('drops every figure by exactly the patient’s rows, and restores each one exactly', async () => {
    const clinics = [await createOrganization(t, { name: 'Recount A' }), await createOrganization(t, { name: 'Recount B' })];
    admin = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const techs = [
      await createUser(t, { userType: 'TECHNICIAN', organizationId: clinics[0]!.id }),
      await createUser(t, { userType: 'TECHNICIAN', organizationId: clinics[1]!.id }),
    ];
    // Six patients, each with 2–4 scans over January–March (every third positive, every fourth without a place),
    // a cervical and an ORCA exam for every other one, a follow-up case for the positives.
    let n = 0;
    const made: Array<{ patientId: number; scanIds: number[]; located: number; positives: number; cases: number }> = [];
    for (let p = 0; p < 6; p++) {
      const org = clinics[p % 2]!;
      const tech = techs[p % 2]!;
      const [patient] = await db
        .insert(patients)
        .values({ firstName: `Re${p}`, lastName: 'Count', organizationId: org.id, technicianId: tech.id })
        .returning();
      const scanIds: number[] = [];
      let located = 0;
      let positives = 0;
      for (let s = 0; s < 2 + (p % 3); s++) {
        n++;
        const isPositive = n % 3 === 0;
        const hasPlace = n % 4 !== 0;
        const [scan] = await db
          .insert(scans)
          .values({
            patientId: patient!.id,
            organizationId: org.id,
            technicianId: tech.id,
            parentScanId: s === 2 ? scanIds[0]! : null,
            dateTime: new Date(Date.UTC(2026, n % 3, 1 + n, 8 + (n % 5))),
            deviceSerialNumber: `IBE-R-${n % 2}`,
            localDbId: `r-${n}`,
            leftBreastFinding: isPositive ? ['MASS'] : [],
            latitude: hasPlace ? 12.9 + n / 100 : null,
            longitude: hasPlace ? 77.5 + n / 100 : null,
          } as typeof scans.$inferInsert)
          .returning();
        scanIds.push(scan!.id);
        if (hasPlace) located++;
        if (isPositive) positives++;
      }
      if (p % 2 === 0) {
        await db.insert(cervicalExams).values({ patientId: patient!.id, organizationId: org.id, technicianId: tech.id, dateTime: new Date(Date.UTC(2026, 1, 2 + p)) } as typeof cervicalExams.$inferInsert);
        await db.insert(orcaExams).values({ patientId: patient!.id, organizationId: org.id, technicianId: tech.id, dateTime: new Date(Date.UTC(2026, 1, 3 + p)) } as typeof orcaExams.$inferInsert);
      }
      let cases = 0;
      if (positives > 0) {
        const kase = await createCase(t, org.id, { patientId: patient!.id, source: { kind: 'SCAN', id: scanIds[0]! } });
        await db.insert(followUpEntries).values({ caseId: kase.id, kind: 'NOTE', note: 'Called', created: t.clock.now() } as typeof followUpEntries.$inferInsert);
        cases = 1;
      }
      made.push({ patientId: patient!.id, scanIds, located, positives, cases });
    }
    // The victim: four scans (one a duplicate), exams, a case.
    const victim = made.find((m) => m.scanIds.length === 4 && m.cases === 1)!;
    expect(victim).toBeDefined();
    await expectExact('loaded');
    const first = await figures();
    const firstTables = await stored();
    expect(first.scans).toBe(made.reduce((a, m) => a + m.scanIds.length, 0));

    const del = await t.app.inject({ method: 'DELETE', url: `${API}/patient/${victim.patientId}/`, headers: auth(admin) });
    expect(del.statusCode, del.body).toBe(200);
    await expectExact('after the delete');
    const after = await figures();
    const scanCount = victim.scanIds.length;
    expect(after.patients).toBe(first.patients - 1);
    expect(after.scans).toBe(first.scans - scanCount);
    expect(after.cervical).toBe(first.cervical - 1);
    expect(after.orca).toBe(first.orca - 1);
    expect(after.scanCsv).toBe(first.scanCsv - scanCount);
    expect(after.mapPoints).toBe(first.mapPoints - victim.located);
    expect(after.dashboard).toEqual({
      ...first.dashboard,
      scans_in_data_range_count: (first.dashboard.scans_in_data_range_count as number) - scanCount,
      positive_scans_in_data_range_count: (first.dashboard.positive_scans_in_data_range_count as number) - victim.positives,
      positivity_rate_in_data_range_count: after.dashboard.positivity_rate_in_data_range_count,
    });
    expect(after.followUp.screen_positives).toBe(first.followUp.screen_positives - 1);
    for (const key of ['chart', 'devices', 'technicians', 'leaderboard', 'followUpOrgs'] as const) {
      expect(after[key], key).not.toEqual(first[key]);
    }
    expect(after.leaderboardCsv).toBe(first.leaderboardCsv);

    const list = await json<TTrashList>('/trash/patients/');
    const entry = list.results.find((e) => e.target_id === victim.patientId)!;
    const restored = await t.app.inject({ method: 'POST', url: `${API}/trash/${entry.id}/restore/`, headers: auth(admin) });
    expect(restored.statusCode, restored.body).toBe(200);
    await expectExact('after the restore');
    expect(await figures()).toEqual(first);
    expect(await stored()).toEqual(firstTables);
    // The follow-up timeline came back whole (append-only: re-inserted, never updated).
    const entries = await t.database.query(
      `SELECT count(*)::int AS n FROM follow_up_entries e JOIN follow_up_cases c ON c.id = e.case_id WHERE c.patient_id = ${victim.patientId}`,
    );
    expect(entries).toEqual([{ n: 2 }]);
  }, 180_000);
});
