// Uploads and downloads of stored files (architecture §1, §7b; part 1 §5, §9). A file's type is read from its content;
// each folder takes certain types up to a size, from certain roles (FOLDER_RULES in packages/shared); images are
// refused past a pixel cap read from their header; names get a random prefix and a timestamp so that nobody can
// guess another file's path. An upload belongs to an organization in the uploader's scope (a technician's scan files:
// their own organization), or to nobody (the platform's firmware, an ADMIN's upload before its organization exists).
// Who may read a file is decided by the record that lists it (file-records.ts: a scan, a patient, an exam, an
// organization), or, before any record lists it, by who uploaded it.
// Anything else, including a path that could never have been stored, answers 404. The demo's files (scan files,
// exam reports and photos) are built from their record on every read and never stored: a read changes nothing.
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import {
  FILE_KIND_CONTENT_TYPES,
  FILE_KIND_EXTENSIONS,
  FILE_MESSAGES,
  FOLDER_RULES,
  IMAGE_KINDS,
  ZUploadFolder,
  canUploadTo,
  fileUrl,
  isImageKind,
  isImageSizeAllowed,
  type TFileKind,
  type TFileUploadResult,
  type TFolderRule,
} from '@sc/shared/files';
import { isConsoleRole } from '@sc/shared/roles';
import type { AppContext } from '../../app.ts';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, badRequest, fieldError, notFound } from '../../http/errors.ts';
import { parsePathId } from '../../http/params.ts';
import { isInScope, resolveScope } from '../../http/scope.ts';
import { detectFileKind, readImageDimensions } from '../../services/storage/sniff.ts';
import { isSafeStorageKey, sanitizeFileName } from '../../services/storage/storage-key.ts';
import type { Storage } from '../../services/storage/storage.ts';
import { findLazyScanFile, type LazyFile } from '../scan-files/scan-files.service.ts';
import { findLazyOrcaFile } from '../orca/orca-files.ts';
import { findCervicalReport, findLazyCervicalFile } from '../cervical/cervical-files.ts';
import { mayReadRecord, mayReadRecordListing } from './file-records.ts';
import { findFileByPath, insertFile, setFileOrganization } from './files.queries.ts';

export type FilesContext = Pick<AppContext, 'database' | 'now'> & {
  storage: Storage;
  services?: Pick<AppContext['services'], 'log'>;
};

/** The multipart form as the route read it. `file.data` is null when the file went past the folder's limit. */
export type UploadForm = {
  folder: string | undefined;
  organization: string | undefined;
  file: { name: string | undefined; data: Buffer | null; size: number; tooLarge: boolean } | null;
};

/** `inline` for images (shown in the console), `attachment` for everything else (PDFs, video, firmware). */
export type StoredFile = {
  body: Readable;
  contentType: string;
  size: number | null;
  name: string;
  disposition: 'inline' | 'attachment';
  /** The organization the file belongs to (its record's, or its upload's): the audit row of its read. */
  organizationId: number | null;
};

export async function uploadFile(ctx: FilesContext, actor: Actor, form: UploadForm): Promise<TFileUploadResult> {
  // Each folder names its uploaders (FOLDER_RULES): console roles, and for a scan's files the users who scan.
  const folderResult = ZUploadFolder.safeParse(form.folder);
  if (!folderResult.success) throw badRequest({ folder: folderResult.error.issues.map((i) => i.message) });
  const folder = folderResult.data;
  const rule = FOLDER_RULES[folder];
  if (!canUploadTo(actor.userType, folder)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
  // Whose file it is, before its content is looked at: an organization out of scope answers 404 whatever the file.
  const { db } = ctx.database;
  const organizationId = await ownerOrganization(db, actor, rule, form.organization);

  const file = form.file;
  if (!file) throw fieldError('file', FILE_MESSAGES.noFile);
  if (file.tooLarge || !file.data || file.size > rule.maxBytes) throw fieldError('file', rule.tooLargeMessage);
  if (file.size === 0) throw fieldError('file', FILE_MESSAGES.emptyFile);
  const kind = detectFileKind(file.data, file.name, rule.kinds);
  if (!kind) throw fieldError('file', rule.invalidMessage);
  assertImageDimensions(file.data, kind, rule);

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

/** Refuses an image whose header declares more pixels than the cap, before anything decodes it. */
function assertImageDimensions(data: Buffer, kind: TFileKind, rule: TFolderRule): void {
  if (!isImageKind(kind)) return;
  const size = readImageDimensions(data, kind);
  if (!size) throw fieldError('file', rule.invalidMessage);
  if (!isImageSizeAllowed(size.width, size.height)) {
    throw fieldError('file', FILE_MESSAGES.imageDimensionsTooLarge(size.width, size.height));
  }
}

/**
 * The organization that owns the upload. For an organization folder: the `organization` form field when given
 * (an ADMIN uploading another organization's logo; outside the caller's scope, or unknown → 404), else the
 * caller's own organization when it is in their scope (a MANAGER's own organization may not be), else none.
 * A platform folder (firmware) belongs to no organization.
 */
async function ownerOrganization(db: Db, actor: Actor, rule: TFolderRule, raw: string | undefined): Promise<number | null> {
  const value = raw?.trim();
  if (rule.owner === 'platform') {
    if (value) throw fieldError('organization', FILE_MESSAGES.noOrganizationForFolder);
    return null;
  }
  if (!isConsoleRole(actor.userType)) {
    // A technician has no console scope: what they upload (a scan's files) is their own organization's, and they
    // can name no other. Without an organization there is nobody the file could belong to.
    const own = actor.organizationId;
    if (own === null) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
    if (value && parsePathId(value) !== own) throw notFound();
    return own;
  }
  const scope = await resolveScope(db, actor);
  if (!value) {
    const own = actor.organizationId;
    return own !== null && (await isInScope(db, scope, own)) ? own : null;
  }
  const id = parsePathId(value);
  if (id === undefined) throw fieldError('organization', `Invalid pk "${value.slice(0, 20)}" - object does not exist.`);
  if (!(await isInScope(db, scope, id))) throw notFound();
  return id;
}

const INLINE_CONTENT_TYPES: ReadonlySet<string> = new Set(IMAGE_KINDS.map((kind) => FILE_KIND_CONTENT_TYPES[kind]));

export async function readFile(ctx: FilesContext, actor: Actor, path: string): Promise<StoredFile> {
  // A path that no upload could have produced ('..', absolute, backslashes) is not even looked up.
  if (!isSafeStorageKey(path)) throw notFound();
  const { db } = ctx.database;
  // A cervical report is looked up before any files row: one stored before reports were built on every read, for
  // their reader, is never served again.
  const report = await findCervicalReport(ctx, db, path);
  if (report) return readDemoFile(ctx, actor, path, report);
  const row = await findFileByPath(db, path);
  if (!row) return readDemoFile(ctx, actor, path, await findDemoFile(ctx, db, path));
  // The uploader reads back what they uploaded (a technician, who has no console scope, their scan's report).
  const readable =
    row.userId === actor.id || (await mayReadRecordListing(db, actor, await resolveScope(db, actor), row.path));
  if (!readable) throw notFound();
  const stored = await ctx.storage.get(row.path);
  if (!stored) throw notFound();
  return storedFile(row.path, row.contentType, stored.body, stored.size ?? row.size, row.organizationId);
}

/**
 * A demo file (modules/scan-files, orca, cervical): when the path names one, its record lists it and the caller may
 * read that record, it is built and answered; nothing is stored. Otherwise 404, with nothing built.
 */
async function readDemoFile(
  ctx: FilesContext,
  actor: Actor,
  path: string,
  demo: LazyFile | null,
): Promise<StoredFile> {
  const { db } = ctx.database;
  const readable =
    demo !== null &&
    (demo.userId === actor.id || (await mayReadRecord(db, actor, await resolveScope(db, actor), demo)));
  if (!readable) throw notFound();
  const data = await demo.build(actor);
  return storedFile(path, demo.contentType, Readable.from([data]), data.length, demo.organizationId);
}

async function findDemoFile(ctx: FilesContext, db: Db, path: string): Promise<LazyFile | null> {
  return (
    (await findLazyScanFile(ctx, db, path)) ??
    (await findLazyOrcaFile(ctx, db, path)) ??
    (await findLazyCervicalFile(ctx, db, path))
  );
}

function storedFile(
  path: string,
  contentType: string,
  body: Readable,
  size: number | null,
  organizationId: number | null,
): StoredFile {
  return {
    body,
    contentType,
    size,
    organizationId,
    name: downloadName(path),
    // Only the image types an upload could have been sniffed as are shown inline: a PDF (which may carry
    // JavaScript) or anything else is saved, never rendered on the API's origin.
    disposition: INLINE_CONTENT_TYPES.has(contentType) ? 'inline' : 'attachment',
  };
}

/** 'companylogo/3f9a…_1764000000000_logo.png' → 'logo.png': the stored name without its random prefix. */
function downloadName(key: string): string {
  const name = basename(key);
  return /^[0-9a-f]{16}_\d+_(.+)$/.exec(name)?.[1] ?? name;
}

/**
 * Gives an uploaded file to an organization, for modules that store a path on an organization's record (logo,
 * QR image): a file uploaded by an ADMIN before the organization existed then becomes readable by its users.
 */
export async function assignFileToOrganization(db: Db, path: string, organizationId: number): Promise<void> {
  if (isSafeStorageKey(path)) await setFileOrganization(db, path, organizationId);
}
