// Fixtures of device-upload tests: an organization with a linked device and a technician, uploads of a scan's
// files through POST file/upload/, and valid patient and scan bodies. Each call builds new rows.
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { TPatientUploadInput } from '@sc/shared/patients';
import type { TScanUploadInput } from '@sc/shared/scans';
import type { TUserType } from '@sc/shared/roles';
import { devices, organizationDevices, users } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/app.ts';
import {
  auth,
  createOrganization,
  createUser,
  signIn,
  type OrganizationRow,
  type TestUser,
} from '../../test/factories.ts';
import { eq } from 'drizzle-orm';

export const API = '/api/v1';
export const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let seq = 0;
export const newKey = (): string => randomUUID();

/** A registered device; linked (active link) to `organizationId` unless null. */
export async function createDevice(t: TestContext, organizationId: number | null, serial?: string) {
  const [device] = await t.database.db
    .insert(devices)
    .values({ serialNumber: serial ?? `IBE-UP-${process.pid}-${++seq}` })
    .returning();
  if (!device) throw new Error('device not created');
  if (organizationId !== null) {
    await t.database.db.insert(organizationDevices).values({ deviceId: device.id, organizationId });
  }
  return device;
}

export type UploadSetup = {
  org: OrganizationRow;
  device: typeof devices.$inferSelect;
  user: TestUser;
  token: string;
};

/** An organization, a device linked to it and a signed-in uploader (a certified TECHNICIAN unless told). */
export async function setupUploader(
  t: TestContext,
  opts: {
    userType?: TUserType;
    certified?: boolean;
    certificateExpiryDate?: string | null;
    org?: OrganizationRow;
    orgValues?: Parameters<typeof createOrganization>[1];
  } = {},
): Promise<UploadSetup> {
  const org = opts.org ?? (await createOrganization(t, opts.orgValues));
  const device = await createDevice(t, org.id);
  const user = await createUser(t, {
    userType: opts.userType ?? 'TECHNICIAN',
    organizationId: org.id,
    password: null,
  });
  if (opts.certified !== false) {
    await t.database.db
      .update(users)
      .set({
        ibeTrainingStatus: 'CERTIFIED',
        certificateIssueDate: '2026-01-01',
        certificateExpiryDate:
          opts.certificateExpiryDate === undefined ? '2099-01-01' : opts.certificateExpiryDate,
      })
      .where(eq(users.id, user.id));
  }
  return { org, device, user, token: await signIn(t, user) };
}

/** POST file/upload/ as `token` into `folder`; answers the stored path (throws when refused). */
export async function uploadFile(
  t: TestContext,
  token: string,
  folder: string,
  file: { name: string; data: Buffer } = { name: 'report.pdf', data: PDF },
): Promise<string> {
  const res = await postFile(t, token, folder, file);
  if (res.statusCode !== 200) throw new Error(`upload refused: ${res.statusCode} ${res.body}`);
  return res.json<{ path: string }>().path;
}

export function postFile(
  t: TestContext,
  token: string,
  folder: string,
  file: { name: string; data: Buffer },
  organization?: number,
): Promise<LightMyRequestResponse> {
  const boundary = `----sc-upload-${++seq}`;
  const field = (name: string, value: string) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const payload = Buffer.concat([
    field('folder', folder),
    ...(organization === undefined ? [] : [field('organization', String(organization))]),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: `${API}/file/upload/`,
    headers: { ...auth(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

export function patientBody(
  serial: string,
  overrides: Partial<TPatientUploadInput> = {},
): TPatientUploadInput {
  return {
    first_name: 'Asha',
    last_name: `Rao ${++seq}`,
    date_of_birth: '1980-04-12',
    gender: 'FEMALE',
    mobile: '9876543210',
    mobile_country_code: 'IN',
    email: 'asha@example.com',
    device_serial_number: serial,
    local_db_id: `p-${seq}`,
    date_time: '2026-03-01T09:55:00Z',
    ...overrides,
  };
}

export function scanBody(
  serial: string,
  patient: number,
  overrides: Partial<TScanUploadInput> = {},
): TScanUploadInput {
  return {
    patient,
    device_serial_number: serial,
    local_db_id: `s-${process.pid}-${++seq}`,
    scan_type: 'SCAN',
    date_time: '2026-03-01T10:00:00Z',
    breast_type: 2,
    left_breast_finding: ['mass'],
    right_breast_finding: [],
    has_symptoms: true,
    sensor_serial_number: 'SEN-77',
    tablet_serial_number: 'TAB-9',
    hardware_version: 'h3',
    software_version: 'v2.14',
    latitude: 18.52,
    longitude: 73.85,
    metadata: { device: { device_model: 'Tab S9', manufacturer: 'Samsung', os_version: '14' } },
    ...overrides,
  };
}

/** POST `path` with a body and an Idempotency-Key (none when `key` is null). */
export function post(
  t: TestContext,
  token: string | null,
  path: '/patient/' | '/scan/',
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

/** Uploads a patient as `setup`'s user and answers its id. */
export async function uploadPatient(
  t: TestContext,
  setup: UploadSetup,
  overrides: Partial<TPatientUploadInput> = {},
): Promise<number> {
  const res = await post(t, setup.token, '/patient/', patientBody(setup.device.serialNumber, overrides));
  if (res.statusCode !== 201) throw new Error(`patient refused: ${res.statusCode} ${res.body}`);
  return res.json<{ id: number }>().id;
}
