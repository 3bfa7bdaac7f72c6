// The console's breast scans (part 2 §2.7–2.9, §6, §7, §9): every filter alone and combined against an oracle
// computed from the seeded rows, scope per role, ids, duplicates, transfer, delete, CSV and map points.
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  SCAN_CSV_COLUMNS,
  SCAN_CSV_TIME_COLUMNS,
  SCAN_MESSAGES_CONSOLE,
  decodeScanPoints,
  type TScanRow,
} from '@sc/shared/scans';
import { csvHeader } from '@sc/shared/constants';
import type { TUserType } from '@sc/shared/roles';
import { auditLog, devices, patients, reportLogs, scans } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { parseCsv } from '../../test/csv.ts';
import { findScanForPresentation } from './scans.queries.ts';
import { presentScan } from './scans.presenter.ts';
import {
  auth,
  createOrganization,
  createUser,
  signIn,
  type OrganizationRow,
  type TestUser,
} from '../../test/factories.ts';

const t = await setupTestApp();
const { db } = t.database;
// Noon UTC on 15 March 2026: 17:30 in Asia/Kolkata, the default zone.
const NOW = new Date('2026-03-15T12:00:00Z');
t.clock.set(NOW);

let distributor: OrganizationRow;
let clinic: OrganizationRow;
let other: OrganizationRow;
const tokens = {} as Record<TUserType, string>;
let managerOfOther = '';
let orgAdminElsewhere = '';
let techClinic: TestUser;
let orgAdminClinic: TestUser;
let distAdmin: TestUser;
let techOther: TestUser;

type Seed = {
  id: number;
  organizationId: number | null;
  technicianId: number | null;
  patient: { id: number; age: number | null; name: string };
  device: string;
  sensor: string | null;
  technicianType: TUserType | null;
  scanType: 'SCAN' | 'TRAINING' | 'PRACTICE' | 'PRE_TRAINING';
  dateTime: Date;
  replay: boolean;
  survivor: boolean;
  left: string[];
  right: string[];
  symptoms: boolean;
  history: boolean;
  parentScanId: number | null;
  latitude: number | null;
  longitude: number | null;
};
const seeds: Seed[] = [];
let parentId = 0;

const list = async (query: string, token = tokens.ADMIN, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/scan/?limit=1000&${query}`,
    headers: { ...auth(token), ...headers },
  });

const idsOf = async (query: string, token = tokens.ADMIN): Promise<number[]> => {
  const res = await list(query, token);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ count: number; results: TScanRow[] }>();
  expect(body.count).toBe(body.results.length);
  return body.results.map((r) => r.id).sort((a, b) => a - b);
};

const oracle = (pred: (s: Seed) => boolean) =>
  seeds
    .filter(pred)
    .map((s) => s.id)
    .sort((a, b) => a - b);

beforeAll(async () => {
  distributor = await createOrganization(t, { name: 'Delta Distribution', canCreateOrganization: true });
  clinic = await createOrganization(t, { name: 'Clinic Under Delta', parentId: distributor.id });
  other = await createOrganization(t, { name: 'Kisumu Care' });
  techClinic = await createUser(t, {
    userType: 'TECHNICIAN',
    organizationId: clinic.id,
    firstName: 'Asha',
    lastName: 'Tech',
  });
  orgAdminClinic = await createUser(t, {
    userType: 'ORG_ADMIN',
    organizationId: clinic.id,
    firstName: 'Olga',
    lastName: 'Admin',
  });
  distAdmin = await createUser(t, {
    userType: 'DISTRIBUTOR_ADMIN',
    organizationId: distributor.id,
    firstName: 'Dev',
    lastName: 'Dist',
  });
  techOther = await createUser(t, {
    userType: 'TECHNICIAN',
    organizationId: other.id,
    firstName: 'Kofi',
    lastName: 'Tech',
  });
  for (const [type, org] of [
    ['ADMIN', null],
    ['SUB_ADMIN', null],
    ['MANAGER', null],
    ['CERVAICAL_REVIEWER', null],
  ] as const) {
    tokens[type] = await signIn(
      t,
      await createUser(t, {
        userType: type,
        organizationId: org,
        linkedOrganizationIds: type === 'MANAGER' ? [distributor.id] : [],
      }),
    );
  }
  tokens.DISTRIBUTOR_ADMIN = await signIn(t, distAdmin);
  tokens.ORG_ADMIN = await signIn(t, orgAdminClinic);
  tokens.TECHNICIAN = await signIn(t, techClinic);
  managerOfOther = await signIn(
    t,
    await createUser(t, { userType: 'MANAGER', linkedOrganizationIds: [other.id] }),
  );
  orgAdminElsewhere = await signIn(
    t,
    await createUser(t, { userType: 'ORG_ADMIN', organizationId: other.id }),
  );

  await db.insert(devices).values([{ serialNumber: 'IBE-A1' }, { serialNumber: 'IBE-B2' }]);

  const mkPatient = async (
    first: string,
    last: string,
    age: number | null,
    organizationId: number | null,
  ) => {
    const [p] = await db
      .insert(patients)
      .values({
        firstName: first,
        lastName: last,
        age,
        organizationId,
        mobile: '+91-98765' + String(age ?? 0).padStart(5, '0'),
        email: `${first.toLowerCase()}@example.com`,
        physicianName: 'Dr. Rao',
        dateOfBirth: first === 'Anna' ? '1996-01-02' : null,
      })
      .returning();
    return { id: p!.id, age, name: `${first} ${last}` };
  };
  const anna = await mkPatient('Anna', 'Sharma', 30, clinic.id);
  const maria = await mkPatient('Maria', 'Lopez', 55, other.id);
  const zoe = await mkPatient('Zoe', 'Kapoor', 70, distributor.id);
  const nobody = await mkPatient('Nadia', 'Noage', null, null);

  const day = (d: string, h = 6) => new Date(`${d}T${String(h).padStart(2, '0')}:00:00Z`);
  type Spec = Partial<Omit<Seed, 'id'>> & { patient: Seed['patient']; dateTime: Date };
  const add = async (spec: Spec) => {
    const s: Omit<Seed, 'id'> = {
      organizationId: clinic.id,
      technicianId: techClinic.id,
      technicianType: 'TECHNICIAN',
      device: 'IBE-A1',
      sensor: 'SEN-1',
      scanType: 'SCAN',
      replay: false,
      survivor: false,
      left: [],
      right: [],
      symptoms: false,
      history: false,
      parentScanId: null,
      latitude: 18.5,
      longitude: 73.8,
      ...spec,
    };
    const [row] = await db
      .insert(scans)
      .values({
        patientId: s.patient.id,
        organizationId: s.organizationId,
        technicianId: s.technicianId,
        deviceSerialNumber: s.device,
        sensorSerialNumber: s.sensor,
        softwareVersion: 'v2.1',
        scanType: s.scanType,
        dateTime: s.dateTime,
        isReplayAvailable: s.replay,
        isSurvivor: s.survivor,
        leftBreastFinding: s.left,
        rightBreastFinding: s.right,
        hasSymptoms: s.symptoms,
        hasFamilyHistory: s.history,
        parentScanId: s.parentScanId,
        latitude: s.latitude,
        longitude: s.longitude,
        localDbId: `l-${seeds.length}`,
        breastType: 2,
        notes: { message: 'Tender, on palpation, left' },
        metadata: { device: { device_model: 'Tab S9', manufacturer: 'Samsung', os_version: '14' } },
        scanFilesPath: { reports: [{ path: 'reports/a.pdf' }] },
      })
      .returning();
    seeds.push({ ...s, id: row!.id });
    return row!.id;
  };

  parentId = await add({
    patient: anna,
    dateTime: day('2026-03-15'),
    left: ['mass'],
    replay: true,
    symptoms: true,
  });
  await add({ patient: anna, dateTime: day('2026-03-15', 7), parentScanId: parentId, right: ['cyst'] });
  await add({
    patient: anna,
    dateTime: day('2026-03-14'),
    scanType: 'TRAINING',
    survivor: true,
    sensor: 'SEN-2',
  });
  await add({
    patient: anna,
    dateTime: day('2026-03-01'),
    scanType: 'PRACTICE',
    technicianId: orgAdminClinic.id,
    technicianType: 'ORG_ADMIN',
    history: true,
    latitude: null,
    longitude: null,
  });
  await add({
    patient: zoe,
    dateTime: day('2026-02-20'),
    organizationId: distributor.id,
    technicianId: distAdmin.id,
    technicianType: 'DISTRIBUTOR_ADMIN',
    device: 'IBE-B2',
    sensor: null,
    right: ['asymmetry'],
    survivor: true,
  });
  await add({
    patient: zoe,
    dateTime: day('2026-02-01'),
    organizationId: distributor.id,
    technicianId: distAdmin.id,
    technicianType: 'DISTRIBUTOR_ADMIN',
    scanType: 'PRE_TRAINING',
    replay: true,
    history: true,
  });
  await add({
    patient: maria,
    dateTime: day('2026-03-10'),
    organizationId: other.id,
    technicianId: techOther.id,
    device: 'IBE-B2',
    left: ['a'],
    right: ['b'],
    symptoms: true,
    history: true,
  });
  await add({
    patient: maria,
    dateTime: day('2025-12-31', 20),
    organizationId: other.id,
    technicianId: techOther.id,
    sensor: 'SEN-2',
  });
  await add({
    patient: nobody,
    dateTime: day('2026-03-12'),
    organizationId: null,
    technicianId: null,
    technicianType: null,
    device: 'IBE-X9',
  });
});

describe('GET scan/: roles and scope (architecture §6)', () => {
  it('answers 401 without a token and 403 to TECHNICIAN and CERVAICAL_REVIEWER', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/scan/' })).statusCode).toBe(401);
    for (const role of ['TECHNICIAN', 'CERVAICAL_REVIEWER'] as const) {
      const res = await list('', tokens[role]);
      expect(res.statusCode).toBe(403);
    }
  });

  it('shows each role the scans of its organizations only', async () => {
    expect(await idsOf('', tokens.ADMIN)).toEqual(oracle(() => true));
    expect(await idsOf('', tokens.SUB_ADMIN)).toEqual(oracle(() => true));
    const tree = [distributor.id, clinic.id];
    expect(await idsOf('', tokens.DISTRIBUTOR_ADMIN)).toEqual(
      oracle((s) => tree.includes(s.organizationId ?? -1)),
    );
    expect(await idsOf('', tokens.MANAGER)).toEqual(oracle((s) => tree.includes(s.organizationId ?? -1)));
    expect(await idsOf('', managerOfOther)).toEqual(oracle((s) => s.organizationId === other.id));
    expect(await idsOf('', tokens.ORG_ADMIN)).toEqual(oracle((s) => s.organizationId === clinic.id));
    expect(await idsOf('', orgAdminElsewhere)).toEqual(oracle((s) => s.organizationId === other.id));
  });

  it("lists nothing for a patient outside the caller's scope, never another organization's scans (issue 23.10)", async () => {
    const elsewhere = seeds.find((s) => s.organizationId === other.id)!;
    const mine = seeds.find((s) => s.organizationId === clinic.id)!;
    expect(await idsOf(`patient=${elsewhere.patient.id}`, tokens.ORG_ADMIN)).toEqual(
      oracle((s) => s.patient.id === elsewhere.patient.id && s.organizationId === clinic.id),
    );
    expect(await idsOf(`patient=${mine.patient.id}`, tokens.ORG_ADMIN)).toEqual(
      oracle((s) => s.patient.id === mine.patient.id && s.organizationId === clinic.id),
    );
    expect(await idsOf(`patient=${elsewhere.patient.id}`, tokens.ADMIN)).toEqual(
      oracle((s) => s.patient.id === elsewhere.patient.id),
    );
  });

  it('answers 404 for an organization filter outside the scope', async () => {
    expect((await list(`organization=${other.id}`, tokens.ORG_ADMIN)).statusCode).toBe(404);
    expect((await list(`organization=${clinic.id}`, tokens.ORG_ADMIN)).statusCode).toBe(200);
    expect((await list('organization=999999', tokens.ADMIN)).statusCode).toBe(404);
    // The scope check of an empty page (a page with rows proves its organization in scope): still 404 outside it,
    // an empty list inside it, whether the count is prepared (a period) or planned per call (a search).
    for (const filter of ['search=nobody-has-this-name', 'date_time_after=2001-01-01&date_time_before=2001-01-02']) {
      expect((await list(`organization=${other.id}&${filter}`, tokens.ORG_ADMIN)).statusCode).toBe(404);
      const inside = await list(`organization=${clinic.id}&${filter}`, tokens.ORG_ADMIN);
      expect(inside.statusCode).toBe(200);
      expect(inside.json()).toMatchObject({ count: 0, results: [] });
    }
  });

  it('refuses the duplicates and assigned filters to roles other than ADMIN and SUB_ADMIN', async () => {
    for (const q of ['is_parent_scan_id=true', `parent_scan_id=${parentId}`]) {
      const res = await list(q, tokens.DISTRIBUTOR_ADMIN);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: SCAN_MESSAGES_CONSOLE.onlyAdminsDuplicates });
      expect((await list(q, tokens.SUB_ADMIN)).statusCode).toBe(200);
    }
    expect((await list('is_organization_id=true', tokens.MANAGER)).statusCode).toBe(403);
  });
});

describe('GET scan/: every filter alone (part 2 §2.7, §7)', () => {
  const kolkata = (d: string) => new Date(`${d}T00:00:00+05:30`);
  const cases: [string, string | (() => string), (s: Seed) => boolean][] = [
    ['search by patient name (3 letters)', 'search=sha', (s) => s.patient.name.toLowerCase().includes('sha')],
    ['search by mobile', 'search=9876500070', (s) => s.patient.age === 70],
    ['search by scan ID with prefix', () => `search=S-${seeds[6]!.id}`, (s) => s.id === seeds[6]!.id],
    ['search with LIKE wildcards', 'search=%25_', () => false],
    [
      'date_time_after alone: that one day',
      'date_time_after=2026-03-15',
      (s) => s.dateTime >= kolkata('2026-03-15') && s.dateTime < kolkata('2026-03-16'),
    ],
    [
      'custom range',
      'date_time_after=2026-02-01&date_time_before=2026-03-10',
      (s) => s.dateTime >= kolkata('2026-02-01') && s.dateTime < kolkata('2026-03-11'),
    ],
    [
      'day=today',
      'day=today',
      (s) => s.dateTime >= kolkata('2026-03-15') && s.dateTime < kolkata('2026-03-16'),
    ],
    [
      'day=yesterday',
      'day=yesterday',
      (s) => s.dateTime >= kolkata('2026-03-14') && s.dateTime < kolkata('2026-03-15'),
    ],
    [
      'month=this_month',
      'month=this_month',
      (s) => s.dateTime >= kolkata('2026-03-01') && s.dateTime < kolkata('2026-04-01'),
    ],
    [
      'month=last_month',
      'month=last_month',
      (s) => s.dateTime >= kolkata('2026-02-01') && s.dateTime < kolkata('2026-03-01'),
    ],
    ['organization', () => `organization=${distributor.id}`, (s) => s.organizationId === distributor.id],
    ['organization_id alias', () => `organization_id=${other.id}`, (s) => s.organizationId === other.id],
    ['device_serial_number', 'device_serial_number=IBE-B2', (s) => s.device === 'IBE-B2'],
    ['device alias in another case', 'device=ibe-b2', (s) => s.device === 'IBE-B2'],
    ['unregistered device', 'device=IBE-X9', (s) => s.device === 'IBE-X9'],
    ['sensor_serial_number', 'sensor_serial_number=SEN-2', (s) => s.sensor === 'SEN-2'],
    ['technician', () => `technician=${distAdmin.id}`, (s) => s.technicianId === distAdmin.id],
    ['user_type ORG_ADMIN', 'user_type=ORG_ADMIN', (s) => s.technicianType === 'ORG_ADMIN'],
    ['user_type TECHNICIAN', 'user_type=TECHNICIAN', (s) => s.technicianType === 'TECHNICIAN'],
    ['scan_type', 'scan_type=TRAINING', (s) => s.scanType === 'TRAINING'],
    ['is_replay_available=true', 'is_replay_available=true', (s) => s.replay],
    ['is_replay_available=false', 'is_replay_available=false', (s) => !s.replay],
    ['survivor', 'survivor=true', (s) => s.survivor],
    ['is_positive=true', 'is_positive=true', (s) => s.left.length + s.right.length > 0],
    ['is_positive=false', 'is_positive=false', (s) => s.left.length + s.right.length === 0],
    ['left_breast_finding', 'left_breast_finding=true', (s) => s.left.length > 0],
    ['right_breast_finding=false', 'right_breast_finding=false', (s) => s.right.length === 0],
    ['symptoms', 'symptoms=true', (s) => s.symptoms],
    ['family_history', 'family_history=true', (s) => s.history],
    ['duplicates only', 'is_parent_scan_id=true', (s) => s.parentScanId !== null],
    ['originals only', 'is_parent_scan_id=false', (s) => s.parentScanId === null],
    ['assigned', 'is_organization_id=true', (s) => s.organizationId !== null],
    ['unassigned', 'is_organization_id=false', (s) => s.organizationId === null],
    ['age_min', 'age_min=50', (s) => (s.patient.age ?? -1) >= 50],
    ['age_max', 'age_max=55', (s) => s.patient.age !== null && s.patient.age <= 55],
    [
      'age range',
      'age_min=31&age_max=69',
      (s) => s.patient.age !== null && s.patient.age >= 31 && s.patient.age <= 69,
    ],
    ['patient', () => `patient=${seeds[6]!.patient.id}`, (s) => s.patient.id === seeds[6]!.patient.id],
    [
      'ids',
      () => `ids=${seeds[0]!.id},${seeds[4]!.id},999999`,
      (s) => s.id === seeds[0]!.id || s.id === seeds[4]!.id,
    ],
    [
      'parent_scan_id: the original and its duplicates',
      () => `parent_scan_id=${parentId}`,
      (s) => s.id === parentId || s.parentScanId === parentId,
    ],
  ];
  it.each(cases)('%s', async (_name, q, pred) => {
    const query = typeof q === 'function' ? q() : q;
    const expected = oracle(pred);
    expect(await idsOf(query)).toEqual(expected);
  });

  it('reads the dates in the Timezone header', async () => {
    // 2025-12-31T20:00Z is 2025-12-31 in UTC but 2026-01-01 in Kolkata.
    const late = seeds[7]!.id;
    const inUtc = await list('date_time_after=2025-12-31', tokens.ADMIN, { timezone: 'UTC' });
    expect(inUtc.json<{ results: TScanRow[] }>().results.map((r) => r.id)).toEqual([late]);
    const inKolkata = await list('date_time_after=2026-01-01', tokens.ADMIN);
    expect(inKolkata.json<{ results: TScanRow[] }>().results.map((r) => r.id)).toEqual([late]);
  });

  it('combines filters with AND', async () => {
    const combos: [string, (s: Seed) => boolean][] = [
      ['scan_type=SCAN&is_positive=true', (s) => s.scanType === 'SCAN' && s.left.length + s.right.length > 0],
      [
        `organization=${clinic.id}&symptoms=true&search=anna`,
        (s) => s.organizationId === clinic.id && s.symptoms,
      ],
      [
        'month=this_month&is_parent_scan_id=false&age_max=40&is_replay_available=true',
        (s) =>
          s.dateTime >= kolkata('2026-03-01') && s.parentScanId === null && s.patient.age === 30 && s.replay,
      ],
      [
        'survivor=true&family_history=false&user_type=DISTRIBUTOR_ADMIN',
        (s) => s.survivor && !s.history && s.technicianType === 'DISTRIBUTOR_ADMIN',
      ],
      [
        'device=IBE-B2&left_breast_finding=true&right_breast_finding=true',
        (s) => s.device === 'IBE-B2' && s.left.length > 0 && s.right.length > 0,
      ],
      [
        'sensor_serial_number=SEN-1&is_organization_id=true&date_time_after=2026-03-01&date_time_before=2026-03-31',
        (s) => s.sensor === 'SEN-1' && s.organizationId !== null && s.dateTime >= kolkata('2026-03-01'),
      ],
      [
        `technician=${techClinic.id}&scan_type=TRAINING&survivor=true&day=yesterday`,
        (s) => s.technicianId === techClinic.id && s.scanType === 'TRAINING',
      ],
      ['scan_type=SCAN&scan_type_unused=1&is_positive=false&symptoms=true', () => false],
    ];
    for (const [q, pred] of combos) expect(await idsOf(q), q).toEqual(oracle(pred));
    // A filter combined with the scope of an ORG_ADMIN.
    expect(await idsOf('is_positive=true', tokens.ORG_ADMIN)).toEqual(
      oracle((s) => s.organizationId === clinic.id && s.left.length + s.right.length > 0),
    );
  });
});

describe('GET scan/: bad input answers 400 on the field', () => {
  it.each([
    ['age_min=50&age_max=40', 'age_min'],
    ['age_max=121', 'age_max'],
    ['age_min=-1', 'age_min'],
    ['scan_type=XRAY', 'scan_type'],
    ['user_type=ADMIN', 'user_type'],
    ['survivor=maybe', 'survivor'],
    ['ids=1,abc', 'ids'],
    ['technician=0', 'technician'],
    ['ordering=password', 'ordering'],
    ['date_time_after=2026-02-30', 'date_time_after'],
    ['date_time_after=2026-03-10&date_time_before=2026-03-01', 'date_time_before'],
    ['format=xml', 'format'],
    ['device=IBE-A1&device_serial_number=IBE-B2', 'device'],
  ])('%s', async (q, field) => {
    const res = await list(q);
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json())).toContain(field);
  });
});

describe('GET scan/: rows, ordering and paging', () => {
  it('presents the row: prefix, patient, organization with id, technician with type, device id, duplicates', async () => {
    const res = await list(`parent_scan_id=${parentId}&ordering=id`, tokens.ADMIN);
    const [original, child] = res.json<{ results: TScanRow[] }>().results;
    expect(original).toMatchObject({
      id: parentId,
      display_id: `S-${parentId}`,
      patient: { first_name: 'Anna', last_name: 'Sharma', age: 30 },
      organization_data: { id: clinic.id, name: 'Clinic Under Delta' },
      technician_data: { id: techClinic.id, first_name: 'Asha', user_type: 'TECHNICIAN' },
      device_serial_number: 'IBE-A1',
      duplicates_count: 1,
      parent_scan_id: null,
      is_positive: true,
      review: null,
    });
    expect(original!.device_id).toEqual(expect.any(Number));
    expect(child).toMatchObject({ parent_scan_id: parentId, duplicates_count: 0 });
    const training = (await list('scan_type=TRAINING')).json<{ results: TScanRow[] }>().results[0]!;
    expect(training.display_id).toBe(`T-${training.id}`);
    expect(training.review).toBe('Unreviewed');
    const pt = (await list('scan_type=PRE_TRAINING')).json<{ results: TScanRow[] }>().results[0]!;
    expect(pt.display_id).toBe(`PT-${pt.id}`);
    const unassigned = (await list('is_organization_id=false')).json<{ results: TScanRow[] }>().results[0]!;
    expect(unassigned).toMatchObject({ organization_data: null, technician_data: null, device_id: null });
  });

  it('writes every §3 field of every row as the webhook body does (presentScan; the database builds the row)', async () => {
    // One scan with every kind of value: JSON documents, files, a fractional float, a date, microseconds (put back
    // after: the other tests read the seeded values).
    const [rich] = seeds;
    const [scanBefore] = await db.select().from(scans).where(eq(scans.id, rich!.id));
    const [patientBefore] = await db.select().from(patients).where(eq(patients.id, rich!.patient.id));
    try {
      await richRowMatchesWebhook(rich!);
    } finally {
      const { id: _s, isPositive: _generated, ...scanValues } = scanBefore!;
      const { id: _p, searchText: _alsoGenerated, ...patientValues } = patientBefore!;
      await db.update(scans).set(scanValues).where(eq(scans.id, rich!.id));
      await db.update(patients).set(patientValues).where(eq(patients.id, rich!.patient.id));
    }
  });

  async function richRowMatchesWebhook(rich: Seed) {
    await db
      .update(scans)
      .set({
        notes: { message: 'Lump, "left"\nside' },
        metadata: { device: { device_model: 'Tab S9', manufacturer: 'Samsung', os_version: '14' }, x: [1.5, { y: true }] },
        scanFilesPath: { reports: [{ path: 'reports/r1.pdf' }], consent_form: [{ path: 'consent/c1.pdf' }] },
        trainingScanObservation: { practice_verified: true, score: 0.1 },
        nextAppointmentDate: '2026-04-01',
        underBust: 0.1 + 0.2,
        overBust: 1e-7,
        hardwareVersion: 'HW ü 2',
        created: new Date('2026-03-14T08:09:10.987Z'),
      })
      .where(eq(scans.id, rich.id));
    await db.execute(sql`update scans set date_time = date_time + interval '123456 microseconds' where id = ${rich.id}`);
    await db
      .update(patients)
      .set({ dateOfBirth: '1996-02-29', mostRecentMammogramReport: ['m/1.pdf', 'm/2 "b".pdf'] })
      .where(eq(patients.id, rich.patient.id));
    const res = await list('');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json<{ results: TScanRow[] }>().results;
    expect(rows.length).toBe(seeds.length);
    for (const row of rows) {
      const found = await findScanForPresentation(db, row.id);
      const webhook = presentScan(found!);
      const { display_id: _d, device_id: _dev, duplicates_count: _c, review: _r, ...scan } = row;
      expect({ ...scan, organization_data: null, technician_data: null }, `scan ${row.id}`).toEqual({
        ...webhook,
        organization_data: null,
        technician_data: null,
      });
      const { user_type: _type, ...technician } = row.technician_data ?? { user_type: null };
      expect(row.technician_data === null ? null : technician).toEqual(webhook.technician_data);
      expect(row.organization_data?.name ?? null).toEqual(webhook.organization_data?.name ?? null);
    }
    const richRow = rows.find((r) => r.id === rich.id)!;
    expect(richRow).toMatchObject({ under_bust: 0.1 + 0.2, review: null, next_appointment_date: '2026-04-01' });
    expect(richRow.date_time).toMatch(/\.\d{3}Z$/);
  }

  it('orders newest first by default and by whitelisted fields', async () => {
    const res = await list('');
    const times = res.json<{ results: TScanRow[] }>().results.map((r) => r.date_time!);
    expect(times).toEqual([...times].sort().reverse());
    const byName = (await list('ordering=first_name,-id'))
      .json<{ results: TScanRow[] }>()
      .results.map((r) => r.patient?.first_name);
    expect(byName).toEqual([...byName].sort());
    for (const o of [
      'organization_name',
      '-technician_name',
      'device_serial_number',
      'created',
      'scan_type',
      'last_name',
      'sensor_serial_number',
    ]) {
      expect((await list(`ordering=${o}`)).statusCode).toBe(200);
    }
  });

  it('pages with count, next and previous; a page past the last is 404', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/scan/?limit=2&page=2',
      headers: auth(tokens.ADMIN),
    });
    const body = res.json<{
      count: number;
      next: string | null;
      previous: string | null;
      results: TScanRow[];
    }>();
    expect(body.count).toBe(seeds.length);
    expect(body.results).toHaveLength(2);
    expect(body.next).toContain('page=3');
    expect(body.previous).toBe('/api/v1/scan/?limit=2');
    const past = await t.app.inject({
      method: 'GET',
      url: '/api/v1/scan/?limit=2&page=50',
      headers: auth(tokens.ADMIN),
    });
    expect(past.statusCode).toBe(404);
  });

  it('answers empty with count 0 when nothing matches, and with using_read_db', async () => {
    const res = await list('search=zzzzzz&using_read_db=true');
    expect(res.json()).toMatchObject({ count: 0, results: [] });
  });
});

describe('POST scan/ids/ (the map cluster modal)', () => {
  const post = (body: unknown, token = tokens.ADMIN, query = '') =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/scan/ids/?${query}`,
      headers: auth(token),
      payload: body as object,
    });

  it('lists the given ids in scope, with the list filters and paging', async () => {
    const all = seeds.map((s) => s.id);
    const res = await post({ ids_list: [...all, 999999] }, tokens.ORG_ADMIN, 'ordering=id&limit=100');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ results: TScanRow[] }>().results.map((r) => r.id)).toEqual(
      oracle((s) => s.organizationId === clinic.id),
    );
    const filtered = await post({ ids_list: all }, tokens.ADMIN, 'scan_type=TRAINING');
    expect(filtered.json<{ count: number }>().count).toBe(1);
    const page = await post({ ids_list: all }, tokens.ADMIN, 'limit=3&page=2');
    expect(page.json<{ count: number; results: unknown[] }>()).toMatchObject({ count: seeds.length });
    expect(page.json<{ results: unknown[] }>().results).toHaveLength(3);
  });

  it('refuses an empty or malformed list and other roles', async () => {
    expect((await post({ ids_list: [] })).statusCode).toBe(400);
    expect(Object.keys((await post({ ids_list: ['a'] })).json())).toEqual(['ids_list.0']);
    expect((await post({})).json()).toHaveProperty('ids_list');
    expect((await post({ ids_list: [1] }, tokens.TECHNICIAN)).statusCode).toBe(403);
  });
});

describe('GET scan/lat-long/ (map points)', () => {
  const points = async (query: string, token = tokens.ADMIN) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/scan/lat-long/?${query}`,
      headers: auth(token),
    });
    return res;
  };

  it('packs id, latitude and longitude of every matching scan with coordinates as 12-byte little-endian records', async () => {
    const res = await points('');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    const raw = res.rawPayload;
    const decoded = decodeScanPoints(
      raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength) as ArrayBuffer,
    );
    const expected = oracle((s) => s.latitude !== null);
    // In no promised order (the database reads them by date).
    expect([...decoded.ids].sort((a, b) => a - b)).toEqual(expected);
    expect(raw.byteLength).toBe(expected.length * 12);
    expect(decoded.lat[0]).toBeCloseTo(18.5, 4);
    expect(decoded.lng[0]).toBeCloseTo(73.8, 4);
    // Little-endian: the first id's low byte comes first.
    expect(raw.readInt32LE(0)).toBe(decoded.ids[0]);
    expect(expected).toContain(raw.readInt32LE(0));
  });

  it('applies the list filters and the scope', async () => {
    const res = await points('survivor=true', tokens.ORG_ADMIN);
    const decoded = decodeScanPoints(new Uint8Array(res.rawPayload).buffer);
    expect([...decoded.ids].sort((a, b) => a - b)).toEqual(
      oracle((s) => s.organizationId === clinic.id && s.survivor && s.latitude !== null),
    );
    expect((await points('', tokens.TECHNICIAN)).statusCode).toBe(403);
    expect((await points('age_min=3&age_max=2')).statusCode).toBe(400);
    expect((await points('search=zzzz')).rawPayload.byteLength).toBe(0);
  });
});

describe('GET scan/?format=csv', () => {
  const csv = async (query: string, token = tokens.ADMIN) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/scan/?format=csv&${query}`,
      headers: auth(token),
    });
    return res;
  };

  it('streams the §9 columns with exactly the rows of the list (all pages), and records the download', async () => {
    for (const q of [
      '',
      'is_positive=true',
      `organization=${clinic.id}&month=this_month`,
      'search=sha&limit=1',
    ]) {
      const res = await csv(q);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      const name = /filename=scan_details_\d{4}-\d{2}-\d{2}(_\d{4}-\d{2}-\d{2})?\.csv/;
      expect(res.headers['content-disposition']).toMatch(name);
      const rows = parseCsv(res.body);
      expect(rows[0]).toEqual(csvHeader(SCAN_CSV_COLUMNS, SCAN_CSV_TIME_COLUMNS, 'Asia/Kolkata'));
      const listed = await t.app.inject({
        method: 'GET',
        url: `/api/v1/scan/?${q.replace('limit=1', 'limit=10')}`,
        headers: auth(tokens.ADMIN),
      });
      expect(rows.length - 1).toBe(listed.json<{ count: number }>().count);
    }
    const logs = await db.select().from(reportLogs).where(eq(reportLogs.api, '/api/v1/scan/'));
    expect(logs.length).toBeGreaterThanOrEqual(4);
  });

  it('writes positive as any finding, notes without commas, flags as Yes/No, IDs with prefixes', async () => {
    const res = await csv(`parent_scan_id=${parentId}`);
    const rows = parseCsv(res.body, { columns: true });
    const original = rows.find((r) => r.ID === `S-${parentId}`)!;
    expect(original).toMatchObject({
      'First Name': 'Anna',
      'Last Name': 'Sharma',
      Age: '30',
      'Is Positive': 'Yes',
      'Left Breast Finding': 'mass',
      Notes: 'Tender  on palpation  left',
      Symptoms: 'Yes',
      Survivor: 'No',
      'Breast Type': 'Medium',
      'Device Serial Number': 'IBE-A1',
      'Physician Name': 'Dr. Rao',
      'Date of Birth': '1996-01-02',
      Email: 'anna@example.com',
      // A spreadsheet would evaluate +91-… as a formula: written as text (csvCell).
      Mobile: "'+91-9876500030",
      'Technician Name': 'Asha Tech',
      'Date Time (Asia/Kolkata)': '2026-03-15 11:30',
      Organization: clinic.name,
    });
    const negative = parseCsv((await csv('is_positive=false')).body, { columns: true })[0]!;
    expect(negative['Is Positive']).toBe('No');
  });

  it('writes the bytes csvFile writes: formulas as text, quotes only around a comma, quote or line break, empty cells bare', async () => {
    // PostgreSQL writes the file with COPY, PGlite with csvFile: both must give these exact bytes.
    const [p] = await db
      .insert(patients)
      .values({ firstName: 'Jo "JJ"', lastName: '', mobile: '+91-98765', email: 'a,b@example.com' })
      .returning();
    const [base] = await db.select().from(scans).limit(1);
    const { id: _id, isPositive: _positive, ...rest } = base!;
    const [s] = await db
      .insert(scans)
      .values({
        ...rest,
        patientId: p!.id,
        organizationId: clinic.id,
        technicianId: null,
        parentScanId: null,
        localDbId: 'csv-bytes',
        scanType: 'SCAN',
        dateTime: new Date('2026-03-15T06:00:00Z'),
        breastType: 2,
        leftBreastFinding: ['mass', 'cyst'],
        rightBreastFinding: [],
        notes: { message: 'one\r\ntwo\rthree\nfour, five' },
        isSurvivor: false,
        hasFamilyHistory: false,
        hasSymptoms: false,
        deviceSerialNumber: 'IBE-A1',
        sensorSerialNumber: null,
        softwareVersion: 'v2.1',
      })
      .returning();
    try {
      const res = await csv(`patient=${p!.id}`);
      expect(res.body).toBe(
        `\uFEFF${csvHeader(SCAN_CSV_COLUMNS, SCAN_CSV_TIME_COLUMNS, 'Asia/Kolkata').join(',')}\n` +
          `"Jo ""JJ""",,,,'+91-98765,"a,b@example.com",S-${s!.id},,2026-03-15 11:30,${clinic.name},,Medium,Yes,` +
          'mass; cyst,,' +
          'one two three four  five,No,No,No,IBE-A1,,v2.1,\n',
      );
    } finally {
      await db.delete(scans).where(eq(scans.id, s!.id));
      await db.delete(patients).where(eq(patients.id, p!.id));
    }
  });

  it('keeps the scope and the role rules', async () => {
    const res = await csv('', tokens.ORG_ADMIN);
    expect(parseCsv(res.body).length - 1).toBe(oracle((s) => s.organizationId === clinic.id).length);
    expect((await csv('', tokens.TECHNICIAN)).statusCode).toBe(403);
    expect((await csv('is_parent_scan_id=true', tokens.ORG_ADMIN)).statusCode).toBe(403);
  });
});

describe('GET scan/{id}/', () => {
  it('shows the scan with the view dialog facts; 404 outside the scope', async () => {
    const child = seeds[1]!;
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/scan/${child.id}/`,
      headers: auth(tokens.ORG_ADMIN),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: child.id,
      device_table: {
        device_serial_number: 'IBE-A1',
        mobile_model: 'Tab S9',
        manufacturer: 'Samsung',
        os_version: '14',
        software_version: 'v2.1',
      },
      patient_gender: 'FEMALE',
      parent: { id: parentId, display_id: `S-${parentId}` },
      scan_files_path: { reports: [{ path: 'reports/a.pdf' }] },
    });
    const maria = seeds[6]!;
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/scan/${maria.id}/`,
          headers: auth(tokens.ORG_ADMIN),
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/scan/abc/', headers: auth(tokens.ADMIN) }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/scan/${maria.id}/`,
          headers: auth(tokens.TECHNICIAN),
        })
      ).statusCode,
    ).toBe(403);
  });

  it('downloads its CSV line, recorded in the report log', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/scan/${parentId}/?format=csv`,
      headers: auth(tokens.ADMIN),
    });
    const rows = parseCsv(res.body);
    expect(rows).toHaveLength(2);
    expect(rows[1]![6]).toBe(`S-${parentId}`);
    const logs = await db
      .select()
      .from(reportLogs)
      .where(eq(reportLogs.api, `/api/v1/scan/${parentId}/`));
    expect(logs).toHaveLength(1);
  });
});

describe('GET scan/sensor-serial-numbers/ and scan/devices/', () => {
  it('lists the distinct serials of the scans in scope, by prefix', async () => {
    const sensors = await t.app.inject({
      method: 'GET',
      url: '/api/v1/scan/sensor-serial-numbers/',
      headers: auth(tokens.ADMIN),
    });
    expect(sensors.json()).toEqual({ sensor_serial_numbers: ['SEN-1', 'SEN-2'] });
    const devicesRes = await t.app.inject({
      method: 'GET',
      url: '/api/v1/scan/devices/?search=ibe-b',
      headers: auth(tokens.ORG_ADMIN),
    });
    expect(devicesRes.json()).toEqual({ devices: [] });
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/v1/scan/devices/',
      headers: auth(managerOfOther),
    });
    expect(all.json()).toEqual({ devices: ['IBE-A1', 'IBE-B2'] });
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/scan/devices/?organization=${other.id}`,
          headers: auth(tokens.ORG_ADMIN),
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('POST scan/{id}/transfer/ (part 2 §2.9)', () => {
  const transfer = (id: number, body: unknown, token = tokens.ADMIN) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/scan/${id}/transfer/`,
      headers: auth(token),
      payload: body as object,
    });

  it('needs both fields, a target in scope and a technician of the target organization', async () => {
    const id = seeds[2]!.id;
    expect((await transfer(id, { organization_id: other.id })).json()).toHaveProperty('technician_id');
    expect((await transfer(id, { technician_id: techOther.id })).json()).toHaveProperty('organization_id');
    // A technician of another organization.
    const wrong = await transfer(id, { organization_id: other.id, technician_id: techClinic.id });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ technician_id: [SCAN_MESSAGES_CONSOLE.technicianNotOfOrganization] });
    // Not a scanning type: a MANAGER is not a candidate.
    const manager = await createUser(t, { userType: 'MANAGER', organizationId: other.id });
    expect((await transfer(id, { organization_id: other.id, technician_id: manager.id })).statusCode).toBe(
      400,
    );
    // An inactive technician.
    const gone = await createUser(t, { userType: 'TECHNICIAN', organizationId: other.id, isValid: false });
    expect((await transfer(id, { organization_id: other.id, technician_id: gone.id })).statusCode).toBe(400);
    // The target organization outside the ORG_ADMIN's scope.
    const outside = await transfer(
      id,
      { organization_id: other.id, technician_id: techOther.id },
      tokens.ORG_ADMIN,
    );
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toHaveProperty('organization_id');
    // A scan outside the caller's scope: 404; refused roles: 403.
    expect(
      (
        await transfer(
          seeds[6]!.id,
          { organization_id: clinic.id, technician_id: techClinic.id },
          tokens.ORG_ADMIN,
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (await transfer(id, { organization_id: clinic.id, technician_id: techClinic.id }, tokens.TECHNICIAN))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await transfer(
          id,
          { organization_id: clinic.id, technician_id: techClinic.id },
          tokens.CERVAICAL_REVIEWER,
        )
      ).statusCode,
    ).toBe(403);
    // Already there.
    expect((await transfer(id, { organization_id: clinic.id, technician_id: techClinic.id })).json()).toEqual(
      {
        non_field_errors: [SCAN_MESSAGES_CONSOLE.sameOwner],
      },
    );
    const [row] = await db.select().from(scans).where(eq(scans.id, id));
    expect(row).toMatchObject({ organizationId: clinic.id, technicianId: techClinic.id });
  });

  it('moves the scan within the ORG_ADMIN organization to another of its technicians', async () => {
    const id = seeds[2]!.id;
    const res = await transfer(
      id,
      { organization_id: clinic.id, technician_id: orgAdminClinic.id },
      tokens.ORG_ADMIN,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      detail: 'Scan Transferred Successfully',
      technician_data: { id: orgAdminClinic.id },
    });
    seeds[2]!.technicianId = orgAdminClinic.id;
    seeds[2]!.technicianType = 'ORG_ADMIN';
  });

  it('moves an original with its duplicates to another organization, audited', async () => {
    const res = await transfer(
      parentId,
      { organization_id: distributor.id, technician_id: distAdmin.id },
      tokens.DISTRIBUTOR_ADMIN,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ organization_data: { id: distributor.id } });
    const family = await db.select().from(scans).where(eq(scans.parentScanId, parentId));
    expect(family.every((s) => s.organizationId === distributor.id && s.technicianId === distAdmin.id)).toBe(
      true,
    );
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'scan.transferred'))
      .orderBy(auditLog.id);
    expect(audit).toBeDefined();
    // The ORG_ADMIN of the clinic no longer sees them.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/scan/${parentId}/`,
          headers: auth(tokens.ORG_ADMIN),
        })
      ).statusCode,
    ).toBe(404);
    for (const s of seeds.filter((x) => x.id === parentId || x.parentScanId === parentId)) {
      s.organizationId = distributor.id;
      s.technicianId = distAdmin.id;
      s.technicianType = 'DISTRIBUTOR_ADMIN';
    }
    expect(await idsOf('', tokens.ORG_ADMIN)).toEqual(oracle((s) => s.organizationId === clinic.id));
  });
});

describe('DELETE scan/{id}/ (duplicates)', () => {
  const del = (id: number, token = tokens.ADMIN) =>
    t.app.inject({ method: 'DELETE', url: `/api/v1/scan/${id}/`, headers: auth(token) });

  it('refuses other roles, originals, and unknown ids; deletes a duplicate, audited', async () => {
    const child = seeds[1]!;
    expect((await del(child.id, tokens.DISTRIBUTOR_ADMIN)).statusCode).toBe(403);
    expect((await del(child.id, tokens.MANAGER)).statusCode).toBe(403);
    const original = await del(parentId);
    expect(original.statusCode).toBe(400);
    expect(original.json()).toEqual({ non_field_errors: [SCAN_MESSAGES_CONSOLE.notDuplicate] });
    expect((await del(999999)).statusCode).toBe(404);
    const res = await del(child.id, tokens.SUB_ADMIN);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ detail: 'Scan Deleted Successfully', id: child.id });
    expect(await db.select().from(scans).where(eq(scans.id, child.id))).toHaveLength(0);
    const audit = await db.select().from(auditLog).where(eq(auditLog.action, 'scan.duplicate_deleted'));
    expect(audit).toHaveLength(1);
    expect((await del(child.id)).statusCode).toBe(404);
    seeds.splice(1, 1);
    expect(await idsOf('')).toEqual(oracle(() => true));
  });
});

describe('GET scan/report-log/', () => {
  it('lists the downloads for ADMIN only', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/scan/report-log/?search=scan',
      headers: auth(tokens.ADMIN),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ count: number; results: { api: string; user_data: unknown }[] }>();
    expect(body.count).toBeGreaterThan(0);
    expect(body.results[0]).toHaveProperty('user_data');
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/v1/scan/report-log/',
          headers: auth(tokens.SUB_ADMIN),
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('OpenAPI', () => {
  it('documents the console scan paths under the scans tag', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, Record<string, { tags?: string[] }>> }>();
    const p = (path: string) => doc.paths[`/api/v1${path}`];
    expect(p('/scan/')?.get?.tags).toEqual(['scans']);
    expect(p('/scan/')).toHaveProperty('post');
    for (const [path, method] of [
      ['/scan/ids/', 'post'],
      ['/scan/lat-long/', 'get'],
      ['/scan/{id}/', 'get'],
      ['/scan/{id}/', 'delete'],
      ['/scan/{id}/transfer/', 'post'],
      ['/scan/sensor-serial-numbers/', 'get'],
      ['/scan/devices/', 'get'],
      ['/scan/report-log/', 'get'],
    ] as const) {
      expect(p(path), path).toHaveProperty(method);
    }
  });
});
