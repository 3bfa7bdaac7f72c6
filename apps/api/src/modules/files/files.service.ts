// Uploads and downloads of stored files (DESIGN §1, §7b; part 1 §5, §9). A file's type is read from its content;
// each folder takes certain types up to a size; names get a random prefix and a timestamp so that nobody can
// guess another file's path. Who may read a file is decided by its row in the files table: its owner
// organization must be in the caller's scope (no owner: the uploader and platform admins only). Anything else,
// including a path that could never have been stored, answers 404.
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import {
  FILE_KIND_CONTENT_TYPES,
  FILE_KIND_EXTENSIONS,
  FILE_MESSAGES,
  FOLDER_RULES,
  ZUploadFolder,
  fileUrl,
  type TFileUploadResult,
} from '@sc/shared/files';
import { isConsoleRole, isPlatformAdmin } from '@sc/shared/roles';
import type { AppContext } from '../../app.ts';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, badRequest, fieldError, notFound } from '../../http/errors.ts';
import { isInScope, resolveScope } from '../../http/scope.ts';
import { detectFileKind } from '../../services/storage/sniff.ts';
import { isSafeStorageKey, sanitizeFileName } from '../../services/storage/storage-key.ts';
import type { Storage } from '../../services/storage/storage.ts';
import { findFileByPath, insertFile, setFileOrganization, type FileRow } from './files.queries.ts';

export type FilesContext = Pick<AppContext, 'database' | 'now'> & { storage: Storage };

/** The multipart form as the route read it. `file.data` is null when the file went past the folder's limit. */
export type UploadForm = {
  folder: string | undefined;
  organization: string | undefined;
  file: { name: string | undefined; data: Buffer | null; size: number; tooLarge: boolean } | null;
};

export type StoredFile = { body: Readable; contentType: string; size: number | null; name: string };

export async function uploadFile(ctx: FilesContext, actor: Actor, form: UploadForm): Promise<TFileUploadResult> {
  if (!isConsoleRole(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
  const folderResult = ZUploadFolder.safeParse(form.folder);
  if (!folderResult.success) throw badRequest({ folder: folderResult.error.issues.map((i) => i.message) });
  const folder = folderResult.data;
  const rule = FOLDER_RULES[folder];
  if (rule.platformAdminOnly && !isPlatformAdmin(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);

  const file = form.file;
  if (!file) throw fieldError('file', FILE_MESSAGES.noFile);
  if (file.tooLarge || !file.data || file.size > rule.maxBytes) throw fieldError('file', rule.tooLargeMessage);
  if (file.size === 0) throw fieldError('file', FILE_MESSAGES.emptyFile);
  const kind = detectFileKind(file.data, file.name, rule.kinds);
  if (!kind) throw fieldError('file', rule.invalidMessage);

  const { db } = ctx.database;
  const organizationId = await ownerOrganization(db, actor, form.organization);
  const at = ctx.now();
  const contentType = FILE_KIND_CONTENT_TYPES[kind];
  const key = `${folder}/${randomBytes(8).toString('hex')}_${at.getTime()}_${sanitizeFileName(file.name, FILE_KIND_EXTENSIONS[kind])}`;

  await ctx.storage.put(key, file.data, contentType);
  try {
    await insertFile(db, {
      path: key,
      folder,
      originalName: file.name ? file.name.slice(0, 255) : null,
      organizationId,
      userId: actor.id,
      contentType,
      size: file.size,
      created: at,
    });
  } catch (err) {
    // No row, no file: an unrecorded object could never be read or cleaned up.
    await ctx.storage.delete(key).catch(() => undefined);
    throw err;
  }
  return { url: fileUrl(key), path: key, img: key, content_type: contentType, size: file.size };
}

/**
 * The organization that owns the upload: the `organization` form field when given (it must be in the caller's
 * scope, e.g. an ADMIN uploading another organization's logo), else the caller's own organization.
 */
async function ownerOrganization(db: Db, actor: Actor, raw: string | undefined): Promise<number | null> {
  const value = raw?.trim();
  if (!value) return actor.organizationId;
  const invalid = () => fieldError('organization', `Invalid pk "${value.slice(0, 20)}" - object does not exist.`);
  if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) throw invalid();
  const id = Number(value);
  if (!(await isInScope(db, await resolveScope(db, actor), id))) throw invalid();
  return id;
}

async function canRead(db: Db, actor: Actor, row: FileRow): Promise<boolean> {
  if (row.organizationId === null) return row.userId === actor.id || isPlatformAdmin(actor.userType);
  return isInScope(db, await resolveScope(db, actor), row.organizationId);
}

export async function readFile(ctx: FilesContext, actor: Actor, path: string): Promise<StoredFile> {
  // A path that no upload could have produced ('..', absolute, backslashes) is not even looked up.
  if (!isSafeStorageKey(path)) throw notFound();
  const { db } = ctx.database;
  const row = await findFileByPath(db, path);
  if (!row || !(await canRead(db, actor, row))) throw notFound();
  const stored = await ctx.storage.get(row.path);
  if (!stored) throw notFound();
  return { body: stored.body, contentType: row.contentType, size: stored.size ?? row.size, name: basename(row.path) };
}

/**
 * Gives an uploaded file to an organization, for modules that store a path on an organization's record (logo,
 * QR image): a file uploaded by an ADMIN before the organization existed then becomes readable by its users.
 */
export async function assignFileToOrganization(db: Db, path: string, organizationId: number): Promise<void> {
  if (isSafeStorageKey(path)) await setFileOrganization(db, path, organizationId);
}
