// A file store that is full or read-only (ENOSPC, EDQUOT, EROFS, or ENOENT when a folder cannot be made) answers
// 507 with a message saying so, logged once a request, and keeps nothing: no files or firmware row, no object.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { files, firmware } from '../db/schema/index.ts';
import { captureLog, setupTestApp } from '../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../test/factories.ts';
import { PDF, postFile } from '../modules/uploads/uploads.fixtures.ts';
import { HTTP_MESSAGES } from './errors.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-storage-full-'));
const log = captureLog();
const t = await setupTestApp({ DATA_DIR: dataDir }, { logStream: log });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const failure = (code: string) => Object.assign(new Error(`${code}: simulated`), { code });
const objects = () => {
  const root = path.join(dataDir, 'files');
  return fs.existsSync(root) ? fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0;
};
const rows = async () => ({
  files: (await t.database.db.select({ id: files.id }).from(files)).length,
  firmware: (await t.database.db.select({ id: firmware.id }).from(firmware)).length,
});
const fullLines = () => log.lines().filter((line) => line.msg === 'file store full or read-only').length;

function postFirmware(token: string) {
  const boundary = '----sc-storage-full';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fw.ibe"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.from('v9.1\nbody\n'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/firmware/',
    payload,
    headers: { ...auth(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

describe('a full or read-only file store', () => {
  it.each([
    ['a full disk', 'writeFile', 'ENOSPC'],
    ['a full quota', 'writeFile', 'EDQUOT'],
    ['a read-only mount', 'writeFile', 'EROFS'],
    ['a folder that cannot be made', 'mkdir', 'ENOENT'],
  ] as const)('answers an upload on %s with 507 and a clear message, logged once, keeping nothing', async (_label, call, code) => {
    const org = await createOrganization(t);
    const technician = await signIn(t, await createUser(t, { userType: 'TECHNICIAN', organizationId: org.id }));
    const before = { rows: await rows(), objects: objects(), lines: fullLines() };
    vi.spyOn(fsp, call).mockRejectedValueOnce(failure(code));
    const res = await postFile(t, technician, 'reports', { name: 'r.pdf', data: PDF });
    expect(res.statusCode).toBe(507);
    expect(res.json()).toEqual({ detail: HTTP_MESSAGES.storageFull });
    expect({ rows: await rows(), objects: objects(), lines: fullLines() }).toEqual({ ...before, lines: before.lines + 1 });
  });

  it('answers a firmware upload with 507 too, recording no version', async () => {
    const admin = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const before = { rows: await rows(), objects: objects() };
    vi.spyOn(fsp, 'writeFile').mockRejectedValueOnce(failure('ENOSPC'));
    const res = await postFirmware(admin);
    expect(res.statusCode).toBe(507);
    expect(res.json()).toEqual({ detail: HTTP_MESSAGES.storageFull });
    expect({ rows: await rows(), objects: objects() }).toEqual(before);
    expect((await postFirmware(admin)).statusCode).toBe(201);
  });
});
