// ORCA exams API (part 3 §2, §3, §7, §9): the list with its filters and CSV, one exam with case history and
// findings, scope per role (404 outside it), bad input as field errors, and the demo files built on first read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORCA_CSV_COLUMNS, ORCA_CSV_TIME_COLUMNS, ORCA_MESSAGES } from '@sc/shared/orca';
import { csvHeader } from '@sc/shared/constants';
import type { TUserType } from '@sc/shared/roles';
import {
  files,
  orcaCaseHistories,
  orcaExams,
  orcaFindings,
  patients,
  reportLogs,
} from '../../db/schema/index.ts';
import { readPdfText } from '../../services/pdf/pdf-text.testing.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import {
  PATIENT_SEARCH_CASES,
  SEARCH_PATIENTS,
  type SearchPatient,
} from '../patients/patient-filters.fixtures.ts';
import { ORCA_IMAGE_SIZE } from './orca-images.ts';
import {
  DEFAULT_ORCA_CONSENT,
  demoOrcaConsentPath,
  demoOrcaFindingPath,
  demoOrcaReportPath,
  parseDemoOrcaPath,
} from './orca-files.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-orca-test-'));
const t = await setupTestApp({ DATA_DIR: dataDir });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const db = t.database.db;
const API = '/api/v1';

const get = (token: string | null, url: string) =>
  t.app.inject({ method: 'GET', url: `${API}${url}`, headers: token ? auth(token) : {} });

type Fixture = Awaited<ReturnType<typeof buildFixture>>;
let fx: Fixture;

async function addPatient(organizationId: number, technicianId: number, firstName: string, age: number) {
  const [p] = await db
    .insert(patients)
    .values({
      firstName,
      lastName: 'Rao',
      age,
      gender: 'MALE',
      organizationId,
      technicianId,
      mobile: '+91-9800000001',
    })
    .returning();
  if (!p) throw new Error('patient');
  return p;
}

let local = 0;
async function addExam(
  organizationId: number,
  technicianId: number,
  patientId: number,
  opts: Partial<typeof orcaExams.$inferInsert> = {},
) {
  local++;
  const [exam] = await db
    .insert(orcaExams)
    .values({
      organizationId,
      technicianId,
      patientId,
      deviceSerialNumber: 'ORC-1',
      localDbId: `l-${local}`,
      dateTime: new Date('2026-03-01T10:00:00Z'),
      licenceCode: 'ORC-1111-0001',
      ...opts,
    })
    .returning();
  if (!exam) throw new Error('exam');
  return exam;
}

async function buildFixture() {
  const parent = await createOrganization(t, { name: 'Oral Parent', canCreateOrganization: true });
  const child = await createOrganization(t, { name: 'Oral Child', parentId: parent.id });
  const other = await createOrganization(t, { name: 'Elsewhere' });
  const tech = await createUser(t, {
    userType: 'TECHNICIAN',
    organizationId: child.id,
    firstName: 'Tara',
    lastName: 'Tech',
  });
  const otherTech = await createUser(t, { userType: 'TECHNICIAN', organizationId: other.id });
  const asha = await addPatient(child.id, tech.id, 'Asha', 44);
  const ravi = await addPatient(child.id, tech.id, 'Ravi', 61);
  const zed = await addPatient(other.id, otherTech.id, 'Zed', 30);

  const withReport = await addExam(child.id, tech.id, asha.id, {
    filePath: { reports: [{ path: 'reports/orca/orca_900.pdf' }], consent_form: [] },
    isSurvivor: true,
    latitude: 18.5,
    longitude: 73.8,
    currentReportCount: 7,
    metadata: { device: { device_model: 'Tab A9', manufacturer: 'Samsung', os_version: '14' } },
  });
  const plain = await addExam(child.id, tech.id, ravi.id, {
    dateTime: new Date('2026-02-01T10:00:00Z'),
    deviceSerialNumber: 'ORC-2',
    licenceCode: 'ORC-2222-0002',
  });
  const foreign = await addExam(other.id, otherTech.id, zed.id, {
    dateTime: new Date('2026-01-01T10:00:00Z'),
  });

  await db.insert(orcaCaseHistories).values({
    examId: withReport.id,
    consumesAlcohol: true,
    alcoholUsageLastYear: 'Weekly',
    usesTobacco: true,
    consumesSmokingTobacco: true,
    smokingTobaccoType: ['Bidi'],
    smokingTobaccoUsageFrequency: 'Current',
    smokingHistoryTimeMonths: 30,
  });
  // Inserted out of index order: the detail answers in index order.
  await db.insert(orcaFindings).values([
    {
      examId: withReport.id,
      exam: 'intra_oral_exam',
      part: 'Tongue',
      subPart: 'Lateral border',
      index: 3,
      symptoms: ['Ulcer'],
    },
    {
      examId: withReport.id,
      exam: 'intra_oral_exam',
      part: 'Buccal mucosa',
      subPart: 'Left',
      index: 0,
      symptoms: [],
    },
    {
      examId: withReport.id,
      exam: 'extra_oral_exam',
      part: 'Lips',
      subPart: 'Upper lip',
      index: 2,
      symptoms: [],
    },
  ]);

  const tokens = {} as Record<TUserType, string>;
  const roleOrg: Record<TUserType, number | null> = {
    ADMIN: null,
    SUB_ADMIN: null,
    DISTRIBUTOR_ADMIN: parent.id,
    MANAGER: null,
    ORG_ADMIN: child.id,
    CERVAICAL_REVIEWER: child.id,
    TECHNICIAN: child.id,
  };
  for (const [role, organizationId] of Object.entries(roleOrg) as [TUserType, number | null][]) {
    const user = await createUser(t, {
      userType: role,
      organizationId,
      linkedOrganizationIds: role === 'MANAGER' ? [parent.id] : undefined,
    });
    tokens[role] = await signIn(t, user);
  }
  return { parent, child, other, tech, withReport, plain, foreign, tokens };
}

beforeAll(async () => {
  fx = await buildFixture();
}, 60_000);

const ids = (body: { results: { id: number }[] }) => body.results.map((r) => r.id);

describe('GET orca/', () => {
  it('answers 401 without a token and 403 to a TECHNICIAN and a CERVAICAL_REVIEWER', async () => {
    expect((await get(null, '/orca/')).statusCode).toBe(401);
    for (const role of ['TECHNICIAN', 'CERVAICAL_REVIEWER'] as const) {
      const res = await get(fx.tokens[role], '/orca/');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toHaveProperty('detail');
    }
  });

  it("lists every organization's exams to an ADMIN, newest first, in the count/results envelope", async () => {
    const res = await get(fx.tokens.ADMIN, '/orca/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(3);
    expect(ids(body)).toEqual([fx.withReport.id, fx.plain.id, fx.foreign.id]);
    const row = body.results[0];
    expect(row).toMatchObject({
      licence_code: 'ORC-1111-0001',
      current_report_count: 7,
      organization_data: { id: fx.child.id, name: 'Oral Child' },
      technician_data: { id: fx.tech.id, first_name: 'Tara', last_name: 'Tech' },
      patient_data: {
        first_name: 'Asha',
        age: 44,
        gender: 'MALE',
        organization_data: { name: 'Oral Child' },
      },
      file_path: { reports: [{ path: 'reports/orca/orca_900.pdf' }], consent_form: [] },
      metadata: { device: { device_model: 'Tab A9', manufacturer: 'Samsung', os_version: '14' } },
    });
    expect(row).not.toHaveProperty('findings');
  });

  it("does not return another organization's exams to an ORG_ADMIN, a DISTRIBUTOR_ADMIN or a MANAGER", async () => {
    for (const role of ['ORG_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER'] as const) {
      const res = await get(fx.tokens[role], '/orca/');
      expect(res.statusCode, role).toBe(200);
      expect(ids(res.json()).sort(), role).toEqual([fx.withReport.id, fx.plain.id].sort());
    }
  });

  it('answers 404 to an ORG_ADMIN naming an organization outside its scope', async () => {
    expect((await get(fx.tokens.ORG_ADMIN, `/orca/?organization=${fx.other.id}`)).statusCode).toBe(404);
    const inScope = await get(fx.tokens.DISTRIBUTOR_ADMIN, `/orca/?organization=${fx.child.id}`);
    expect(ids(inScope.json()).length).toBe(2);
  });

  it('filters by search, device, licence code, technician, survivor, positive, report, age and period, and counts what it selects', async () => {
    const admin = fx.tokens.ADMIN;
    const expectIds = async (query: string, expected: number[]) => {
      const res = await get(admin, `/orca/?${query}`);
      expect(res.statusCode, query).toBe(200);
      expect(ids(res.json()).sort(), query).toEqual([...expected].sort());
      // The count is of the rows the filters select, not only the page.
      expect(res.json<{ count: number }>().count, query).toBe(expected.length);
    };
    await expectIds('search=asha', [fx.withReport.id]);
    await expectIds(`search=${fx.plain.id}`, [fx.plain.id]);
    await expectIds('device=ORC-2', [fx.plain.id]);
    await expectIds('licence_code=ORC-2222-0002', [fx.plain.id]);
    await expectIds(`technician=${fx.tech.id}`, [fx.withReport.id, fx.plain.id]);
    await expectIds('survivor=true', [fx.withReport.id]);
    await expectIds('is_positive=true', [fx.withReport.id]);
    await expectIds('is_positive=false', [fx.plain.id, fx.foreign.id]);
    await expectIds('has_report=true', [fx.withReport.id]);
    await expectIds('age_min=40&age_max=50', [fx.withReport.id]);
    await expectIds('date_time_after=2026-02-01&date_time_before=2026-02-01', [fx.plain.id]);
  });

  it('orders by the licence code column and pages', async () => {
    const res = await get(fx.tokens.ADMIN, '/orca/?ordering=-licence_code&limit=1&page=2');
    const body = res.json();
    expect(body.count).toBe(3);
    expect(body.results).toHaveLength(1);
    expect(body.next).toContain('page=3');
  });

  it('answers bad input with a field error and a page past the last with 404', async () => {
    const cases: [string, string][] = [
      ['ordering=password', 'ordering'],
      ['age_min=50&age_max=10', 'age_min'],
      ['survivor=maybe', 'survivor'],
      ['organization=abc', 'organization'],
      ['limit=0', 'limit'],
      ['date_time_after=2026-13-01', 'date_time_after'],
      ['format=xml', 'format'],
    ];
    for (const [query, field] of cases) {
      const res = await get(fx.tokens.ADMIN, `/orca/?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json()), query).toContain(field);
    }
    expect((await get(fx.tokens.ADMIN, '/orca/?page=9')).statusCode).toBe(404);
  });

  it('streams orca-scan.csv with the rows the filters select and records the download', async () => {
    const res = await get(fx.tokens.ORG_ADMIN, '/orca/?format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/filename=orca-scan_\d{4}-\d{2}-\d{2}\.csv/);
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe(`${csvHeader(ORCA_CSV_COLUMNS, ORCA_CSV_TIME_COLUMNS, 'Asia/Kolkata').join(',')}`);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('ORC-1111-0001');
    expect(lines[1]?.split(',')[18]).toBe('1');
    const logged = await db.select().from(reportLogs).where(eq(reportLogs.api, '/api/v1/orca/'));
    expect(logged.length).toBeGreaterThanOrEqual(1);
  });
});

describe('GET orca/{id}/', () => {
  it('answers the exam with its case history and findings in index order', async () => {
    const res = await get(fx.tokens.ORG_ADMIN, `/orca/${fx.withReport.id}/`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.case_history).toMatchObject({
      consumes_alcohol: true,
      alcohol_usage_last_year: 'Weekly',
      smoking_tobacco_type: ['Bidi'],
      smoking_tobacco_usage_frequency: 'Current',
      smoking_history_time_months: 30,
    });
    expect(body.findings.map((f: { index: number }) => f.index)).toEqual([0, 2, 3]);
    expect(body.findings[2]).toMatchObject({
      exam: 'intra_oral_exam',
      part: 'Tongue',
      sub_part: 'Lateral border',
      symptoms: ['Ulcer'],
    });
    expect(body.latitude).toBe(18.5);
  });

  it('answers an exam without a case history with null and no findings', async () => {
    const body = (await get(fx.tokens.ADMIN, `/orca/${fx.plain.id}/`)).json();
    expect(body.case_history).toBeNull();
    expect(body.findings).toEqual([]);
  });

  it("does not return another organization's exam to an ORG_ADMIN (404), nor a bad or missing id", async () => {
    expect((await get(fx.tokens.ORG_ADMIN, `/orca/${fx.foreign.id}/`)).json()).toEqual({
      detail: 'Not found.',
    });
    expect((await get(fx.tokens.ORG_ADMIN, `/orca/${fx.foreign.id}/`)).statusCode).toBe(404);
    expect((await get(fx.tokens.ADMIN, '/orca/abc/')).statusCode).toBe(404);
    expect((await get(fx.tokens.ADMIN, '/orca/99999999/')).statusCode).toBe(404);
    expect((await get(fx.tokens.TECHNICIAN, `/orca/${fx.withReport.id}/`)).statusCode).toBe(403);
  });
});

describe('demo ORCA files', () => {
  let demoExamId = 0;
  let findingId = 0;
  beforeAll(async () => {
    const patient = await addPatient(fx.child.id, fx.tech.id, 'Demo', 50);
    const exam = await addExam(fx.child.id, fx.tech.id, patient.id);
    demoExamId = exam.id;
    await db
      .update(orcaExams)
      .set({
        filePath: {
          reports: [{ path: demoOrcaReportPath(exam.id) }],
          consent_form: [{ path: demoOrcaConsentPath(exam.id) }],
        },
      })
      .where(eq(orcaExams.id, exam.id));
    const [finding] = await db
      .insert(orcaFindings)
      .values({
        examId: exam.id,
        exam: 'intra_oral_exam',
        part: 'Tongue',
        index: 0,
        symptoms: ['White patch'],
      })
      .returning();
    findingId = finding!.id;
    await db
      .update(orcaFindings)
      .set({ path: demoOrcaFindingPath(exam.id, findingId) })
      .where(eq(orcaFindings.id, findingId));
  });

  const file = (token: string, p: string) => get(token, `/file/?path=${encodeURIComponent(p)}`);

  it('parses only the demo paths', () => {
    expect(parseDemoOrcaPath('reports/orca/orca_12.pdf')).toEqual({ kind: 'report', examId: 12 });
    expect(parseDemoOrcaPath('reports/orca/consent_12.pdf')).toEqual({ kind: 'consent', examId: 12 });
    expect(parseDemoOrcaPath('documents/orca/12/40.jpg')).toEqual({
      kind: 'finding',
      examId: 12,
      findingId: 40,
    });
    expect(parseDemoOrcaPath('documents/orca/12/../40.jpg')).toBeNull();
    expect(parseDemoOrcaPath('reports/orca/orca_0.pdf')).toBeNull();
  });

  it('builds a finding photo as a JPEG on every read, storing nothing', async () => {
    const p = demoOrcaFindingPath(demoExamId, findingId);
    const res = await file(fx.tokens.ORG_ADMIN, p);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    const image = jpeg.decode(res.rawPayload);
    expect([image.width, image.height]).toEqual([ORCA_IMAGE_SIZE.width, ORCA_IMAGE_SIZE.height]);
    expect(await db.select().from(files).where(eq(files.path, p))).toEqual([]);
    expect((await file(fx.tokens.ADMIN, p)).rawPayload.equals(res.rawPayload)).toBe(true);
  });

  it('builds the report PDF with the exam, the licence and the findings', async () => {
    const res = await file(fx.tokens.DISTRIBUTOR_ADMIN, demoOrcaReportPath(demoExamId));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = (await readPdfText(res.rawPayload)).pages.join(' ');
    expect(text).toContain('ORCA oral screening report');
    expect(text).toContain('ORC-1111-0001');
    expect(text).toContain('White patch');
    expect(text).toContain(ORCA_MESSAGES.noAbnormality);
    const consent = await file(fx.tokens.ADMIN, demoOrcaConsentPath(demoExamId));
    expect((await readPdfText(consent.rawPayload)).pages.join(' ')).toContain(DEFAULT_ORCA_CONSENT[0]);
  });

  it('a CERVAICAL_REVIEWER gets 404 on the report, consent form and finding photos, in scope or not', async () => {
    for (const organizationId of [null, fx.child.id]) {
      const token = await signIn(t, await createUser(t, { userType: 'CERVAICAL_REVIEWER', organizationId }));
      for (const p of [demoOrcaReportPath(demoExamId), demoOrcaConsentPath(demoExamId), demoOrcaFindingPath(demoExamId, findingId)]) {
        expect({ organizationId, p, status: (await file(token, p)).statusCode }).toEqual({ organizationId, p, status: 404 });
      }
    }
  });

  it('builds nothing for a caller out of scope, nor for a path the exam does not list', async () => {
    const outsider = await createUser(t, { userType: 'ORG_ADMIN', organizationId: fx.other.id });
    const token = await signIn(t, outsider);
    const p = demoOrcaConsentPath(fx.plain.id);
    expect((await file(token, demoOrcaReportPath(demoExamId))).statusCode).toBe(404);
    expect((await file(fx.tokens.ADMIN, p)).statusCode).toBe(404);
    expect((await file(fx.tokens.ADMIN, demoOrcaFindingPath(demoExamId, findingId + 999))).statusCode).toBe(
      404,
    );
    expect(await db.select().from(files).where(eq(files.path, p))).toEqual([]);
  });
});

describe('GET orca/?search=', () => {
  // Exams of their own organization, queried with ?organization=, so the other tests' rows never answer.
  let org = 0;
  const found = {} as Record<SearchPatient, number>;
  beforeAll(async () => {
    org = (await createOrganization(t, { name: 'Oral Search Clinic' })).id;
    const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: org });
    for (const [key, patient] of Object.entries(SEARCH_PATIENTS) as [
      SearchPatient,
      (typeof SEARCH_PATIENTS)[SearchPatient],
    ][]) {
      const [row] = await db
        .insert(patients)
        .values({ ...patient, age: 40, organizationId: org, technicianId: tech.id })
        .returning();
      found[key] = (await addExam(org, tech.id, row!.id)).id;
    }
  });

  it("finds exams by a part of the patient's name, mobile or e-mail, in any case", async () => {
    for (const [term, finds] of PATIENT_SEARCH_CASES) {
      const res = await get(fx.tokens.ADMIN, `/orca/?organization=${org}&search=${encodeURIComponent(term)}`);
      expect(res.statusCode, term).toBe(200);
      expect(
        ids(res.json()).sort((a, b) => a - b),
        term,
      ).toEqual(finds.map((p) => found[p]).sort((a, b) => a - b));
    }
  });
});
