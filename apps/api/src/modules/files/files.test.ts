import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { FILE_MESSAGES, FILE_PATH_MAX, IMAGE_MAX_PIXELS, IMAGE_MAX_SIDE, type TFileUploadResult } from '@sc/shared/files';
import { FIRMWARE_MAX_BYTES, IMAGE_MAX_BYTES, UPLOAD_FOLDERS } from '@sc/shared/constants';
import { MESSAGES } from '@sc/shared/validation';
import type { TUserType } from '@sc/shared/roles';
import { cervicalExams, files, orcaExams, organizations, patients, scans } from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { setupTestApp } from '../../test/app.ts';
import { FILE_CONTENT_SECURITY_POLICY } from './files.routes.ts';
import { auth, createOrganization, createUser, signIn } from '../../test/factories.ts';
import { seedExam } from '../cervical/cervical.fixtures.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-files-test-'));
const t = await setupTestApp({ DATA_DIR: dataDir });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// Real 1×1 PNG, JPEG and WebP images.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
// A PDF whose open action runs JavaScript.
const SCRIPTED_PDF = Buffer.from(
  '%PDF-1.7\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

// Headers only, declaring any size: enough for the header reader, nothing a decoder could use.
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const pngDeclaring = (width: number, height: number) =>
  Buffer.concat([PNG.subarray(0, 8), u32(13), Buffer.from('IHDR'), u32(width), u32(height), Buffer.from([8, 6, 0, 0, 0]), u32(0), u32(0), Buffer.from('IEND'), u32(0)]);
const jpegDeclaring = (width: number, height: number) =>
  Buffer.concat([
    JPEG.subarray(0, 20),
    Buffer.from([0xff, 0xc0, 0, 17, 8, height >> 8, height & 255, width >> 8, width & 255, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]),
    Buffer.from([0xff, 0xd9]),
  ]);
const webpDeclaring = (width: number, height: number) => {
  const chunk = Buffer.alloc(10);
  chunk.writeUIntLE(width - 1, 4, 3);
  chunk.writeUIntLE(height - 1, 7, 3);
  const body = Buffer.concat([Buffer.from('WEBPVP8X'), Buffer.from([10, 0, 0, 0]), chunk]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF'), size, body]);
};
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

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

/** Objects on disk under the store's root. */
const countObjects = () => {
  const root = path.join(dataDir, 'files');
  return fs.existsSync(root) ? fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0;
};
const countFiles = async () => (await t.database.db.select({ id: files.id }).from(files)).length;

const download = (token: string | null, filePath: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1/file/?path=${encodeURIComponent(filePath)}`, headers: token ? auth(token) : {} });

/** Makes the stored image at `filePath` the organization's customized-message QR image: a record now lists it. */
const listOnOrganization = (organizationId: number, filePath: string) =>
  t.database.db.update(organizations).set({ customizedMessageQrPath: filePath }).where(eq(organizations.id, organizationId));

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
      { name: 'file', filename: 'a.webp', data: WEBP },
      { name: 'folder', value: 'test' },
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/file/upload/', payload, headers: { ...headers, ...auth(token) } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ content_type: 'image/webp' });
  });

  it("an ORG_ADMIN cannot upload a logo into another organization: 404, and nothing is stored", async () => {
    const mine = await createOrganization(t);
    const theirs = await createOrganization(t);
    const before = await countFiles();
    const objectsBefore = countObjects();
    for (const folder of ['companylogo', 'customized', 'test', 'user_test']) {
      const res = await upload(await tokenFor('ORG_ADMIN', mine.id), folder, { filename: 'a.png', data: PNG }, [
        { name: 'organization', value: String(theirs.id) },
      ]);
      expect({ folder, status: res.statusCode, body: res.json() }).toEqual({ folder, status: 404, body: { detail: 'Not found.' } });
    }
    // An id that names no organization answers the same; a malformed one is a field error.
    const unknown = await upload(await tokenFor('ADMIN'), 'companylogo', { filename: 'a.png', data: PNG }, [{ name: 'organization', value: '2147483647' }]);
    expect(unknown.statusCode).toBe(404);
    const malformed = await upload(await tokenFor('ADMIN'), 'companylogo', { filename: 'a.png', data: PNG }, [{ name: 'organization', value: 'x1' }]);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ organization: ['Invalid pk "x1" - object does not exist.'] });
    expect(await countFiles()).toBe(before);
    expect(countObjects()).toBe(objectsBefore);
  });

  it('a DISTRIBUTOR_ADMIN uploads a logo for a sub-organization in its tree, not for one outside it', async () => {
    const distributor = await createOrganization(t, { canCreateOrganization: true });
    const child = await createOrganization(t, { parentId: distributor.id });
    const outside = await createOrganization(t);
    const token = await tokenFor('DISTRIBUTOR_ADMIN', distributor.id);
    const ok = await upload(token, 'companylogo', { filename: 'a.png', data: PNG }, [{ name: 'organization', value: String(child.id) }]);
    expect(ok.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(files).where(eq(files.path, ok.json<TFileUploadResult>().path));
    expect(row?.organizationId).toBe(child.id);
    const refused = await upload(token, 'companylogo', { filename: 'a.png', data: PNG }, [{ name: 'organization', value: String(outside.id) }]);
    expect(refused.statusCode).toBe(404);
  });

  it("a CERVAICAL_REVIEWER cannot upload into any folder, its own organization's or another's: 403, nothing stored", async () => {
    const own = await createOrganization(t);
    const other = await createOrganization(t);
    const before = await countFiles();
    for (const reviewer of [await tokenFor('CERVAICAL_REVIEWER', own.id), await tokenFor('CERVAICAL_REVIEWER')]) {
      for (const folder of UPLOAD_FOLDERS) {
        for (const organization of [null, own.id, other.id]) {
          const file = folder === 'firmware' ? { filename: 'fw.ibe', data: Buffer.from('v2.1\n') } : folder === 'reports' ? { filename: 'r.pdf', data: PDF } : { filename: 'a.png', data: PNG };
          const extra = organization === null ? [] : [{ name: 'organization', value: String(organization) }];
          const res = await upload(reviewer, folder, file, extra);
          expect({ folder, organization, status: res.statusCode, body: res.json() }).toEqual({
            folder,
            organization,
            status: 403,
            body: { detail: AUTH_ERRORS.forbidden },
          });
        }
      }
    }
    expect(await countFiles()).toBe(before);
  });

  it('lets only the users who scan (issues 8 and 10) and platform admins upload scan files and exam documents', async () => {
    const org = await createOrganization(t, { canCreateOrganization: true });
    for (const userType of ['DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN', 'TECHNICIAN'] as const) {
      const token = await tokenFor(userType, org.id);
      for (const folder of ['reports', 'consent_forms', 'assessment_files', 'documents']) {
        const scans = userType !== 'MANAGER';
        const res = await upload(token, folder, { filename: 'r.pdf', data: PDF });
        expect({ userType, folder, status: res.statusCode }).toEqual({ userType, folder, status: scans ? 200 : 403 });
      }
    }
    const sub = await upload(await tokenFor('SUB_ADMIN'), 'reports', { filename: 'r.pdf', data: PDF }, [{ name: 'organization', value: String(org.id) }]);
    expect(sub.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(files).where(eq(files.path, sub.json<TFileUploadResult>().path));
    expect(row?.organizationId).toBe(org.id);
  });

  it('keeps firmware out of every organization: an organization field is a field error', async () => {
    const org = await createOrganization(t);
    const res = await upload(await tokenFor('ADMIN'), 'firmware', { filename: 'fw.ibe', data: Buffer.from('v2.1\n') }, [{ name: 'organization', value: String(org.id) }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ organization: [FILE_MESSAGES.noOrganizationForFolder] });
  });

  it("keeps a MANAGER's upload readable to it when its own organization is outside its linked scope", async () => {
    const home = await createOrganization(t);
    const linked = await createOrganization(t);
    const manager = await createUser(t, { userType: 'MANAGER', organizationId: home.id, linkedOrganizationIds: [linked.id], password: null });
    const token = await signIn(t, manager);
    const res = await upload(token, 'companylogo', { filename: 'a.png', data: PNG });
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(files).where(eq(files.path, res.json<TFileUploadResult>().path));
    expect(row?.organizationId).toBeNull();
    expect((await download(token, row!.path)).statusCode).toBe(200);
    expect((await download(await tokenFor('ORG_ADMIN', home.id), row!.path)).statusCode).toBe(404);
  });

  it.each([
    ['PNG', () => pngDeclaring(50_000, 50_000), 50_000, 50_000],
    ['JPEG', () => jpegDeclaring(20_000, 20_000), 20_000, 20_000],
    ['WebP', () => webpDeclaring(16_384, 16_384), 16_384, 16_384],
    ['PNG one pixel high but wider than a side may be', () => pngDeclaring(IMAGE_MAX_SIDE + 1, 1), IMAGE_MAX_SIDE + 1, 1],
    ['PNG within each side but over the pixel cap', () => pngDeclaring(IMAGE_MAX_SIDE, IMAGE_MAX_SIDE), IMAGE_MAX_SIDE, IMAGE_MAX_SIDE],
  ])('refuses a %s declaring too many pixels, from its header, and stores nothing', async (_label, make, width, height) => {
    const before = await countFiles();
    const res = await upload(await tokenFor('ADMIN'), 'companylogo', { filename: 'huge.png', data: make() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ file: [FILE_MESSAGES.imageDimensionsTooLarge(width, height)] });
    expect(await countFiles()).toBe(before);
  });

  it('accepts an image at the cap, and checks images in documents too', async () => {
    const token = await tokenFor('ADMIN');
    expect((await upload(token, 'companylogo', { filename: 'wide.png', data: pngDeclaring(IMAGE_MAX_SIDE, IMAGE_MAX_PIXELS / IMAGE_MAX_SIDE) })).statusCode).toBe(200);
    expect((await upload(token, 'documents', { filename: 'd.png', data: pngDeclaring(50_000, 50_000) })).json()).toEqual({
      file: [FILE_MESSAGES.imageDimensionsTooLarge(50_000, 50_000)],
    });
  });

  it('refuses an image whose header is unreadable or declares no pixels, and a GIF', async () => {
    const token = await tokenFor('ADMIN');
    for (const [name, data] of [
      ['cut.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0rest-of-a-jpeg')])],
      ['empty.png', pngDeclaring(0, 10)],
      ['a.webp', Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 rest', 'latin1')],
      ['a.gif', GIF],
    ] as const) {
      const res = await upload(token, 'companylogo', { filename: name, data });
      expect({ name, status: res.statusCode, body: res.json() }).toEqual({ name, status: 400, body: { file: [FILE_MESSAGES.invalidImage] } });
    }
  });

  it('needs a signed-in user; a technician uploads only a scan\'s files, into its own organization', async () => {
    const missing = await upload(null, 'companylogo', { filename: 'a.png', data: PNG });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ detail: AUTH_ERRORS.notProvided });
    const org = await createOrganization(t);
    const technician = await tokenFor('TECHNICIAN', org.id);
    expect((await upload(technician, 'companylogo', { filename: 'a.png', data: PNG })).statusCode).toBe(403);
    const report = await upload(technician, 'reports', { filename: 'r.pdf', data: PDF });
    expect(report.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(files).where(eq(files.path, report.json<TFileUploadResult>().path));
    expect(row?.organizationId).toBe(org.id);
    const other = await createOrganization(t);
    expect((await upload(technician, 'reports', { filename: 'r.pdf', data: PDF }, [{ name: 'organization', value: String(other.id) }])).statusCode).toBe(404);
    expect((await upload(await tokenFor('TECHNICIAN'), 'reports', { filename: 'r.pdf', data: PDF })).statusCode).toBe(403);
  });
});

describe('GET file/?path=', () => {
  it("does not return another organization's file to an ORG_ADMIN", async () => {
    const mine = await createOrganization(t);
    const theirs = await createOrganization(t);
    const owner = await tokenFor('ORG_ADMIN', theirs.id);
    const { path: stored } = (await upload(owner, 'companylogo', { filename: 'theirs.png', data: PNG })).json<TFileUploadResult>();
    await listOnOrganization(theirs.id, stored);
    expect((await download(owner, stored)).statusCode).toBe(200);
    expect((await download(await tokenFor('ORG_ADMIN', theirs.id), stored)).statusCode).toBe(200);
    const res = await download(await tokenFor('ORG_ADMIN', mine.id), stored);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
    // A distributor above the owner sees it.
    const child = await createOrganization(t, { parentId: mine.id });
    const childFile = (await upload(await tokenFor('ORG_ADMIN', child.id), 'test', { filename: 'c.png', data: PNG })).json<TFileUploadResult>();
    await listOnOrganization(child.id, childFile.path);
    expect((await download(await tokenFor('DISTRIBUTOR_ADMIN', mine.id), childFile.path)).statusCode).toBe(200);
  });

  it("a CERVAICAL_REVIEWER reads the files of organizations in its tree only", async () => {
    const tree = await createOrganization(t, { canCreateOrganization: true });
    const child = await createOrganization(t, { parentId: tree.id });
    const outside = await createOrganization(t);
    const admin = await tokenFor('ADMIN');
    const pathFor = async (org: number) => {
      const stored = (await upload(admin, 'companylogo', { filename: 'l.png', data: PNG }, [{ name: 'organization', value: String(org) }])).json<TFileUploadResult>().path;
      await listOnOrganization(org, stored);
      return stored;
    };
    const reviewer = await tokenFor('CERVAICAL_REVIEWER', tree.id);
    expect((await download(reviewer, await pathFor(tree.id))).statusCode).toBe(200);
    expect((await download(reviewer, await pathFor(child.id))).statusCode).toBe(200);
    const res = await download(reviewer, await pathFor(outside.id));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('serves images inline and a PDF (even one with JavaScript) as a sandboxed attachment, never sniffed', async () => {
    const admin = await tokenFor('ADMIN');
    const pdf = (await upload(admin, 'documents', { filename: 'consent form.pdf', data: SCRIPTED_PDF })).json<TFileUploadResult>();
    const got = await download(admin, pdf.path);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['content-disposition']).toBe('attachment; filename="consent_form.pdf"');
    expect(got.headers['content-security-policy']).toBe(FILE_CONTENT_SECURITY_POLICY);
    expect(String(got.headers['content-security-policy']).split(';').map((d) => d.trim())).toContain('sandbox');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.rawPayload).toEqual(SCRIPTED_PDF);

    const firmware = (await upload(admin, 'firmware', { filename: 'fw.ibe', data: Buffer.from('v2.1\n') })).json<TFileUploadResult>();
    expect((await download(admin, firmware.path)).headers['content-disposition']).toBe('attachment; filename="fw.ibe"');

    for (const [name, data] of [['logo.png', PNG], ['logo.jpg', JPEG], ['logo.webp', WEBP]] as const) {
      const image = (await upload(admin, 'companylogo', { filename: name, data })).json<TFileUploadResult>();
      const res = await download(admin, image.path);
      expect({ name, disposition: res.headers['content-disposition'], csp: res.headers['content-security-policy'], nosniff: res.headers['x-content-type-options'] }).toEqual({
        name,
        disposition: `inline; filename="${name}"`,
        csp: FILE_CONTENT_SECURITY_POLICY,
        nosniff: 'nosniff',
      });
    }
  });

  it('answers a too-long or repeated path with a 400 on path that names the problem', async () => {
    const admin = await tokenFor('ADMIN');
    const long = await download(admin, `companylogo/${'a'.repeat(FILE_PATH_MAX)}.png`);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ path: [FILE_MESSAGES.pathTooLong] });
    expect(FILE_MESSAGES.pathTooLong).toBe(`Ensure this field has no more than ${FILE_PATH_MAX} characters.`);
    const twice = await t.app.inject({ method: 'GET', url: '/api/v1/file/?path=a.png&path=b.png', headers: auth(admin) });
    expect(twice.statusCode).toBe(400);
    expect(twice.json<{ path: string[] }>().path).not.toContain(MESSAGES.required);
    const empty = await t.app.inject({ method: 'GET', url: '/api/v1/file/?path=', headers: auth(admin) });
    expect(empty.json()).toEqual({ path: [MESSAGES.required] });
    const nul = await t.app.inject({ method: 'GET', url: '/api/v1/file/?path=companylogo%2Fa%00.png', headers: auth(admin) });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toEqual({ path: ['Null characters are not allowed.'] });
  });

  it.each([
    ['encoded traversal', 'companylogo%2F..%2F..%2Fetc%2Fpasswd'],
    ['double-encoded traversal', 'companylogo%2F%252e%252e%2F%252e%252e%2Fetc%2Fpasswd'],
    ['encoded backslash traversal', '..%5C..%5Cetc%5Cpasswd'],
    ['absolute Windows path', 'C%3A%5CWindows%5Cwin.ini'],
    ['file URL', 'file%3A%2F%2F%2Fetc%2Fpasswd'],
    ['overlong UTF-8 dot', 'companylogo%2F%C0%AE%C0%AE%2Fx'],
    ['a path of dots', '....%2F....%2Fetc'],
    ['a trailing slash', 'companylogo%2F'],
  ])('answers 404 (never 500) for %s', async (_label, encoded) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/file/?path=${encoded}`, headers: auth(await tokenFor('ADMIN')) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it("lets an ADMIN give a file to an organization whose users read it once the organization's record lists it", async () => {
    const org = await createOrganization(t);
    const res = await upload(await tokenFor('ADMIN'), 'companylogo', { filename: 'a.png', data: PNG }, [
      { name: 'organization', value: String(org.id) },
    ]);
    const stored = res.json<TFileUploadResult>().path;
    const orgAdmin = await tokenFor('ORG_ADMIN', org.id);
    expect((await download(orgAdmin, stored)).statusCode).toBe(404);
    await listOnOrganization(org.id, stored);
    expect((await download(orgAdmin, stored)).statusCode).toBe(200);
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

describe('GET file/?path=: a file is read by whoever may read the record that lists it', () => {
  /** An organization whose technician uploaded a breast scan report, a mammogram report, an ORCA and a cervical report, each listed by its record. */
  async function recordsWithFiles() {
    const org = await createOrganization(t);
    const technician = await createUser(t, { userType: 'TECHNICIAN', organizationId: org.id, password: null });
    const techToken = await signIn(t, technician);
    const uploaded = async () => (await upload(techToken, 'reports', { filename: 'r.pdf', data: PDF })).json<TFileUploadResult>().path;
    const [scanReport, mammogram, orcaReport, cervicalReport] = [await uploaded(), await uploaded(), await uploaded(), await uploaded()];
    const { db } = t.database;
    const [patient] = await db
      .insert(patients)
      .values({ firstName: 'Pat', lastName: 'Ient', age: 40, organizationId: org.id, technicianId: technician.id, mostRecentMammogramReport: [mammogram!] })
      .returning();
    const exam = { patientId: patient!.id, organizationId: org.id, technicianId: technician.id, dateTime: new Date('2026-03-01T10:00:00Z') };
    await db.insert(scans).values({ ...exam, deviceSerialNumber: 'IBE-F-1', localDbId: `f-${org.id}`, scanFilesPath: { reports: [{ path: scanReport! }] } });
    await db.insert(orcaExams).values({ ...exam, deviceSerialNumber: 'ORC-F-1', localDbId: `f-${org.id}`, licenceCode: 'ORC-1111-0001', filePath: { reports: [{ path: orcaReport! }] } });
    const cervical = await seedExam(db, { organizationId: org.id, technicianId: technician.id });
    await db.update(cervicalExams).set({ filePath: { reports: [{ path: cervicalReport! }] } }).where(eq(cervicalExams.id, cervical.id));
    return { org, breast: { scanReport: scanReport!, mammogram: mammogram!, orcaReport: orcaReport! }, cervicalReport: cervicalReport! };
  }

  it('a CERVAICAL_REVIEWER, signed in or impersonated, gets 404 on the breast scan, mammogram and ORCA reports of any organization', async () => {
    const { org, breast, cervicalReport } = await recordsWithFiles();
    const admin = await createUser(t, { userType: 'ADMIN', password: null });
    const programmeReviewer = await createUser(t, { userType: 'CERVAICAL_REVIEWER', organizationId: null, password: null });
    const reviewers = {
      programme: await signIn(t, programmeReviewer),
      organization: await tokenFor('CERVAICAL_REVIEWER', org.id),
      impersonated: await signIn(t, programmeReviewer, { kind: 'impersonation', impersonatorId: admin.id }),
    };
    for (const [who, token] of Object.entries(reviewers)) {
      for (const [file, filePath] of Object.entries(breast)) {
        const res = await download(token, filePath);
        expect({ who, file, status: res.statusCode, body: res.json() }).toEqual({ who, file, status: 404, body: { detail: 'Not found.' } });
      }
      // The record a reviewer reads: the cervical exam.
      expect({ who, status: (await download(token, cervicalReport)).statusCode }).toEqual({ who, status: 200 });
    }
  });

  it("the roles that read the scan, the patient and the exam read their files in scope, and nobody else's", async () => {
    const { breast, org } = await recordsWithFiles();
    const other = await createOrganization(t);
    for (const [who, token, status] of [
      ['ORG_ADMIN of the organization', await tokenFor('ORG_ADMIN', org.id), 200],
      ['SUB_ADMIN', await tokenFor('SUB_ADMIN'), 200],
      ['ORG_ADMIN of another organization', await tokenFor('ORG_ADMIN', other.id), 404],
      ['a TECHNICIAN who did not upload it', await tokenFor('TECHNICIAN', org.id), 404],
    ] as const) {
      for (const [file, filePath] of Object.entries(breast)) {
        expect({ who, file, status: (await download(token, filePath)).statusCode }).toEqual({ who, file, status });
      }
    }
  });

  it('an upload no record lists is read by its uploader only (and platform admins, who read every record)', async () => {
    const org = await createOrganization(t);
    const technician = await tokenFor('TECHNICIAN', org.id);
    const { path: stored } = (await upload(technician, 'reports', { filename: 'r.pdf', data: PDF })).json<TFileUploadResult>();
    expect((await download(technician, stored)).statusCode).toBe(200);
    expect((await download(await tokenFor('ADMIN'), stored)).statusCode).toBe(200);
    for (const userType of ['ORG_ADMIN', 'DISTRIBUTOR_ADMIN', 'CERVAICAL_REVIEWER'] as const) {
      expect({ userType, status: (await download(await tokenFor(userType, org.id), stored)).statusCode }).toEqual({ userType, status: 404 });
    }
  });

  it('is private to the caller and never kept by a cache', async () => {
    const admin = await tokenFor('ADMIN');
    const { path: stored } = (await upload(admin, 'test', { filename: 'a.png', data: PNG })).json<TFileUploadResult>();
    expect((await download(admin, stored)).headers['cache-control']).toBe('private, no-store');
  });
});
