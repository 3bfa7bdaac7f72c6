// The scan map's first picture (GET scan/lat-long/cells/, issue 24): the points GET scan/lat-long/ answers for the
// same query, counted into 0.5° cells. Every cell's count is its points' (also at cell edges and across the
// antimeridian), under the same scope, filters and refusals as the points.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  SCAN_CELL_BYTES,
  ScanCellCounter,
  decodeScanCells,
  decodeScanPoints,
  scanCellKey,
  type TScanCells,
} from '@sc/shared/scans';
import { patients, scans } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';

const t = await setupTestApp();
const { db } = t.database;
t.clock.set(new Date('2026-03-15T12:00:00Z'));

let admin = '';
let orgAdmin = '';
let technician = '';
let clinicId = 0;
let otherId = 0;
type Seeded = { id: number; organizationId: number; dateTime: Date; lat: number | null; lng: number | null; scanType: 'SCAN' | 'TRAINING' };
const seeded: Seeded[] = [];

const get = (path: string, query: string, token: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1/${path}?${query}`, headers: auth(token) });

async function cellsOf(query: string, token = admin): Promise<TScanCells> {
  const res = await get('scan/lat-long/cells/', query, token);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/octet-stream');
  const raw = new Uint8Array(res.rawPayload);
  expect(raw.byteLength % SCAN_CELL_BYTES).toBe(0);
  return decodeScanCells(raw.slice().buffer);
}

/** The points' answer for the same query, counted into cells here. */
async function cellsOfPoints(query: string, token = admin): Promise<TScanCells> {
  const res = await get('scan/lat-long/', query, token);
  expect(res.statusCode, res.body).toBe(200);
  const counter = new ScanCellCounter();
  counter.add(decodeScanPoints(new Uint8Array(res.rawPayload).slice().buffer));
  return decodeScanCells(counter.encode().slice().buffer);
}

/** Cell key → scans, from the seeded rows (float4 coordinates, as the database keeps them for the map). */
function expectedCounts(pred: (s: Seeded) => boolean): Map<number, number> {
  const out = new Map<number, number>();
  for (const s of seeded) {
    if (s.lat === null || s.lng === null || !pred(s)) continue;
    const key = scanCellKey(Math.fround(s.lat), Math.fround(s.lng));
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}
const countsOf = (cells: TScanCells) => new Map([...cells.keys].map((key, i) => [key, cells.counts[i]!]));

beforeAll(async () => {
  const clinic = await createOrganization(t, { name: 'Cells Clinic' });
  const other = await createOrganization(t, { name: 'Cells Elsewhere' });
  clinicId = clinic.id;
  otherId = other.id;
  admin = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
  orgAdmin = await signIn(t, await createUser(t, { userType: 'ORG_ADMIN', organizationId: clinic.id }));
  technician = await signIn(t, await createUser(t, { userType: 'TECHNICIAN', organizationId: clinic.id }));
  const [patient] = await db
    .insert(patients)
    .values({ firstName: 'Cea', lastName: 'Cells', organizationId: clinic.id })
    .returning();
  // Around a few places, some exactly on a cell's edge, the poles and the antimeridian; some without coordinates.
  const places: [number, number][] = [
    [18.52, 73.85], [18.5, 73.5], [18.49, 73.99], [-33.9, 18.4], [0, 0], [-0.25, -0.5], [90, 180], [-90, -180],
    [51.5, -0.12], [10.5, 179.75], [10.5, -179.75],
  ];
  for (let i = 0; i < 120; i++) {
    const located = i % 9 !== 4;
    const [lat, lng] = places[i % places.length]!;
    const s: Omit<Seeded, 'id'> = {
      organizationId: i % 3 ? clinic.id : other.id,
      dateTime: new Date(Date.UTC(2026, 1, 1, 3) + (i % 40) * 86_400_000 + i * 60_000),
      lat: located ? lat + ((i * 7) % 10) / 1000 : null,
      lng: located ? lng - ((i * 3) % 10) / 1000 : null,
      scanType: i % 4 ? 'SCAN' : 'TRAINING',
    };
    if (located && Math.abs(s.lng!) > 180) s.lng = lng;
    if (located && Math.abs(s.lat!) > 90) s.lat = lat;
    const [row] = await db
      .insert(scans)
      .values({
        patientId: patient!.id,
        organizationId: s.organizationId,
        localDbId: `cells-${i}`,
        dateTime: s.dateTime,
        latitude: s.lat,
        longitude: s.lng,
        scanType: s.scanType,
      })
      .returning();
    seeded.push({ ...s, id: row!.id });
  }
});

describe('GET scan/lat-long/cells/', () => {
  it.each([
    ['every scan', '', () => true],
    ['a period (Asia/Kolkata days)', 'date_time_after=2026-02-10&date_time_before=2026-02-28', (s: Seeded) =>
      s.dateTime >= new Date('2026-02-10T00:00:00+05:30') && s.dateTime < new Date('2026-03-01T00:00:00+05:30')],
    ['an organization', 'organization=ORG', (s: Seeded) => s.organizationId === clinicId],
    ['a filter read from the scans (scan type)', 'scan_type=TRAINING&date_time_after=2026-02-05&date_time_before=2026-03-15', (s: Seeded) =>
      s.scanType === 'TRAINING' && s.dateTime >= new Date('2026-02-05T00:00:00+05:30')],
  ])('counts the points of %s into their cells, every cell once in key order', async (_, rawQuery, pred) => {
    const query = rawQuery.replace('ORG', String(clinicId));
    const cells = await cellsOf(query);
    const want = expectedCounts(pred);
    expect(countsOf(cells)).toEqual(want);
    expect([...cells.keys]).toEqual([...want.keys()].sort((a, b) => a - b));
    // The same as counting the points' own answer.
    expect(cells).toEqual(await cellsOfPoints(query));
    expect(cells.count).toBeGreaterThan(3);
  });

  it("places each cell at its scans' mean and names one of its scans (the only one when it holds one)", async () => {
    const cells = await cellsOf('');
    for (let c = 0; c < cells.count; c++) {
      const members = seeded.filter((s) => s.lat !== null && scanCellKey(Math.fround(s.lat), Math.fround(s.lng!)) === cells.keys[c]);
      const meanLat = members.reduce((n, s) => n + Math.fround(s.lat!), 0) / members.length;
      const meanLng = members.reduce((n, s) => n + Math.fround(s.lng!), 0) / members.length;
      expect(cells.lat[c]).toBeCloseTo(meanLat, 4);
      expect(cells.lng[c]).toBeCloseTo(meanLng, 4);
      expect(members.map((s) => s.id)).toContain(cells.sampleIds[c]);
    }
  });

  it("gives an ORG_ADMIN their own organization's cells only, and refuses another's as the points do", async () => {
    expect(countsOf(await cellsOf('', orgAdmin))).toEqual(expectedCounts((s) => s.organizationId === clinicId));
    for (const path of ['scan/lat-long/', 'scan/lat-long/cells/']) {
      const res = await get(path, `organization=${otherId}`, orgAdmin);
      expect(res.statusCode, path).toBe(404);
    }
  });

  it('refuses what the points refuse, with the same answers (no 500)', async () => {
    const cases: [string, string][] = [
      ['date_time_after=not-a-date', admin],
      ['age_min=50&age_max=20', admin],
      ['', technician],
      ['duplicates=yes&is_parent_scan_id=true', orgAdmin],
    ];
    for (const [query, token] of cases) {
      const points = await get('scan/lat-long/', query, token);
      const cells = await get('scan/lat-long/cells/', query, token);
      expect(points.statusCode, query).toBeGreaterThanOrEqual(400);
      expect(points.statusCode, query).toBeLessThan(500);
      expect([cells.statusCode, cells.json()], query).toEqual([points.statusCode, points.json()]);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/scan/lat-long/cells/' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers a period without scans with no cells', async () => {
    const res = await get('scan/lat-long/cells/', 'date_time_after=2020-01-01&date_time_before=2020-01-31', admin);
    expect([res.statusCode, res.rawPayload.byteLength]).toEqual([200, 0]);
  });
});

describe('POST scan/lat-long/cells/ids/', () => {
  const post = (query: string, body: unknown, token = admin) =>
    t.app.inject({ method: 'POST', url: `/api/v1/scan/lat-long/cells/ids/?${query}`, headers: auth(token), payload: body as object });
  const idsIn = (keys: number[], pred: (s: Seeded) => boolean) =>
    seeded
      .filter((s) => s.lat !== null && pred(s) && keys.includes(scanCellKey(Math.fround(s.lat), Math.fround(s.lng!))))
      .map((s) => s.id)
      .sort((a, b) => a - b);

  it("lists the scans of the cells asked, under the query's filters and the caller's scope", async () => {
    const cells = await cellsOf('');
    const keys = [cells.keys[0]!, cells.keys[2]!, cells.keys[cells.count - 1]!];
    for (const [query, token, pred] of [
      ['', admin, () => true],
      ['scan_type=TRAINING', admin, (s: Seeded) => s.scanType === 'TRAINING'],
      ['', orgAdmin, (s: Seeded) => s.organizationId === clinicId],
    ] as const) {
      const res = await post(query, { cells: keys }, token);
      expect(res.statusCode, res.body).toBe(200);
      const ids = res.json<{ ids: number[] }>().ids.sort((a, b) => a - b);
      expect(ids, query).toEqual(idsIn(keys, pred));
    }
    // As many as the cell's count says.
    const res = await post('', { cells: [cells.keys[1]!] });
    expect(res.json<{ ids: number[] }>().ids).toHaveLength(cells.counts[1]!);
  });

  it('refuses a body that is not a list of cell keys, and a scope it cannot see, without a 500', async () => {
    for (const body of [{}, { cells: [] }, { cells: [-1] }, { cells: [259_200] }, { cells: ['x'] }, []]) {
      const res = await post('', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await post(`organization=${otherId}`, { cells: [1] }, orgAdmin)).statusCode).toBe(404);
    expect((await post('', { cells: [1] }, technician)).statusCode).toBe(403);
  });
});
