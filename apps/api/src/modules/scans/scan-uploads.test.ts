// POST scan/ from a device (issue 8): who may upload from which device, certification, the patient and the files
// an upload names, idempotency (retries, 422, twenty parallel copies), duplicates and the webhook it queues.
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { invalidPk } from '@sc/shared/devices';
import { FOLLOW_UP_WEBHOOK_EVENT } from '@sc/shared/follow-up';
import { SCAN_MESSAGES, type TScanSaved } from '@sc/shared/scans';
import { IDEMPOTENT_REPLAY_HEADER, UPLOAD_MESSAGES, UNCERTIFIED_SCAN_TYPES } from '@sc/shared/uploads';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import {
  auditLog,
  devices,
  idempotencyKeys,
  organizationDevices,
  scans,
  users,
  webhookDeliveries,
} from '../../db/schema/index.ts';
import { startReceiver } from '../../services/webhooks/test-receiver.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import {
  API,
  PDF,
  PNG,
  createDevice,
  newKey,
  post,
  postFile,
  scanBody,
  setupUploader,
  uploadFile,
  uploadPatient,
  type UploadSetup,
} from '../uploads/uploads.fixtures.ts';

const t = await setupTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
const { db } = t.database;
const receiver = await startReceiver();
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.requests.length = 0;
});

const scansOf = (serial: string) => db.select().from(scans).where(eq(scans.deviceSerialNumber, serial));
const countScans = async () => (await db.select({ n: count() }).from(scans))[0]!.n;
const deliveriesOf = (scanId: number) =>
  db.select().from(webhookDeliveries).where(eq(webhookDeliveries.scanId, scanId));

/** An uploader with a patient of their organization. */
async function withPatient(
  opts: Parameters<typeof setupUploader>[1] = {},
): Promise<UploadSetup & { patient: number }> {
  const setup = await setupUploader(t, opts);
  return { ...setup, patient: await uploadPatient(t, setup) };
}

describe('POST scan/: a device uploads a scan', () => {
  it('stores the scan for the technician and organization, and answers 201 with every field of part 2 §3', async () => {
    const s = await withPatient();
    const report = await uploadFile(t, s.token, 'reports');
    const consent = await uploadFile(t, s.token, 'consent_forms', { name: 'consent.png', data: PNG });
    const body = scanBody(s.device.serialNumber, s.patient, {
      notes: { message: 'Left side tender.\nRecheck in 6 months.' },
      next_appointment_date: '2026-09-01',
      under_bust: 80,
      over_bust: 95.5,
      is_replay_available: true,
      is_survivor: true,
      scan_files_path: {
        reports: [{ path: report }],
        consent_form: [{ path: consent }],
        assessment_files: [],
      },
    });
    const res = await post(t, s.token, '/scan/', body);
    expect(res.statusCode, res.body).toBe(201);
    const scan = res.json<TScanSaved>();
    expect(scan).toMatchObject({
      detail: UPLOAD_MESSAGES.scanCreated,
      organization: s.org.id,
      organization_name: s.org.name,
      technician_data: { id: s.user.id, username: s.user.username },
      device_serial_number: s.device.serialNumber,
      local_db_id: body.local_db_id,
      scan_type: 'SCAN',
      breast_type: 2,
      left_breast_finding: ['mass'],
      right_breast_finding: [],
      is_positive: true,
      has_symptoms: true,
      is_survivor: true,
      is_replay_available: true,
      parent_scan_id: null,
      date_time: '2026-03-01T10:00:00.000Z',
      next_appointment_date: '2026-09-01',
      under_bust: 80,
      over_bust: 95.5,
      latitude: 18.52,
      longitude: 73.85,
      sensor_serial_number: 'SEN-77',
      tablet_serial_number: 'TAB-9',
      hardware_version: 'h3',
      software_version: 'v2.14',
      notes: { message: 'Left side tender.\nRecheck in 6 months.' },
      metadata: { device: { device_model: 'Tab S9', manufacturer: 'Samsung', os_version: '14' } },
      scan_files_path: {
        reports: [{ path: report }],
        consent_form: [{ path: consent }],
        assessment_files: [],
      },
      assessment_result: 'NO_ASSESSMENT',
      assessment_approved: null,
      patient: { id: s.patient, first_name: 'Asha' },
    });
    const [row] = await db.select().from(scans).where(eq(scans.id, scan.id));
    expect(row).toMatchObject({ organizationId: s.org.id, technicianId: s.user.id, createdBy: s.user.id });
  });

  it("updates the device's last sync date, scan count and firmware, and writes the audit log", async () => {
    const s = await withPatient();
    // Ten minutes after the patient's upload, which synced the device already (the session stays live).
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 600_000);
    t.clock.set(at);
    try {
      const res = await post(
        t,
        s.token,
        '/scan/',
        scanBody(s.device.serialNumber, s.patient, { software_version: 'v2.15' }),
      );
      expect(res.statusCode, res.body).toBe(201);
      const [device] = await db.select().from(devices).where(eq(devices.id, s.device.id));
      expect(device).toMatchObject({ softwareVersion: 'v2.15', hardwareVersion: 'h3' });
      expect(device?.lastSyncDate?.toISOString()).toBe(at.toISOString());
      // An older firmware reported with a late upload does not roll the device back.
      await post(
        t,
        s.token,
        '/scan/',
        scanBody(s.device.serialNumber, s.patient, { software_version: 'v2.9' }),
      );
      const [after] = await db.select().from(devices).where(eq(devices.id, s.device.id));
      expect(after?.softwareVersion).toBe('v2.15');
    } finally {
      t.clock.set(null as unknown as Date);
    }
    const admin = await signIn(t, await createUser(t, { userType: 'ADMIN', password: null }));
    const listed = await t.app.inject({
      method: 'GET',
      url: `${API}/device/${s.device.id}/`,
      headers: auth(admin),
    });
    expect(listed.json()).toMatchObject({ scan_count: 2 });
    const id = (await scansOf(s.device.serialNumber))[0]!.id;
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'scan.uploaded'), eq(auditLog.targetId, String(id))));
    expect(audit).toMatchObject({ actorId: s.user.id, targetType: 'scan' });
    expect(audit?.details).toMatchObject({
      organization: s.org.id,
      device_serial_number: s.device.serialNumber,
    });
  });

  it('stores the serial number as registered, whatever case the device sends', async () => {
    const s = await withPatient();
    const res = await post(t, s.token, '/scan/', scanBody(s.device.serialNumber.toLowerCase(), s.patient));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ device_serial_number: s.device.serialNumber });
  });
});

describe('POST scan/: who may upload', () => {
  it('answers 401 without a token, before looking at the body', async () => {
    const res = await post(t, null, '/scan/', { nonsense: true });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: AUTH_ERRORS.notProvided });
  });

  it.each(['ADMIN', 'SUB_ADMIN', 'MANAGER', 'CERVAICAL_REVIEWER'] as const)(
    'refuses a %s (403), nothing stored',
    async (userType) => {
      const s = await withPatient();
      const other = await createUser(t, { userType, organizationId: s.org.id, password: null });
      const before = await countScans();
      const res = await post(t, await signIn(t, other), '/scan/', scanBody(s.device.serialNumber, s.patient));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: UPLOAD_MESSAGES.notAnUploader });
      expect(await countScans()).toBe(before);
    },
  );

  it.each(['ORG_ADMIN', 'DISTRIBUTOR_ADMIN'] as const)(
    'lets a %s who scans upload for its own organization',
    async (userType) => {
      const s = await withPatient({
        userType,
        orgValues: { canCreateOrganization: userType === 'DISTRIBUTOR_ADMIN' },
      });
      const res = await post(t, s.token, '/scan/', scanBody(s.device.serialNumber, s.patient));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ organization: s.org.id, technician_data: { id: s.user.id } });
    },
  );

  it('refuses a technician without an organization', async () => {
    const s = await withPatient();
    await db.update(users).set({ organizationId: null }).where(eq(users.id, s.user.id));
    const res = await post(t, s.token, '/scan/', scanBody(s.device.serialNumber, s.patient));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: UPLOAD_MESSAGES.noOrganization });
  });

  it("refuses a device not linked to the technician's organization: another organization's, unlinked, unassigned or unknown", async () => {
    const s = await withPatient();
    const elsewhere = await createDevice(t, (await createOrganization(t)).id);
    const unlinked = await createDevice(t, null);
    const unassigned = await createDevice(t, s.org.id);
    await db
      .update(organizationDevices)
      .set({ organizationId: null })
      .where(eq(organizationDevices.deviceId, unassigned.id));
    const ended = await createDevice(t, s.org.id);
    await db
      .update(organizationDevices)
      .set({ isActive: false })
      .where(eq(organizationDevices.deviceId, ended.id));
    const before = await countScans();
    for (const serial of [
      elsewhere.serialNumber,
      unlinked.serialNumber,
      unassigned.serialNumber,
      ended.serialNumber,
      'NEVER-REGISTERED-1',
    ]) {
      const res = await post(t, s.token, '/scan/', scanBody(serial, s.patient));
      expect({ serial, status: res.statusCode, body: res.json() }).toEqual({
        serial,
        status: 403,
        body: { detail: UPLOAD_MESSAGES.deviceNotLinked(serial) },
      });
    }
    expect(await countScans()).toBe(before);
  });

  it('lets an uncertified technician upload only PRE_TRAINING, TRAINING and PRACTICE scans', async () => {
    const s = await withPatient({ certified: false });
    const refused = await post(
      t,
      s.token,
      '/scan/',
      scanBody(s.device.serialNumber, s.patient, { scan_type: 'SCAN' }),
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: UPLOAD_MESSAGES.uncertified('SCAN') });
    for (const scanType of UNCERTIFIED_SCAN_TYPES) {
      const res = await post(
        t,
        s.token,
        '/scan/',
        scanBody(s.device.serialNumber, s.patient, { scan_type: scanType }),
      );
      expect({ scanType, status: res.statusCode }).toEqual({ scanType, status: 201 });
    }
    expect((await scansOf(s.device.serialNumber)).map((r) => r.scanType).sort()).toEqual(
      [...UNCERTIFIED_SCAN_TYPES].sort(),
    );
  });

  it('refuses a SCAN from a technician whose certificate has expired, naming the date', async () => {
    const s = await withPatient({ certificateExpiryDate: '2020-06-30' });
    const res = await post(t, s.token, '/scan/', scanBody(s.device.serialNumber, s.patient));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: UPLOAD_MESSAGES.certificateExpired('SCAN', '2020-06-30') });
    const practice = await post(
      t,
      s.token,
      '/scan/',
      scanBody(s.device.serialNumber, s.patient, { scan_type: 'PRACTICE' }),
    );
    expect(practice.statusCode).toBe(201);
  });

  it('refuses a patient of another organization, or none, like an unknown id (400 on patient)', async () => {
    const s = await withPatient();
    const other = await withPatient();
    for (const patient of [other.patient, 2_000_000_000]) {
      const res = await post(t, s.token, '/scan/', scanBody(s.device.serialNumber, patient));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ patient: [invalidPk(patient)] });
    }
  });
});

describe("POST scan/: the scan's files", () => {
  it("accepts only files the technician uploaded into each list's folder", async () => {
    const s = await withPatient();
    const colleague = await createUser(t, {
      userType: 'TECHNICIAN',
      organizationId: s.org.id,
      password: null,
    });
    const colleagueReport = await uploadFile(t, await signIn(t, colleague), 'reports');
    const stranger = await setupUploader(t);
    const strangerReport = await uploadFile(t, stranger.token, 'reports');
    const ownConsent = await uploadFile(t, s.token, 'consent_forms');
    const ownReport = await uploadFile(t, s.token, 'reports');
    const cases = [
      ['reports', colleagueReport, 'reports'],
      ['reports', strangerReport, 'reports'],
      ['reports', ownConsent, 'reports'],
      ['reports', 'reports/0000000000000000_1_never.pdf', 'reports'],
      ['consent_form', ownReport, 'consent_forms'],
      ['assessment_files', ownReport, 'assessment_files'],
    ] as const;
    const before = await countScans();
    for (const [list, path, folder] of cases) {
      const files = { reports: [], consent_form: [], assessment_files: [], [list]: [{ path }] };
      const res = await post(
        t,
        s.token,
        '/scan/',
        scanBody(s.device.serialNumber, s.patient, { scan_files_path: files }),
      );
      expect({ list, path, status: res.statusCode, body: res.json() }).toEqual({
        list,
        path,
        status: 400,
        body: { [`scan_files_path.${list}`]: [UPLOAD_MESSAGES.fileNotFound(folder)] },
      });
    }
    expect(await countScans()).toBe(before);
  });

  it('lets the technician read the files back, the organization once its scan lists them, and nobody else', async () => {
    const s = await withPatient();
    const report = await uploadFile(t, s.token, 'reports');
    const read = (token: string) =>
      t.app.inject({
        method: 'GET',
        url: `${API}/file/?path=${encodeURIComponent(report)}`,
        headers: auth(token),
      });
    expect((await read(s.token)).statusCode).toBe(200);
    const orgAdmin = await signIn(t, await createUser(t, { userType: 'ORG_ADMIN', organizationId: s.org.id }));
    expect((await read(orgAdmin)).statusCode).toBe(404);
    const scan = scanBody(s.device.serialNumber, s.patient, { scan_files_path: { reports: [{ path: report }] } });
    expect((await post(t, s.token, '/scan/', scan)).statusCode).toBe(201);
    expect((await read(orgAdmin)).statusCode).toBe(200);
    const outsider = await signIn(
      t,
      await createUser(t, { userType: 'ORG_ADMIN', organizationId: (await createOrganization(t)).id }),
    );
    expect((await read(outsider)).statusCode).toBe(404);
    const colleague = await signIn(
      t,
      await createUser(t, { userType: 'TECHNICIAN', organizationId: s.org.id }),
    );
    expect((await read(colleague)).statusCode).toBe(404);
  });

  it("keeps a technician's upload in its own organization: another organization is 404, a console folder 403", async () => {
    const s = await setupUploader(t);
    const other = await createOrganization(t);
    expect((await postFile(t, s.token, 'reports', { name: 'r.pdf', data: PDF }, other.id)).statusCode).toBe(
      404,
    );
    expect((await postFile(t, s.token, 'reports', { name: 'r.pdf', data: PDF }, s.org.id)).statusCode).toBe(
      200,
    );
    for (const folder of ['companylogo', 'firmware']) {
      expect((await postFile(t, s.token, folder, { name: 'a.png', data: PNG })).statusCode).toBe(403);
    }
    // Exam photos (issue 10: POST cervaical/ and POST orca/ name them) go to documents/.
    expect((await postFile(t, s.token, 'documents', { name: 'a.png', data: PNG })).statusCode).toBe(200);
    const homeless = await signIn(t, await createUser(t, { userType: 'TECHNICIAN', password: null }));
    expect((await postFile(t, homeless, 'reports', { name: 'r.pdf', data: PDF })).statusCode).toBe(403);
    expect((await postFile(t, s.token, 'assessment_files', { name: 'a.png', data: PNG })).statusCode).toBe(
      200,
    );
  });
});

describe('POST scan/: bad input', () => {
  it.each([
    ['scan_type', { scan_type: 'XRAY' }, SCAN_MESSAGES.scanType],
    ['breast_type', { breast_type: 4 }, SCAN_MESSAGES.breastType],
    ['latitude', { latitude: 91 }, SCAN_MESSAGES.latitude],
    ['longitude', { latitude: 10, longitude: null }, SCAN_MESSAGES.coordinatesTogether],
    ['local_db_id', { local_db_id: '' }, 'This field is required.'],
    [
      'date_time',
      { date_time: '2026-03-01' },
      'Enter a valid date and time in ISO 8601 format (e.g. 2026-03-01T10:00:00Z).',
    ],
    ['date_time', { date_time: '2099-01-01T00:00:00Z' }, SCAN_MESSAGES.scanTime],
    ['assessment_result', { assessment_result: 'MAYBE' }, SCAN_MESSAGES.assessmentResult],
    ['device_serial_number', { device_serial_number: '' }, 'This field is required.'],
  ] as const)('answers 400 on %s: %j', async (field, overrides, message) => {
    const s = await withPatient();
    const res = await post(
      t,
      s.token,
      '/scan/',
      scanBody(s.device.serialNumber, s.patient, overrides as object),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json<Record<string, string[]>>()[field]).toEqual([message]);
  });
});

describe('POST scan/: Idempotency-Key', () => {
  it('answers 400 on the header when it is missing or malformed, and stores nothing', async () => {
    const s = await withPatient();
    const before = await countScans();
    const missing = await post(t, s.token, '/scan/', scanBody(s.device.serialNumber, s.patient), null);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ 'Idempotency-Key': [UPLOAD_MESSAGES.keyRequired] });
    for (const key of ['', 'short', 'has space key', 'x'.repeat(256), 'ключ-ключ-ключ', 'a,b,c,d,e,f,g,h']) {
      const res = await post(t, s.token, '/scan/', scanBody(s.device.serialNumber, s.patient), key);
      expect({ key, status: res.statusCode, body: res.json() }).toEqual({
        key,
        status: 400,
        body: {
          'Idempotency-Key': [key === '' ? UPLOAD_MESSAGES.keyRequired : UPLOAD_MESSAGES.keyMalformed],
        },
      });
    }
    expect(await countScans()).toBe(before);
  });

  it('answers a retry with the same key and content with the stored status and body', async () => {
    const s = await withPatient();
    const body = scanBody(s.device.serialNumber, s.patient);
    const key = newKey();
    const first = await post(t, s.token, '/scan/', body, key);
    expect(first.statusCode).toBe(201);
    expect(first.headers[IDEMPOTENT_REPLAY_HEADER.toLowerCase()]).toBeUndefined();
    const retry = await post(t, s.token, '/scan/', body, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.body).toBe(first.body);
    expect(retry.headers[IDEMPOTENT_REPLAY_HEADER.toLowerCase()]).toBe('true');
    expect(await scansOf(s.device.serialNumber)).toHaveLength(1);
  });

  it('answers 422 to the same key with different content (or on another endpoint), and changes nothing', async () => {
    const s = await withPatient();
    const body = scanBody(s.device.serialNumber, s.patient);
    const key = newKey();
    expect((await post(t, s.token, '/scan/', body, key)).statusCode).toBe(201);
    const changed = await post(t, s.token, '/scan/', { ...body, right_breast_finding: ['cyst'] }, key);
    expect(changed.statusCode).toBe(422);
    expect(changed.json()).toEqual({ detail: UPLOAD_MESSAGES.keyReused });
    const elsewhere = await post(
      t,
      s.token,
      '/patient/',
      { first_name: 'A', last_name: 'B', age: 40, device_serial_number: s.device.serialNumber },
      key,
    );
    expect(elsewhere.statusCode).toBe(422);
    const rows = await scansOf(s.device.serialNumber);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.rightBreastFinding).toEqual([]);
  });

  it("keeps one user's keys apart from another's", async () => {
    const a = await withPatient();
    const b = await withPatient();
    const key = newKey();
    expect(
      (await post(t, a.token, '/scan/', scanBody(a.device.serialNumber, a.patient), key)).statusCode,
    ).toBe(201);
    expect(
      (await post(t, b.token, '/scan/', scanBody(b.device.serialNumber, b.patient), key)).statusCode,
    ).toBe(201);
  });

  it('frees the key of a refused upload, so the corrected retry is stored', async () => {
    const s = await withPatient({ certified: false });
    const key = newKey();
    const body = scanBody(s.device.serialNumber, s.patient);
    expect((await post(t, s.token, '/scan/', body, key)).statusCode).toBe(403);
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toHaveLength(0);
    await db.update(users).set({ ibeTrainingStatus: 'CERTIFIED' }).where(eq(users.id, s.user.id));
    expect((await post(t, s.token, '/scan/', body, key)).statusCode).toBe(201);
  });

  it('stores one scan and queues one webhook for twenty parallel identical uploads with one key', async () => {
    const s = await withPatient({
      orgValues: { webhookSwitch: true, webhookUrl: receiver.url, webhookAuthToken: 'whk-token-0123456789' },
    });
    const send = vi.spyOn(t.app.ctx.services.queue, 'send');
    try {
      const body = scanBody(s.device.serialNumber, s.patient);
      const key = newKey();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => post(t, s.token, '/scan/', body, key)),
      );
      expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
      expect(new Set(answers.map((r) => r.json<{ id: number }>().id)).size).toBe(1);
      expect(
        answers.filter((r) => r.headers[IDEMPOTENT_REPLAY_HEADER.toLowerCase()] === 'true'),
      ).toHaveLength(19);
      const rows = await scansOf(s.device.serialNumber);
      expect(rows).toHaveLength(1);
      expect(await deliveriesOf(rows[0]!.id)).toHaveLength(1);
      // The scan's delivery and the one of the follow-up case its finding opened (issue 26), once each.
      expect(send).toHaveBeenCalledTimes(2);
      await t.app.ctx.services.queue.drain();
      expect(receiver.requests).toHaveLength(2);
      expect(receiver.requests.map((r) => r.body)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: rows[0]!.id, local_db_id: body.local_db_id }),
          expect.objectContaining({ event: FOLLOW_UP_WEBHOOK_EVENT, patient: s.patient, to_status: 'OPEN' }),
        ]),
      );
    } finally {
      send.mockRestore();
    }
  });

  it('answers parallel copies under one key with the first one\'s result as it commits, without a transaction of their own', async () => {
    const s = await withPatient();
    const body = scanBody(s.device.serialNumber, s.patient);
    const key = newKey();
    const transactions = vi.spyOn(db, 'transaction');
    try {
      const done: number[] = [];
      const answers = await Promise.all(
        Array.from({ length: 10 }, async () => {
          const res = await post(t, s.token, '/scan/', body, key);
          done.push(performance.now());
          return res;
        }),
      );
      // The copies waited for the first one, not in the database behind it (and behind whatever queued there).
      expect(transactions).toHaveBeenCalledTimes(1);
      expect(new Set(answers.map((r) => `${r.statusCode} ${r.body}`)).size).toBe(1);
      expect(answers.filter((r) => r.headers[IDEMPOTENT_REPLAY_HEADER.toLowerCase()] === 'true')).toHaveLength(9);
      expect(await scansOf(s.device.serialNumber)).toHaveLength(1);
      // Every copy has its answer as soon as the first one has (within a second however busy the machine).
      expect(Math.max(...done) - Math.min(...done)).toBeLessThan(1000);
    } finally {
      transactions.mockRestore();
    }
  });

  it('stores one scan and queues one webhook for twenty parallel identical uploads under twenty keys', async () => {
    const s = await withPatient({ orgValues: { webhookSwitch: true, webhookUrl: receiver.url } });
    const send = vi.spyOn(t.app.ctx.services.queue, 'send');
    try {
      const body = scanBody(s.device.serialNumber, s.patient);
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(t, s.token, '/scan/', body)));
      expect(answers.map((r) => r.statusCode).sort()).toEqual([...Array(19).fill(200), 201]);
      const rows = await scansOf(s.device.serialNumber);
      expect(rows).toHaveLength(1);
      expect(new Set(answers.map((r) => r.json<{ id: number }>().id))).toEqual(new Set([rows[0]!.id]));
      expect(await deliveriesOf(rows[0]!.id)).toHaveLength(1);
      // The scan's delivery and its follow-up case's (issue 26), once each.
      expect(send).toHaveBeenCalledTimes(2);
    } finally {
      send.mockRestore();
    }
  });
});

describe('POST scan/: duplicates (architecture §7)', () => {
  it('answers 200 with the stored scan when the same device and local id come again with identical content', async () => {
    const s = await withPatient();
    const body = scanBody(s.device.serialNumber, s.patient);
    const first = await post(t, s.token, '/scan/', body);
    const again = await post(t, s.token, '/scan/', body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      id: first.json<{ id: number }>().id,
      detail: UPLOAD_MESSAGES.scanAlreadyStored,
    });
    expect(await scansOf(s.device.serialNumber)).toHaveLength(1);
  });

  it('stores different content under the same device and local id as a child with parent_scan_id', async () => {
    const s = await withPatient({ orgValues: { webhookSwitch: true, webhookUrl: receiver.url } });
    const body = scanBody(s.device.serialNumber, s.patient);
    const first = (await post(t, s.token, '/scan/', body)).json<{ id: number }>();
    const child = await post(t, s.token, '/scan/', { ...body, right_breast_finding: ['cyst'] });
    expect(child.statusCode).toBe(201);
    expect(child.json()).toMatchObject({
      parent_scan_id: first.id,
      right_breast_finding: ['cyst'],
      detail: UPLOAD_MESSAGES.scanDuplicate,
    });
    // A duplicate is a new scan: the organization's webhook gets it too.
    expect(await deliveriesOf(child.json<{ id: number }>().id)).toHaveLength(1);
  });

  it('stores five versions sent four times each, in parallel, as one scan and four children', async () => {
    const s = await withPatient();
    const body = scanBody(s.device.serialNumber, s.patient);
    const versions = Array.from({ length: 5 }, (_, i) => ({ ...body, notes: { message: `version ${i}` } }));
    const answers = await Promise.all(
      versions.flatMap((v) => Array.from({ length: 4 }, () => post(t, s.token, '/scan/', v))),
    );
    expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 201)).toBe(true);
    const rows = await scansOf(s.device.serialNumber);
    expect(rows).toHaveLength(5);
    const original = rows.filter((r) => r.parentScanId === null);
    expect(original).toHaveLength(1);
    expect(rows.filter((r) => r.parentScanId === original[0]!.id)).toHaveLength(4);
  });
});
