// GET device/session/ (what a device reads after sign-in) and the OpenAPI page of the device upload API.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES, UNCERTIFIED_SCAN_TYPES, type TDeviceSession } from '@sc/shared/uploads';
import { SCAN_TYPES } from '@sc/shared/constants';
import { PATIENT_UPLOAD_EXAMPLE, ZPatientUpload } from '@sc/shared/patients';
import { SCAN_UPLOAD_EXAMPLE, ZScanUpload } from '@sc/shared/scans';
import { users } from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import { API, createDevice, setupUploader } from './uploads.fixtures.ts';
import { canonicalJson } from './idempotency.ts';

const t = await setupTestApp();
const { db } = t.database;

const session = (token: string, serial?: string) =>
  t.app.inject({
    method: 'GET',
    url: `${API}/device/session/${serial === undefined ? '' : `?serial_number=${encodeURIComponent(serial)}`}`,
    headers: auth(token),
  });

describe('GET device/session/', () => {
  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/device/session/` });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: AUTH_ERRORS.notProvided });
  });

  it('shows a technician the PIN-reset flag, training status and that this device may upload', async () => {
    const s = await setupUploader(t);
    await db.update(users).set({ pinResetRequest: true }).where(eq(users.id, s.user.id));
    const res = await session(s.token, s.device.serialNumber.toLowerCase());
    expect(res.statusCode).toBe(200);
    const body = res.json<TDeviceSession>();
    expect(body).toMatchObject({
      id: s.user.id,
      user_type: 'TECHNICIAN',
      organization: s.org.id,
      organization_data: { id: s.org.id, name: s.org.name },
      pin_reset_request: true,
      ibe_training_status: 'CERTIFIED',
      certificate_expiry_date: '2099-01-01',
      is_certified: true,
      allowed_scan_types: [...SCAN_TYPES],
      device: { serial_number: s.device.serialNumber, is_linked_to_organization: true },
      can_upload: true,
      upload_refusal: null,
    });
    // Never a secret: no password, PIN or token key in the answer.
    expect(Object.keys(body).filter((k) => /pass|hash|token|secret|otp/i.test(k))).toEqual([]);
    expect(Object.keys(body).filter((k) => /pin/i.test(k))).toEqual(['pin_reset_request']);
  });

  it('shows an uncertified technician the training scan types only', async () => {
    const s = await setupUploader(t, { certified: false });
    const body = (await session(s.token)).json<TDeviceSession>();
    expect(body).toMatchObject({
      pin_reset_request: false,
      ibe_training_status: 'NOT_STARTED',
      is_certified: false,
      allowed_scan_types: [...UNCERTIFIED_SCAN_TYPES],
      device: null,
      can_upload: true,
    });
  });

  it('says why a device of another organization, an unknown serial, or a non-scanning role cannot upload', async () => {
    const s = await setupUploader(t);
    const elsewhere = await createDevice(t, (await createOrganization(t)).id);
    for (const serial of [elsewhere.serialNumber, 'NO-SUCH-DEVICE']) {
      const body = (await session(s.token, serial)).json<TDeviceSession>();
      expect(body).toMatchObject({
        device: { serial_number: serial, is_linked_to_organization: false },
        can_upload: false,
        upload_refusal: UPLOAD_MESSAGES.deviceNotLinked(serial),
        allowed_scan_types: [],
      });
    }
    const manager = await signIn(t, await createUser(t, { userType: 'MANAGER', password: null }));
    expect((await session(manager, s.device.serialNumber)).json()).toMatchObject({
      can_upload: false,
      upload_refusal: UPLOAD_MESSAGES.notAnUploader,
    });
    const homeless = await signIn(t, await createUser(t, { userType: 'TECHNICIAN', password: null }));
    expect((await session(homeless)).json()).toMatchObject({
      can_upload: false,
      upload_refusal: UPLOAD_MESSAGES.noOrganization,
    });
  });

  it('answers 400 on a malformed serial number', async () => {
    const s = await setupUploader(t);
    const res = await session(s.token, 'bad\nserial');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['serial_number']);
  });
});

describe('the OpenAPI page documents the device upload API', () => {
  it("lists POST patient/, POST scan/ and GET device/session/ under 'device upload', with the Idempotency-Key header", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    type Operation = {
      tags?: string[];
      description?: string;
      parameters?: { name: string; in: string }[];
    };
    const spec = res.json<{ paths: Record<string, Record<string, Operation>> }>();
    for (const [path, method] of [
      ['/api/v1/patient/', 'post'],
      ['/api/v1/scan/', 'post'],
      ['/api/v1/device/session/', 'get'],
    ] as const) {
      const op = spec.paths[path]?.[method];
      // The console's own calls on the same path (patients) may add their tag beside it.
      expect(op?.tags, path).toContain('device upload');
      expect(op?.description, path).toContain('Device flow');
    }
    for (const path of ['/api/v1/patient/', '/api/v1/scan/']) {
      const params = spec.paths[path]?.post?.parameters ?? [];
      expect(
        params.some((p) => p.in === 'header' && p.name === 'idempotency-key'),
        path,
      ).toBe(true);
    }
    // The examples in the descriptions are the shared ones, and valid bodies.
    expect(spec.paths['/api/v1/patient/']?.post?.description).toContain(
      JSON.stringify(PATIENT_UPLOAD_EXAMPLE, null, 2),
    );
    expect(spec.paths['/api/v1/scan/']?.post?.description).toContain(
      JSON.stringify(SCAN_UPLOAD_EXAMPLE, null, 2),
    );
    expect(ZPatientUpload.safeParse(PATIENT_UPLOAD_EXAMPLE).success).toBe(true);
    expect(ZScanUpload.safeParse(SCAN_UPLOAD_EXAMPLE).success).toBe(true);
  });
});

describe('canonicalJson', () => {
  it('is the same for the same content whatever the key order, and differs for other content', () => {
    const a = canonicalJson({
      b: 1,
      a: { d: [1, { y: 2, x: 1 }], c: new Date('2026-01-01T00:00:00Z') },
      u: undefined,
    });
    const b = canonicalJson({ a: { c: new Date('2026-01-01T00:00:00.000Z'), d: [1, { x: 1, y: 2 }] }, b: 1 });
    expect(a).toBe(b);
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });
});
