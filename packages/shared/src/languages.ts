// Language contracts (part 1 §3, §7; part 3 §2 Languages page, §3 Language, §5, §7, §8; architecture §7b): the list the
// organization form's pickers and the Languages page read, and the create and edit the Languages page sends. The
// console's 'Language details' form validates with the same schemas.
import { z } from 'zod';
import { ZBoolParam, ZListQuery, idField, paginated } from './list.ts';
import { ZConsentList } from './organization-input.ts';
import type { TUserType } from './roles.ts';
import { textField } from './validation.ts';

/** Part 3 §9: an ISO code holds at most 2 characters. */
export const ISO_CODE_MAX = 2;
export const LANGUAGE_NAME_MAX = 100;

/** The Language menu's role (part 1 §6) creates and edits languages; every signed-in user reads them (pickers). */
export const LANGUAGE_EDIT_ROLES: readonly TUserType[] = ['ADMIN'];
export const canEditLanguages = (role: TUserType): boolean => LANGUAGE_EDIT_ROLES.includes(role);

export const LANGUAGE_MESSAGES = {
  created: 'Language created Successfully',
  updated: 'Language updated Successfully',
  nameRequired: 'Name is required.',
  nameTooLong: `Ensure this field has no more than ${LANGUAGE_NAME_MAX} characters.`,
  isoRequired: 'ISO code is required.',
  /** Part 3 §5, verbatim. */
  isoInvalid: 'Invalid ISO code, Maximum 2 characters',
  isoTaken: 'A language with this ISO code already exists.',
  appVersionNotIbe: 'Select an app version of the IBE app.',
  searchPlaceholder: 'Search by name, iso_code',
  emptyNone: 'No languages yet!',
  emptyFiltered: 'No languages found!',
} as const;

// ---- Requests ----------------------------------------------------------------------------------------------------

export const ZLanguageName = textField({ error: LANGUAGE_MESSAGES.nameRequired })
  .trim()
  .min(1, { error: LANGUAGE_MESSAGES.nameRequired, abort: true })
  .max(LANGUAGE_NAME_MAX, LANGUAGE_MESSAGES.nameTooLong);

/** One or two letters (ISO 639-1 codes are two), stored in lower case so 'HI' and 'hi' are one language. */
export const ZIsoCode = textField({ error: LANGUAGE_MESSAGES.isoRequired })
  .trim()
  .min(1, { error: LANGUAGE_MESSAGES.isoRequired, abort: true })
  .max(ISO_CODE_MAX, { error: LANGUAGE_MESSAGES.isoInvalid, abort: true })
  .regex(/^[A-Za-z]+$/, LANGUAGE_MESSAGES.isoInvalid)
  .transform((v) => v.toLowerCase());

/** An app version id, or none (part 3 §5: optional). Must name a version of the IBE app (checked by the API). */
export const ZLanguageAppVersion = idField().nullable();

/**
 * A language's breast-examination consent paragraphs (part 1 §3 Language: ibe_consent_form), printed on the consent
 * form of a scan in that language. The organization form's consent rules apply (part 1 §5: at most 400 words, the
 * allowed characters; blank items dropped, newlines made spaces).
 */
export const ZLanguageConsentForm = ZConsentList;

/**
 * POST language/ (part 3 §7): name, iso_code, is_tutorial_available, app_version, and ibe_consent_form (part 1 §3).
 * ibe_consent_form is optional everywhere: a create without it stores [], and a PUT without it (the Language details
 * form edits the other fields) keeps the stored paragraphs instead of erasing them.
 */
export const ZLanguageInput = z.object({
  name: ZLanguageName,
  iso_code: ZIsoCode,
  is_tutorial_available: z.boolean({ error: 'Must be a valid boolean.' }).default(false),
  app_version: ZLanguageAppVersion.default(null),
  ibe_consent_form: ZLanguageConsentForm.optional(),
});
export type TLanguageInput = z.infer<typeof ZLanguageInput>;
export type TLanguageInputRaw = z.input<typeof ZLanguageInput>;

/** PATCH language/{id}/: any of the fields. PUT (part 3 §7) sends them all plus the id. */
export const ZLanguagePatch = z.object({
  id: idField().optional(),
  name: ZLanguageName.optional(),
  iso_code: ZIsoCode.optional(),
  is_tutorial_available: z.boolean({ error: 'Must be a valid boolean.' }).optional(),
  app_version: ZLanguageAppVersion.optional(),
  ibe_consent_form: ZLanguageConsentForm.optional(),
});
export type TLanguagePatch = z.infer<typeof ZLanguagePatch>;
export const ZLanguagePut = ZLanguageInput.extend({ id: ZLanguagePatch.shape.id });

/** `GET language/?search=&limit=&page=`: search matches the name or the iso_code. */
export const ZLanguageListQuery = ZListQuery.extend({
  is_tutorial_available: ZBoolParam.optional(),
});
export type TLanguageListQuery = z.infer<typeof ZLanguageListQuery>;
export type TLanguageListParams = z.input<typeof ZLanguageListQuery>;

export const LANGUAGE_ORDERING_FIELDS = ['id', 'name', 'iso_code', 'created'] as const;
export const LANGUAGE_DEFAULT_ORDERING = 'name';

// ---- Responses ---------------------------------------------------------------------------------------------------

export const ZLanguage = z.object({
  id: z.number().int(),
  name: z.string(),
  iso_code: z.string(),
  is_tutorial_available: z.boolean(),
  app_version: z.number().int().nullable(),
  ibe_consent_form: z.array(z.string()),
});
export type TLanguage = z.infer<typeof ZLanguage>;

/** Create and edit answers: the language and the console's success message. */
export const ZLanguageSaved = ZLanguage.extend({ detail: z.string() });
export type TLanguageSaved = z.infer<typeof ZLanguageSaved>;

export const ZLanguageList = paginated(ZLanguage);
export type TLanguageList = z.infer<typeof ZLanguageList>;
