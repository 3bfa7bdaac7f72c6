// App versions and their release notes (part 3 §2 Release Notes, §3 App version, §4 modal mode, §5, §7, §8, §9):
// the contracts of `app_version/`, its device read `app_version/latest/`, the messages and who may use them. The
// console's Release Notes form validates with the same schemas, so a message is written once.
import { z } from 'zod';
import { APP_TYPES } from './constants.ts';
import { ZBoolParam, ZListQuery, idField } from './list.ts';
import type { TUserType } from './roles.ts';
import { textField } from './validation.ts';

export type TAppType = (typeof APP_TYPES)[number];

/** Part 3 §9: the version code holds at most 10 characters. */
export const APP_VERSION_CODE_MAX = 10;
export const APP_VERSION_NAME_MAX = 100;
export const APP_VERSION_NOTE_MAX = 5000;
export const TUTORIAL_VERSION_MAX = 99_999;

/**
 * Who reads and writes app versions in the console: ADMIN, the Release Notes menu's role (part 1 §6). Devices read
 * only the latest version of their app (`app_version/latest/`), which every signed-in caller may.
 */
export const APP_VERSION_ROLES: readonly TUserType[] = ['ADMIN'];
export const canManageAppVersions = (role: TUserType): boolean => APP_VERSION_ROLES.includes(role);

/** The query flag of the console route (`app-version?ibe=true`) for each app, and back. */
export const APP_VERSION_FLAGS: Record<TAppType, 'ibe' | 'orca' | 'cervaical'> = {
  IBE: 'ibe',
  ORCA: 'orca',
  CERVAICAL: 'cervaical',
};

export const APP_VERSION_MESSAGES = {
  created: 'App version created Successfully',
  updated: 'App version updated Successfully',
  nameRequired: 'Version name is required.',
  codeRequired: 'Version code is required.',
  codeTooLong: `Ensure this field has no more than ${APP_VERSION_CODE_MAX} characters.`,
  nameTooLong: `Ensure this field has no more than ${APP_VERSION_NAME_MAX} characters.`,
  noteRequired: 'Release note is required.',
  noteTooLong: `Ensure this field has no more than ${APP_VERSION_NOTE_MAX} characters.`,
  tutorialVersion: 'Tutorial version must be a number.',
  tutorialVersionRange: `Tutorial version must be between 0 and ${TUTORIAL_VERSION_MAX}.`,
  type: `Select a valid choice: ${APP_TYPES.join(', ')}.`,
  typeFixed: 'The app of a version cannot be changed.',
  duplicateCode: 'This app already has a version with this code.',
  noneYet: 'This app has no version yet.',
  emptyNone: 'No app versions yet!',
  emptyFiltered: 'No app versions found!',
  searchPlaceholder: 'Search by version name',
} as const;

// ---- Requests ----------------------------------------------------------------------------------------------------

/** Required and not whitespace only (part 3 §5): a blank value gets the required message alone. */
const requiredText = (required: string, max: number, tooLong: string, multiline = false) =>
  textField({ error: required, multiline })
    .trim()
    .min(1, { error: required, abort: true })
    .max(max, tooLong);

export const ZAppVersionName = requiredText(
  APP_VERSION_MESSAGES.nameRequired,
  APP_VERSION_NAME_MAX,
  APP_VERSION_MESSAGES.nameTooLong,
);
export const ZAppVersionCode = requiredText(
  APP_VERSION_MESSAGES.codeRequired,
  APP_VERSION_CODE_MAX,
  APP_VERSION_MESSAGES.codeTooLong,
);

/** Optional and numeric (part 3 §3): a number, or a numeric text as a form field holds it; '' and null are none. */
export const ZTutorialVersion = z
  .union([z.number(), z.string(), z.null()], { error: APP_VERSION_MESSAGES.tutorialVersion })
  .transform((v, ctx) => {
    if (v === null) return null;
    if (typeof v === 'string') {
      const text = v.trim();
      if (text === '') return null;
      if (!/^\d{1,5}(\.\d{1,4})?$/.test(text)) {
        ctx.addIssue({ code: 'custom', message: APP_VERSION_MESSAGES.tutorialVersion });
        return z.NEVER;
      }
      return Number(text);
    }
    if (!Number.isFinite(v)) {
      ctx.addIssue({ code: 'custom', message: APP_VERSION_MESSAGES.tutorialVersion });
      return z.NEVER;
    }
    return v;
  })
  .refine((v) => v === null || (v >= 0 && v <= TUTORIAL_VERSION_MAX), APP_VERSION_MESSAGES.tutorialVersionRange);

/** `notes` is an object holding the note text (part 3 §3); the release note is multi-line. */
export const ZAppVersionNotes = z.object(
  {
    note: requiredText(
      APP_VERSION_MESSAGES.noteRequired,
      APP_VERSION_NOTE_MAX,
      APP_VERSION_MESSAGES.noteTooLong,
      true,
    ),
  },
  { error: APP_VERSION_MESSAGES.noteRequired },
);

export const ZAppType = z.enum(APP_TYPES, { error: APP_VERSION_MESSAGES.type });

/** POST app_version/ (part 3 §7): name, code, notes{note}, type, tutorial_version. */
export const ZAppVersionInput = z.object({
  name: ZAppVersionName,
  code: ZAppVersionCode,
  notes: ZAppVersionNotes,
  type: ZAppType,
  tutorial_version: ZTutorialVersion.optional().default(null),
});
export type TAppVersionInput = z.infer<typeof ZAppVersionInput>;
export type TAppVersionInputRaw = z.input<typeof ZAppVersionInput>;

/** PUT and PATCH app_version/{id}/: the same fields (PUT sends them all, with the id); the app cannot change. */
export const ZAppVersionPatch = z.object({
  id: idField().optional(),
  name: ZAppVersionName.optional(),
  code: ZAppVersionCode.optional(),
  notes: ZAppVersionNotes.optional(),
  type: ZAppType.optional(),
  tutorial_version: ZTutorialVersion.optional(),
});
export type TAppVersionPatch = z.infer<typeof ZAppVersionPatch>;
export const ZAppVersionPut = ZAppVersionInput.extend({ id: ZAppVersionPatch.shape.id });

export const APP_VERSION_ORDERING_FIELDS = ['id', 'name', 'code', 'tutorial_version', 'created', 'modified'] as const;
export const APP_VERSION_DEFAULT_ORDERING = '-created';

/** GET app_version/?type=IBE (upper case, part 3 §7): search matches the version name or code. */
export const ZAppVersionListQuery = ZListQuery.extend({ type: ZAppType.optional() });
export type TAppVersionListQuery = z.infer<typeof ZAppVersionListQuery>;
export type TAppVersionListParams = z.input<typeof ZAppVersionListQuery>;

/** GET app_version/latest/?type=IBE: the newest version of one app. */
export const ZLatestAppVersionQuery = z.object({
  type: ZAppType,
  using_read_db: ZBoolParam.optional(),
});

// ---- Responses ---------------------------------------------------------------------------------------------------

export const ZAppVersion = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string(),
  tutorial_version: z.number().nullable(),
  notes: z.object({ note: z.string() }),
  type: ZAppType,
  created: z.string(),
  modified: z.string(),
});
export type TAppVersion = z.infer<typeof ZAppVersion>;

export const ZAppVersionSaved = ZAppVersion.extend({ detail: z.string() });
export type TAppVersionSaved = z.infer<typeof ZAppVersionSaved>;
