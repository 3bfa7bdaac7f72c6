// Uploaded files (DESIGN §1, §7b; part 1 §5, §9): folders, what each accepts, limits and messages of
// `POST file/upload/` and `GET file/?path=`. Types are decided by the file's content, never by its name.
import { z } from 'zod';
import { DOCUMENT_MAX_BYTES, FIRMWARE_MAX_BYTES, IMAGE_MAX_BYTES, UPLOAD_FOLDERS } from './constants.ts';
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

export const FILE_MESSAGES = {
  noFile: 'No file was submitted.',
  emptyFile: 'The submitted file is empty.',
  invalidImage: 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.',
  invalidPdf: 'Upload a valid PDF file.',
  invalidDocument: 'Upload a valid file: PDF, PNG, JPEG, WEBP image or MP4 video.',
  invalidFirmware: 'Upload a valid .ibe firmware file whose first line is the version (e.g. v2.14).',
  firmwareTooLarge: MESSAGES.firmwareTooLarge,
  imageTooLarge: 'Image size need less than 5Mb',
  documentTooLarge: 'File size need less than 20Mb',
  unknownFolder: `Select a valid choice. Folders: ${UPLOAD_FOLDERS.join(', ')}.`,
} as const;

export type TFolderRule = {
  kinds: readonly TFileKind[];
  maxBytes: number;
  invalidMessage: string;
  tooLargeMessage: string;
  /** Only ADMIN and SUB_ADMIN may upload here (firmware is pushed to every device). */
  platformAdminOnly?: boolean;
};

const imageRule: TFolderRule = {
  kinds: IMAGE_KINDS,
  maxBytes: IMAGE_MAX_BYTES,
  invalidMessage: FILE_MESSAGES.invalidImage,
  tooLargeMessage: FILE_MESSAGES.imageTooLarge,
};

/** What each upload folder of part 1 §9 takes. */
export const FOLDER_RULES: Record<TUploadFolder, TFolderRule> = {
  companylogo: imageRule,
  customized: imageRule,
  user_test: imageRule,
  test: imageRule,
  firmware: {
    kinds: ['ibe'],
    maxBytes: FIRMWARE_MAX_BYTES,
    invalidMessage: FILE_MESSAGES.invalidFirmware,
    tooLargeMessage: FILE_MESSAGES.firmwareTooLarge,
    platformAdminOnly: true,
  },
  reports: {
    kinds: ['pdf'],
    maxBytes: DOCUMENT_MAX_BYTES,
    invalidMessage: FILE_MESSAGES.invalidPdf,
    tooLargeMessage: FILE_MESSAGES.documentTooLarge,
  },
  documents: {
    kinds: ['pdf', 'png', 'jpeg', 'webp', 'mp4'],
    maxBytes: DOCUMENT_MAX_BYTES,
    invalidMessage: FILE_MESSAGES.invalidDocument,
    tooLargeMessage: FILE_MESSAGES.documentTooLarge,
  },
};

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

/** GET file/?path= */
export const ZFileQuery = z.object({
  path: z.string({ error: MESSAGES.required }).min(1, MESSAGES.required).max(500),
});
export type TFileQuery = z.infer<typeof ZFileQuery>;

/** The API path that serves a stored file (relative: the console and the API share an origin). */
export const fileUrl = (path: string): string => `/api/v1/file/?path=${encodeURIComponent(path)}`;
