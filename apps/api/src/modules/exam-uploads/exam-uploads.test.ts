// POST cervaical/ and POST orca/ from a device (issue 10): each stored exam takes one licence of its application in
// the upload's transaction, with a log row; none left → 403 and nothing stored, even under twenty parallel uploads;
// the breast upload's rules (uploader, device, patient, files, Idempotency-Key) apply unchanged.
import { and, count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { invalidPk } from '@sc/shared/devices';
import {
  EXAM_UPLOAD_MESSAGES,
  type TCervicalUploadInput,
  type TExamUploadSaved,
  type TOrcaUploadInput,
} from '@sc/shared/exam-uploads';
import { LICENCE_MESSAGES } from '@sc/shared/licences';
import { IDEMPOTENT_REPLAY_HEADER, UPLOAD_MESSAGES } from '@sc/shared/uploads';
import {
  auditLog,
  cervicalDocuments,
  cervicalExams,
  licenceLogs,
  licences,
  orcaCaseHistories,
  orcaExams,
  orcaFindings,
} from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import {
  API,
  PNG,
  createDevice,
  newKey,
  setupUploader,
  uploadFile,
  uploadPatient,
  type UploadSetup,
} from '../uploads/uploads.fixtures.ts';

const t = await setupTestApp();
const { db } = t.database;

let seq = 0;

type Setup = UploadSetup & { patient: number };

async function withPatient(opts: Parameters<typeof setupUploader>[1] = {}): Promise<Setup> {
  const setup = await setupUploader(t, { certified: false, ...opts });
  return { ...setup, patient: await uploadPatient(t, setup) };
}

async function grant(
  organizationId: number,
  application: 'ORCA' | 'CERVAICAL',
  available: number,
  code?: string,
) {
  const [row] = await db
    .insert(licences)
    .values({
      organizationId,
      application,
      licenseCode: code ?? `T-${application}-${process.pid}-${++seq}`,
      pin: '123456',
      count: available,
      totalLicenseCount: Math.max(available, 100),
    })
    .returning();
  if (!row) throw new Error('licence not created');
  return row;
}

const licenceNow = async (id: number) => (await db.select().from(licences).where(eq(licences.id, id)))[0]!;
const logsOf = (id: number) =>
  db.select().from(licenceLogs).where(eq(licenceLogs.licenseId, id)).orderBy(licenceLogs.id);
const cervicalOf = (serial: string) =>
  db.select().from(cervicalExams).where(eq(cervicalExams.deviceSerialNumber, serial));
const orcaOf = (serial: string) =>
  db.select().from(orcaExams).where(eq(orcaExams.deviceSerialNumber, serial));

function postExam(
  token: string | null,
  path: '/cervaical/' | '/orca/',
  body: unknown,
  key: string | null = newKey(),
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: `${API}${path}`,
    headers: { ...(token ? auth(token) : {}), ...(key === null ? {} : { 'idempotency-key': key }) },
    payload: body as Record<string, unknown>,
  });
}

async function cervicalBody(
  s: Setup,
  overrides: Partial<TCervicalUploadInput> = {},
): Promise<TCervicalUploadInput> {
  const photo = await uploadFile(t, s.token, 'documents', { name: 'cervix.png', data: PNG });
  return {
    patient: s.patient,
    device_serial_number: s.device.serialNumber,
    local_db_id: `c-${process.pid}-${++seq}`,
    date_time: '2026-03-01T10:00:00Z',
    has_symptoms: true,
    notes: { message: 'Contact bleeding.' },
    documents: [{ path: photo, document_type: 'IMAGE', symptom_tag: 'VIA' }],
    ...overrides,
  };
}

async function orcaBody(s: Setup, overrides: Partial<TOrcaUploadInput> = {}): Promise<TOrcaUploadInput> {
  const photo = await uploadFile(t, s.token, 'documents', { name: 'buccal.png', data: PNG });
  const report = await uploadFile(t, s.token, 'reports');
  return {
    patient: s.patient,
    device_serial_number: s.device.serialNumber,
    local_db_id: `o-${process.pid}-${++seq}`,
    date_time: '2026-03-01T10:00:00Z',
    file_path: { reports: [{ path: report }], consent_form: [] },
    case_history: { uses_tobacco: true, consumes_smokeless_tobacco: true, smokeless_history_time_months: 48 },
    findings: [
      { exam: 'intra_oral_exam', part: 'Buccal mucosa', index: 1, symptoms: ['White patch'], path: photo },
    ],
    ...overrides,
  };
}

describe('POST cervaical/ and orca/ without a token or key', () => {
  it('answers 401 before looking at the body, and 400 without an Idempotency-Key', async () => {
    for (const path of ['/cervaical/', '/orca/'] as const) {
      const res = await postExam(null, path, { nonsense: true });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: AUTH_ERRORS.notProvided });
    }
    const s = await withPatient();
    await grant(s.org.id, 'CERVAICAL', 5);
    const res = await postExam(s.token, '/cervaical/', await cervicalBody(s), null);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ 'Idempotency-Key': [UPLOAD_MESSAGES.keyRequired] });
    expect(await cervicalOf(s.device.serialNumber)).toHaveLength(0);
  });
});

describe('POST cervaical/: a device uploads a cervical exam', () => {
  it('stores the exam and its documents and takes one CERVAICAL licence, with a log row and audit rows', async () => {
    const s = await withPatient();
    const licence = await grant(s.org.id, 'CERVAICAL', 3);
    const orca = await grant(s.org.id, 'ORCA', 3);
    const res = await postExam(s.token, '/cervaical/', await cervicalBody(s));
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<TExamUploadSaved>();
    expect(body).toMatchObject({
      application: 'CERVAICAL',
      patient: s.patient,
      organization: s.org.id,
      technician: s.user.id,
      licenses_left: 2,
      detail: EXAM_UPLOAD_MESSAGES.cervicalCreated,
    });
    const [exam] = await cervicalOf(s.device.serialNumber);
    expect(exam).toMatchObject({ id: body.id, reviewerOneStatus: 'NOT_REVIEWED', hasSymptoms: true });
    const docs = await db.select().from(cervicalDocuments).where(eq(cervicalDocuments.examId, body.id));
    expect(docs).toMatchObject([{ documentType: 'IMAGE', symptomTag: 'VIA' }]);
    expect(await licenceNow(licence.id)).toMatchObject({ count: 2 });
    expect(await licenceNow(orca.id)).toMatchObject({ count: 3 });
    expect(await logsOf(licence.id)).toMatchObject([{ beforeCount: 3, afterCount: 2, renewedBy: s.user.id }]);
    const audits = await db.select().from(auditLog).where(eq(auditLog.actorId, s.user.id));
    const actions = audits.map((a) => a.action);
    expect(actions.filter((a) => a === 'cervical.uploaded')).toHaveLength(1);
    expect(audits.filter((a) => a.action === 'licence.consumed')).toMatchObject([
      { targetType: 'licence', targetId: String(licence.id), details: { before_count: 3, after_count: 2 } },
    ]);
  });

  it('refuses an organization without a CERVAICAL licence left, storing nothing and keeping the key free', async () => {
    const s = await withPatient();
    const empty = await grant(s.org.id, 'CERVAICAL', 0);
    await grant(s.org.id, 'ORCA', 10);
    const body = await cervicalBody(s);
    const key = newKey();
    const res = await postExam(s.token, '/cervaical/', body, key);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: LICENCE_MESSAGES.noneLeft('CERVAICAL') });
    expect(await cervicalOf(s.device.serialNumber)).toHaveLength(0);
    expect(
      await db.select().from(cervicalDocuments).where(eq(cervicalDocuments.path, body.documents[0]!.path)),
    ).toHaveLength(0);
    expect(await logsOf(empty.id)).toHaveLength(0);
    // Renewed, the same upload under the same key goes through.
    await db.update(licences).set({ count: 100 }).where(eq(licences.id, empty.id));
    expect((await postExam(s.token, '/cervaical/', body, key)).statusCode).toBe(201);
    expect(await licenceNow(empty.id)).toMatchObject({ count: 99 });
  });

  it('does not use a switched-off licence', async () => {
    const s = await withPatient();
    const off = await grant(s.org.id, 'CERVAICAL', 50);
    await db.update(licences).set({ isActive: false }).where(eq(licences.id, off.id));
    expect((await postExam(s.token, '/cervaical/', await cervicalBody(s))).statusCode).toBe(403);
    expect(await licenceNow(off.id)).toMatchObject({ count: 50 });
  });

  it('takes the last licences exactly once under twenty parallel uploads: never below zero, exactly N stored', async () => {
    const s = await withPatient();
    const licence = await grant(s.org.id, 'CERVAICAL', 7);
    const bodies = await Promise.all(Array.from({ length: 20 }, () => cervicalBody(s)));
    const answers = await Promise.all(bodies.map((b) => postExam(s.token, '/cervaical/', b)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((c) => c === 201)).toHaveLength(7);
    expect(statuses.filter((c) => c === 403)).toHaveLength(13);
    expect(await cervicalOf(s.device.serialNumber)).toHaveLength(7);
    expect(await licenceNow(licence.id)).toMatchObject({ count: 0 });
    const logs = await logsOf(licence.id);
    expect(logs).toHaveLength(7);
    expect(logs.map((l) => l.afterCount).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('stores one exam and takes one licence for twenty parallel identical uploads with one key', async () => {
    const s = await withPatient();
    const licence = await grant(s.org.id, 'CERVAICAL', 100);
    const body = await cervicalBody(s);
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => postExam(s.token, '/cervaical/', body, key)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(201));
    expect(answers.filter((a) => a.headers[IDEMPOTENT_REPLAY_HEADER.toLowerCase()] === 'true')).toHaveLength(
      19,
    );
    expect(new Set(answers.map((a) => a.json<TExamUploadSaved>().id)).size).toBe(1);
    expect(await cervicalOf(s.device.serialNumber)).toHaveLength(1);
    expect(await licenceNow(licence.id)).toMatchObject({ count: 99 });
  });

  it('answers 422 for a key reused with other content, and the stored exam for the same exam under a new key', async () => {
    const s = await withPatient();
    const licence = await grant(s.org.id, 'CERVAICAL', 100);
    const body = await cervicalBody(s);
    const key = newKey();
    const first = await postExam(s.token, '/cervaical/', body, key);
    expect(first.statusCode).toBe(201);
    expect((await postExam(s.token, '/cervaical/', { ...body, has_symptoms: false }, key)).statusCode).toBe(
      422,
    );
    const again = await postExam(s.token, '/cervaical/', body);
    expect(again.statusCode).toBe(200);
    expect(again.json<TExamUploadSaved>()).toMatchObject({
      id: first.json<TExamUploadSaved>().id,
      detail: EXAM_UPLOAD_MESSAGES.alreadyStored,
    });
    const other = await postExam(s.token, '/cervaical/', { ...body, date_time: '2026-03-02T10:00:00Z' });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toEqual({ local_db_id: [EXAM_UPLOAD_MESSAGES.storedDifferently] });
    expect(await licenceNow(licence.id)).toMatchObject({ count: 99 });
  });

  it("keeps the breast upload's rules: role, linked device, own patient and own files", async () => {
    const s = await withPatient();
    await grant(s.org.id, 'CERVAICAL', 100);
    const body = await cervicalBody(s);

    const manager = await signIn(
      t,
      await createUser(t, { userType: 'MANAGER', organizationId: s.org.id, password: null }),
    );
    const byManager = await postExam(manager, '/cervaical/', body);
    expect(byManager.statusCode).toBe(403);
    expect(byManager.json()).toEqual({ detail: UPLOAD_MESSAGES.notAnUploader });

    const stranger = await createDevice(t, (await createOrganization(t)).id);
    const otherDevice = await postExam(s.token, '/cervaical/', {
      ...body,
      device_serial_number: stranger.serialNumber,
    });
    expect(otherDevice.statusCode).toBe(403);
    expect(otherDevice.json()).toEqual({ detail: UPLOAD_MESSAGES.deviceNotLinked(stranger.serialNumber) });

    const elsewhere = await withPatient();
    const foreignPatient = await postExam(s.token, '/cervaical/', { ...body, patient: elsewhere.patient });
    expect(foreignPatient.json()).toEqual({ patient: [invalidPk(elsewhere.patient)] });

    const theirPhoto = await uploadFile(t, elsewhere.token, 'documents', { name: 'x.png', data: PNG });
    const foreignFile = await postExam(s.token, '/cervaical/', {
      ...body,
      documents: [{ path: theirPhoto, document_type: 'IMAGE' }],
    });
    expect(foreignFile.statusCode).toBe(400);
    expect(foreignFile.json()).toEqual({ documents: [UPLOAD_MESSAGES.fileNotFound('documents')] });
    expect(await cervicalOf(s.device.serialNumber)).toHaveLength(0);
  });

  it('answers field errors for a bad body and stores nothing', async () => {
    const s = await withPatient();
    await grant(s.org.id, 'CERVAICAL', 100);
    const body = await cervicalBody(s);
    const cases: [object, Record<string, string[]>][] = [
      [{ ...body, documents: [] }, { documents: [EXAM_UPLOAD_MESSAGES.documentsRequired] }],
      [
        { ...body, documents: [{ path: 'documents/x.png', document_type: 'AUDIO' }] },
        { 'documents.0.document_type': [EXAM_UPLOAD_MESSAGES.documentType] },
      ],
      [{ ...body, latitude: 12 }, { longitude: ['Send latitude and longitude together.'] }],
      [{ ...body, date_time: 'yesterday' }, { date_time: [expect.any(String) as string] }],
    ];
    for (const [payload, errors] of cases) {
      const res = await postExam(s.token, '/cervaical/', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject(errors);
    }
    expect(await cervicalOf(s.device.serialNumber)).toHaveLength(0);
  });
});

describe('POST orca/: a device uploads an ORCA exam', () => {
  it('stores the exam, its case history and findings, and records the licence it took', async () => {
    const s = await withPatient();
    const older = await grant(s.org.id, 'ORCA', 0);
    const licence = await grant(s.org.id, 'ORCA', 40);
    const res = await postExam(s.token, '/orca/', await orcaBody(s));
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<TExamUploadSaved>();
    expect(body).toMatchObject({
      application: 'ORCA',
      license_id: licence.id,
      licence_code: licence.licenseCode,
      // 100 granted, 39 left: this report is the 61st.
      current_report_count: 61,
      licenses_left: 39,
      detail: EXAM_UPLOAD_MESSAGES.orcaCreated,
    });
    expect(await orcaOf(s.device.serialNumber)).toMatchObject([
      { licenseId: licence.id, currentReportCount: 61 },
    ]);
    expect(
      await db.select().from(orcaCaseHistories).where(eq(orcaCaseHistories.examId, body.id)),
    ).toMatchObject([{ usesTobacco: true, smokelessHistoryTimeMonths: 48 }]);
    expect(await db.select().from(orcaFindings).where(eq(orcaFindings.examId, body.id))).toMatchObject([
      { exam: 'intra_oral_exam', part: 'Buccal mucosa', symptoms: ['White patch'] },
    ]);
    expect(await licenceNow(older.id)).toMatchObject({ count: 0 });
    expect(await logsOf(licence.id)).toMatchObject([{ beforeCount: 40, afterCount: 39 }]);
  });

  it('takes the licence named by license_code, and refuses a key that is not an active ORCA licence of the organization', async () => {
    const s = await withPatient();
    const first = await grant(s.org.id, 'ORCA', 10);
    const named = await grant(s.org.id, 'ORCA', 10);
    const res = await postExam(s.token, '/orca/', await orcaBody(s, { license_code: named.licenseCode }));
    expect(res.statusCode).toBe(201);
    expect(await licenceNow(named.id)).toMatchObject({ count: 9 });
    expect(await licenceNow(first.id)).toMatchObject({ count: 10 });

    const cervical = await grant(s.org.id, 'CERVAICAL', 10);
    const other = await grant((await createOrganization(t)).id, 'ORCA', 10);
    for (const code of [cervical.licenseCode, other.licenseCode, 'NO-SUCH-KEY']) {
      const bad = await postExam(s.token, '/orca/', await orcaBody(s, { license_code: code }));
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ license_code: [LICENCE_MESSAGES.unknownCode('ORCA')] });
    }
    expect(await orcaOf(s.device.serialNumber)).toHaveLength(1);
  });

  it('refuses at zero under twenty parallel uploads: exactly the licences left are stored', async () => {
    const s = await withPatient();
    const licence = await grant(s.org.id, 'ORCA', 5);
    const bodies = await Promise.all(Array.from({ length: 20 }, () => orcaBody(s)));
    const answers = await Promise.all(bodies.map((b) => postExam(s.token, '/orca/', b)));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(5);
    const refused = answers.filter((a) => a.statusCode === 403);
    expect(refused).toHaveLength(15);
    expect(refused[0]?.json()).toEqual({ detail: LICENCE_MESSAGES.noneLeft('ORCA') });
    const stored = await orcaOf(s.device.serialNumber);
    expect(stored).toHaveLength(5);
    expect(stored.map((e) => e.currentReportCount).sort((a, b) => a! - b!)).toEqual([96, 97, 98, 99, 100]);
    expect(await licenceNow(licence.id)).toMatchObject({ count: 0 });
    const [findings] = await db
      .select({ n: count() })
      .from(orcaFindings)
      .where(and(eq(orcaFindings.part, 'Buccal mucosa')));
    expect(findings!.n).toBeGreaterThanOrEqual(5);
  });

  it('answers field errors for bad findings and case history', async () => {
    const s = await withPatient();
    await grant(s.org.id, 'ORCA', 100);
    const body = await orcaBody(s);
    const cases: [object, Record<string, string[]>][] = [
      [
        { ...body, findings: [{ exam: 'ear_exam', part: 'Lip' }] },
        { 'findings.0.exam': [EXAM_UPLOAD_MESSAGES.orcaExam] },
      ],
      [
        { ...body, findings: [{ exam: 'intra_oral_exam', part: '' }] },
        { 'findings.0.part': ['This field may not be blank.'] },
      ],
      [
        { ...body, case_history: { smoking_tobacco_usage_frequency: 'Daily' } },
        { 'case_history.smoking_tobacco_usage_frequency': [EXAM_UPLOAD_MESSAGES.frequency] },
      ],
      [
        { ...body, case_history: { smoking_history_time_months: -1 } },
        { 'case_history.smoking_history_time_months': ['Ensure this value is greater than or equal to 0.'] },
      ],
      [
        { ...body, findings: [{ exam: 'intra_oral_exam', part: 'Lip', path: 'documents/not-mine.png' }] },
        { 'findings.0.path': [UPLOAD_MESSAGES.fileNotFound('documents')] },
      ],
    ];
    for (const [payload, errors] of cases) {
      const res = await postExam(s.token, '/orca/', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject(errors);
    }
    expect(await orcaOf(s.device.serialNumber)).toHaveLength(0);
  });
});

describe('OpenAPI', () => {
  it('documents both uploads under the device upload tag with the licence rule', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const spec = res.json<{
      paths: Record<string, Record<string, { tags: string[]; description: string }>>;
    }>();
    for (const path of ['/api/v1/cervaical/', '/api/v1/orca/']) {
      const op = spec.paths[path]?.post;
      expect(op?.tags).toEqual(['device upload']);
      expect(op?.description).toContain('licence');
    }
  });
});
