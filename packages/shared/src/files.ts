// Uploaded files (architecture §1, §7b; part 1 §5, §9): folders, what each accepts, limits and messages of
// `POST file/upload/` and `GET file/?path=`. Types are decided by the file's content, never by its name.
import { z } from 'zod';
import { DOCUMENT_MAX_BYTES, FIRMWARE_MAX_BYTES, IMAGE_MAX_BYTES, UPLOAD_FOLDERS } from './constants.ts';
import { ORGANIZATION_EDIT_ROLES } from './organization-input.ts';
import type { TUserType } from './roles.ts';
import { SCAN_UPLOAD_ROLES } from './uploads.ts';
import { MESSAGES } from './validation.ts';

export type TUploadFolder = (typeof UPLOAD_FOLDERS)[number];

/** Kinds of content recognised by their first bytes (and `.ibe` firmware by its first line). */
export const FILE_KINDS = ['png', 'jpeg', 'webp', 'pdf', 'mp4', 'ibe'] as const;
export type TFileKind = (typeof FILE_KINDS)[number];

export const FILE_KIND_CONTENT_TYPES: Record<TFileKind, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  ibe: 'text/plain; charset=utf-8',
};

export const FILE_KIND_EXTENSIONS: Record<TFileKind, string> = {
  png: 'png',
  jpeg: 'jpg',
  webp: 'webp',
  pdf: 'pdf',
  mp4: 'mp4',
  ibe: 'ibe',
};

export const IMAGE_KINDS = ['png', 'jpeg', 'webp'] as const satisfies readonly TFileKind[];
export type TImageKind = (typeof IMAGE_KINDS)[number];
export const isImageKind = (kind: TFileKind): kind is TImageKind => (IMAGE_KINDS as readonly TFileKind[]).includes(kind);

/**
 * Largest image accepted, read from its header before anything is decoded: a small file can declare a huge
 * canvas (a 50000×50000 PNG compresses to a few kilobytes and would need 10 GB to decode). The console crops
 * logos and QR images to far less; 40 megapixels is a large phone photo.
 */
export const IMAGE_MAX_SIDE = 10_000;
export const IMAGE_MAX_PIXELS = 40_000_000;

/** True when an image of these dimensions may be stored. */
export const isImageSizeAllowed = (width: number, height: number): boolean =>
  width <= IMAGE_MAX_SIDE && height <= IMAGE_MAX_SIDE && width * height <= IMAGE_MAX_PIXELS;

/** The longest `path` of `GET file/?path=` (and of any stored key). */
export const FILE_PATH_MAX = 500;

export const FILE_MESSAGES = {
  noFile: 'No file was submitted.',
  emptyFile: 'The submitted file is empty.',
  invalidImage: 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.',
  invalidPdf: 'Upload a valid PDF file.',
  invalidDocument: 'Upload a valid file: PDF, PNG, JPEG, WEBP image or MP4 video.',
  invalidConsentForm: 'Upload a valid file: PDF, PNG, JPEG or WEBP image.',
  invalidFirmware: 'Upload a valid .ibe firmware file whose first line is the version (e.g. v2.14).',
  firmwareTooLarge: MESSAGES.firmwareTooLarge,
  imageTooLarge: 'Image size need less than 5Mb',
  documentTooLarge: 'File size need less than 20Mb',
  unknownFolder: `Select a valid choice. Folders: ${UPLOAD_FOLDERS.join(', ')}.`,
  imageDimensionsTooLarge: (width: number, height: number) =>
    `The image is ${width}×${height} pixels: at most ${IMAGE_MAX_SIDE} pixels a side and ${IMAGE_MAX_PIXELS / 1_000_000} megapixels are allowed.`,
  pathTooLong: `Ensure this field has no more than ${FILE_PATH_MAX} characters.`,
  noOrganizationForFolder: 'Files in this folder belong to no organization: leave the organization out.',
} as const;

export type TFolderRule = {
  kinds: readonly TFileKind[];
  maxBytes: number;
  invalidMessage: string;
  tooLargeMessage: string;
  /** The roles that may upload here; any other role gets 403. */
  uploaders: readonly TUserType[];
  /**
   * Whose file it is. 'organization': the organization named in the form, else the uploader's own; it must be in
   * the uploader's scope (404 otherwise), and the file is readable by whoever has that organization in scope.
   * 'platform': no organization (firmware goes to every device); readable by the uploader and platform admins.
   */
  owner: 'organization' | 'platform';
};

const PLATFORM_ADMINS: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN'];

// Logos and customized-message QR images are part of an organization's record: whoever may edit the organization
// may upload them (the organization in scope is checked per upload). test/ and user_test/ are part 1's image
// folders that no screen uses yet: the same rule, not a wider one.
const organizationImageRule: TFolderRule = {
  kinds: IMAGE_KINDS,
  maxBytes: IMAGE_MAX_BYTES,
  invalidMessage: FILE_MESSAGES.invalidImage,
  tooLargeMessage: FILE_MESSAGES.imageTooLarge,
  uploaders: ORGANIZATION_EDIT_ROLES,
  owner: 'organization',
};

/**
 * A scan's files (part 2 §3 scan_files_path), uploaded by the device before `POST scan/` names their paths: the
 * users who scan (SCAN_UPLOAD_ROLES) and platform admins. The file belongs to the uploader's own organization
 * (a technician has no console scope, so the API gives it their organization, never another).
 */
const scanFileRule = (kinds: readonly TFileKind[], invalidMessage: string): TFolderRule => ({
  kinds,
  maxBytes: DOCUMENT_MAX_BYTES,
  invalidMessage,
  tooLargeMessage: FILE_MESSAGES.documentTooLarge,
  uploaders: [...PLATFORM_ADMINS, ...SCAN_UPLOAD_ROLES],
  owner: 'organization',
});

/**
 * What each upload folder of part 1 §9 takes and who may upload into it (architecture §6: scope). Scan reports, consent
 * forms and assessment files come from devices (issue 8), and so do exam documents (issue 10: `POST cervaical/`
 * and `POST orca/` name them); CERVAICAL_REVIEWER uploads nothing here.
 */
export const FOLDER_RULES: Record<TUploadFolder, TFolderRule> = {
  companylogo: organizationImageRule,
  customized: organizationImageRule,
  user_test: organizationImageRule,
  test: organizationImageRule,
  firmware: {
    kinds: ['ibe'],
    maxBytes: FIRMWARE_MAX_BYTES,
    invalidMessage: FILE_MESSAGES.invalidFirmware,
    tooLargeMessage: FILE_MESSAGES.firmwareTooLarge,
    // Firmware is pushed to every device.
    uploaders: PLATFORM_ADMINS,
    owner: 'platform',
  },
  /** Scan report PDFs (and a patient's earlier mammogram reports). */
  reports: scanFileRule(['pdf'], FILE_MESSAGES.invalidPdf),
  /** The signed consent form: a PDF, or a photo of the signed paper. */
  consent_forms: scanFileRule(['pdf', 'png', 'jpeg', 'webp'], FILE_MESSAGES.invalidConsentForm),
  /** Training and practice assessments: a PDF, images or a screen recording. */
  assessment_files: scanFileRule(['pdf', 'png', 'jpeg', 'webp', 'mp4'], FILE_MESSAGES.invalidDocument),
  /** Exam photos and videos (cervical documents, ORCA finding photos), uploaded by devices before the exam (issue 10). */
  documents: scanFileRule(['pdf', 'png', 'jpeg', 'webp', 'mp4'], FILE_MESSAGES.invalidDocument),
};

/** True when `role` may upload into `folder` (the organization's scope is checked by the API per upload). */
export const canUploadTo = (role: TUserType, folder: TUploadFolder): boolean => FOLDER_RULES[folder].uploaders.includes(role);

/** The largest file any folder takes: the upload stream is cut there. */
export const UPLOAD_MAX_BYTES = Math.max(...Object.values(FOLDER_RULES).map((r) => r.maxBytes));

/** The multipart `folder` field: 'companylogo' and 'companylogo/' both name the folder. */
export const ZUploadFolder = z
  .string({ error: MESSAGES.required })
  .trim()
  .transform((v) => v.replace(/\/+$/, ''))
  .pipe(z.enum(UPLOAD_FOLDERS, { error: FILE_MESSAGES.unknownFolder }));

/** POST file/upload/ answer. `img` repeats the path: the original's image upload answered `url` and `img`. */
export const ZFileUploadResult = z.object({
  url: z.string(),
  path: z.string(),
  img: z.string(),
  content_type: z.string(),
  size: z.number(),
});
export type TFileUploadResult = z.infer<typeof ZFileUploadResult>;

/** GET file/?path= (the schema-level message would otherwise answer 'required' for a path that is too long). */
export const ZFileQuery = z.object({
  path: z.string({ error: MESSAGES.required }).min(1, MESSAGES.required).max(FILE_PATH_MAX, FILE_MESSAGES.pathTooLong),
});
export type TFileQuery = z.infer<typeof ZFileQuery>;

/** The API path that serves a stored file (relative: the console and the API share an origin). */
export const fileUrl = (path: string): string => `/api/v1/file/?path=${encodeURIComponent(path)}`;
