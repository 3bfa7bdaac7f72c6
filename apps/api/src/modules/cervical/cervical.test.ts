// Cervical exams (part 3 §2, §6, §7, §9; architecture §6, §7): scope per role, every filter against an oracle, the
// CSV's rows against the list's count, and bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CERVICAL_CSV_COLUMNS,
  CERVICAL_CSV_TIME_COLUMNS,
  CERVICAL_MESSAGES,
  type TCervicalRow,
} from '@sc/shared/cervical';
import { csvHeader } from '@sc/shared/constants';
import type { TUserType } from '@sc/shared/roles';
import { reportLogs } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, type OrganizationRow } from '../../test/factories.ts';
import {
  PATIENT_SEARCH_CASES,
  SEARCH_PATIENTS,
  type SearchPatient,
} from '../patients/patient-filters.fixtures.ts';
import { seedExam, type SeededExam } from './cervical.fixtures.ts';

const t = await setupTestApp();
t.clock.set(new Date('2026-03-15T12:00:00Z'));
const { db } = t.database;

let distributor: OrganizationRow;
let clinic: OrganizationRow;
let other: OrganizationRow;
const tokens = {} as Record<TUserType | 'ORG_ADMIN_OTHER' | 'REVIEWER_OTHER', string>;
let technicianId = 0;
type Planned = {
  org: number;
  age: number;
  device: string;
  survivor: boolean;
  left: string[];
  symptoms: boolean;
  history: boolean;
  d: number;
};
const exams: (SeededExam & Planned)[] = [];

const get = (url: string, token: string = tokens.ADMIN) =>
  t.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: auth(token) });

const idsOf = async (query: string, token: string = tokens.ADMIN): Promise<number[]> => {
  const res = await get(`cervaical/?limit=1000&${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ count: number; results: TCervicalRow[] }>();
  expect(body.count).toBe(body.results.length);
  return body.results.map((r) => r.id).sort((a, b) => a - b);
};
const oracle = (pred: (s: (typeof exams)[number]) => boolean) =>
  exams
    .filter(pred)
    .map((s) => s.id)
    .sort((a, b) => a - b);

beforeAll(async () => {
  distributor = await createOrganization(t, { name: 'Delta Distribution', canCreateOrganization: true });
  clinic = await createOrganization(t, { name: 'Clinic Under Delta', parentId: distributor.id });
  other = await createOrganization(t, { name: 'Kisumu Care' });
  const make = async (userType: TUserType, organizationId: number | null = null) =>
    createUser(t, { userType, organizationId });
  tokens.ADMIN = await signIn(t, await make('ADMIN'));
  tokens.SUB_ADMIN = await signIn(t, await make('SUB_ADMIN'));
  tokens.DISTRIBUTOR_ADMIN = await signIn(t, await make('DISTRIBUTOR_ADMIN', distributor.id));
  tokens.ORG_ADMIN = await signIn(t, await make('ORG_ADMIN', clinic.id));
  tokens.ORG_ADMIN_OTHER = await signIn(t, await make('ORG_ADMIN', other.id));
  tokens.CERVAICAL_REVIEWER = await signIn(t, await make('CERVAICAL_REVIEWER'));
  tokens.REVIEWER_OTHER = await signIn(t, await make('CERVAICAL_REVIEWER', other.id));
  const technician = await make('TECHNICIAN', clinic.id);
  technicianId = technician.id;
  tokens.TECHNICIAN = await signIn(t, technician);
  tokens.MANAGER = await signIn(
    t,
    await createUser(t, { userType: 'MANAGER', linkedOrganizationIds: [other.id] }),
  );
  const day = (d: number) => new Date(Date.UTC(2026, 2, d, 6));
  const plan: Planned[] = [
    {
      org: clinic.id,
      age: 34,
      device: 'CRV-1',
      survivor: true,
      left: ['Polyp'],
      symptoms: true,
      history: false,
      d: 1,
    },
    {
      org: clinic.id,
      age: 51,
      device: 'CRV-1',
      survivor: false,
      left: [],
      symptoms: false,
      history: true,
      d: 5,
    },
    {
      org: clinic.id,
      age: 45,
      device: 'CRV-2',
      survivor: false,
      left: [],
      symptoms: true,
      history: true,
      d: 10,
    },
    {
      org: other.id,
      age: 29,
      device: 'KSM-9',
      survivor: false,
      left: ['Ectropion'],
      symptoms: false,
      history: false,
      d: 12,
    },
    {
      org: other.id,
      age: 62,
      device: 'KSM-9',
      survivor: true,
      left: [],
      symptoms: true,
      history: false,
      d: 14,
    },
  ];
  for (const [i, p] of plan.entries()) {
    const seeded = await seedExam(db, {
      organizationId: p.org,
      technicianId: p.org === clinic.id ? technicianId : null,
      patient: {
        firstName: `Patient${i}`,
        lastName: i === 2 ? 'Wanjiru' : 'Shah',
        age: p.age,
        mobile: `98765${i}0000`,
      },
      deviceSerialNumber: p.device,
      isSurvivor: p.survivor,
      leftBreastFinding: p.left,
      hasSymptoms: p.symptoms,
      hasFamilyHistory: p.history,
      dateTime: day(p.d),
      notes: i === 0 ? 'Return, in two weeks' : undefined,
      reviewerOneStatus: i === 1 ? 'VALID' : 'NOT_REVIEWED',
    });
    exams.push({ ...seeded, ...p });
  }
});

describe('GET cervaical/: roles and scope', () => {
  it('answers 401 without a token and 403 to a technician', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/cervaical/' })).statusCode).toBe(401);
    expect((await get('cervaical/', tokens.TECHNICIAN)).statusCode).toBe(403);
  });

  it('keeps each role to its scope; an exam outside it answers 404', async () => {
    const all = oracle(() => true);
    expect(await idsOf('', tokens.ADMIN)).toEqual(all);
    expect(await idsOf('', tokens.SUB_ADMIN)).toEqual(all);
    expect(await idsOf('', tokens.CERVAICAL_REVIEWER)).toEqual(all);
    const inClinic = oracle((s) => s.org === clinic.id);
    const inOther = oracle((s) => s.org === other.id);
    expect(await idsOf('', tokens.DISTRIBUTOR_ADMIN)).toEqual(inClinic);
    expect(await idsOf('', tokens.ORG_ADMIN)).toEqual(inClinic);
    expect(await idsOf('', tokens.ORG_ADMIN_OTHER)).toEqual(inOther);
    expect(await idsOf('', tokens.MANAGER)).toEqual(inOther);
    expect(await idsOf('', tokens.REVIEWER_OTHER)).toEqual(inOther);
    expect((await get(`cervaical/${inClinic[0]}/`, tokens.ORG_ADMIN_OTHER)).statusCode).toBe(404);
    expect((await get(`cervaical/${inClinic[0]}/`, tokens.ORG_ADMIN)).statusCode).toBe(200);
    expect((await get(`cervaical/?organization=${clinic.id}`, tokens.ORG_ADMIN_OTHER)).statusCode).toBe(404);
  });

  it('shows the detail: patient, device, mobile and the marker', async () => {
    const res = await get(`cervaical/${exams[0]!.id}/`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.patient.first_name).toBe('Patient0');
    expect(body.device_serial_number).toBe('CRV-1');
    expect(body.metadata.device.device_model).toBe('Tab A8');
    expect(body.latitude).toBeTypeOf('number');
    expect(body.file_path.reports).toHaveLength(1);
  });
});

describe('GET cervaical/: filters', () => {
  it('applies each filter as the oracle does', async () => {
    expect(await idsOf('device=crv-1')).toEqual(oracle((s) => s.device === 'CRV-1'));
    expect(await idsOf('device_serial_number=KSM-9')).toEqual(oracle((s) => s.device === 'KSM-9'));
    expect(await idsOf(`technician=${technicianId}`)).toEqual(oracle((s) => s.org === clinic.id));
    expect(await idsOf('survivor=true')).toEqual(oracle((s) => s.survivor));
    expect(await idsOf('is_positive=true')).toEqual(oracle((s) => s.left.length > 0));
    expect(await idsOf('is_positive=false')).toEqual(oracle((s) => s.left.length === 0));
    expect(await idsOf('left_breast_finding=true')).toEqual(oracle((s) => s.left.length > 0));
    expect(await idsOf('symptoms=true')).toEqual(oracle((s) => s.symptoms));
    expect(await idsOf('family_history=true')).toEqual(oracle((s) => s.history));
    expect(await idsOf('age_min=40&age_max=60')).toEqual(oracle((s) => s.age >= 40 && s.age <= 60));
    expect(await idsOf('reviewer_one_status=VALID')).toEqual([exams[1]!.id]);
    expect(await idsOf('reviewer_two_status=NOT_REVIEWED')).toEqual(oracle(() => true));
    expect(await idsOf('search=wanjiru')).toEqual([exams[2]!.id]);
    expect(await idsOf(`search=${exams[3]!.id}`)).toContain(exams[3]!.id);
    expect(await idsOf('date_time_after=2026-03-05&date_time_before=2026-03-12')).toEqual(
      oracle((s) => s.d >= 5 && s.d <= 12),
    );
    expect(await idsOf(`organization=${other.id}&survivor=true`)).toEqual(
      oracle((s) => s.org === other.id && s.survivor),
    );
  });

  it('refuses bad filters with a field error', async () => {
    const cases: [string, string][] = [
      ['reviewer_one_status=MAYBE', 'reviewer_one_status'],
      ['age_min=70&age_max=20', 'age_min'],
      ['age_min=0x10', 'age_min'],
      ['technician=abc', 'technician'],
      ['survivor=perhaps', 'survivor'],
      ['date_time_after=2026-02-30', 'date_time_after'],
      ['ordering=password', 'ordering'],
      ['device=A&device_serial_number=B', 'device'],
    ];
    for (const [query, field] of cases) {
      const res = await get(`cervaical/?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json()), query).toContain(field);
    }
  });
});

describe('GET cervaical/?format=csv', () => {
  it('streams one row per exam the list counts, with the reviewer columns, and logs the download', async () => {
    for (const query of ['', 'survivor=true', `organization=${clinic.id}`]) {
      const list = await get(`cervaical/?${query}`);
      const csv = await get(`cervaical/?format=csv&${query}`);
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-disposition']).toMatch(/filename=cervaical_\d{4}-\d{2}-\d{2}\.csv/);
      const lines = csv.body.trim().split('\n');
      expect(lines[0]).toBe(`${csvHeader(CERVICAL_CSV_COLUMNS, CERVICAL_CSV_TIME_COLUMNS, 'Asia/Kolkata').join(',')}`);
      expect(lines.length - 1).toBe(list.json().count);
    }
    const all = await get('cervaical/?format=csv');
    expect(all.body).toContain('Return  in two weeks');
    expect(all.body).toContain('Valid,Not Reviewed');
    const logs = await db.select().from(reportLogs);
    expect(logs.some((l) => l.api === '/api/v1/cervaical/')).toBe(true);
  });

  it('lists by ids within scope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cervaical/ids/',
      headers: auth(tokens.ORG_ADMIN),
      payload: { ids_list: exams.map((s) => s.id) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(oracle((s) => s.org === clinic.id).length);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cervaical/ids/',
      headers: auth(tokens.ADMIN),
      payload: { ids_list: [] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('ids_list');
  });

  it('refuses the CSV to a technician', async () => {
    expect((await get('cervaical/?format=csv', tokens.TECHNICIAN)).statusCode).toBe(403);
    expect(CERVICAL_MESSAGES.emptyNoFilters).toBe('No Exams yet!');
  });
});

describe('GET cervaical/?search=', () => {
  // Exams of their own organization, queried with ?organization=, so the other tests' rows never answer.
  let searchOrg: OrganizationRow;
  const found = {} as Record<SearchPatient, number>;
  beforeAll(async () => {
    searchOrg = await createOrganization(t, { name: 'Search Clinic' });
    for (const [key, patient] of Object.entries(SEARCH_PATIENTS) as [
      SearchPatient,
      (typeof SEARCH_PATIENTS)[SearchPatient],
    ][]) {
      found[key] = (
        await seedExam(db, { organizationId: searchOrg.id, patient: { ...patient, age: 40 } })
      ).id;
    }
  });

  it("finds exams by a part of the patient's name, mobile or e-mail, in any case", async () => {
    for (const [term, finds] of PATIENT_SEARCH_CASES) {
      const ids = await idsOf(`organization=${searchOrg.id}&search=${encodeURIComponent(term)}`);
      expect(ids, term).toEqual(finds.map((p) => found[p]).sort((a, b) => a - b));
    }
  });
});
