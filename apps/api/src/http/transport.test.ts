// Transport-level refusals answer in the DRF shape with a message naming the problem; the page's CSP narrows
// connections and images to the configured hosts; the OpenAPI page follows API_DOCS.
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { organizations } from '../db/schema/index.ts';
import { setupTestApp } from '../test/app.ts';
import { auth, createUser, signIn } from '../test/factories.ts';

const t = await setupTestApp();

const countOrganizations = async () => (await t.database.db.select({ id: organizations.id }).from(organizations)).length;

describe('request size and encoding', () => {
  it('a JSON body over the limit answers 413 naming the body limit, not a file', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password/',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(3 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: 'The request body is too large (limit 2 MB).' });
  });

  it('a compressed body answers 415 and stores nothing, instead of being misread', async () => {
    const admin = await createUser(t, { userType: 'ADMIN' });
    const token = await signIn(t, admin);
    const before = await countOrganizations();
    for (const encoding of ['gzip', 'deflate', 'br', 'GZIP']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/organization/',
        headers: { ...auth(token), 'content-type': 'application/json', 'content-encoding': encoding },
        payload: gzipSync(JSON.stringify({ name: 'Zipped clinic', is_booking_enabled: true })),
      });
      expect(res.statusCode, encoding).toBe(415);
      expect(res.json()).toEqual({ detail: expect.stringContaining('Content-Encoding') });
    }
    expect(await countOrganizations()).toBe(before);
  });

  it('a plain body labelled gzip answers 415 too (it would otherwise be read as if it were plain)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password/',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x' }),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ detail: 'Content-Encoding "gzip" is not supported: send the request body uncompressed.' });
  });

  it('identity encoding is accepted', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password/',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      payload: JSON.stringify({ email: 'nobody@example.com', password: 'Whatever-1' }),
    });
    expect(res.statusCode).toBe(400);
  });

  it('a URL longer than the limit answers 414 naming the URL', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organization/?search=${'a'.repeat(9000)}` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ detail: 'The request URL is too long (limit 8192 characters).' });
  });

  it('a URL past the HTTP header limit answers 431 in the DRF shape', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(`GET /api/v1/organization/?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (d: Buffer) => (data += d.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', (e) => (data ? resolve(data) : reject(e)));
    });
    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as unknown;
    expect(body).toEqual({ detail: 'The request URL or headers are too large (limit 16 KB in all).' });
  });
});

describe('Content-Security-Policy', () => {
  const directives = (header: unknown) =>
    Object.fromEntries(
      String(header)
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    ) as Record<string, string[]>;

  it('lets the page connect to its own server only and load images from itself and the tile host', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/user/' });
    const csp = directives(res.headers['content-security-policy']);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://tile.openstreetmap.org']);
    expect(csp['frame-src']).toEqual(["'self'", 'blob:']);
    expect(csp['object-src']).toEqual(["'none'"]);
  });

  it('adds the configured object storage and tile hosts, and nothing else', async () => {
    const s3 = await setupTestApp({
      S3_ENDPOINT: 'https://storage.example.net:9000/bucket',
      S3_BUCKET: 'screening',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      TILE_URL: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
    });
    const res = await s3.app.inject({ method: 'GET', url: '/api/v1/user/' });
    const csp = directives(res.headers['content-security-policy']);
    expect(csp['connect-src']).toEqual(["'self'", 'https://storage.example.net:9000']);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://*.tiles.example.org', 'https://storage.example.net:9000']);
  });
});

describe('API docs (API_DOCS)', () => {
  it('in production are served only to signed-in ADMINs', async () => {
    const production = await setupTestApp({ NODE_ENV: 'production' });
    const anonymous = await production.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    const page = await production.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(401);

    const orgAdmin = await createUser(production, { userType: 'ORG_ADMIN' });
    const refused = await production.app.inject({ method: 'GET', url: '/api/docs/json', headers: auth(await signIn(production, orgAdmin)) });
    expect(refused.statusCode).toBe(403);

    const admin = await createUser(production, { userType: 'ADMIN' });
    const allowed = await production.app.inject({ method: 'GET', url: '/api/docs/json', headers: auth(await signIn(production, admin)) });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toMatchObject({ openapi: expect.any(String) });
  });

  it('are public outside production, and absent when switched off', async () => {
    const open = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(open.statusCode).toBe(200);
    const off = await setupTestApp({ API_DOCS: 'off' });
    for (const url of ['/api/docs', '/api/docs/json']) {
      const res = await off.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
  });
});
