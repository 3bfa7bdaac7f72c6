import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from './local-storage.ts';
import { createS3Storage } from './s3-storage.ts';
import { detectFileKind, readFirmwareVersion, readImageDimensions, sniffBinaryKind } from './sniff.ts';
import { StorageFullError, createStorage, type Storage } from './storage.ts';
import { isSafeStorageKey, sanitizeFileName } from './storage-key.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** The contract every store keeps. */
function behavesLikeAStore(name: string, make: () => Storage) {
  describe(name, () => {
    it('puts, gets and deletes an object', async () => {
      const store = make();
      await store.put('companylogo/abc_1_logo.png', PNG, 'image/png');
      const got = await store.get('companylogo/abc_1_logo.png');
      expect(got?.contentType).toBe('image/png');
      expect(got?.size).toBe(PNG.length);
      expect(await readAll(got!.body)).toEqual(PNG);
      await store.delete('companylogo/abc_1_logo.png');
      expect(await store.get('companylogo/abc_1_logo.png')).toBeNull();
      await store.delete('companylogo/abc_1_logo.png');
    });

    it('answers null for a missing key and refuses unsafe keys before any I/O', async () => {
      const store = make();
      expect(await store.get('test/missing.png')).toBeNull();
      for (const key of ['../x', '/etc/passwd', 'a/../../b', 'a\\b', '', 'a//b', '.hidden']) {
        await expect(store.get(key)).rejects.toThrow(/Unsafe storage key/);
        await expect(store.put(key, PNG, 'image/png')).rejects.toThrow(/Unsafe storage key/);
      }
    });
  });
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-storage-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
behavesLikeAStore('local storage', () => createLocalStorage(root));

// A tiny S3: path-style PUT/GET/DELETE kept in memory, checking SigV4 headers and the payload hash.
const objects = new Map<string, { body: Buffer; type: string }>();
const seen: { method: string; auth: string }[] = [];
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const auth = String(req.headers.authorization ?? '');
    seen.push({ method: req.method ?? '', auth });
    if (!auth.startsWith('AWS4-HMAC-SHA256 Credential=test-key/') || !req.headers['x-amz-date']) {
      res.writeHead(403).end('<Error><Code>AccessDenied</Code></Error>');
      return;
    }
    const key = decodeURIComponent(req.url ?? '');
    const body = Buffer.concat(chunks);
    switch (req.method) {
      case 'PUT': {
        if (key.includes('/full_')) {
          res.writeHead(507).end('<Error><Code>XMinioStorageFull</Code></Error>');
          return;
        }
        const hash = createHash('sha256').update(body).digest('hex');
        if (req.headers['x-amz-content-sha256'] !== hash) {
          res.writeHead(400).end('<Error><Code>XAmzContentSHA256Mismatch</Code></Error>');
          return;
        }
        objects.set(key, { body, type: String(req.headers['content-type']) });
        res.writeHead(200).end();
        return;
      }
      case 'GET': {
        const obj = objects.get(key);
        if (!obj) {
          res
            .writeHead(404, { 'content-type': 'application/xml' })
            .end('<Error><Code>NoSuchKey</Code></Error>');
          return;
        }
        res.writeHead(200, { 'content-type': obj.type, 'content-length': obj.body.length }).end(obj.body);
        return;
      }
      case 'DELETE':
        objects.delete(key);
        res.writeHead(204).end();
        return;
      default:
        res.writeHead(405).end();
    }
  });
});
let endpoint = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const s3Options = () => ({
  endpoint,
  bucket: 'screening',
  accessKeyId: 'test-key',
  secretAccessKey: 'test-secret',
  region: 'us-east-1',
});
behavesLikeAStore('S3 storage', () => createS3Storage(s3Options()));

describe('S3 storage requests', () => {
  it('uses path-style URLs in the bucket and signs every request', async () => {
    const store = createS3Storage(s3Options());
    await store.put('firmware/ab_1_fw.ibe', Buffer.from('v2.1\n'), 'text/plain; charset=utf-8');
    expect(objects.has('/screening/firmware/ab_1_fw.ibe')).toBe(true);
    expect(seen.every((r) => r.auth.includes('/us-east-1/s3/aws4_request'))).toBe(true);
  });

  it('reports a refused request as an error', async () => {
    const store = createS3Storage({ ...s3Options(), accessKeyId: 'wrong' });
    await expect(store.put('test/a.png', PNG, 'image/png')).rejects.toThrow(/HTTP 403/);
  });

  it('reports a server out of space (507) as a full store', async () => {
    const store = createS3Storage(s3Options());
    await expect(store.put('test/full_a.png', PNG, 'image/png')).rejects.toBeInstanceOf(StorageFullError);
  });
});

describe('createStorage', () => {
  const base = {
    dataDir: root,
    S3_REGION: 'us-east-1',
    S3_ENDPOINT: undefined,
    S3_BUCKET: undefined,
    S3_ACCESS_KEY_ID: undefined,
    S3_SECRET_ACCESS_KEY: undefined,
  };
  it('uses the local disk unless S3 is configured', () => {
    expect(createStorage(base).kind).toBe('local');
    expect(
      createStorage({
        ...base,
        S3_ENDPOINT: endpoint,
        S3_BUCKET: 'b',
        S3_ACCESS_KEY_ID: 'k',
        S3_SECRET_ACCESS_KEY: 's',
      }).kind,
    ).toBe('s3');
  });
  it('refuses an S3 configuration without keys', () => {
    expect(() => createStorage({ ...base, S3_ENDPOINT: endpoint, S3_BUCKET: 'b' })).toThrow(
      /S3_ACCESS_KEY_ID/,
    );
  });
  it('refuses half an S3 configuration rather than falling back to the local disk, naming what is missing', () => {
    expect(() => createStorage({ ...base, S3_ENDPOINT: endpoint })).toThrow(
      'S3 storage needs S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY too',
    );
    expect(() =>
      createStorage({ ...base, S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }),
    ).toThrow('S3 storage needs S3_ENDPOINT too');
  });
  it('refuses an S3_ENDPOINT that is not an http(s) URL', () => {
    const full = { ...base, S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };
    expect(() => createStorage({ ...full, S3_ENDPOINT: 'minio:9000' })).toThrow(
      /S3_ENDPOINT must be an http\(s\) URL/,
    );
  });
});

describe('content sniffing', () => {
  it('recognises images, PDF and MP4 by their first bytes', () => {
    expect(sniffBinaryKind(PNG)).toBe('png');
    expect(sniffBinaryKind(Buffer.from([0xff, 0xd8, 0xff, 0xdb, 0x00]))).toBe('jpeg');
    expect(sniffBinaryKind(WEBP)).toBe('webp');
    expect(sniffBinaryKind(Buffer.from('%PDF-1.4\n'))).toBe('pdf');
    expect(sniffBinaryKind(Buffer.from('\0\0\0\x18ftypmp42\0\0\0\0', 'latin1'))).toBe('mp4');
  });

  it('refuses look-alikes: a truncated PNG signature, a RIFF WAVE, a HEIC, text', () => {
    expect(sniffBinaryKind(PNG.subarray(0, 8))).toBeNull();
    expect(sniffBinaryKind(Buffer.from('RIFF\0\0\0\0WAVEfmt ', 'latin1'))).toBeNull();
    expect(sniffBinaryKind(Buffer.from('RIFF\x10\0\0\0WEBPVP8 rest-of-nothing', 'latin1'))).toBeNull();
    expect(sniffBinaryKind(Buffer.from('RIFF\x10\0\0\0WEBPVP8Lxxxxx', 'latin1'))).toBeNull();
    expect(sniffBinaryKind(Buffer.from('\0\0\0\x18ftypheic\0\0\0\0', 'latin1'))).toBeNull();
    expect(sniffBinaryKind(Buffer.from('hello'))).toBeNull();
  });

  it('reads the firmware version from the first line only', () => {
    expect(readFirmwareVersion(Buffer.from('v2.14\r\nrest'))).toBe('v2.14');
    expect(readFirmwareVersion(Buffer.from('\uFEFF3.0.1\n'))).toBe('3.0.1');
    expect(readFirmwareVersion(Buffer.from('v0.0\n'))).toBeNull();
    expect(readFirmwareVersion(Buffer.from('v2.14 beta\n'))).toBeNull();
    expect(readFirmwareVersion(Buffer.from([0x76, 0x31, 0x0a, 0x00]))).toBeNull();
    expect(readFirmwareVersion(Buffer.from([0x76, 0x31, 0x0a, 0xc3, 0x28]))).toBeNull();
  });

  it('accepts only the kinds a folder allows', () => {
    expect(detectFileKind(PNG, 'a.pdf', ['png', 'jpeg'])).toBe('png');
    expect(detectFileKind(PNG, 'a.png', ['pdf'])).toBeNull();
    expect(detectFileKind(Buffer.from('v1.2\n'), 'fw.IBE', ['ibe'])).toBe('ibe');
    expect(detectFileKind(Buffer.from('v1.2\n'), 'fw.txt', ['ibe'])).toBeNull();
  });
});

describe('image dimensions', () => {
  it('reads width and height from PNG, JPEG and WebP headers', () => {
    expect(readImageDimensions(PNG, 'png')).toEqual({ width: 1, height: 1 });
    expect(readImageDimensions(JPEG, 'jpeg')).toEqual({ width: 1, height: 1 });
    expect(readImageDimensions(WEBP, 'webp')).toEqual({ width: 1, height: 1 });
  });

  it('answers null for a header of another kind, a cut header or an empty canvas', () => {
    expect(readImageDimensions(PNG, 'jpeg')).toBeNull();
    expect(readImageDimensions(JPEG.subarray(0, 30), 'jpeg')).toBeNull();
    expect(readImageDimensions(Buffer.from('not an image'), 'png')).toBeNull();
    const empty = Buffer.from(PNG);
    empty.writeUInt32BE(0, 16);
    expect(readImageDimensions(empty, 'png')).toBeNull();
  });
});

describe('storage keys and names', () => {
  it('allows plain relative keys only', () => {
    expect(isSafeStorageKey('companylogo/ab12_1764000000000_logo.png')).toBe(true);
    for (const key of ['..', '../a', 'a/..', '/a', 'a\\b', 'a/./b', 'a\0b', 'a b', '-a', 'x'.repeat(501)]) {
      expect(isSafeStorageKey(key)).toBe(false);
    }
  });

  it('sanitizes an uploaded name and sets the extension of the detected type', () => {
    expect(sanitizeFileName('Logo Ñandú (1).PNG', 'png')).toBe('Logo_Nandu_1.png');
    expect(sanitizeFileName('../../etc/passwd', 'png')).toBe('passwd.png');
    expect(sanitizeFileName('C:\\Users\\me\\photo.jpeg', 'jpg')).toBe('photo.jpg');
    expect(sanitizeFileName('🎉.png', 'png')).toBe('file.png');
    expect(sanitizeFileName(undefined, 'pdf')).toBe('file.pdf');
    expect(sanitizeFileName(`${'a'.repeat(300)}.png`, 'png')).toHaveLength(84);
  });
});
