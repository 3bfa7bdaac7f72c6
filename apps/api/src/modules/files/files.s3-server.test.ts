// The app with S3_* pointing at a real S3-compatible server (test/s3-server.ts): a device's scan upload lands in the
// bucket and is read back byte for byte through GET file/, a firmware withdrawal removes its object, an object gone
// from the bucket answers 404, and a store that refuses our credentials or is down answers 503, never 500.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TFirmwareCreated } from '@sc/shared/firmware';
import { files } from '../../db/schema/index.ts';
import { HTTP_MESSAGES } from '../../http/errors.ts';
import { createS3Storage } from '../../services/storage/s3-storage.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createUser, signIn } from '../../test/factories.ts';
import { startS3Server } from '../../test/s3-server.ts';
import {
  PDF,
  post,
  postFile,
  scanBody,
  setupUploader,
  uploadFile,
  uploadPatient,
} from '../uploads/uploads.fixtures.ts';

const s3 = await startS3Server();
afterAll(() => s3.stop());
const t = await setupTestApp(s3.env);
const { db } = t.database;

const download = (token: string, path: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/file/?path=${encodeURIComponent(path)}`,
    headers: auth(token),
  });

/** A scan report of a few megabytes: a PDF header, then bytes no compression or text decoding would keep intact. */
const bigReport = () => Buffer.concat([PDF, randomBytes(3 * 1024 * 1024)]);

let admin: string;
beforeAll(async () => {
  admin = await signIn(t, await createUser(t, { userType: 'ADMIN', password: null }));
});

describe('uploads with S3 storage', () => {
  it('stores a device scan upload in the bucket and serves the same bytes back through GET file/', async () => {
    const s = await setupUploader(t);
    const patient = await uploadPatient(t, s);
    const data = bigReport();
    const path = await uploadFile(t, s.token, 'reports', { name: 'report.pdf', data });
    expect(await s3.listKeys('reports/')).toContain(path);
    expect((await s3.readObject(path))?.equals(data)).toBe(true);

    const scan = await post(
      t,
      s.token,
      '/scan/',
      scanBody(s.device.serialNumber, patient, {
        scan_files_path: { reports: [{ path }], consent_form: [], assessment_files: [] },
      }),
    );
    expect(scan.statusCode, scan.body).toBe(201);

    const res = await download(s.token, path);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(Number(res.headers['content-length'])).toBe(data.length);
    expect(res.rawPayload.equals(data)).toBe(true);
  });

  it('answers 404, not 500, for a file whose object is gone from the bucket', async () => {
    const s = await setupUploader(t);
    const path = await uploadFile(t, s.token, 'reports');
    // Removed behind the API's back (a lifecycle rule, an operator), with a signed request of our own.
    const { endpoint, bucket, region, accessKeyId, secretAccessKey } = s3;
    await createS3Storage({ endpoint, bucket, region, accessKeyId, secretAccessKey }).delete(path);
    const res = await download(s.token, path);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('removes the object from the bucket when ADMIN withdraws a firmware version', async () => {
    const boundary = '----sc-s3-fw';
    const data = Buffer.from('v7.3\n# image\n00ff00ff\n');
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fw.ibe"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/firmware/',
      payload,
      headers: { ...auth(admin), 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(created.statusCode, created.body).toBe(201);
    const firmware = created.json<TFirmwareCreated>();
    expect(await s3.readObject(firmware.path)).toEqual(data);
    const got = await t.app.inject({
      method: 'GET',
      url: `/api/v1/firmware/${firmware.id}/download/`,
      headers: auth(admin),
    });
    expect(got.rawPayload).toEqual(data);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/firmware/${firmware.id}/`,
      headers: auth(admin),
    });
    expect(deleted.statusCode).toBe(200);
    expect(await s3.listKeys('firmware/')).not.toContain(firmware.path);
    expect(await s3.readObject(firmware.path)).toBeNull();
  });
});

describe('uploads when the S3 store refuses our credentials', () => {
  it('answers 503 with Retry-After to an upload and a download, keeps no row, and recovers with the key', async () => {
    const s = await setupUploader(t);
    const stored = await uploadFile(t, s.token, 'reports');
    const keysBefore = await s3.listKeys();
    try {
      // The operator rotated the key on the store; this instance still signs with the old one.
      s3.setSecretAccessKey('rotated-secret-0123456789');
      const refused = await postFile(t, s.token, 'reports', { name: 'late.pdf', data: PDF });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual({ detail: HTTP_MESSAGES.storageUnavailable });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(await s3.listKeys()).toEqual(keysBefore);
      const rows = await db.select().from(files).where(eq(files.userId, s.user.id));
      expect(rows.map((r) => r.path)).toEqual([stored]);

      // A refused read is not a missing file: 503, not 404.
      const read = await download(s.token, stored);
      expect(read.statusCode).toBe(503);
      expect(read.json()).toEqual({ detail: HTTP_MESSAGES.storageUnavailable });
      expect(s3.refused).toContain('SignatureDoesNotMatch');
    } finally {
      s3.setSecretAccessKey(s3.secretAccessKey);
    }
    expect((await download(s.token, stored)).statusCode).toBe(200);
  });
});

describe('uploads when the S3 store is down', async () => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const down = await setupTestApp({ ...s3.env, S3_ENDPOINT: `http://127.0.0.1:${port}` });

  it('answers 503 with Retry-After at once, not 500, and keeps no row', async () => {
    const s = await setupUploader(down);
    const started = Date.now();
    const res = await postFile(down, s.token, 'reports', { name: 'r.pdf', data: PDF });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: HTTP_MESSAGES.storageUnavailable });
    expect(res.headers['retry-after']).toBeDefined();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await down.database.db.select().from(files).where(eq(files.userId, s.user.id))).toEqual([]);
  });
});
