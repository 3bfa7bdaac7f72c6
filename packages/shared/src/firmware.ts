// Device firmware (.ibe) versions (part 3 §2 Firmware list, §3, §4, §5, §7, §8; part 1 §9; architecture §7, §7b): the
// contracts of `firmware/`, the file rules the Create Firmware modal checks before upload and the API checks again,
// and the messages. An .ibe file is text whose first line is its version ('v2.14'): the numeric part, after a leading
// v or V, must be greater than 0. Versions compare in version order (devices.ts: v2.9 < v2.10; 2.14 = 2.14.0).
import { z } from 'zod';
import { FIRMWARE_MAX_BYTES } from './constants.ts';
import { compareVersions, parseVersion } from './devices.ts';
import { ZListQuery, idField } from './list.ts';
import type { TUserType } from './roles.ts';
import { MESSAGES, textField } from './validation.ts';

export { FIRMWARE_MAX_BYTES };

/** The Firmware menu entry's roles (part 1 §6): they list, create and download in the console. */
export const FIRMWARE_ROLES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN'];
/** Withdrawing a version (devices stop being offered it) is the platform owner's call. */
export const FIRMWARE_DELETE_ROLES: readonly TUserType[] = ['ADMIN'];
export const canManageFirmware = (role: TUserType): boolean => FIRMWARE_ROLES.includes(role);
export const canDeleteFirmware = (role: TUserType): boolean => FIRMWARE_DELETE_ROLES.includes(role);
/** Part 3 §7 defines PUT and PATCH by id; changing what devices are offered is the platform owner's call, as delete. */
export const FIRMWARE_EDIT_ROLES: readonly TUserType[] = ['ADMIN'];
export const canEditFirmware = (role: TUserType): boolean => FIRMWARE_EDIT_ROLES.includes(role);

export const FIRMWARE_EXTENSION = '.ibe';
/** The storage folder of firmware files (part 3 §7). */
export const FIRMWARE_FOLDER = 'firmware';
/** The longest version text kept (the first line of a file can be anything). */
export const FIRMWARE_VERSION_MAX = 32;

export const FIRMWARE_MESSAGES = {
  /** Part 3 §5, §8: the first line yields no version greater than 0. The modal clears the file. */
  formatInvalid: 'file format invalid',
  /** Part 3 §5, §8: the file cannot be read (binary, not text) or uploaded. */
  notAccepted: 'file not accepted',
  /** Part 3 §5, §8: the version is on record already (shown on the version field). */
  alreadyExists: 'already exists',
  /** Part 1 §9. */
  tooLarge: MESSAGES.firmwareTooLarge,
  /** Part 3 §5 'The file must be of type .ibe.' */
  wrongType: 'The file must be of type .ibe.',
  noFile: 'No file was submitted.',
  emptyFile: 'The submitted file is empty.',
  versionMismatch: (version: string) => `The version must be the one on the file's first line: ${version}.`,
  created: 'Firmware created Successfully',
  updated: 'Firmware updated Successfully',
  /** Part 3 §5: 'Version is required, and path is required.' */
  versionRequired: 'Version is required.',
  pathRequired: 'Path is required.',
  /** POST firmware/ {version, path}: the path must be a file uploaded by POST file/upload/ into firmware/. */
  pathNotUploaded: 'No firmware file is stored at this path: upload the .ibe file with POST file/upload/ (folder firmware) first.',
  deleted: 'Firmware deleted Successfully',
  deleteConfirm: 'Are you sure you want to delete this firmware? Devices will no longer be offered it.',
  emptyNone: 'No Firmware Versions Available!',
  emptyFiltered: 'No Firmware found!',
  searchPlaceholder: 'Search by version',
  createTitle: 'Create Firmware',
  detailsTitle: 'Firmware Details',
} as const;

/** The first line of an .ibe text, without a byte order mark or surrounding spaces. */
export function firstLine(text: string): string {
  return (text.replace(/^\uFEFF/, '').split(/\r?\n|\r/, 1)[0] ?? '').trim();
}

/** The version on the first line ('v2.14'), or null when its numeric part is not a version greater than 0. */
export function readFirmwareVersion(text: string): string | null {
  const line = firstLine(text);
  if (line.length > FIRMWARE_VERSION_MAX) return null;
  const parts = parseVersion(line);
  if (!parts?.some((n) => n > 0)) return null;
  return line;
}

/** True when two version texts name the same version (v2.14 = 2.14 = V2.14.0). */
export const isSameVersion = (a: string, b: string): boolean => compareVersions(a, b) === 0;

/** The checks made on a chosen file before its content is read: the name's type and the size. */
export function checkFirmwareFile(file: { name: string; size: number }): string | null {
  if (!file.name.toLowerCase().endsWith(FIRMWARE_EXTENSION)) return FIRMWARE_MESSAGES.wrongType;
  if (file.size > FIRMWARE_MAX_BYTES) return FIRMWARE_MESSAGES.tooLarge;
  if (file.size === 0) return FIRMWARE_MESSAGES.emptyFile;
  return null;
}

export type TFirmwareContentCheck = { ok: true; version: string } | { ok: false; message: string };

/**
 * The checks made on a file's bytes: text (UTF-8 without NUL bytes, else 'file not accepted') whose first line is
 * a version greater than 0 (else 'file format invalid'). The browser and the API run this same function.
 */
export function checkFirmwareContent(bytes: Uint8Array): TFirmwareContentCheck {
  if (bytes.includes(0)) return { ok: false, message: FIRMWARE_MESSAGES.notAccepted };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, message: FIRMWARE_MESSAGES.notAccepted };
  }
  const version = readFirmwareVersion(text);
  return version ? { ok: true, version } : { ok: false, message: FIRMWARE_MESSAGES.formatInvalid };
}

// ---- Requests ----------------------------------------------------------------------------------------------------

/** GET firmware/ (part 3 §7): paging, search and ordering, and `version` (that version, in version order). */
export const ZFirmwareListQuery = ZListQuery.extend({
  version: textField().trim().max(FIRMWARE_VERSION_MAX).optional(),
});
export type TFirmwareListQuery = z.infer<typeof ZFirmwareListQuery>;

export const FIRMWARE_ORDERING_FIELDS = ['id', 'version', 'created'] as const;
/** Newest first. */
export const FIRMWARE_DEFAULT_ORDERING = '-created';

// ---- Responses ---------------------------------------------------------------------------------------------------

/** Part 3 §3 Firmware (id, version, path, created), with what a download needs. */
export const ZFirmware = z.object({
  id: z.number(),
  version: z.string(),
  /** Storage key under firmware/. */
  path: z.string(),
  /** The API path that answers the file's bytes. */
  url: z.string(),
  /** SHA-256 of the file, lowercase hex. */
  checksum: z.string().nullable(),
  size: z.number().nullable(),
  created: z.string(),
});
export type TFirmware = z.infer<typeof ZFirmware>;

export const ZFirmwareCreated = ZFirmware.extend({ detail: z.string() });
export type TFirmwareCreated = z.infer<typeof ZFirmwareCreated>;

/** GET firmware/latest/: what a device needs to decide and to check its download. */
export const ZFirmwareLatest = z.object({
  id: z.number(),
  version: z.string(),
  checksum: z.string(),
  size: z.number(),
  url: z.string(),
  created: z.string(),
});
export type TFirmwareLatest = z.infer<typeof ZFirmwareLatest>;

/** The API path that answers a firmware's bytes (relative: the console and the API share an origin). */
export const firmwareDownloadUrl = (id: number): string => `/api/v1/firmware/${id}/download/`;

/** The file name a download is saved under: 'firmware_v2.14.ibe'. */
export const firmwareFileName = (version: string): string =>
  `firmware_${version.replace(/[^A-Za-z0-9._-]/g, '_')}${FIRMWARE_EXTENSION}`;

/** The longest stored path accepted (folder, random prefix, timestamp and a file name). */
export const FIRMWARE_PATH_MAX = 500;

/**
 * `POST firmware/` as part 3 §7 describes it: JSON {version, path} after the file was uploaded into firmware/ with
 * `POST file/upload/` (whose answer gives the path). The version must be the one on the file's first line.
 */
export const ZFirmwarePathInput = z.object({
  version: textField({ error: FIRMWARE_MESSAGES.versionRequired })
    .trim()
    .min(1, { error: FIRMWARE_MESSAGES.versionRequired, abort: true })
    .max(FIRMWARE_VERSION_MAX),
  path: textField({ error: FIRMWARE_MESSAGES.pathRequired })
    .trim()
    .min(1, { error: FIRMWARE_MESSAGES.pathRequired, abort: true })
    .max(FIRMWARE_PATH_MAX),
});
export type TFirmwarePathInput = z.infer<typeof ZFirmwarePathInput>;

/** `PUT firmware/{id}/` (both fields) and `PATCH` (either): another uploaded file, its version. */
export const ZFirmwarePut = ZFirmwarePathInput.extend({ id: idField().optional() });
export const ZFirmwarePatch = ZFirmwarePathInput.partial().extend({ id: idField().optional() });
export type TFirmwarePatch = z.infer<typeof ZFirmwarePatch>;
