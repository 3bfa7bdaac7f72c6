// Our S3 store against a real S3-compatible server (s3rver behind a SigV4-checking front, test/s3-server.ts), not a
// mock: what an upload writes is what the server holds, credentials the server does not accept are refused at
// once, and a store that is down or silent fails fast as "unavailable" (503 in http/errors.ts), never as a hang.
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import type { Readable } from 'node:stream';
import { AwsClient } from 'aws4fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import { createS3Storage, type S3Options } from './s3-storage.ts';
import { sanitizeFileName } from './storage-key.ts';
import { StorageUnavailableError } from './storage.ts';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3.stop());

const options = (overrides: Partial<S3Options> = {}): S3Options => ({
  endpoint: s3.endpoint,
  bucket: s3.bucket,
  region: s3.region,
  accessKeyId: s3.accessKeyId,
  secretAccessKey: s3.secretAccessKey,
  ...overrides,
});

/** A key as files.service.ts makes one: folder, random prefix, timestamp, sanitized name with the detected extension. */
const uploadKey = (folder: string, name: string, extension: string) =>
  `${folder}/${randomBytes(8).toString('hex')}_${Date.now()}_${sanitizeFileName(name, extension)}`;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('S3 store against a real S3-compatible server', () => {
  it('stores an upload under the project key scheme with its bytes, content type and size, and reads it back', async () => {
    const store = createS3Storage(options());
    const key = uploadKey('reports', 'Scan report (final) – Ré.pdf', 'pdf');
    expect(key).toMatch(/^reports\/[0-9a-f]{16}_\d+_Scan_report_final_Re\.pdf$/);
    await store.put(key, PDF, 'application/pdf');

    // What the server holds, read past our client.
    expect(await s3.listKeys('reports/')).toContain(key);
    expect(await s3.readObject(key)).toEqual(PDF);

    const got = await store.get(key);
    expect(got).not.toBeNull();
    expect(got!.contentType).toBe('application/pdf');
    expect(got!.size).toBe(PDF.length);
    expect(await readAll(got!.body)).toEqual(PDF);
  });

  it('keeps keys of several segments with dots, dashes and underscores exactly', async () => {
    const store = createS3Storage(options());
    const key = 'documents/org-12/exam_3/a1b2.c3-d4_1764000000000_photo.v2.jpeg';
    await store.put(key, Buffer.from('jpeg bytes'), 'image/jpeg');
    expect(await s3.listKeys('documents/org-12/')).toEqual([key]);
    expect(String(await s3.readObject(key))).toBe('jpeg bytes');
  });

  it('replaces an object written again at the same key', async () => {
    const store = createS3Storage(options());
    const key = uploadKey('companylogo', 'logo.png', 'png');
    await store.put(key, Buffer.from('first'), 'image/png');
    await store.put(key, Buffer.from('second, longer'), 'image/png');
    const got = await store.get(key);
    expect(got!.size).toBe(14);
    expect(String(await readAll(got!.body))).toBe('second, longer');
  });

  it('round-trips a 20 MB object (the largest upload a folder takes) unchanged, streamed back', async () => {
    const store = createS3Storage(options());
    const data = randomBytes(20 * 1024 * 1024);
    const key = uploadKey('assessment_files', 'recording.mp4', 'mp4');
    await store.put(key, data, 'video/mp4');
    const got = await store.get(key);
    expect(got!.size).toBe(data.length);
    let chunks = 0;
    const hash = createHash('sha256');
    for await (const chunk of got!.body) {
      chunks++;
      hash.update(chunk as Uint8Array);
    }
    // Streamed, not buffered whole: the body arrives in many chunks.
    expect(chunks).toBeGreaterThan(1);
    expect(hash.digest('hex')).toBe(sha256(data));
  });

  it('answers null for a missing object and for a deleted one; deleting a missing object is not an error', async () => {
    const store = createS3Storage(options());
    expect(await store.get('reports/0000000000000000_1_missing.pdf')).toBeNull();
    const key = uploadKey('reports', 'r.pdf', 'pdf');
    await store.put(key, PDF, 'application/pdf');
    await store.delete(key);
    expect(await s3.listKeys('reports/')).not.toContain(key);
    expect(await store.get(key)).toBeNull();
    await expect(store.delete(key)).resolves.toBeUndefined();
  });
});

describe('S3 store refused or cut off', () => {
  it('refuses a wrong secret at once with a clear "unavailable" error, and nothing is stored', async () => {
    const store = createS3Storage(options({ secretAccessKey: 'not-the-secret' }));
    const key = uploadKey('reports', 'r.pdf', 'pdf');
    const started = Date.now();
    const error = await store.put(key, PDF, 'application/pdf').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect((error as Error).message).toMatch(/HTTP 403.*SignatureDoesNotMatch/s);
    expect((error as Error).message).not.toContain('not-the-secret');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await s3.listKeys('reports/')).not.toContain(key);
    // Reads and deletes are refused the same way: a refused read is not a missing file.
    await expect(store.get('reports/x.pdf')).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(store.delete('reports/x.pdf')).rejects.toBeInstanceOf(StorageUnavailableError);
  });

  it('refuses an access key the server does not know', async () => {
    const store = createS3Storage(options({ accessKeyId: 'UNKNOWNKEY' }));
    await expect(store.put(uploadKey('test', 'a.png', 'png'), PDF, 'image/png')).rejects.toThrow(
      /HTTP 403.*InvalidAccessKeyId/s,
    );
  });

  it('is refused once the server rotates its secret, and works again with the new one', async () => {
    const key = uploadKey('test', 'a.png', 'png');
    try {
      s3.setSecretAccessKey('rotated-secret-0123456789');
      await expect(createS3Storage(options()).put(key, PDF, 'image/png')).rejects.toBeInstanceOf(
        StorageUnavailableError,
      );
      await createS3Storage(options({ secretAccessKey: 'rotated-secret-0123456789' })).put(
        key,
        PDF,
        'image/png',
      );
      expect(await s3.readObject(key)).toEqual(PDF);
    } finally {
      s3.setSecretAccessKey(s3.secretAccessKey);
    }
  });

  it('fails fast as unavailable when nothing listens at the endpoint', async () => {
    const port = await closedPort();
    const store = createS3Storage(options({ endpoint: `http://127.0.0.1:${port}` }));
    const started = Date.now();
    const error = await store.get('reports/a.pdf').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('gives up on a server that accepts the connection and never answers, after its timeout', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as net.AddressInfo).port;
      const store = createS3Storage(options({ endpoint: `http://127.0.0.1:${port}`, timeoutMs: 300 }));
      const started = Date.now();
      await expect(store.put('reports/a.pdf', PDF, 'application/pdf')).rejects.toThrow(
        /no answer within 300 ms/,
      );
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      silent.close();
    }
  });
});

describe('the test S3 server checks requests as S3 does', () => {
  const url = (key: string) => `${s3.endpoint}/${s3.bucket}/${key}`;

  it('refuses an unsigned request (the bucket is private)', async () => {
    await createS3Storage(options()).put('test/private.png', PDF, 'image/png');
    const res = await fetch(url('test/private.png'));
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<Code>AccessDenied</Code>');
  });

  it('refuses a body that does not match its signed payload hash', async () => {
    const client = new AwsClient({
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      region: s3.region,
      service: 's3',
    });
    const res = await client.fetch(url('test/tampered.png'), {
      method: 'PUT',
      body: Buffer.from('what arrives'),
      headers: { 'x-amz-content-sha256': sha256(Buffer.from('what was signed')) },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('XAmzContentSHA256Mismatch');
    expect(await s3.readObject('test/tampered.png')).toBeNull();
  });
});

/** A loopback port with nothing listening on it (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
