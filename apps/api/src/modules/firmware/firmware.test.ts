import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIRMWARE_MAX_BYTES, FIRMWARE_MESSAGES, type TFirmware, type TFirmwareCreated, type TFirmwareLatest } from '@sc/shared/firmware';
import type { TPaginated } from '@sc/shared/list';
import type { TUserType } from '@sc/shared/roles';
import { auditLog, firmware } from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createUser, signIn } from '../../test/factories.ts';
import { demoFirmwareContent, demoFirmwareFile } from './firmware-demo.ts';
import { FIRMWARE_AUDIT } from './firmware.service.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-firmware-test-'));
const t = await setupTestApp({ DATA_DIR: dataDir });
const URL = '/api/v1/firmware/';

const ibe = (text: string) => Buffer.from(text, 'utf8');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

type Part = { name: string; value: string } | { name: string; filename: string; data: Buffer };
function multipart(parts: Part[]) {
  const boundary = `----sc-fw-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('value' in p) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        p.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (token: string | null, filename: string, data: Buffer, extra: Part[] = []) => {
  const { payload, headers } = multipart([...extra, { name: 'file', filename, data }]);
  return t.app.inject({ method: 'POST', url: URL, payload, headers: { ...headers, ...(token ? auth(token) : {}) } });
};
const get = (token: string | null, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...(token ? auth(token) : {}), ...headers } });
const rowCount = async () => (await t.database.db.select({ id: firmware.id }).from(firmware)).length;
const objectCount = () => {
  const root = path.join(dataDir, 'files', 'firmware');
  return fs.existsSync(root) ? fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0;
};

const tokens = {} as Record<TUserType, string>;
beforeAll(async () => {
  const roles: TUserType[] = ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN', 'CERVAICAL_REVIEWER', 'TECHNICIAN'];
  await Promise.all(
    roles.map(async (userType) => {
      tokens[userType] = await signIn(t, await createUser(t, { userType, password: null }));
    }),
  );
});

async function create(version: string, body = '\n# image\n00ff00ff\n') {
  const res = await upload(tokens.ADMIN, `fw_${version}.ibe`, ibe(`${version}${body}`));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<TFirmwareCreated>();
}

describe('firmware/ without a token', () => {
  it('answers 401 to every call, before reading any body', async () => {
    const calls = [
      get(null, URL),
      get(null, `${URL}1/`),
      get(null, `${URL}1/download/`),
      get(null, `${URL}latest/`),
      upload(null, 'a.ibe', ibe('v1.0\n')),
      t.app.inject({ method: 'DELETE', url: `${URL}1/` }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: AUTH_ERRORS.notProvided });
    }
  });
});

describe('POST firmware/ (create from an .ibe file)', () => {
  it('stores the file under firmware/ with its sha256 and size, records it, writes an audit row and serves the same bytes', async () => {
    const data = ibe('v3.1\r\n# sensor image\nabcdef0123456789\n');
    const res = await upload(tokens.SUB_ADMIN, 'release 3.1.ibe', data);
    expect(res.statusCode, res.body).toBe(201);
    const saved = res.json<TFirmwareCreated>();
    expect(saved).toMatchObject({ version: 'v3.1', checksum: sha256(data), size: data.length, detail: FIRMWARE_MESSAGES.created });
    expect(saved.path).toMatch(/^firmware\/[0-9a-f]{16}_\d+_release_3\.1\.ibe$/);
    expect(saved.url).toBe(`/api/v1/firmware/${saved.id}/download/`);
    expect(fs.readFileSync(path.join(dataDir, 'files', saved.path))).toEqual(data);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.action, FIRMWARE_AUDIT.created));
    expect(audits.some((a) => a.targetId === String(saved.id))).toBe(true);

    const got = await get(tokens.ADMIN, saved.url);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(data)).toBe(true);
    expect(got.headers['content-type']).toBe('application/octet-stream');
    expect(got.headers['content-disposition']).toBe('attachment; filename="firmware_v3.1.ibe"');
    expect(got.headers['x-checksum-sha256']).toBe(sha256(data));
  });

  it('refuses bad files on the file field with the spec messages and stores nothing', async () => {
    const rows = await rowCount();
    const objects = objectCount();
    const cases: Array<[string, Buffer, string]> = [
      ['bad-version.ibe', ibe('version two\nbody\n'), FIRMWARE_MESSAGES.formatInvalid],
      ['zero.ibe', ibe('v0.0\nbody\n'), FIRMWARE_MESSAGES.formatInvalid],
      ['empty-first-line.ibe', ibe('\nv2.0\n'), FIRMWARE_MESSAGES.formatInvalid],
      ['firmware.bin', ibe('v4.0\nbody\n'), FIRMWARE_MESSAGES.wrongType],
      ['firmware.ibe.txt', ibe('v4.0\nbody\n'), FIRMWARE_MESSAGES.wrongType],
      ['binary.ibe', Buffer.from([0x76, 0x34, 0x0a, 0x00, 0x01, 0xff]), FIRMWARE_MESSAGES.notAccepted],
      ['latin1.ibe', Buffer.from([0x76, 0x34, 0x0a, 0xe9, 0xff, 0xfe]), FIRMWARE_MESSAGES.notAccepted],
      ['big.ibe', Buffer.concat([ibe('v5.0\n'), Buffer.alloc(FIRMWARE_MAX_BYTES, 0x61)]), FIRMWARE_MESSAGES.tooLarge],
      ['empty.ibe', Buffer.alloc(0), FIRMWARE_MESSAGES.emptyFile],
    ];
    const answers = await Promise.all(cases.map(([name, data]) => upload(tokens.ADMIN, name, data)));
    answers.forEach((res, i) => {
      expect(res.statusCode, cases[i]![0]).toBe(400);
      expect(res.json(), cases[i]![0]).toEqual({ file: [cases[i]![2]] });
    });
    const { payload, headers } = multipart([{ name: 'version', value: 'v9' }]);
    const noFile = await t.app.inject({ method: 'POST', url: URL, headers: { ...headers, ...auth(tokens.ADMIN) }, payload });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toEqual({ file: [FIRMWARE_MESSAGES.noFile] });
    // A JSON body is the spec's {version, path} (part 3 §7): its own messages.
    const noPath = await t.app.inject({ method: 'POST', url: URL, headers: auth(tokens.ADMIN), payload: { version: 'v9' } });
    expect(noPath.statusCode).toBe(400);
    expect(noPath.json()).toEqual({ path: [FIRMWARE_MESSAGES.pathRequired] });
    expect(await rowCount()).toBe(rows);
    expect(objectCount()).toBe(objects);
  });

  it("accepts exactly 2 MB, and refuses a version field that is not the file's own", async () => {
    const head = ibe('v6.0\n');
    const exact = Buffer.concat([head, Buffer.alloc(FIRMWARE_MAX_BYTES - head.length, 0x61)]);
    const ok = await upload(tokens.ADMIN, 'exact.ibe', exact);
    expect(ok.statusCode, ok.body).toBe(201);
    const mismatch = await upload(tokens.ADMIN, 'v7.ibe', ibe('v7.0\n'), [{ name: 'version', value: 'v8.0' }]);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toEqual({ version: [FIRMWARE_MESSAGES.versionMismatch('v7.0')] });
  });

  it("answers 'already exists' on the version for a known version, in version order (2.14 = V2.14.0)", async () => {
    await create('v2.14');
    const rows = await rowCount();
    const objects = objectCount();
    for (const version of ['v2.14', '2.14', 'V2.14.0']) {
      const res = await upload(tokens.ADMIN, 'again.ibe', ibe(`${version}\nother body\n`));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ version: [FIRMWARE_MESSAGES.alreadyExists] });
    }
    expect(await rowCount()).toBe(rows);
    expect(objectCount()).toBe(objects);
  });

  it('lets only ADMIN and SUB_ADMIN create, list and read firmware', async () => {
    const saved = await create('v1.1');
    for (const role of ['DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN', 'CERVAICAL_REVIEWER', 'TECHNICIAN'] as const) {
      const [post, list, one] = await Promise.all([
        upload(tokens[role], 'x.ibe', ibe('v9.9\n')),
        get(tokens[role], URL),
        get(tokens[role], `${URL}${saved.id}/`),
      ]);
      expect([post.statusCode, list.statusCode, one.statusCode], role).toEqual([403, 403, 403]);
    }
    const one = await get(tokens.SUB_ADMIN, `${URL}${saved.id}/`);
    expect(one.json<TFirmware>()).toMatchObject({ id: saved.id, version: 'v1.1' });
    expect((await get(tokens.ADMIN, `${URL}999999/`)).statusCode).toBe(404);
  });
});

describe('GET firmware/', () => {
  it('lists newest first, searches and filters by version, in the list envelope', async () => {
    const a = await create('v10.1');
    t.clock.advance(60_000);
    const b = await create('v10.2');
    const list = (await get(tokens.ADMIN, `${URL}?limit=2`)).json<TPaginated<TFirmware>>();
    expect(list.count).toBe(await rowCount());
    expect(list.results.map((r) => r.id)).toEqual([b.id, a.id]);
    expect(list.next).toContain('page=2');
    const search = (await get(tokens.ADMIN, `${URL}?search=10.`)).json<TPaginated<TFirmware>>();
    expect(search.results.map((r) => r.version).sort()).toEqual(['v10.1', 'v10.2']);
    const byVersion = (await get(tokens.ADMIN, `${URL}?version=10.2`)).json<TPaginated<TFirmware>>();
    expect(byVersion.results.map((r) => r.id)).toEqual([b.id]);
    const bad = await get(tokens.ADMIN, `${URL}?ordering=checksum`);
    expect(bad.statusCode).toBe(400);
  });
});

describe('GET firmware/latest/ (devices)', () => {
  it('answers the highest version with its checksum to any signed-in user, and 304 to a device that has it', async () => {
    const latest = await create('v99.1', '\nlatest\n');
    const first = await get(tokens.TECHNICIAN, `${URL}latest/`);
    expect(first.statusCode).toBe(200);
    const body = first.json<TFirmwareLatest>();
    expect(body).toMatchObject({ id: latest.id, version: 'v99.1', checksum: latest.checksum, size: latest.size, url: latest.url });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await get(tokens.TECHNICIAN, `${URL}latest/`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // The device downloads it and checks the bytes against the checksum.
    const file = await get(tokens.TECHNICIAN, body.url);
    expect(file.statusCode).toBe(200);
    expect(sha256(file.rawPayload)).toBe(body.checksum);

    // A newer version: the old ETag no longer matches.
    await create('v99.10', '\nnewer\n');
    const changed = await get(tokens.TECHNICIAN, `${URL}latest/`, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<TFirmwareLatest>().version).toBe('v99.10');
  });

  it('answers the checksum of a version recorded before checksums were kept, and stores nothing', async () => {
    const file = demoFirmwareFile('v999.0');
    const [row] = await t.database.db.insert(firmware).values({ version: 'v999.0', path: file.path }).returning();
    const res = await get(tokens.TECHNICIAN, `${URL}latest/`);
    expect(res.statusCode).toBe(200);
    expect(res.json<TFirmwareLatest>()).toMatchObject({ id: row!.id, checksum: file.checksum, size: file.size });
    const [after] = await t.database.db.select().from(firmware).where(eq(firmware.id, row!.id));
    expect(after).toMatchObject({ checksum: null, size: null });
    await t.database.db.delete(firmware).where(eq(firmware.id, row!.id));
  });

  it('only the device read carries an ETag', async () => {
    const list = await get(tokens.ADMIN, URL);
    expect(list.headers.etag).toBeUndefined();
  });
});

describe('demo firmware and DELETE firmware/{id}/', () => {
  it('builds a demo version on every download with the recorded checksum, storing nothing', async () => {
    const file = demoFirmwareFile('v0.5');
    const [row] = await t.database.db
      .insert(firmware)
      .values({ version: 'v0.5', path: file.path, checksum: file.checksum, size: file.size })
      .returning();
    const got = await get(tokens.ADMIN, `${URL}${row!.id}/download/`);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(demoFirmwareContent('v0.5'))).toBe(true);
    expect(sha256(got.rawPayload)).toBe(file.checksum);
    expect(fs.existsSync(path.join(dataDir, 'files', file.path))).toBe(false);
  });

  it('lets ADMIN withdraw a version (row and file), not SUB_ADMIN', async () => {
    const saved = await create('v50.0');
    const refused = await t.app.inject({ method: 'DELETE', url: `${URL}${saved.id}/`, headers: auth(tokens.SUB_ADMIN) });
    expect(refused.statusCode).toBe(403);
    const res = await t.app.inject({ method: 'DELETE', url: `${URL}${saved.id}/`, headers: auth(tokens.ADMIN) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: FIRMWARE_MESSAGES.deleted });
    expect(fs.existsSync(path.join(dataDir, 'files', saved.path))).toBe(false);
    expect((await get(tokens.ADMIN, `${URL}${saved.id}/download/`)).statusCode).toBe(404);
    const missing = await t.app.inject({ method: 'DELETE', url: `${URL}${saved.id}/`, headers: auth(tokens.ADMIN) });
    expect(missing.statusCode).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('documents every firmware route under the firmware tag', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const spec = res.json<{ paths: Record<string, Record<string, { tags: string[] }>> }>();
    const ops: Array<[string, string]> = [
      ['/api/v1/firmware/', 'get'],
      ['/api/v1/firmware/', 'post'],
      ['/api/v1/firmware/latest/', 'get'],
      ['/api/v1/firmware/{id}/', 'get'],
      ['/api/v1/firmware/{id}/', 'delete'],
      ['/api/v1/firmware/{id}/download/', 'get'],
    ];
    for (const [path, method] of ops) expect(spec.paths[path]?.[method]?.tags, `${method} ${path}`).toEqual(['firmware']);
  });
});

// Part 3 §7: the file is uploaded into firmware/ (POST file/upload/), then POST firmware/ names it with {version, path};
// PUT and PATCH firmware/{id}/ are defined (ADMIN).
describe('the spec\'s firmware contract: file/upload/ into firmware/, then JSON {version, path}; PUT and PATCH by id', () => {
  const uploadToFolder = async (token: string, filename: string, data: Buffer, folder = 'firmware') => {
    const { payload, headers } = multipart([{ name: 'folder', value: folder }, { name: 'file', filename, data }]);
    return t.app.inject({ method: 'POST', url: '/api/v1/file/upload/', payload, headers: { ...headers, ...auth(token) } });
  };
  const uploaded = async (version: string) => {
    const res = await uploadToFolder(tokens.ADMIN, `${version}.ibe`, ibe(`${version}\nbody of ${version}\n`));
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ path: string }>().path;
  };
  const send = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: unknown, token = tokens.ADMIN) =>
    t.app.inject({ method, url, headers: auth(token), payload: payload as object });

  it('creates a version from an uploaded path with the file\'s sha256, serves those bytes, and audits it', async () => {
    const data = ibe('v31.0\nbody of v31.0\n');
    const up = await uploadToFolder(tokens.SUB_ADMIN, 'v31.ibe', data);
    expect(up.statusCode, up.body).toBe(200);
    const { path: stored } = up.json<{ path: string }>();
    expect(stored.startsWith('firmware/')).toBe(true);
    const res = await send('POST', URL, { version: 'v31.0', path: stored }, tokens.SUB_ADMIN);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<TFirmwareCreated>();
    expect(body).toMatchObject({ version: 'v31.0', path: stored, checksum: sha256(data), detail: FIRMWARE_MESSAGES.created });
    const download = await get(tokens.ADMIN, `${URL}${body.id}/download/`);
    expect(download.rawPayload.equals(data)).toBe(true);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, FIRMWARE_AUDIT.created));
    expect(audit.some((a) => a.targetId === String(body.id))).toBe(true);
  });

  it('refuses, on the field and storing nothing: missing fields, a path not uploaded into firmware/, another version, a known version', async () => {
    const rows = await rowCount();
    const path = await uploaded('v32.0');
    const logo = 'companylogo/0000_1_logo.png';
    const cases: Array<[unknown, Record<string, string[]>]> = [
      [{}, { version: [FIRMWARE_MESSAGES.versionRequired], path: [FIRMWARE_MESSAGES.pathRequired] }],
      [{ version: ' ', path: path }, { version: [FIRMWARE_MESSAGES.versionRequired] }],
      [{ version: 'v32.0', path: 'firmware/none.ibe' }, { path: [FIRMWARE_MESSAGES.pathNotUploaded] }],
      [{ version: 'v32.0', path: logo }, { path: [FIRMWARE_MESSAGES.pathNotUploaded] }],
      [{ version: 'v32.0', path: '../secret' }, { path: [FIRMWARE_MESSAGES.pathNotUploaded] }],
      [{ version: 'v33.0', path }, { version: [FIRMWARE_MESSAGES.versionMismatch('v32.0')] }],
      [[], { non_field_errors: [expect.any(String) as string] }],
    ];
    for (const [payload, errors] of cases) {
      const res = await send('POST', URL, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toEqual(errors);
    }
    expect(await rowCount()).toBe(rows);
    expect((await send('POST', URL, { version: 'v32.0', path })).statusCode).toBe(201);
    const again = await send('POST', URL, { version: 'v32.0', path });
    expect(again.json()).toEqual({ version: [FIRMWARE_MESSAGES.alreadyExists] });
  });

  it('answers 403 to other roles whatever the body, and 401 without a token', async () => {
    for (const role of ['ORG_ADMIN', 'MANAGER', 'TECHNICIAN'] as const) {
      expect((await send('POST', URL, {}, tokens[role])).statusCode, role).toBe(403);
    }
    expect((await t.app.inject({ method: 'POST', url: URL, payload: {} })).statusCode).toBe(401);
  });

  it('lets ADMIN point a version at another uploaded file by PATCH and PUT; SUB_ADMIN gets 403, an unknown id 404', async () => {
    const created = await send('POST', URL, { version: 'v40.0', path: await uploaded('v40.0') });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<TFirmware>().id;
    const next = await uploaded('v40.1');
    expect((await send('PATCH', `${URL}${id}/`, { path: next }, tokens.SUB_ADMIN)).statusCode).toBe(403);
    expect((await send('PATCH', `${URL}${id}/`, {}, tokens.ORG_ADMIN)).statusCode).toBe(403);
    expect((await send('PATCH', `${URL}999999/`, { path: next })).statusCode).toBe(404);
    // The version is the file's: a PATCH of the version alone cannot relabel the stored file.
    const relabel = await send('PATCH', `${URL}${id}/`, { version: 'v41.0' });
    expect(relabel.json()).toEqual({ version: [FIRMWARE_MESSAGES.versionMismatch('v40.0')] });
    const patched = await send('PATCH', `${URL}${id}/`, { path: next });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ id, version: 'v40.1', path: next, detail: FIRMWARE_MESSAGES.updated });
    const third = await uploaded('v40.2');
    expect((await send('PUT', `${URL}${id}/`, { path: third })).json()).toEqual({
      version: [FIRMWARE_MESSAGES.versionRequired],
    });
    const put = await send('PUT', `${URL}${id}/`, { id, version: 'v40.2', path: third });
    expect(put.statusCode, put.body).toBe(200);
    const [row] = await t.database.db.select().from(firmware).where(eq(firmware.id, id));
    expect(row).toMatchObject({ version: 'v40.2', path: third });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, FIRMWARE_AUDIT.updated));
    expect(audit.filter((a) => a.targetId === String(id))).toHaveLength(2);
  });
});
