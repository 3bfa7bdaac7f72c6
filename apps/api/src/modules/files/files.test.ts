import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { FILE_MESSAGES, type TFileUploadResult } from '@sc/shared/files';
import { FIRMWARE_MAX_BYTES, IMAGE_MAX_BYTES } from '@sc/shared/constants';
import { MESSAGES } from '@sc/shared/validation';
import type { TUserType } from '@sc/shared/roles';
import { files } from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-files-test-'));
const t = await setupTestApp({ DATA_DIR: dataDir });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// A real 1×1 PNG and the first bytes of a JPEG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0rest-of-a-jpeg')]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

type Part = { name: string; value: string } | { name: string; filename: string; data: Buffer; type?: string };

function multipart(parts: Part[]) {
  const boundary = `----sc-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('value' in p) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\n` +
            `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        p.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function tokenFor(userType: TUserType, organizationId: number | null = null) {
  return signIn(t, await createUser(t, { userType, organizationId, password: null }));
}

function upload(token: string | null, folder: string | null, file: { filename: string; data: Buffer; type?: string } | null, extra: Part[] = []) {
  const parts: Part[] = [...extra];
  if (folder !== null) parts.push({ name: 'folder', value: folder });
  if (file) parts.push({ name: 'file', ...file });
  const { payload, headers } = multipart(parts);
  return t.app.inject({ method: 'POST', url: '/api/v1/file/upload/', payload, headers: { ...headers, ...(token ? auth(token) : {}) } });
}

const download = (token: string | null, filePath: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1/file/?path=${encodeURIComponent(filePath)}`, headers: token ? auth(token) : {} });

describe('POST file/upload/', () => {
  it('stores a PNG under a random, timestamped name, records it and serves the same bytes back as image/png', async () => {
    const org = await createOrganization(t);
    const token = await tokenFor('ORG_ADMIN', org.id);
    const res = await upload(token, 'companylogo', { filename: 'My Logo (final).PNG', data: PNG, type: 'image/png' });
    expect(res.statusCode).toBe(200);
    const body = res.json<TFileUploadResult>();
    expect(body.path).toMatch(/^companylogo\/[0-9a-f]{16}_\d{13}_My_Logo_final\.png$/);
    expect(body).toEqual({ url: `/api/v1/file/?path=${encodeURIComponent(body.path)}`, path: body.path, img: body.path, content_type: 'image/png', size: PNG.length });

    const [row] = await t.database.db.select().from(files).where(eq(files.path, body.path));
    expect(row).toMatchObject({ folder: 'companylogo', organizationId: org.id, contentType: 'image/png', size: PNG.length });
    expect(fs.readFileSync(path.join(dataDir, 'files', body.path))).toEqual(PNG);

    const got = await t.app.inject({ method: 'GET', url: body.url, headers: auth(token) });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.rawPayload).toEqual(PNG);
  });

  it('takes the type from the content, not the name: a JPEG called .png is stored and served as a JPEG', async () => {
    const token = await tokenFor('ADMIN');
    const res = await upload(token, 'customized/', { filename: 'qr.png', data: JPEG, type: 'image/png' });
    expect(res.statusCode).toBe(200);
    const body = res.json<TFileUploadResult>();
    expect(body.path).toMatch(/^customized\/.+_qr\.jpg$/);
    expect(body.content_type).toBe('image/jpeg');
    expect((await download(token, body.path)).headers['content-type']).toBe('image/jpeg');
  });

  it('refuses a text file renamed .png with the image message and stores nothing', async () => {
    const before = await t.database.db.select().from(files);
    const res = await upload(await tokenFor('ADMIN'), 'companylogo', { filename: 'evil.png', data: Buffer.from('<svg onload=alert(1)>'), type: 'image/png' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ file: [FILE_MESSAGES.invalidImage] });
    expect(await t.database.db.select().from(files)).toHaveLength(before.length);
  });

  it('refuses an image over 5 MB with a clear message', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(IMAGE_MAX_BYTES)]);
    const res = await upload(await tokenFor('ADMIN'), 'companylogo', { filename: 'big.png', data: big });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ file: [FILE_MESSAGES.imageTooLarge] });
  });

  it('stores a firmware .ibe text whose first line is the version, for an ADMIN', async () => {
    const token = await tokenFor('ADMIN');
    const data = Buffer.from('v2.14\nline two of the firmware\n');
    const res = await upload(token, 'firmware', { filename: 'IBE v2.14.ibe', data });
    expect(res.statusCode).toBe(200);
    const body = res.json<TFileUploadResult>();
    expect(body.path).toMatch(/^firmware\/[0-9a-f]{16}_\d+_IBE_v2\.14\.ibe$/);
    const got = await download(token, body.path);
    expect(got.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(got.body).toBe(data.toString());
  });

  it("refuses firmware over 2 MB with part 1's message", async () => {
    const data = Buffer.concat([Buffer.from('v3.1\n'), Buffer.alloc(FIRMWARE_MAX_BYTES, 0x61)]);
    const res = await upload(await tokenFor('ADMIN'), 'firmware', { filename: 'fw.ibe', data });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ file: [MESSAGES.firmwareTooLarge] });
  });

  it.each([
    ['a version of zero', 'fw.ibe', 'v0.0\n'],
    ['no version line', 'fw.ibe', 'hello\nv2.1\n'],
    ['another extension', 'fw.txt', 'v2.1\n'],
  ])('refuses firmware with %s', async (_label, filename, text) => {
    const res = await upload(await tokenFor('ADMIN'), 'firmware', { filename, data: Buffer.from(text) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ file: [FILE_MESSAGES.invalidFirmware] });
  });

  it('lets only platform admins upload firmware', async () => {
    const org = await createOrganization(t);
    const res = await upload(await tokenFor('ORG_ADMIN', org.id), 'firmware', { filename: 'fw.ibe', data: Buffer.from('v2.1\n') });
    expect(res.statusCode).toBe(403);
  });

  it('takes PDFs in documents and reports, and refuses an image in reports', async () => {
    const token = await tokenFor('ADMIN');
    expect((await upload(token, 'documents', { filename: 'consent.pdf', data: PDF })).json()).toMatchObject({ content_type: 'application/pdf' });
    expect((await upload(token, 'reports', { filename: 'r.pdf', data: PDF })).statusCode).toBe(200);
    const res = await upload(token, 'reports', { filename: 'r.pdf', data: PNG });
    expect(res.json()).toEqual({ file: [FILE_MESSAGES.invalidPdf] });
  });

  it('refuses an unknown or missing folder, and a form without a file', async () => {
    const token = await tokenFor('ADMIN');
    const bad = await upload(token, '../etc', { filename: 'a.png', data: PNG });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ folder: [FILE_MESSAGES.unknownFolder] });
    expect((await upload(token, null, { filename: 'a.png', data: PNG })).json()).toEqual({ folder: [MESSAGES.required] });
    expect((await upload(token, 'companylogo', null)).json()).toEqual({ file: [FILE_MESSAGES.noFile] });
    const json = await t.app.inject({ method: 'POST', url: '/api/v1/file/upload/', headers: auth(token), payload: { folder: 'test' } });
    expect(json.statusCode).toBe(400);
  });

  it('reads the folder whether it comes before or after the file', async () => {
    const token = await tokenFor('ADMIN');
    const { payload, headers } = multipart([
      { name: 'file', filename: 'a.webp', data: Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 rest', 'latin1') },
      { name: 'folder', value: 'test' },
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/file/upload/', payload, headers: { ...headers, ...auth(token) } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ content_type: 'image/webp' });
  });

  it("refuses an organization field outside the caller's scope", async () => {
    const mine = await createOrganization(t);
    const theirs = await createOrganization(t);
    const res = await upload(await tokenFor('ORG_ADMIN', mine.id), 'companylogo', { filename: 'a.png', data: PNG }, [
      { name: 'organization', value: String(theirs.id) },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('organization');
  });

  it('needs a signed-in console user', async () => {
    const missing = await upload(null, 'companylogo', { filename: 'a.png', data: PNG });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ detail: AUTH_ERRORS.notProvided });
    const org = await createOrganization(t);
    expect((await upload(await tokenFor('TECHNICIAN', org.id), 'companylogo', { filename: 'a.png', data: PNG })).statusCode).toBe(403);
  });
});

describe('GET file/?path=', () => {
  it("does not return another organization's file to an ORG_ADMIN", async () => {
    const mine = await createOrganization(t);
    const theirs = await createOrganization(t);
    const owner = await tokenFor('ORG_ADMIN', theirs.id);
    const { path: stored } = (await upload(owner, 'companylogo', { filename: 'theirs.png', data: PNG })).json<TFileUploadResult>();
    expect((await download(owner, stored)).statusCode).toBe(200);
    const res = await download(await tokenFor('ORG_ADMIN', mine.id), stored);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
    // A distributor above the owner sees it.
    const child = await createOrganization(t, { parentId: mine.id });
    const childFile = (await upload(await tokenFor('ORG_ADMIN', child.id), 'test', { filename: 'c.png', data: PNG })).json<TFileUploadResult>();
    expect((await download(await tokenFor('DISTRIBUTOR_ADMIN', mine.id), childFile.path)).statusCode).toBe(200);
  });

  it('lets an ADMIN give a file to an organization whose users then read it', async () => {
    const org = await createOrganization(t);
    const res = await upload(await tokenFor('ADMIN'), 'companylogo', { filename: 'a.png', data: PNG }, [
      { name: 'organization', value: String(org.id) },
    ]);
    expect((await download(await tokenFor('ORG_ADMIN', org.id), res.json<TFileUploadResult>().path)).statusCode).toBe(200);
  });

  it('keeps a file without an owner organization to its uploader and platform admins', async () => {
    const admin = await tokenFor('ADMIN');
    const { path: stored } = (await upload(admin, 'test', { filename: 'a.png', data: PNG })).json<TFileUploadResult>();
    expect((await download(admin, stored)).statusCode).toBe(200);
    expect((await download(await tokenFor('SUB_ADMIN'), stored)).statusCode).toBe(200);
    const org = await createOrganization(t);
    expect((await download(await tokenFor('ORG_ADMIN', org.id), stored)).statusCode).toBe(404);
    expect((await download(await tokenFor('CERVAICAL_REVIEWER', org.id), stored)).statusCode).toBe(404);
  });

  it.each(['../../etc/passwd', '/etc/passwd', 'companylogo/../../../etc/passwd', 'companylogo\\..\\x.png', 'companylogo/nothing.png', '.'])(
    'answers 404 for %s without reading outside the store',
    async (p) => {
      const res = await download(await tokenFor('ADMIN'), p);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    },
  );

  it('answers 404 when the record exists but the stored object is gone', async () => {
    const admin = await tokenFor('ADMIN');
    const { path: stored } = (await upload(admin, 'test', { filename: 'a.png', data: PNG })).json<TFileUploadResult>();
    fs.rmSync(path.join(dataDir, 'files', stored));
    expect((await download(admin, stored)).statusCode).toBe(404);
  });

  it('needs a token, and a path', async () => {
    const res = await download(null, 'companylogo/x.png');
    expect(res.statusCode).toBe(401);
    const noPath = await t.app.inject({ method: 'GET', url: '/api/v1/file/', headers: auth(await tokenFor('ADMIN')) });
    expect(noPath.statusCode).toBe(400);
    expect(noPath.json()).toEqual({ path: [MESSAGES.required] });
  });
});
