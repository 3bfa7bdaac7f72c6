// POST patient/ from a device (issue 8; part 2 §3, §5): the record's rules and messages, the owner (the uploader and
// their organization), the device and role rules, and idempotency.
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invalidPk } from '@sc/shared/devices';
import {
  PATIENT_MESSAGES,
  ageOn,
  earliestBirthDate,
  latestBirthDate,
  todayIso,
  type TPatientSaved,
} from '@sc/shared/patients';
import { IDEMPOTENT_REPLAY_HEADER, UPLOAD_MESSAGES } from '@sc/shared/uploads';
import { MESSAGES } from '@sc/shared/validation';
import { otherCountryMessage } from '@sc/shared/phone';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { auditLog, devices, patients, references } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { createOrganization, createUser, signIn } from '../../test/factories.ts';
import {
  createDevice,
  newKey,
  patientBody,
  post,
  setupUploader,
  uploadFile,
} from '../uploads/uploads.fixtures.ts';

const t = await setupTestApp();
const { db } = t.database;
const countPatients = async () => (await db.select({ n: count() }).from(patients))[0]!.n;

describe('POST patient/: a device uploads a patient', () => {
  it("stores the patient in the uploader's organization with the uploader as technician, and answers 201", async () => {
    const s = await setupUploader(t);
    const body = patientBody(s.device.serialNumber, {
      mobile: '+91 98765 43210',
      physician_name: 'Dr. Iyer',
    });
    const res = await post(t, s.token, '/patient/', body);
    expect(res.statusCode, res.body).toBe(201);
    const patient = res.json<TPatientSaved>();
    expect(patient).toMatchObject({
      detail: PATIENT_MESSAGES.created,
      first_name: 'Asha',
      last_name: body.last_name,
      gender: 'FEMALE',
      date_of_birth: '1980-04-12',
      age: ageOn('1980-04-12', todayIso()),
      mobile: '+91-9876543210',
      mobile_country_code: 'IN',
      email: 'asha@example.com',
      physician_name: 'Dr. Iyer',
      organization: s.org.id,
      organization_data: { id: s.org.id, name: s.org.name },
      technician: s.user.id,
      technician_data: { id: s.user.id, user_type: 'TECHNICIAN' },
      device_serial_number: s.device.serialNumber,
      local_db_id: body.local_db_id,
      date_time: '2026-03-01T09:55:00.000Z',
      most_recent_mammogram_report: [],
    });
    expect(patient.synced).not.toBeNull();
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, String(patient.id)));
    expect(audit).toMatchObject({ action: 'patient.uploaded', actorId: s.user.id, targetType: 'patient' });
    // Ids only in the audit log: no name, mobile or e-mail of the patient.
    expect(JSON.stringify(audit?.details)).not.toMatch(/Asha|9876543210|example\.com/);
    const [device] = await db.select().from(devices).where(eq(devices.id, s.device.id));
    expect(device?.lastSyncDate).not.toBeNull();
  });

  it('defaults the gender to FEMALE and stores no country without a mobile', async () => {
    const s = await setupUploader(t);
    const { gender: _g, mobile: _m, ...body } = patientBody(s.device.serialNumber);
    const res = await post(t, s.token, '/patient/', body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ gender: 'FEMALE', mobile: null, mobile_country_code: null });
  });

  it('takes the age as sent without a date of birth', async () => {
    const s = await setupUploader(t);
    const res = await post(
      t,
      s.token,
      '/patient/',
      patientBody(s.device.serialNumber, { date_of_birth: null, age: 47 }),
    );
    expect(res.json()).toMatchObject({ age: 47, date_of_birth: null });
  });

  it('computes the age from the date of birth, which wins over a sent age', async () => {
    const s = await setupUploader(t);
    const latest = latestBirthDate(todayIso());
    const res = await post(
      t,
      s.token,
      '/patient/',
      patientBody(s.device.serialNumber, { date_of_birth: latest, age: 99 }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ age: 12, date_of_birth: latest });
  });

  it('takes a reference of its organization and refuses another organization’s (400 Invalid pk)', async () => {
    const s = await setupUploader(t);
    const [own] = await db.insert(references).values({ name: 'Camp', organizationId: s.org.id }).returning();
    const other = await createOrganization(t);
    const [theirs] = await db
      .insert(references)
      .values({ name: 'Theirs', organizationId: other.id })
      .returning();
    const [inactive] = await db
      .insert(references)
      .values({ name: 'Old', organizationId: s.org.id, isActive: false })
      .returning();
    const ok = await post(
      t,
      s.token,
      '/patient/',
      patientBody(s.device.serialNumber, { reference: own!.id }),
    );
    expect(ok.json()).toMatchObject({ reference: own!.id, reference_name: 'Camp' });
    for (const ref of [theirs!.id, inactive!.id, 2_000_000_000]) {
      const res = await post(t, s.token, '/patient/', patientBody(s.device.serialNumber, { reference: ref }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ reference: [invalidPk(ref)] });
    }
  });

  it("takes earlier mammogram reports the uploader uploaded to reports/, and no one else's", async () => {
    const s = await setupUploader(t);
    const own = await uploadFile(t, s.token, 'reports');
    const other = await setupUploader(t, { org: s.org });
    const theirs = await uploadFile(t, other.token, 'reports');
    const ok = await post(
      t,
      s.token,
      '/patient/',
      patientBody(s.device.serialNumber, { most_recent_mammogram_report: [own] }),
    );
    expect(ok.json()).toMatchObject({ most_recent_mammogram_report: [own] });
    const refused = await post(
      t,
      s.token,
      '/patient/',
      patientBody(s.device.serialNumber, { most_recent_mammogram_report: [theirs] }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      most_recent_mammogram_report: [UPLOAD_MESSAGES.fileNotFound('reports')],
    });
  });
});

describe('POST patient/: validation messages (part 2 §5)', () => {
  const today = todayIso();
  const birthDate = PATIENT_MESSAGES.birthDate(earliestBirthDate(today), latestBirthDate(today));
  const dayAfter = (d: string) =>
    new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const dayBefore = (d: string) =>
    new Date(Date.parse(`${d}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  it.each([
    ['first_name', { first_name: '' }, MESSAGES.required],
    ['first_name', { first_name: undefined }, MESSAGES.required],
    ['last_name', { last_name: '   ' }, MESSAGES.required],
    ['first_name', { first_name: 'x'.repeat(101) }, PATIENT_MESSAGES.nameTooLong],
    ['age', { date_of_birth: null, age: 11 }, PATIENT_MESSAGES.age],
    ['age', { date_of_birth: null, age: 121 }, PATIENT_MESSAGES.age],
    ['age', { date_of_birth: null, age: undefined }, PATIENT_MESSAGES.ageRequired],
    ['date_of_birth', { date_of_birth: '1899-12-31' }, birthDate],
    ['date_of_birth', { date_of_birth: dayBefore(earliestBirthDate(today)) }, birthDate],
    ['date_of_birth', { date_of_birth: dayAfter(latestBirthDate(today)) }, birthDate],
    ['date_of_birth', { date_of_birth: '1980-02-30' }, PATIENT_MESSAGES.invalidDate],
    ['gender', { gender: 'UNKNOWN' }, PATIENT_MESSAGES.gender],
    ['email', { email: 'asha@' }, MESSAGES.invalidEmail],
    ['physician_email', { physician_email: 'dr at example.com' }, MESSAGES.invalidEmail],
    ['mobile', { mobile: '12345' }, MESSAGES.invalidPhone],
    ['mobile', { mobile: '+1 415 555 2671', mobile_country_code: 'IN' }, otherCountryMessage('+1', '+91')],
    ['mobile_country_code', { mobile_country_code: 'India' }, MESSAGES.selectCountryCode],
    ['device_serial_number', { device_serial_number: undefined }, MESSAGES.required],
    ['date_time', { date_time: 'yesterday' }, PATIENT_MESSAGES.invalidDateTime],
  ] as const)('answers 400 on %s for %j, and stores nothing', async (field, overrides, message) => {
    const s = await setupUploader(t);
    const before = await countPatients();
    const res = await post(t, s.token, '/patient/', { ...patientBody(s.device.serialNumber), ...overrides });
    expect(res.statusCode).toBe(400);
    expect(res.json<Record<string, string[]>>()[field]).toEqual([message]);
    expect(await countPatients()).toBe(before);
  });

  it('accepts the first and the last birth date of the range', async () => {
    const s = await setupUploader(t);
    for (const dob of [earliestBirthDate(today), latestBirthDate(today)]) {
      const res = await post(
        t,
        s.token,
        '/patient/',
        patientBody(s.device.serialNumber, { date_of_birth: dob }),
      );
      expect({ dob, status: res.statusCode }).toEqual({ dob, status: 201 });
    }
  });
});

describe('POST patient/: who may upload', () => {
  it('answers 401 without a token', async () => {
    const res = await post(t, null, '/patient/', {});
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: AUTH_ERRORS.notProvided });
  });

  it.each(['ADMIN', 'SUB_ADMIN', 'MANAGER', 'CERVAICAL_REVIEWER'] as const)(
    'refuses a %s with 403',
    async (userType) => {
      const s = await setupUploader(t);
      const token = await signIn(
        t,
        await createUser(t, { userType, organizationId: s.org.id, password: null }),
      );
      const res = await post(t, token, '/patient/', patientBody(s.device.serialNumber));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: UPLOAD_MESSAGES.notAnUploader });
    },
  );

  it("refuses a device not linked to the uploader's organization", async () => {
    const s = await setupUploader(t);
    const elsewhere = await createDevice(t, (await createOrganization(t)).id);
    const before = await countPatients();
    const res = await post(t, s.token, '/patient/', patientBody(elsewhere.serialNumber));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: UPLOAD_MESSAGES.deviceNotLinked(elsewhere.serialNumber) });
    expect(await countPatients()).toBe(before);
  });

  it('lets an uncertified technician upload patients (training scans need them)', async () => {
    const s = await setupUploader(t, { certified: false });
    expect((await post(t, s.token, '/patient/', patientBody(s.device.serialNumber))).statusCode).toBe(201);
  });
});

describe('POST patient/: Idempotency-Key', () => {
  it('requires the header', async () => {
    const s = await setupUploader(t);
    const res = await post(t, s.token, '/patient/', patientBody(s.device.serialNumber), null);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ 'Idempotency-Key': [UPLOAD_MESSAGES.keyRequired] });
  });

  it('replays a retry, refuses other content under the key with 422, and stores one patient', async () => {
    const s = await setupUploader(t);
    const body = patientBody(s.device.serialNumber);
    const key = newKey();
    const before = await countPatients();
    const first = await post(t, s.token, '/patient/', body, key);
    // The mobile typed another way is the same content once validated.
    const retry = await post(t, s.token, '/patient/', { ...body, mobile: '+91-9876543210' }, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.body).toBe(first.body);
    expect(retry.headers[IDEMPOTENT_REPLAY_HEADER.toLowerCase()]).toBe('true');
    const other = await post(t, s.token, '/patient/', { ...body, first_name: 'Meera' }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ detail: UPLOAD_MESSAGES.keyReused });
    expect(await countPatients()).toBe(before + 1);
  });

  it('stores one patient for twenty parallel copies of one upload', async () => {
    const s = await setupUploader(t);
    const body = patientBody(s.device.serialNumber);
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(t, s.token, '/patient/', body, key)),
    );
    expect(new Set(answers.map((r) => r.statusCode))).toEqual(new Set([201]));
    expect(new Set(answers.map((r) => r.json<{ id: number }>().id)).size).toBe(1);
    expect(await db.select().from(patients).where(eq(patients.localDbId, body.local_db_id!))).toHaveLength(1);
  });
});
