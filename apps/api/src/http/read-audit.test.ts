// Reads of personal data in the audit log (issue 27): each opening of a patient, a scan, a cervical or ORCA exam, a
// report or consent file writes one row naming the reader, the record and its organization; the same read by the
// same user within a minute folds; another user's read writes its own; a read that answers 404 writes nothing.
// Every CSV export writes one row with its filters and the records it held.
import { and, eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_READ, AUDIT_READ_FOLD_SECONDS } from '@sc/shared/audit';
import { reportQueryFor } from '@sc/shared/reports';
import { auditLog, orcaExams, patients, scans } from '../db/schema/index.ts';
import { seedExam } from '../modules/cervical/cervical.fixtures.ts';
import { demoOrcaConsentPath, demoOrcaReportPath } from '../modules/orca/orca-files.ts';
import { demoScanFilePath } from '../modules/scan-files/scan-files.paths.ts';
import { setupTestApp } from '../test/app.ts';
import { parseCsv } from '../test/csv.ts';
import { auth, createOrganization, createUser, signIn } from '../test/factories.ts';
import { csvRecordCounter, fileReadKind } from './read-audit.ts';

const t = await setupTestApp();
const { db } = t.database;

const WHEN = new Date('2026-03-10T10:00:00Z');
const UA = 'Mozilla/5.0 (read-audit test)';

const org = { a: 0, b: 0 };
const user = { admin: 0, orgAdminA: 0, orgAdminB: 0 };
const token = { admin: '', orgAdminA: '', orgAdminB: '', impersonating: '' };
const ids = { patient: 0, scan: 0, cervical: 0, orca: 0 };

beforeAll(async () => {
  t.clock.set(new Date('2026-03-15T10:00:00Z'));
  org.a = (await createOrganization(t, { name: 'Clinic A' })).id;
  org.b = (await createOrganization(t, { name: 'Clinic B' })).id;
  const admin = await createUser(t, { userType: 'ADMIN' });
  const orgAdminA = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.a });
  const orgAdminB = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.b });
  user.admin = admin.id;
  user.orgAdminA = orgAdminA.id;
  user.orgAdminB = orgAdminB.id;
  token.admin = await signIn(t, admin);
  token.orgAdminA = await signIn(t, orgAdminA);
  token.orgAdminB = await signIn(t, orgAdminB);
  token.impersonating = await signIn(t, orgAdminA, { kind: 'impersonation', impersonatorId: admin.id });
  const technician = await createUser(t, { userType: 'TECHNICIAN', organizationId: org.a });

  const [patient] = await db
    .insert(patients)
    // A physician over two lines: the CSV quotes the cell, and its line feed ends no record.
    .values({ firstName: 'Asha', lastName: 'Rao', age: 44, physicianName: 'Dr "G"\nGupta', organizationId: org.a, technicianId: technician.id })
    .returning();
  ids.patient = patient!.id;
  const [scan] = await db
    .insert(scans)
    .values({
      patientId: patient!.id,
      organizationId: org.a,
      technicianId: technician.id,
      deviceSerialNumber: 'DEV-1',
      localDbId: 'read-audit',
      dateTime: WHEN,
      scanType: 'SCAN',
    })
    .returning();
  ids.scan = scan!.id;
  await db
    .update(scans)
    .set({
      scanFilesPath: {
        reports: [{ path: demoScanFilePath('reports', ids.scan) }],
        consent_form: [{ path: demoScanFilePath('consent_form', ids.scan) }],
      },
    })
    .where(eq(scans.id, ids.scan));
  ids.cervical = (await seedExam(db, { organizationId: org.a, technicianId: technician.id, dateTime: WHEN })).id;
  const [orca] = await db
    .insert(orcaExams)
    .values({
      organizationId: org.a,
      technicianId: technician.id,
      patientId: patient!.id,
      deviceSerialNumber: 'ORC-1',
      localDbId: 'read-audit',
      dateTime: WHEN,
      licenceCode: 'ORC-1111-0001',
    })
    .returning();
  ids.orca = orca!.id;
  await db
    .update(orcaExams)
    .set({
      filePath: { reports: [{ path: demoOrcaReportPath(ids.orca) }], consent_form: [{ path: demoOrcaConsentPath(ids.orca) }] },
    })
    .where(eq(orcaExams.id, ids.orca));
});

// Each test starts a fold window apart from the last: no read folds into another test's.
beforeEach(() => {
  t.clock.advance((AUDIT_READ_FOLD_SECONDS + 1) * 1000);
});

function reportQuery(): string {
  const { report_log: _log, ...query } = reportQueryFor({ year: 2026, type: 'QUARTERLY', index: 0 });
  return new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
}

const get = (url: string, bearer: string) =>
  t.app.inject({ method: 'GET', url, headers: { ...auth(bearer), 'user-agent': UA } });

const readRows = (action: string, targetId?: string) =>
  db
    .select()
    .from(auditLog)
    .where(targetId === undefined ? eq(auditLog.action, action) : and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)))
    .orderBy(auditLog.id);

type ReadCase = { name: string; url: () => string; action: string; targetType: string; targetId: () => string };

const READS: ReadCase[] = [
  {
    name: 'a patient',
    url: () => `/api/v1/patient/${ids.patient}/`,
    action: AUDIT_READ.patient,
    targetType: 'patient',
    targetId: () => String(ids.patient),
  },
  {
    name: 'a scan',
    url: () => `/api/v1/scan/${ids.scan}/`,
    action: AUDIT_READ.scan,
    targetType: 'scan',
    targetId: () => String(ids.scan),
  },
  {
    name: 'a cervical exam',
    url: () => `/api/v1/cervaical/${ids.cervical}/`,
    action: AUDIT_READ.cervicalExam,
    targetType: 'cervical_exam',
    targetId: () => String(ids.cervical),
  },
  {
    name: 'an ORCA exam',
    url: () => `/api/v1/orca/${ids.orca}/`,
    action: AUDIT_READ.orcaExam,
    targetType: 'orca_exam',
    targetId: () => String(ids.orca),
  },
  {
    name: "a scan's report",
    url: () => `/api/v1/file/?path=${encodeURIComponent(demoScanFilePath('reports', ids.scan))}`,
    action: AUDIT_READ.reportFile,
    targetType: 'file',
    targetId: () => demoScanFilePath('reports', ids.scan),
  },
  {
    name: "a scan's consent form",
    url: () => `/api/v1/file/?path=${encodeURIComponent(demoScanFilePath('consent_form', ids.scan))}`,
    action: AUDIT_READ.consentFile,
    targetType: 'file',
    targetId: () => demoScanFilePath('consent_form', ids.scan),
  },
  {
    name: "an ORCA exam's report",
    url: () => `/api/v1/file/?path=${encodeURIComponent(demoOrcaReportPath(ids.orca))}`,
    action: AUDIT_READ.reportFile,
    targetType: 'file',
    targetId: () => demoOrcaReportPath(ids.orca),
  },
  {
    name: "an ORCA exam's consent form",
    url: () => `/api/v1/file/?path=${encodeURIComponent(demoOrcaConsentPath(ids.orca))}`,
    action: AUDIT_READ.consentFile,
    targetType: 'file',
    targetId: () => demoOrcaConsentPath(ids.orca),
  },
];

describe('reads of personal data', () => {
  for (const read of READS) {
    it(`opening ${read.name} writes one ${read.action} row; a burst folds, another user's read is its own`, async () => {
      const before = await readRows(read.action, read.targetId());
      const first = await get(read.url(), token.orgAdminA);
      expect(first.statusCode, first.body).toBe(200);
      const rows = (await readRows(read.action, read.targetId())).slice(before.length);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        action: read.action,
        actionGroup: 'reads',
        actorId: user.orgAdminA,
        impersonatorId: null,
        targetType: read.targetType,
        targetId: read.targetId(),
        organizationId: org.a,
        outcome: 'success',
        userAgent: UA,
      });
      expect(rows[0]!.ip).toBeTruthy();

      // Again within the minute, by the same user: no second row.
      t.clock.advance((AUDIT_READ_FOLD_SECONDS - 5) * 1000);
      expect((await get(read.url(), token.orgAdminA)).statusCode).toBe(200);
      expect(await readRows(read.action, read.targetId())).toHaveLength(before.length + 1);

      // Another user within the same minute: a row of their own.
      expect((await get(read.url(), token.admin)).statusCode).toBe(200);
      const after = (await readRows(read.action, read.targetId())).slice(before.length);
      expect(after.map((r) => r.actorId)).toEqual([user.orgAdminA, user.admin]);

      // Past the minute, the first user's read writes again.
      t.clock.advance(10 * 1000);
      expect((await get(read.url(), token.orgAdminA)).statusCode).toBe(200);
      expect(await readRows(read.action, read.targetId())).toHaveLength(before.length + 3);
    });

    it(`a read of ${read.name} outside the caller's scope answers 404 and writes no row`, async () => {
      const before = await readRows(read.action, read.targetId());
      const res = await get(read.url(), token.orgAdminB);
      expect(res.statusCode).toBe(404);
      const rows = await readRows(read.action, read.targetId());
      expect(rows).toHaveLength(before.length);
      expect(rows.some((r) => r.actorId === user.orgAdminB)).toBe(false);
    });
  }

  it('the transfer dialog (GET patient/{id}/reports/) is a read of the patient', async () => {
    const res = await get(`/api/v1/patient/${ids.patient}/reports/`, token.orgAdminB);
    expect(res.statusCode).toBe(404);
    const ok = await get(`/api/v1/patient/${ids.patient}/reports/`, token.admin);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((JSON.parse(ok.body) as { scans: unknown[] }).scans).toHaveLength(1);
    const [row] = (await readRows(AUDIT_READ.patient, String(ids.patient))).slice(-1);
    expect(row).toMatchObject({ actorId: user.admin, organizationId: org.a, details: { view: 'reports' } });
  });

  it("a review's photos and videos (GET cervaical/document/?scan=) are a read of the exam, folding with its detail", async () => {
    const before = await readRows(AUDIT_READ.cervicalExam, String(ids.cervical));
    expect((await get(`/api/v1/cervaical/document/?scan=${ids.cervical}`, token.orgAdminB)).statusCode).toBe(404);
    expect((await get(`/api/v1/cervaical/document/?scan=${ids.cervical}`, token.admin)).statusCode).toBe(200);
    expect((await get(`/api/v1/cervaical/${ids.cervical}/`, token.admin)).statusCode).toBe(200);
    const rows = (await readRows(AUDIT_READ.cervicalExam, String(ids.cervical))).slice(before.length);
    expect(rows).toMatchObject([{ actorId: user.admin, organizationId: org.a, details: { view: 'documents' } }]);
  });

  it("the spec's ORCA case history is a read of the exam", async () => {
    const before = await readRows(AUDIT_READ.orcaExam, String(ids.orca));
    expect((await get(`/api/v1/orca/case-history/?scan=${ids.orca}`, token.admin)).statusCode).toBe(200);
    const rows = (await readRows(AUDIT_READ.orcaExam, String(ids.orca))).slice(before.length);
    expect(rows).toMatchObject([{ actorId: user.admin, targetType: 'orca_exam', organizationId: org.a }]);
  });

  it('a read while impersonating names the impersonating ADMIN, and folds apart from the user’s own reads', async () => {
    const before = await readRows(AUDIT_READ.patient, String(ids.patient));
    expect((await get(`/api/v1/patient/${ids.patient}/`, token.orgAdminA)).statusCode).toBe(200);
    expect((await get(`/api/v1/patient/${ids.patient}/`, token.impersonating)).statusCode).toBe(200);
    const rows = (await readRows(AUDIT_READ.patient, String(ids.patient))).slice(before.length);
    expect(rows.map((r) => [r.actorId, r.impersonatorId])).toEqual([
      [user.orgAdminA, null],
      [user.orgAdminA, user.admin],
    ]);
  });

  it('a list is not an opening: the patient and scan lists write no read row', async () => {
    const count = async () => (await db.select().from(auditLog).where(eq(auditLog.actionGroup, 'reads'))).length;
    const before = await count();
    expect((await get('/api/v1/patient/', token.admin)).statusCode).toBe(200);
    expect((await get('/api/v1/scan/', token.admin)).statusCode).toBe(200);
    expect(await count()).toBe(before);
  });

  it('a follow-up case read carries the case organization', async () => {
    // The case module writes its own read row on every read (follow-up.service.ts); here only its organization.
    const { followUpCases } = await import('../db/schema/index.ts');
    const [row] = await db
      .insert(followUpCases)
      .values({
        patientId: ids.patient,
        organizationId: org.a,
        status: 'OPEN',
        modalities: ['BREAST'],
        openedAt: WHEN,
        statusChanged: WHEN,
        nextDue: '2026-03-17',
        dueAt: new Date('2026-03-17T18:30:00Z'),
        lastActionKind: 'OPENED',
        lastActionAt: WHEN,
      })
      .returning();
    expect((await get(`/api/v1/follow-up/${row!.id}/`, token.admin)).statusCode).toBe(200);
    const [audit] = await readRows('follow_up.case.read', String(row!.id));
    expect(audit).toMatchObject({ actorId: user.admin, targetType: 'follow_up_case', organizationId: org.a });
  });
});

describe('which files are reports and consent forms', () => {
  it('names reports and consent forms by their folder and the exams’ demo names; other files are not audited', () => {
    expect(fileReadKind('reports/demo/scan_4.pdf')).toBe('reportFile');
    expect(fileReadKind('reports/demo/mammogram_4.pdf')).toBe('reportFile');
    expect(fileReadKind('reports/cervical/cervical_4.pdf')).toBe('reportFile');
    expect(fileReadKind('reports/orca/orca_4.pdf')).toBe('reportFile');
    expect(fileReadKind('reports/0123456789abcdef_1_consent_x.pdf')).toBe('reportFile');
    expect(fileReadKind('consent_forms/demo/consent_4.pdf')).toBe('consentFile');
    expect(fileReadKind('consent_forms/0123456789abcdef_1_form.jpg')).toBe('consentFile');
    expect(fileReadKind('reports/cervical/consent_4.pdf')).toBe('consentFile');
    expect(fileReadKind('reports/orca/consent_4.pdf')).toBe('consentFile');
    expect(fileReadKind('companylogo/0123456789abcdef_1_logo.png')).toBeNull();
    expect(fileReadKind('firmware/0123456789abcdef_1_fw.ibe')).toBeNull();
    expect(fileReadKind('documents/orca/4/5.jpg')).toBeNull();
  });
});

describe('CSV exports', () => {
  type OpenApi = { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };

  /** `METHOD path` of every operation whose query takes `format` (as http/csv-exports.test.ts finds them). */
  function csvRoutes(): string[] {
    const doc = t.app.swagger() as unknown as OpenApi;
    return Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, op]) => op.parameters?.some((p) => p.in === 'query' && p.name === 'format'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
  }

  // How each CSV route is called; null for one that shares a list's query and answers JSON only.
  const CALLS: Record<string, (() => { url: string; payload?: object }) | null> = {
    'GET /api/v1/scan/': () => ({ url: '/api/v1/scan/?scan_type=SCAN&page=2&limit=5' }),
    'POST /api/v1/scan/ids/': () => ({ url: '/api/v1/scan/ids/', payload: { ids_list: [ids.scan] } }),
    'POST /api/v1/scan/from/ids/': () => ({ url: '/api/v1/scan/from/ids/', payload: { ids_list: [ids.scan] } }),
    'GET /api/v1/scan/recentscan/': null,
    'GET /api/v1/scan/{id}/': () => ({ url: `/api/v1/scan/${ids.scan}/` }),
    'GET /api/v1/cervaical/': () => ({ url: '/api/v1/cervaical/' }),
    'POST /api/v1/cervaical/ids/': () => ({ url: '/api/v1/cervaical/ids/', payload: { ids_list: [ids.cervical] } }),
    'GET /api/v1/orca/': () => ({ url: '/api/v1/orca/' }),
    'GET /api/v1/device/': () => ({ url: '/api/v1/device/' }),
    'GET /api/v1/organization/device/': null,
    'GET /api/v1/organization/leaderboard/': () => ({
      url: '/api/v1/organization/leaderboard/?custom_range=2026-03-01,2026-03-31',
    }),
    'GET /api/v1/follow-up/': () => ({ url: '/api/v1/follow-up/' }),
    'GET /api/v1/audit/': () => ({ url: '/api/v1/audit/?group=reads' }),
    'GET /api/v1/follow-up/figures/organizations/': () => ({ url: '/api/v1/follow-up/figures/organizations/' }),
    'GET /api/v1/organization/report-generate/': () => ({
      url: `/api/v1/organization/report-generate/?${reportQuery()}`,
    }),
    'GET /api/v1/organization/leaderboard/report-generate/': () => ({
      url: `/api/v1/organization/leaderboard/report-generate/?${reportQuery()}`,
    }),
  };

  it('every CSV route writes one export.csv row with its report, filters and the records the file held', async () => {
    expect(csvRoutes().sort()).toEqual(Object.keys(CALLS).sort());
    for (const route of csvRoutes()) {
      const call = CALLS[route]?.();
      if (!call) continue;
      const before = await readRows(AUDIT_READ.csv);
      const res = await t.app.inject({
        method: route.startsWith('POST') ? 'POST' : 'GET',
        url: `${call.url}${call.url.includes('?') ? '&' : '?'}format=csv`,
        headers: { ...auth(token.admin), 'user-agent': UA },
        ...(call.payload ? { payload: call.payload } : {}),
      });
      expect(res.statusCode, `${route}: ${res.body}`).toBe(200);
      expect(res.headers['content-type'], route).toContain('text/csv');
      const [, ...records] = parseCsv(res.body);
      const rows = (await readRows(AUDIT_READ.csv)).slice(before.length);
      expect(rows, route).toHaveLength(1);
      const [, path] = route.split(' ');
      expect(rows[0], route).toMatchObject({
        actorId: user.admin,
        actionGroup: 'reads',
        targetType: null,
        targetId: null,
        userAgent: UA,
        details: {
          report: path!.replace('{id}', String(ids.scan)),
          rows: records.length,
          complete: true,
        },
      });
      const details = rows[0]!.details as { file: string; filters: Record<string, unknown> };
      expect(res.headers['content-disposition'], route).toContain(details.file);
      expect(details.filters, route).not.toHaveProperty('format');
      if (call.payload) expect(details.filters, route).toMatchObject({ ids_list_count: 1 });
    }
  });

  it("keeps the query's filters without its paging, and counts a record whose cell spans two lines once", async () => {
    const before = await readRows(AUDIT_READ.csv);
    const res = await get(`/api/v1/scan/?scan_type=SCAN&page=1&limit=5&organization=${org.a}&format=csv`, token.admin);
    expect(res.statusCode).toBe(200);
    const [, ...records] = parseCsv(res.body);
    expect(records).toHaveLength(1);
    expect(res.body).toContain('"Dr ""G""\nGupta"');
    const [row] = (await readRows(AUDIT_READ.csv)).slice(before.length);
    expect(row).toMatchObject({
      organizationId: org.a,
      details: { filters: { scan_type: 'SCAN', organization: String(org.a) }, rows: 1, complete: true },
    });
    expect((row!.details as { filters: object }).filters).not.toHaveProperty('page');
    expect((row!.details as { filters: object }).filters).not.toHaveProperty('limit');
  });

  it("writes the export of a user of one organization under that organization, whatever organization the query names", async () => {
    // A MANAGER of clinic A who manages clinic B too, exporting clinic B's scans.
    const manager = await createUser(t, { userType: 'MANAGER', organizationId: org.a, linkedOrganizationIds: [org.b] });
    const before = await readRows(AUDIT_READ.csv);
    const res = await get(`/api/v1/scan/?organization=${org.b}&format=csv`, await signIn(t, manager));
    expect(res.statusCode, res.body).toBe(200);
    const rows = (await readRows(AUDIT_READ.csv)).slice(before.length);
    expect(rows).toMatchObject([
      { actorId: manager.id, organizationId: org.a, details: { filters: { organization: String(org.b) }, rows: 0 } },
    ]);
  });

  it('does not fold exports: the same CSV twice within a minute writes two rows', async () => {
    const before = await readRows(AUDIT_READ.csv);
    expect((await get('/api/v1/orca/?format=csv', token.orgAdminA)).statusCode).toBe(200);
    expect((await get('/api/v1/orca/?format=csv', token.orgAdminA)).statusCode).toBe(200);
    const rows = (await readRows(AUDIT_READ.csv)).slice(before.length);
    expect(rows.map((r) => [r.actorId, r.organizationId])).toEqual([
      [user.orgAdminA, org.a],
      [user.orgAdminA, org.a],
    ]);
  });

  it('a CSV that answers 404 (an organization out of scope) writes no row', async () => {
    const before = await readRows(AUDIT_READ.csv);
    const res = await get(
      `/api/v1/organization/report-generate/?organization_id=${org.b}&${reportQuery()}&format=csv`,
      token.orgAdminA,
    );
    expect(res.statusCode).toBe(404);
    expect(await readRows(AUDIT_READ.csv)).toHaveLength(before.length);
  });
});

describe('csvRecordCounter', () => {
  it('counts line feeds outside quotes, across chunks cut anywhere', () => {
    const text = 'a,b\n1,"x\ny"\n2,"he said ""hi""\n"\n3,z\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const counter = csvRecordCounter();
      counter.add(Buffer.from(text.slice(0, cut)));
      counter.add(Buffer.from(text.slice(cut)));
      expect(counter.records, `cut at ${cut}`).toBe(4);
    }
  });
});
