// Who may upload from which device (issue 8; architecture §6): a user who scans (SCAN_UPLOAD_ROLES), a member of an
// organization, on a device whose active link is to that organization; an uncertified technician only their
// training scans. And the files an upload names must be the caller's own uploads, in the right folder. These run
// inside the upload's transaction (with its handle only: on PostgreSQL a second connection could be waiting for
// this very transaction's idempotency key).
import { invalidPk } from '@sc/shared/devices';
import type { TUploadFolder } from '@sc/shared/files';
import { UPLOAD_MESSAGES, allowedScanTypes, canUploadScans, isCertifiedOn } from '@sc/shared/uploads';
import type { TScanType } from '@sc/shared/scans';
import type { DbOrTx } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError, badRequest, type FieldErrors } from '../../http/errors.ts';
import {
  findDeviceWithLink,
  findFilesByPath,
  findUploaderUser,
  type DeviceWithLink,
  type UploaderUser,
} from './uploads.queries.ts';

export type Uploader = {
  user: UploaderUser;
  organizationId: number;
  device: DeviceWithLink;
};

const forbidden = (message: string) => new AppError('forbidden', message);

/** Why `user` may not upload from `device` (null: may). `device` undefined: no device named yet. */
export function uploadRefusal(
  user: UploaderUser,
  device: DeviceWithLink | null | undefined,
  serial?: string,
): string | null {
  if (!canUploadScans(user.userType)) return UPLOAD_MESSAGES.notAnUploader;
  if (user.organizationId === null) return UPLOAD_MESSAGES.noOrganization;
  if (device === undefined) return null;
  // An unknown serial and a device of another organization get the same answer: nothing about it leaks.
  if (!device || device.organizationId !== user.organizationId) {
    return UPLOAD_MESSAGES.deviceNotLinked(device?.serialNumber ?? serial ?? '');
  }
  return null;
}

/** The caller as an uploader from the device `serialNumber`, or 403 with the reason. */
export async function resolveUploader(db: DbOrTx, actor: Actor, serialNumber: string): Promise<Uploader> {
  if (!canUploadScans(actor.userType)) throw forbidden(UPLOAD_MESSAGES.notAnUploader);
  const user = await findUploaderUser(db, actor.id);
  if (!user) throw forbidden(UPLOAD_MESSAGES.notAnUploader);
  const device = await findDeviceWithLink(db, serialNumber);
  const refusal = uploadRefusal(user, device, serialNumber);
  if (refusal || !device || user.organizationId === null)
    throw forbidden(refusal ?? UPLOAD_MESSAGES.notAnUploader);
  return { user, organizationId: user.organizationId, device };
}

/** 403 unless `user` may upload a scan of `scanType` on `today` (YYYY-MM-DD). */
export function assertScanTypeAllowed(user: UploaderUser, scanType: TScanType, today: string): void {
  if (allowedScanTypes(user, today).includes(scanType)) return;
  const expired =
    user.ibeTrainingStatus === 'CERTIFIED' && !isCertifiedOn(user, today) && user.certificateExpiryDate;
  throw forbidden(
    expired ? UPLOAD_MESSAGES.certificateExpired(scanType, expired) : UPLOAD_MESSAGES.uncertified(scanType),
  );
}

export type FileReference = { field: string; path: string; folder: TUploadFolder };

/**
 * 400 on each field naming a path that is not a file the caller uploaded into its folder for this organization.
 * Another user's file, a file of another folder and a path never stored get the one message (nothing leaks).
 */
export async function assertOwnFiles(
  db: DbOrTx,
  uploader: { userId: number; organizationId: number },
  refs: readonly FileReference[],
): Promise<void> {
  if (refs.length === 0) return;
  const rows = new Map(
    (await findFilesByPath(db, [...new Set(refs.map((r) => r.path))])).map((r) => [r.path, r]),
  );
  const errors: FieldErrors = {};
  for (const ref of refs) {
    const row = rows.get(ref.path);
    const ok =
      row !== undefined &&
      row.folder === ref.folder &&
      row.userId === uploader.userId &&
      row.organizationId === uploader.organizationId;
    if (!ok) (errors[ref.field] ??= []).push(UPLOAD_MESSAGES.fileNotFound(ref.folder));
  }
  if (Object.keys(errors).length > 0) {
    // One message per field, however many of its paths are wrong.
    throw badRequest(Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, [...new Set(v)]])));
  }
}

/** 400 `Invalid pk` on `field` (DRF's text for an id that names nothing the caller may use). */
export const invalidReference = (field: string, id: number) => badRequest({ [field]: [invalidPk(id)] });
