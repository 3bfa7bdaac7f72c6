// Device uploads (issue 8 "Device upload API"; part 2 §3, architecture §6, §7): who may upload from which device, which
// scan types an uncertified technician may upload, the Idempotency-Key every upload carries, and what a device
// reads about its signed-in user (`GET device/session/`).
import { z } from 'zod';
import { SCAN_TYPES, TRAINING_STATUSES } from './constants.ts';
import { ZSerialNumber } from './devices.ts';
import type { TUserType } from './roles.ts';
import { USER_TYPES } from './roles.ts';

type TScanType = (typeof SCAN_TYPES)[number];
type TTrainingStatus = (typeof TRAINING_STATUSES)[number];

/**
 * Who scans patients: technicians, and the ORG_ADMIN and DISTRIBUTOR_ADMIN users part 2 §6 lists among the
 * technician candidates (transfer and filter pickers), who scan in small clinics. Each uploads for their own
 * organization only, from a device linked to it.
 */
export const SCAN_UPLOAD_ROLES: readonly TUserType[] = ['TECHNICIAN', 'ORG_ADMIN', 'DISTRIBUTOR_ADMIN'];
export const canUploadScans = (role: TUserType): boolean => SCAN_UPLOAD_ROLES.includes(role);

/** Part 2 / issue 8: an uncertified technician may upload only these (their training work). */
export const UNCERTIFIED_SCAN_TYPES: readonly TScanType[] = ['PRE_TRAINING', 'TRAINING', 'PRACTICE'];

/**
 * Certified on `today` (YYYY-MM-DD): status CERTIFIED and the certificate not expired (architecture §7: a certificate
 * lasts a year; re-certification starts a new one). A CERTIFIED user without an expiry date is certified.
 */
export function isCertifiedOn(
  user: { ibeTrainingStatus: TTrainingStatus; certificateExpiryDate: string | null },
  today: string,
): boolean {
  if (user.ibeTrainingStatus !== 'CERTIFIED') return false;
  return user.certificateExpiryDate === null || user.certificateExpiryDate >= today;
}

/** The scan types a user may upload on `today`. */
export function allowedScanTypes(
  user: { ibeTrainingStatus: TTrainingStatus; certificateExpiryDate: string | null },
  today: string,
): TScanType[] {
  return isCertifiedOn(user, today) ? [...SCAN_TYPES] : [...UNCERTIFIED_SCAN_TYPES];
}

// ---- Idempotency-Key --------------------------------------------------------------------------------------------

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on an answer replayed from a stored upload (a retry with the same key and content). */
export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_KEY_MIN = 8;
export const IDEMPOTENCY_KEY_MAX = 255;
/**
 * Days a stored upload answer is kept for retries. A device that comes back online later still cannot store a scan
 * twice (identical content under its (serial, local_db_id) returns the stored scan); only its replay header is lost.
 */
export const IDEMPOTENCY_KEY_RETENTION_DAYS = 30;
/** A UUID fits; so does any opaque token of letters, digits and - _ . : */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._:-]+$/;

export const UPLOAD_MESSAGES = {
  keyRequired: `The ${IDEMPOTENCY_KEY_HEADER} header is required: send a new unique key (e.g. a UUID) with every upload, and the same key when retrying it.`,
  keyMalformed: `The ${IDEMPOTENCY_KEY_HEADER} header must be ${IDEMPOTENCY_KEY_MIN} to ${IDEMPOTENCY_KEY_MAX} characters: letters, digits and - _ . : only (a UUID fits).`,
  keyReused: `This ${IDEMPOTENCY_KEY_HEADER} was already used for a different request. Send a new key for new content; a retry must repeat the original request exactly.`,
  notAnUploader:
    'Only technicians (and organization or distributor admins who scan) may upload patients and scans.',
  noOrganization:
    'You are not a member of an organization: ask an administrator to assign you to one before uploading.',
  deviceNotLinked: (serial: string) =>
    `The device ${serial.slice(0, 64)} is not linked to your organization: ask an administrator to link it before uploading.`,
  uncertified: (scanType: string) =>
    `Only certified technicians may upload ${scanType} scans: until certification, upload ${UNCERTIFIED_SCAN_TYPES.join(', ')} scans only.`,
  certificateExpired: (scanType: string, expiry: string) =>
    `Your certificate expired on ${expiry}: re-certify before uploading ${scanType} scans (${UNCERTIFIED_SCAN_TYPES.join(', ')} scans may still be uploaded).`,
  fileNotFound: (folder: string) =>
    `No file you uploaded was found at this path: upload it through file/upload/ into the ${folder} folder first.`,
  scanCreated: 'Scan uploaded successfully.',
  scanDuplicate:
    'A different version of this scan was already uploaded: it is stored as a duplicate of the first upload.',
  scanAlreadyStored: 'This scan was already uploaded with the same content: the stored scan is returned.',
  patientCreated: 'Patient created Successfully',
} as const;

/**
 * The `Idempotency-Key` header. Required on every device upload: a missing one is `keyRequired`, anything that is
 * not one plain token (spaces, a second key, other characters, too short or too long) is `keyMalformed`.
 */
export const ZIdempotencyKey = z
  .string({
    error: (issue) =>
      issue.input === undefined ? UPLOAD_MESSAGES.keyRequired : UPLOAD_MESSAGES.keyMalformed,
  })
  .min(1, { error: UPLOAD_MESSAGES.keyRequired, abort: true })
  .min(IDEMPOTENCY_KEY_MIN, { error: UPLOAD_MESSAGES.keyMalformed, abort: true })
  .max(IDEMPOTENCY_KEY_MAX, { error: UPLOAD_MESSAGES.keyMalformed, abort: true })
  .regex(IDEMPOTENCY_KEY_PATTERN, UPLOAD_MESSAGES.keyMalformed);

// ---- GET device/session/ ----------------------------------------------------------------------------------------

export const ZDeviceSessionQuery = z.object({
  /** The device the app runs on: the answer says whether it is linked to the user's organization. */
  serial_number: ZSerialNumber.optional(),
});
export type TDeviceSessionQuery = z.infer<typeof ZDeviceSessionQuery>;

/**
 * What a device app needs after sign-in: who signed in, whether an administrator asked for a new PIN
 * (`pin_reset_request`: the app then asks the user to choose one), the training status and certificate, the scan
 * types they may upload today, and whether they may upload from this device at all (`can_upload`, with the reason
 * when not).
 */
export const ZDeviceSession = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  mobile: z.string().nullable(),
  mobile_country_code: z.string().nullable(),
  user_type: z.enum(USER_TYPES),
  is_trainer: z.boolean(),
  organization: z.number().nullable(),
  organization_data: z.object({ id: z.number(), name: z.string() }).nullable(),
  pin_reset_request: z.boolean(),
  ibe_training_status: z.enum(TRAINING_STATUSES),
  certificate_issue_date: z.string().nullable().describe('YYYY-MM-DD'),
  certificate_expiry_date: z.string().nullable().describe('YYYY-MM-DD'),
  is_certified: z.boolean(),
  allowed_scan_types: z.array(z.enum(SCAN_TYPES)),
  device: z
    .object({
      serial_number: z.string(),
      /** Linked (actively) to the user's own organization. */
      is_linked_to_organization: z.boolean(),
    })
    .nullable(),
  can_upload: z.boolean(),
  /** Why not, when `can_upload` is false. */
  upload_refusal: z.string().nullable(),
});
export type TDeviceSession = z.infer<typeof ZDeviceSession>;
