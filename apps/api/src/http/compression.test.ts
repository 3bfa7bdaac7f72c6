// Compressed answers (issue 24): text answers (JSON, CSV) are compressed when the client accepts it, identity when
// it does not; bodies that are already compressed (PDF, JPEG, PNG, MP4) or binary (firmware, octet-stream) never are;
// an answer carrying its own Content-Encoding is not compressed twice; the streamed CSV stays streamed.
import http from 'node:http';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firmware, patients, scans } from '../db/schema/index.ts';
import { demoFirmwareContent, demoFirmwareFile } from '../modules/firmware/firmware-demo.ts';
import { setupTestApp } from '../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../test/factories.ts';
import { registerCompression } from './compression.ts';

const t = await setupTestApp();

const decode = (encoding: string | undefined, body: Buffer): string => {
  if (encoding === 'br') return zlib.brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(body).toString('utf8');
  return body.toString('utf8');
};

describe('JSON answers of the API', () => {
  const get = (acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/v1/country/',
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('are compressed with brotli or gzip, as the client accepts, and read back to the same JSON', async () => {
    const plain = await get();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const countries = plain.json<unknown[]>();
    expect(countries.length).toBeGreaterThan(100);

    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
    ] as const) {
      const res = await get(accept);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(res.rawPayload.length, accept).toBeLessThan(plain.rawPayload.length / 3);
      expect(JSON.parse(decode(encoding, res.rawPayload)), accept).toEqual(countries);
    }
  });

  it('go as they are to a client that accepts no compression we speak', async () => {
    for (const accept of ['identity', 'deflate', 'compress', 'br;q=0, gzip;q=0']) {
      const res = await get(accept);
      expect(res.headers['content-encoding'], accept).toBeUndefined();
      expect(res.json<unknown[]>().length, accept).toBeGreaterThan(100);
    }
  });

  it('leave the JSON 404 of an unknown API path unchanged, and still refuse a compressed request body', async () => {
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/v1/no-such-thing/',
      headers: { 'accept-encoding': 'br' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Not found.' });

    const body = zlib.gzipSync(JSON.stringify({ username: 'a', password: 'b' }));
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login/',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'accept-encoding': 'gzip' },
      payload: body,
    });
    expect(refused.statusCode).toBe(415);
  });
});

describe('the CSV of the scan list', () => {
  let token = '';
  beforeAll(async () => {
    token = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const organization = await createOrganization(t, { name: 'Compression clinic' });
    const [patient] = await t.database.db
      .insert(patients)
      .values({ firstName: 'Asha', lastName: 'Rao', organizationId: organization.id })
      .returning();
    await t.database.db.insert(scans).values(
      Array.from({ length: 400 }, (_, i) => ({
        patientId: patient!.id,
        organizationId: organization.id,
        localDbId: `compression-${i}`,
        dateTime: new Date(Date.UTC(2026, 2, 1, 0, i)),
        scanType: 'SCAN' as const,
      })),
    );
  });

  it('is compressed when the client accepts it and reads back to the same file', async () => {
    const plain = await t.app.inject({
      method: 'GET',
      url: '/api/v1/scan/?format=csv',
      headers: auth(token),
    });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^text\/csv/);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.split('\n').filter(Boolean)).toHaveLength(401);

    for (const encoding of ['br', 'gzip'] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/scan/?format=csv',
        headers: { ...auth(token), 'accept-encoding': encoding },
      });
      expect(res.headers['content-encoding'], encoding).toBe(encoding);
      expect(res.headers['content-disposition'], encoding).toBe(plain.headers['content-disposition']);
      expect(res.rawPayload.length, encoding).toBeLessThan(plain.rawPayload.length / 4);
      expect(decode(encoding, res.rawPayload), encoding).toBe(plain.body);
    }
  });

  it('is still streamed when compressed: chunked, without a Content-Length', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port: address.port,
            path: '/api/v1/scan/?format=csv',
            headers: { ...auth(token), 'accept-encoding': 'gzip' },
          },
          resolve,
        )
        .on('error', reject);
    });
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
    expect(zlib.gunzipSync(Buffer.concat(chunks)).toString('utf8').split('\n').filter(Boolean)).toHaveLength(
      401,
    );
  });
});

describe('a firmware download', () => {
  it('goes as its exact bytes with its Content-Length to a client that accepts compression', async () => {
    const token = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const file = demoFirmwareFile('v7.7');
    const [row] = await t.database.db
      .insert(firmware)
      .values({ version: 'v7.7', path: file.path, checksum: file.checksum, size: file.size })
      .returning();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/firmware/${row!.id}/download/`,
      headers: { ...auth(token), 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/octet-stream/);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(file.size));
    // About 34 kB of text: it would compress, and still goes as it is.
    expect(file.size).toBeGreaterThan(30_000);
    expect(res.rawPayload.equals(demoFirmwareContent('v7.7'))).toBe(true);
  });
});

describe('bodies that are binary or already compressed', () => {
  // The policy of registerCompression on a bare server: one route per kind of body the API sends.
  let app: FastifyInstance;
  const BODY = Buffer.alloc(64 * 1024, 'compressible text ');
  const ALREADY_GZIPPED = zlib.gzipSync(BODY);

  beforeAll(async () => {
    app = Fastify();
    await registerCompression(app);
    for (const [url, type] of [
      ['/pdf', 'application/pdf'],
      ['/jpeg', 'image/jpeg'],
      ['/png', 'image/png'],
      ['/mp4', 'video/mp4'],
      ['/firmware', 'application/octet-stream'],
      ['/text', 'text/plain; charset=utf-8'],
    ] as const) {
      app.get(url, async (_request, reply) => reply.type(type).send(BODY));
    }
    app.get('/points', { config: { compressBinary: true } }, async (_request, reply) =>
      reply.type('application/octet-stream').send(BODY),
    );
    app.get('/gzipped', async (_request, reply) =>
      reply.type('text/plain').header('content-encoding', 'gzip').send(ALREADY_GZIPPED),
    );
    await app.ready();
  });
  afterAll(async () => app.close());

  it('are never compressed: PDF, JPEG, PNG, MP4 and firmware (octet-stream) go as they are', async () => {
    for (const url of ['/pdf', '/jpeg', '/png', '/mp4', '/firmware']) {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.headers['content-encoding'], url).toBeUndefined();
      expect(res.rawPayload.equals(BODY), url).toBe(true);
    }
    // The same body as text is compressed: the policy, not the body, decided above.
    const text = await app.inject({
      method: 'GET',
      url: '/text',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(text.headers['content-encoding']).toBe('br');
  });

  it('are compressed where the route says its octet-stream compresses well', async () => {
    const res = await app.inject({ method: 'GET', url: '/points', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(res.rawPayload).equals(BODY)).toBe(true);
  });

  it('are not compressed twice: an answer with its own Content-Encoding goes as it is', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/gzipped',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.rawPayload.equals(ALREADY_GZIPPED)).toBe(true);
  });
});
