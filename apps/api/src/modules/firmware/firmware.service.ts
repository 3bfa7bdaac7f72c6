// Firmware (part 3 §2, §5, §7, §8; architecture §7, §7b): the console lists, creates from an uploaded .ibe file and
// downloads versions (ADMIN, SUB_ADMIN); ADMIN withdraws one. Devices read the latest version with its checksum and
// download it (any signed-in user: firmware belongs to no organization). The file is checked with the rules the
// Create Firmware modal uses (packages/shared/firmware), stored under firmware/ in the configured storage (local
// disk or object storage), and recorded with its SHA-256 in the transaction that writes the audit row.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { latestVersion } from '@sc/shared/devices';
import {
  FIRMWARE_FOLDER,
  FIRMWARE_MESSAGES,
  FIRMWARE_MAX_BYTES,
  canDeleteFirmware,
  canEditFirmware,
  canManageFirmware,
  checkFirmwareContent,
  checkFirmwareFile,
  firmwareDownloadUrl,
  firmwareFileName,
  isSameVersion,
  type TFirmware,
  type TFirmwareCreated,
  type TFirmwareLatest,
  type TFirmwareListQuery,
  type TFirmwarePatch,
  type TFirmwarePathInput,
} from '@sc/shared/firmware';
import type { TPaginated } from '@sc/shared/list';
import type { AppContext } from '../../app.ts';
import type { DbOrTx } from '../../db/client.ts';
import { auditActor, auditChanges, auditRow, type AuditChange } from '../../services/audit.service.ts';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, fieldError, notFound } from '../../http/errors.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { sanitizeFileName } from '../../services/storage/storage-key.ts';
import { findFileByPath } from '../files/files.queries.ts';
import { demoFirmwareContent, isDemoFirmwarePath, sha256Hex } from './firmware-demo.ts';
import { presentFirmware } from './firmware.presenter.ts';
import * as q from './firmware.queries.ts';
import { readerFor } from '../../db/replica.ts';

export type FirmwareContext = Pick<AppContext, 'database' | 'services' | 'now'>;

export const FIRMWARE_AUDIT = {
  created: 'firmware.created',
  updated: 'firmware.updated',
  deleted: 'firmware.deleted',
} as const;

const CONTENT_TYPE = 'application/octet-stream';

/** The multipart form as the route read it. `file.data` is null when the file went past the limit. */
export type FirmwareForm = {
  version: string | undefined;
  file: { name: string | undefined; data: Buffer | null; size: number; tooLarge: boolean } | null;
};

export type FirmwareDownload = { body: Readable; size: number; name: string; checksum: string | null };

function assertCanManage(actor: Actor): void {
  if (!canManageFirmware(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
}

async function findOr404(db: DbOrTx, id: number): Promise<q.FirmwareRow> {
  const row = await q.findFirmware(db, id);
  if (!row) throw notFound();
  return row;
}

export async function listFirmware(
  ctx: FirmwareContext,
  actor: Actor,
  query: TFirmwareListQuery,
  request: { url: string },
): Promise<TPaginated<TFirmware>> {
  assertCanManage(actor);
  const db = readerFor(ctx.database, query.using_read_db);
  const page = toPageParams(query);
  const { rows, count } = await q.listFirmware(db, query, page);
  return paginate(request, page, count, rows.map(presentFirmware));
}

export async function getFirmware(ctx: FirmwareContext, actor: Actor, id: number, readDb = false): Promise<TFirmware> {
  assertCanManage(actor);
  return presentFirmware(await findOr404(readerFor(ctx.database, readDb), id));
}

/**
 * Part 3 §5 in order: a file of type .ibe, at most 2 MB, readable as text ('file not accepted'), whose first line
 * is a version greater than 0 ('file format invalid'), not on record yet ('already exists' on the version). A
 * `version` field, when sent, must be the file's own. Nothing is stored unless all of these hold.
 */
export async function createFirmware(
  ctx: FirmwareContext,
  actor: Actor,
  form: FirmwareForm,
  meta: RequestMeta,
): Promise<TFirmwareCreated> {
  assertCanManage(actor);
  const file = form.file;
  if (!file) throw fieldError('file', FIRMWARE_MESSAGES.noFile);
  const fileProblem = checkFirmwareFile({ name: file.name ?? '', size: file.size });
  if (fileProblem) throw fieldError('file', fileProblem);
  if (file.tooLarge || !file.data) throw fieldError('file', FIRMWARE_MESSAGES.tooLarge);
  const content = checkFirmwareContent(file.data);
  if (!content.ok) throw fieldError('file', content.message);
  const version = content.version;
  const claimed = form.version?.trim();
  if (claimed && claimed !== version) throw fieldError('version', FIRMWARE_MESSAGES.versionMismatch(version));

  const { db } = ctx.database;
  if ((await q.listFirmwareVersions(db)).some((row) => isSameVersion(row.version, version))) {
    throw fieldError('version', FIRMWARE_MESSAGES.alreadyExists);
  }

  const at = ctx.now();
  const key = `${FIRMWARE_FOLDER}/${randomBytes(8).toString('hex')}_${at.getTime()}_${sanitizeFileName(file.name, 'ibe')}`;
  const checksum = sha256Hex(file.data);
  await ctx.services.storage.put(key, file.data, CONTENT_TYPE);
  let row: q.FirmwareRow;
  try {
    row = await db.transaction(async (tx) => {
      const inserted = await q.insertFirmware(tx, { version, path: key, checksum, size: file.size, by: actor.id, at });
      await record(ctx, tx, actor, meta, FIRMWARE_AUDIT.created, inserted.id, {
        version,
        path: key,
        checksum,
        size: file.size,
      }, auditChanges(null, auditRow(inserted)));
      return inserted;
    });
  } catch (error) {
    // No row, no file: an unrecorded object would never be served or cleaned up.
    await ctx.services.storage.delete(key).catch(() => undefined);
    // Two uploads of one version at once: the unique index lets one through, the other hears 'already exists'.
    if (isUniqueViolation(error)) throw fieldError('version', FIRMWARE_MESSAGES.alreadyExists);
    throw error;
  }
  return { ...presentFirmware(row), detail: FIRMWARE_MESSAGES.created };
}

type UploadedFirmware = { path: string; version: string; checksum: string; size: number };

/**
 * A file uploaded with `POST file/upload/` into firmware/ (part 3 §7: 'uploaded to storage under a firmware/ folder'),
 * read back and checked with the rules a multipart create applies ('file not accepted', 'file format invalid').
 * Problems are the `path` field's.
 */
async function readUploadedFirmware(ctx: FirmwareContext, path: string): Promise<UploadedFirmware> {
  const record = path.startsWith(`${FIRMWARE_FOLDER}/`) ? await findFileByPath(ctx.database.db, path) : null;
  const stored = record?.folder === FIRMWARE_FOLDER ? await ctx.services.storage.get(path) : null;
  if (!stored) throw fieldError('path', FIRMWARE_MESSAGES.pathNotUploaded);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stored.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    // The upload folder takes 2 MB at most; a larger object is not one of its files.
    if (size > FIRMWARE_MAX_BYTES) {
      stored.body.destroy();
      throw fieldError('path', FIRMWARE_MESSAGES.tooLarge);
    }
    chunks.push(chunk);
  }
  const data = Buffer.concat(chunks);
  const content = checkFirmwareContent(data);
  if (!content.ok) throw fieldError('path', content.message);
  return { path, version: content.version, checksum: sha256Hex(data), size };
}

/** The version sent must be the file's own, and no other version on record may be the same. */
async function assertVersionFree(db: DbOrTx, claimed: string, file: UploadedFirmware, exceptId?: number): Promise<void> {
  if (claimed !== file.version) throw fieldError('version', FIRMWARE_MESSAGES.versionMismatch(file.version));
  const versions = await q.listFirmwareVersions(db);
  if (versions.some((row) => row.id !== exceptId && isSameVersion(row.version, file.version))) {
    throw fieldError('version', FIRMWARE_MESSAGES.alreadyExists);
  }
}

/**
 * `POST firmware/` with JSON {version, path} (part 3 §7): the record of a file uploaded into firmware/ before. The
 * file stays where the upload put it; its SHA-256 is recorded as for a multipart create.
 */
export async function createFirmwareFromPath(
  ctx: FirmwareContext,
  actor: Actor,
  input: TFirmwarePathInput,
  meta: RequestMeta,
): Promise<TFirmwareCreated> {
  assertCanManage(actor);
  const file = await readUploadedFirmware(ctx, input.path);
  const { db } = ctx.database;
  await assertVersionFree(db, input.version, file);
  const at = ctx.now();
  try {
    const row = await db.transaction(async (tx) => {
      const values = { version: file.version, path: file.path, checksum: file.checksum, size: file.size };
      const inserted = await q.insertFirmware(tx, { ...values, by: actor.id, at });
      await record(ctx, tx, actor, meta, FIRMWARE_AUDIT.created, inserted.id, values, auditChanges(null, auditRow(inserted)));
      return inserted;
    });
    return { ...presentFirmware(row), detail: FIRMWARE_MESSAGES.created };
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('version', FIRMWARE_MESSAGES.alreadyExists);
    throw error;
  }
}

/**
 * `PUT` and `PATCH firmware/{id}/` (part 3 §7; ADMIN): point a version at another uploaded file (`path`), its
 * `version` being the file's own. A PATCH of the version alone must name the stored file's version: the version is
 * what the file says, never a label that could disagree with what devices download.
 */
export async function updateFirmware(
  ctx: FirmwareContext,
  actor: Actor,
  id: number,
  patch: TFirmwarePatch,
  meta: RequestMeta,
): Promise<TFirmwareCreated> {
  if (!canEditFirmware(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
  const { db } = ctx.database;
  const current = await findOr404(db, id);
  const file =
    patch.path === undefined || patch.path === current.path
      ? { path: current.path, version: current.version, checksum: current.checksum ?? '', size: current.size ?? 0 }
      : await readUploadedFirmware(ctx, patch.path);
  await assertVersionFree(db, patch.version ?? file.version, file, id);
  try {
    const row = await db.transaction(async (tx) => {
      const values = { version: file.version, path: file.path, checksum: file.checksum, size: file.size };
      const updated = await q.updateFirmware(tx, id, { ...values, by: actor.id, at: ctx.now() });
      if (!updated) throw notFound();
      await record(ctx, tx, actor, meta, FIRMWARE_AUDIT.updated, id, values, auditChanges(auditRow(current), auditRow(updated)));
      return updated;
    });
    return { ...presentFirmware(row), detail: FIRMWARE_MESSAGES.updated };
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('version', FIRMWARE_MESSAGES.alreadyExists);
    throw error;
  }
}

/** ADMIN withdraws a version: devices stop being offered it. The file goes after the row is gone. */
export async function deleteFirmware(
  ctx: FirmwareContext,
  actor: Actor,
  id: number,
  meta: RequestMeta,
): Promise<{ detail: string }> {
  assertCanManage(actor);
  if (!canDeleteFirmware(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
  const row = await ctx.database.db.transaction(async (tx) => {
    const deleted = await q.deleteFirmware(tx, id);
    if (!deleted) throw notFound();
    await record(ctx, tx, actor, meta, FIRMWARE_AUDIT.deleted, id, { version: deleted.version, path: deleted.path }, auditChanges(auditRow(deleted), null));
    return deleted;
  });
  await ctx.services.storage.delete(row.path).catch(() => undefined);
  return { detail: FIRMWARE_MESSAGES.deleted };
}

/** The file's bytes, for the console's Download and for devices (any signed-in user). */
export async function downloadFirmware(ctx: FirmwareContext, id: number): Promise<FirmwareDownload> {
  const row = await findOr404(ctx.database.db, id);
  const stored = await ctx.services.storage.get(row.path);
  if (stored) {
    return { body: stored.body, size: stored.size ?? row.size ?? 0, name: firmwareFileName(row.version), checksum: row.checksum };
  }
  const data = demoFile(row);
  if (!data) throw notFound();
  return { body: Readable.from([data]), size: data.length, name: firmwareFileName(row.version), checksum: row.checksum };
}

/** The highest version on record (version order, as the device list's latest_firmware), with its checksum. */
export async function getLatestFirmware(ctx: FirmwareContext): Promise<TFirmwareLatest> {
  const { db } = ctx.database;
  const versions = await q.listFirmwareVersions(db);
  const latest = latestVersion(versions.map((v) => v.version));
  const id = versions.find((v) => v.version === latest)?.id;
  if (id === undefined) throw notFound('No firmware.');
  let row = await findOr404(db, id);
  if (row.checksum === null || row.size === null) row = await withChecksum(ctx, row);
  if (row.checksum === null || row.size === null) throw notFound('No firmware.');
  return {
    id: row.id,
    version: row.version,
    checksum: row.checksum,
    size: row.size,
    url: firmwareDownloadUrl(row.id),
    created: row.created.toISOString(),
  };
}

/** A row recorded before checksums were kept: its figures read from its file, on every read (a read stores nothing). */
async function withChecksum(ctx: FirmwareContext, row: q.FirmwareRow): Promise<q.FirmwareRow> {
  const stored = await ctx.services.storage.get(row.path);
  const data = stored ? await readAll(stored.body) : demoFile(row);
  if (!data) return row;
  return { ...row, checksum: sha256Hex(data), size: data.length };
}

/** A demo version's file, built from its version on every download and never stored. */
function demoFile(row: q.FirmwareRow): Buffer | null {
  return isDemoFirmwarePath(row.path) ? demoFirmwareContent(row.version) : null;
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** True when PostgreSQL refused a row for a unique index (SQLSTATE 23505); Drizzle wraps the driver's error. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

async function record(
  ctx: FirmwareContext,
  tx: DbOrTx,
  actor: Actor,
  meta: RequestMeta,
  action: string,
  id: number,
  details: Record<string, unknown>,
  changes: AuditChange[],
): Promise<void> {
  await ctx.services.audit.record(
    {
      action,
      ...auditActor(actor, meta),
      targetType: 'firmware',
      targetId: id,
      changes,
      details,
    },
    tx,
  );
}
