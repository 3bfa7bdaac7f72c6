// Demo scan files (issue 8 "Demo data with files"): every path a demo scan lists answers `GET file/?path=` with a
// PDF that names the scan's facts; files are built on first read, for readers in scope only, and never at load.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_FILE_FOLDERS, type TScanFileKind } from '@sc/shared/scans';
import { SCAN_TYPES } from '@sc/shared/constants';
import { scanDisplayId } from '@sc/shared/training-reports';
import { DEMO_ACCOUNTS } from '../../demo/accounts.ts';
import { seedDemo } from '../../demo/seed.ts';
import { files, patients, scans, users } from '../../db/schema/index.ts';
import { readPdfText } from '../../services/pdf/pdf-text.testing.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import {
  DEFAULT_CONSENT_TEXT,
  MAMMOGRAM_IMPRESSIONS,
  NO_FINDING,
  buildScanDocument,
} from './scan-documents.ts';
import {
  demoMammogramPath,
  demoScanFilePath,
  parseDemoMammogramPath,
  parseDemoScanFilePath,
} from './scan-files.paths.ts';
import { findScanFacts, type ScanFacts } from './scan-files.queries.ts';
import { moveScanFiles } from './scan-files.service.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-scan-files-test-'));
const t = await setupTestApp({ DATA_DIR: dataDir });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const db = t.database.db;
const API = '/api/v1';

const KINDS = Object.keys(SCAN_FILE_FOLDERS) as TScanFileKind[];
const get = (token: string | null, filePath: string) =>
  t.app.inject({
    method: 'GET',
    url: `${API}/file/?path=${encodeURIComponent(filePath)}`,
    headers: token ? auth(token) : {},
  });

const storedFiles = () => {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name));
      else out.push(path.join(dir, e.name));
    }
  };
  walk(path.join(dataDir, 'files'));
  return out;
};

const tokenOf = async (email: string) => {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!user) throw new Error(`${email} missing`);
  return signIn(t, user);
};

type DemoScan = {
  id: number;
  parentScanId: number | null;
  scanType: string;
  organizationId: number | null;
  files: Record<TScanFileKind, string[]>;
};

let demoScans: DemoScan[] = [];
let adminToken = '';

beforeAll(async () => {
  await seedDemo(t.database, { password: 'Demo@2026', scale: 300, now: new Date() });
  const rows = await db
    .select({
      id: scans.id,
      parentScanId: scans.parentScanId,
      scanType: scans.scanType,
      organizationId: scans.organizationId,
      paths: scans.scanFilesPath,
    })
    .from(scans)
    .orderBy(scans.id);
  demoScans = rows.map((r) => ({
    id: r.id,
    parentScanId: r.parentScanId,
    scanType: r.scanType,
    organizationId: r.organizationId,
    files: Object.fromEntries(
      KINDS.map((k) => [k, (r.paths[k] ?? []).map((f) => f.path)]),
    ) as DemoScan['files'],
  }));
  adminToken = await tokenOf(DEMO_ACCOUNTS.find((a) => a.user_type === 'ADMIN')?.email ?? '');
}, 120_000);

describe('demo scan file paths', () => {
  it('are written at load without a single file built', async () => {
    expect(demoScans.length).toBeGreaterThanOrEqual(300);
    expect(storedFiles()).toEqual([]);
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(files)
      .where(like(files.path, '%/demo/%'));
    expect(row?.n).toBe(0);
  });

  it("name their own scan (a duplicate upload: its parent's), in the folder a device uploads that kind to", () => {
    expect(demoScans.some((s) => s.parentScanId !== null)).toBe(true);
    for (const scan of demoScans) {
      const owner = scan.parentScanId ?? scan.id;
      expect(scan.files.reports).toEqual([demoScanFilePath('reports', owner)]);
      for (const kind of KINDS) {
        for (const p of scan.files[kind]) {
          expect(parseDemoScanFilePath(p)).toEqual({ kind, scanId: owner });
          expect(p.startsWith(`${SCAN_FILE_FOLDERS[kind]}/demo/`)).toBe(true);
        }
      }
    }
  });

  it('give every training and practice scan an assessment, and a consent form to most scans', () => {
    const trainees = demoScans.filter((s) => s.scanType === 'TRAINING' || s.scanType === 'PRACTICE');
    expect(trainees.length).toBeGreaterThan(0);
    for (const s of trainees) expect(s.files.assessment_files).toHaveLength(1);
    for (const s of demoScans.filter((x) => x.scanType === 'SCAN'))
      expect(s.files.assessment_files).toEqual([]);
    const withConsent = demoScans.filter((s) => s.files.consent_form.length > 0).length;
    expect(withConsent / demoScans.length).toBeGreaterThan(0.5);
  });

  it('mostly have a replay for real scans', async () => {
    const [row] = await db
      .select({ share: sql<number>`avg(case when ${scans.isReplayAvailable} then 1 else 0 end)::float` })
      .from(scans)
      .where(eq(scans.scanType, 'SCAN'));
    expect(row?.share).toBeGreaterThan(0.75);
  });

  it('refuse paths of another shape or another scan', () => {
    for (const p of [
      'reports/demo/scan_0.pdf',
      'reports/demo/scan_01.pdf',
      'reports/demo/consent_1.pdf',
      'consent_forms/demo/scan_1.pdf',
      'reports/demo/scan_1.pdf.pdf',
      'reports/demo/scan_99999999999.pdf',
      'reports/scan_1.pdf',
      '../reports/demo/scan_1.pdf',
    ]) {
      expect(parseDemoScanFilePath(p), p).toBeNull();
    }
  });
});

describe('GET file/?path= of a demo scan file', () => {
  it('answers a PDF for a sample of every scan type and every kind of file, naming the patient and the device', async () => {
    const sample: Array<{ scan: DemoScan; kind: TScanFileKind; path: string }> = [];
    for (const type of SCAN_TYPES) {
      for (const kind of KINDS) {
        const scan = demoScans.find((s) => s.scanType === type && s.files[kind].length > 0);
        const p = scan?.files[kind][0];
        if (scan && p) sample.push({ scan, kind, path: p });
      }
    }
    // Every type has a report, SCAN has a consent form, the trainee types their assessment.
    expect(sample.length).toBeGreaterThanOrEqual(SCAN_TYPES.length * 2 + 2);
    for (const { scan, kind, path: p } of sample) {
      const res = await get(adminToken, p);
      expect(res.statusCode, p).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toContain('attachment');
      const facts = (await findScanFacts(db, scan.id)) as ScanFacts;
      const text = (await readPdfText(res.rawPayload)).pages.join(' ');
      const patient = `${facts.patient?.firstName} ${facts.patient?.lastName}`.trim();
      expect(text, p).toContain(patient);
      expect(text, p).toContain(facts.deviceSerialNumber ?? 'missing');
      if (kind !== 'consent_form') {
        for (const finding of [...facts.leftBreastFinding, ...facts.rightBreastFinding])
          expect(text, p).toContain(finding);
      }
    }
  }, 120_000);

  it('a read of a demo file changes nothing: built again on every read, no files row, no stored object', async () => {
    const scan = demoScans.find((s) => s.parentScanId === null && s.organizationId !== null);
    if (!scan) throw new Error('no scan');
    const p = demoScanFilePath('reports', scan.id);
    const first = await get(adminToken, p);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    const second = await get(adminToken, p);
    expect(second.statusCode).toBe(200);
    expect((await readPdfText(second.rawPayload)).pages.join(' ')).toContain(
      scanDisplayId(scan.scanType as (typeof SCAN_TYPES)[number], scan.id),
    );
    expect(await db.select().from(files).where(eq(files.path, p))).toEqual([]);
    expect(storedFiles()).toEqual([]);
  });

  it('answers parallel reads alike, storing nothing', async () => {
    const built = new Set(storedFiles());
    const scan = demoScans.find(
      (s) =>
        s.parentScanId === null && !built.has(path.join(dataDir, 'files', demoScanFilePath('reports', s.id))),
    );
    if (!scan) throw new Error('no unread scan');
    const p = demoScanFilePath('reports', scan.id);
    const answers = await Promise.all(Array.from({ length: 5 }, () => get(adminToken, p)));
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect((await readPdfText(res.rawPayload)).pages.join(' ')).toContain(
        scanDisplayId(scan.scanType as (typeof SCAN_TYPES)[number], scan.id),
      );
    }
    expect(await db.select().from(files).where(eq(files.path, p))).toEqual([]);
  });

  it("answers 404 for a file the scan does not list, another scan's path and an unknown scan, building nothing", async () => {
    const before = storedFiles().length;
    const scanWithout = demoScans.find(
      (s) => s.scanType === 'SCAN' && s.parentScanId === null && s.files.consent_form.length === 0,
    );
    if (!scanWithout) throw new Error('every scan has a consent form');
    for (const p of [
      demoScanFilePath('consent_form', scanWithout.id),
      demoScanFilePath('assessment_files', scanWithout.id),
      demoScanFilePath('reports', 999_999),
      'reports/demo/scan_1x.pdf',
    ]) {
      const res = await get(adminToken, p);
      expect(res.statusCode, p).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    }
    expect(storedFiles().length).toBe(before);
  });

  it('follows the file rule: 401 signed out, 404 outside the scope (nothing built), 200 for the organization', async () => {
    const built = new Set(storedFiles());
    const scan = demoScans.find(
      (s) =>
        s.organizationId !== null &&
        s.files.consent_form.some((f) => !built.has(path.join(dataDir, 'files', f))),
    );
    const p = scan?.files.consent_form[0];
    if (!scan || !p) throw new Error('no scan with a consent form');
    expect((await get(null, p)).statusCode).toBe(401);

    const other = await createOrganization(t);
    const stranger = await createUser(t, { userType: 'ORG_ADMIN', organizationId: other.id });
    const technician = await createUser(t, { userType: 'TECHNICIAN', organizationId: scan.organizationId });
    for (const user of [stranger, technician]) {
      const res = await get(await signIn(t, user), p);
      expect(res.statusCode).toBe(404);
    }
    expect(fs.existsSync(path.join(dataDir, 'files', p))).toBe(false);

    const member = await createUser(t, { userType: 'ORG_ADMIN', organizationId: scan.organizationId });
    const res = await get(await signIn(t, member), p);
    expect(res.statusCode).toBe(200);
    expect((await readPdfText(res.rawPayload)).pages.join(' ')).toContain(
      DEFAULT_CONSENT_TEXT[0]?.slice(0, 40),
    );
  });

  it("moves a scan's built files to the organization a transfer gives the scan", async () => {
    const built = new Set(storedFiles());
    const scan = demoScans.find(
      (s) =>
        s.parentScanId === null &&
        s.organizationId !== null &&
        s.files.consent_form.length > 0 &&
        !built.has(path.join(dataDir, 'files', demoScanFilePath('reports', s.id))),
    );
    if (!scan) throw new Error('no unread scan');
    const report = demoScanFilePath('reports', scan.id);
    expect((await get(adminToken, report)).statusCode).toBe(200);
    const target = await createOrganization(t);
    const newAdmin = await signIn(
      t,
      await createUser(t, { userType: 'ORG_ADMIN', organizationId: target.id }),
    );
    const oldAdmin = await signIn(
      t,
      await createUser(t, { userType: 'ORG_ADMIN', organizationId: scan.organizationId }),
    );
    expect((await get(newAdmin, report)).statusCode).toBe(404);
    const [row] = await db.select().from(scans).where(eq(scans.id, scan.id));
    if (!row) throw new Error('scan missing');
    await db.update(scans).set({ organizationId: target.id }).where(eq(scans.id, scan.id));
    await moveScanFiles(db, row.scanFilesPath, target.id);
    expect((await get(newAdmin, report)).statusCode).toBe(200);
    expect((await get(oldAdmin, report)).statusCode).toBe(404);
    // The consent form, not built before the transfer, is built for the scan's new organization.
    expect((await get(newAdmin, scan.files.consent_form[0] ?? '')).statusCode).toBe(200);
    expect((await get(oldAdmin, scan.files.consent_form[0] ?? '')).statusCode).toBe(404);
  });

  it('a console transfer moves the files with the scan (POST scan/{id}/transfer/) and with the patient (POST patient/transfer/{id}/)', async () => {
    const built = new Set(storedFiles());
    const unread = demoScans.filter(
      (s) =>
        s.parentScanId === null &&
        s.organizationId !== null &&
        !built.has(path.join(dataDir, 'files', demoScanFilePath('reports', s.id))),
    );
    const [byScan, byPatient] = [unread[0], unread[1]];
    if (!byScan || !byPatient) throw new Error('no unread scans');
    const target = await createOrganization(t);
    const technician = await createUser(t, { userType: 'TECHNICIAN', organizationId: target.id });
    const newAdmin = await signIn(t, await createUser(t, { userType: 'ORG_ADMIN', organizationId: target.id }));
    const oldAdminOf = async (orgId: number | null) =>
      signIn(t, await createUser(t, { userType: 'ORG_ADMIN', organizationId: orgId }));
    const move = { organization_id: target.id, technician_id: technician.id };

    const scanReport = demoScanFilePath('reports', byScan.id);
    expect((await get(adminToken, scanReport)).statusCode).toBe(200); // built for the old organization
    const scanOld = await oldAdminOf(byScan.organizationId);
    const scanMoved = await t.app.inject({
      method: 'POST',
      url: `${API}/scan/${byScan.id}/transfer/`,
      headers: auth(adminToken),
      payload: move,
    });
    expect(scanMoved.statusCode, scanMoved.body).toBe(200);
    expect((await get(newAdmin, scanReport)).statusCode).toBe(200);
    expect((await get(scanOld, scanReport)).statusCode).toBe(404);

    const patientReport = demoScanFilePath('reports', byPatient.id);
    expect((await get(adminToken, patientReport)).statusCode).toBe(200);
    const patientOld = await oldAdminOf(byPatient.organizationId);
    const [owner] = await db.select({ patientId: scans.patientId }).from(scans).where(eq(scans.id, byPatient.id));
    const patientMoved = await t.app.inject({
      method: 'POST',
      url: `${API}/patient/transfer/${owner?.patientId}/`,
      headers: auth(adminToken),
      payload: move,
    });
    expect(patientMoved.statusCode, patientMoved.body).toBe(200);
    expect((await get(newAdmin, patientReport)).statusCode).toBe(200);
    expect((await get(patientOld, patientReport)).statusCode).toBe(404);
  });

  it("lets the scan's technician read it, as the uploader of a device's files", async () => {
    const [row] = await db
      .select({ id: scans.id, technicianId: scans.technicianId })
      .from(scans)
      .where(sql`${scans.technicianId} is not null and ${scans.parentScanId} is null`)
      .orderBy(sql`${scans.id} desc`)
      .limit(1);
    if (!row?.technicianId) throw new Error('no scan with a technician');
    const res = await get(await signIn(t, { id: row.technicianId }), demoScanFilePath('reports', row.id));
    expect(res.statusCode).toBe(200);
  });

  it('serves an unassigned scan to platform admins only', async () => {
    const scan = demoScans.find((s) => s.organizationId === null && s.parentScanId === null);
    if (!scan) return expect(demoScans.some((s) => s.organizationId === null)).toBe(false);
    const p = demoScanFilePath('reports', scan.id);
    const distributor = await tokenOf(
      DEMO_ACCOUNTS.find((a) => a.user_type === 'DISTRIBUTOR_ADMIN')?.email ?? '',
    );
    expect((await get(distributor, p)).statusCode).toBe(404);
    expect((await get(adminToken, p)).statusCode).toBe(200);
  });
});

describe('who reads a demo file', () => {
  it('a CERVAICAL_REVIEWER of the whole programme, signed in or impersonated, gets 404 on demo breast scan and mammogram reports', async () => {
    const [patient] = await db
      .select({ id: patients.id })
      .from(patients)
      .where(sql`jsonb_array_length(${patients.mostRecentMammogramReport}) > 0`)
      .limit(1);
    const scan = demoScans.find((s) => s.parentScanId === null && s.organizationId !== null);
    if (!patient || !scan) throw new Error('no demo patient with a report, or no scan');
    const reviewer = await createUser(t, { userType: 'CERVAICAL_REVIEWER', organizationId: null });
    const admin = await createUser(t, { userType: 'ADMIN' });
    const tokens = [await signIn(t, reviewer), await signIn(t, reviewer, { kind: 'impersonation', impersonatorId: admin.id })];
    const paths = [demoMammogramPath(patient.id), ...KINDS.flatMap((kind) => scan.files[kind])];
    for (const token of tokens) {
      for (const p of paths) expect({ p, status: (await get(token, p)).statusCode }).toEqual({ p, status: 404 });
    }
    expect((await get(adminToken, demoMammogramPath(patient.id))).statusCode).toBe(200);
  });
});

describe("a patient's demo mammogram report", () => {
  it('is listed by about a tenth of the patients under their own id, and served as a PDF naming them', async () => {
    const rows = await db
      .select({
        id: patients.id,
        firstName: patients.firstName,
        lastName: patients.lastName,
        paths: patients.mostRecentMammogramReport,
      })
      .from(patients)
      .orderBy(patients.id);
    const withReport = rows.filter((r) => r.paths.length > 0);
    expect(withReport.length).toBeGreaterThan(0);
    for (const r of withReport) {
      expect(r.paths).toEqual([demoMammogramPath(r.id)]);
      expect(parseDemoMammogramPath(r.paths[0] ?? '')).toEqual({ patientId: r.id });
    }
    const patient = withReport[0];
    if (!patient) throw new Error('no patient with a report');
    const res = await get(adminToken, demoMammogramPath(patient.id));
    expect(res.statusCode).toBe(200);
    const text = (await readPdfText(res.rawPayload)).pages.join(' ');
    expect(text).toContain('Mammogram report');
    expect(text).toContain(`${patient.firstName} ${patient.lastName}`.trim());
    expect(text).toContain(MAMMOGRAM_IMPRESSIONS[patient.id % MAMMOGRAM_IMPRESSIONS.length]?.slice(0, 30));

    const without = rows.find((r) => r.paths.length === 0);
    if (!without) throw new Error('every patient has a report');
    expect((await get(adminToken, demoMammogramPath(without.id))).statusCode).toBe(404);
    expect(parseDemoMammogramPath('reports/demo/mammogram_0.pdf')).toBeNull();
    expect(parseDemoMammogramPath('reports/mammogram_1.pdf')).toBeNull();
  });
});

describe('the scan report PDF', () => {
  const facts = (over: Partial<ScanFacts> = {}): ScanFacts => ({
    id: 4321,
    scanType: 'SCAN',
    parentScanId: null,
    organizationId: 7,
    technicianId: 8,
    dateTime: new Date('2026-03-05T09:00:00Z'),
    created: new Date('2026-03-05T10:00:00Z'),
    deviceSerialNumber: 'IBE-DEV-0042',
    sensorSerialNumber: 'SNS-9917',
    tabletSerialNumber: 'TAB-1',
    hardwareVersion: 'H2.1',
    softwareVersion: '4.2.0',
    metadata: { device: { device_model: 'Galaxy Tab A8', manufacturer: 'Samsung', os_version: '13' } },
    isReplayAvailable: true,
    scanFilesPath: {},
    assessmentResult: 'NO_ASSESSMENT',
    assessmentApproved: null,
    trainingScanObservation: {},
    breastType: 2,
    leftBreastFinding: ['Lump upper outer quadrant'],
    rightBreastFinding: [],
    notes: { message: 'Patient reports tenderness' },
    isSurvivor: false,
    hasFamilyHistory: true,
    hasSymptoms: true,
    underBust: 78,
    overBust: 92,
    nextAppointmentDate: '2026-09-01',
    patient: {
      firstName: 'Anjali',
      lastName: 'Verma',
      mobile: '+91-9876500011',
      age: 44,
      dateOfBirth: '1981-07-14',
      gender: 'FEMALE',
      clinicPatientId: 'CLN-77',
      physicianName: 'Dr Rao',
    },
    technician: { firstName: 'Meera', lastName: 'Iyer', username: 'meera' },
    organization: {
      id: 7,
      name: 'Sunrise Women Clinic',
      address1: '12 MG Road',
      address2: null,
      address3: null,
      state: 'Karnataka',
      zipcode: '560001',
      country: 'India',
      companyInfo: {},
      timezone: 'Asia/Kolkata',
    },
    ...over,
  });
  const ctx = () => ({
    storage: {
      kind: 'local' as const,
      put: async () => undefined,
      get: async () => null,
      delete: async () => undefined,
      isReachable: async () => true,
    },
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    generatedAt: new Date('2026-03-06T00:00:00Z'),
  });

  it('names the patient, the findings of each side, the device, the technician, the date and the organization', async () => {
    const pdf = await readPdfText(await buildScanDocument(ctx(), 'reports', { scan: facts() }));
    const text = pdf.pages.join(' ');
    expect(pdf.title).toBe('Breast scan report – Anjali Verma');
    for (const expected of [
      'Sunrise Women Clinic',
      'Anjali Verma',
      'S-4321',
      'Left breast Lump upper outer quadrant',
      `Right breast ${NO_FINDING}`,
      'Findings present',
      'IBE-DEV-0042',
      'SNS-9917',
      'Galaxy Tab A8',
      'Samsung',
      'Meera Iyer',
      // 09:00 UTC in Asia/Kolkata
      '05 Mar 2026 02:30 PM',
      'Patient reports tenderness',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('says so when neither side has a finding, and prints a scan without organization in UTC', async () => {
    const text = (
      await readPdfText(
        await buildScanDocument(ctx(), 'reports', {
          scan: facts({ leftBreastFinding: [], organization: null, organizationId: null, patient: null }),
        }),
      )
    ).pages.join(' ');
    expect(text).toContain(`Left breast ${NO_FINDING}`);
    expect(text).toContain('No findings');
    expect(text).toContain('Not assigned to an organization');
    expect(text).toContain('05 Mar 2026 09:00 AM');
  });

  it('prints the assessment of a practice scan and the consent text given', async () => {
    const assessment = (
      await readPdfText(
        await buildScanDocument(ctx(), 'assessment_files', {
          scan: facts({
            scanType: 'PRACTICE',
            assessmentResult: 'INCORRECT',
            assessmentApproved: false,
            trainingScanObservation: { practice_verified: true },
          }),
        }),
      )
    ).pages.join(' ');
    expect(assessment).toContain('Practice assessment');
    expect(assessment).toContain('P-4321');
    expect(assessment).toContain('Result Incorrect');
    expect(assessment).toContain('Practice verified Yes');
    const consent = (
      await readPdfText(
        await buildScanDocument(ctx(), 'consent_form', {
          scan: facts(),
          consentText: ['I agree to be examined today.'],
        }),
      )
    ).pages.join(' ');
    expect(consent).toContain('Consent form');
    expect(consent).toContain('I agree to be examined today.');
    expect(consent).toContain('Witness (technician) Meera Iyer');
  });
});
