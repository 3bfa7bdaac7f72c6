// Tutorials (part 3 §2 Module page, Quiz list modal, Tutorial content list, Modal forms, Language setting modal;
// §3 Module, Quiz, Quiz option, Content, localize; §4 modal mode; §5; §7 Modules, Quizzes, Quiz options, Content;
// §8; §9): the contracts of `tutorial/module/`, `tutorial/quiz/`, `tutorial/quiz-option/`, `tutorial/content/`,
// their one-call reorders, the device reads (`tutorial/app/`, `tutorial/module-completed/`), the content video
// path rule, the translation (`localize`) rules and every message. The console validates its forms with these.
import { z } from 'zod';
import { CONTENT_STATUSES } from './constants.ts';
import { ZListQuery, idField, idParam, paginated } from './list.ts';
import { maxValueMessage } from './numbers.ts';
import type { TUserType } from './roles.ts';
import { FORBIDDEN_CHARS_PATTERN, MESSAGES, textField } from './validation.ts';

/** The Tutorial menu entry's role (part 1 §6, part 3 §6): only ADMIN authors tutorials; the API refuses others. */
export const TUTORIAL_ROLES: readonly TUserType[] = ['ADMIN'];
export const canManageTutorials = (role: TUserType): boolean => TUTORIAL_ROLES.includes(role);

/** English is the base language: its texts are the item's own fields, never a translation (§3 localize). */
export const BASE_LANGUAGE = 'en';
export const TUTORIAL_PERCENTAGE_MAX = 100;
export const TUTORIAL_TEXT_MAX = 2000;
export const TUTORIAL_NAME_MAX = 255;
/** A quiz's primary_image (a stored path) and a content's video name. */
export const QUIZ_IMAGE_MAX = 500;
export const CONTENT_VIDEO_NAME_MAX = 200;
export const Z_ORDER_MAX = 1_000_000;

export const TUTORIAL_MESSAGES = {
  required: MESSAGES.required,
  blank: 'This field may not be blank.',
  percentage: `Ensure this value is between 0 and ${TUTORIAL_PERCENTAGE_MAX}.`,
  tooLong: (max: number) => `Ensure this field has no more than ${max} characters.`,
  boolean: 'Must be a valid boolean.',
  invalidPk: 'Invalid pk - object does not exist.',
  zOrder: 'Enter a whole number of 0 or more.',
  invalidChars: MESSAGES.invalidChars,
  selectLanguage: MESSAGES.selectLanguage,
  languageAlreadySelected: MESSAGES.languageAlreadySelected,
  languageNotInList: MESSAGES.languageNotInList,
  englishExcluded: 'English is the base language: edit the item itself instead.',
  /** A translation's block in the language setting modal of a module, quiz, option or content item (part 3 §2, §8). */
  deleteTranslation: (kind: 'module' | 'quiz' | 'option' | 'content') =>
    `Are you sure you want to delete this ${kind}? Please SUBMIT to save the changes.`,
  noModule: 'No module.',
  noContent: 'No content.',
  unauthorized: 'Unauthorized access',
  moduleCreated: 'Module created successfully',
  moduleUpdated: 'Module updated Successfully',
  moduleDeleted: 'Module deleted Successfully',
  quizCreated: 'Quiz created successfully',
  quizUpdated: 'Quiz updated Successfully',
  quizDeleted: 'Quiz deleted Successfully',
  optionDeleted: 'Option deleted Successfully',
  optionUpdated: 'Option updated Successfully',
  contentCreated: 'Content created successfully',
  contentUpdated: 'Content updated Successfully',
  contentDeleted: 'Content deleted Successfully',
  orderSaved: 'Order updated Successfully',
  orderIds: 'Send every item of the list exactly once.',
  optionsRequired: 'Add at least one option.',
  deleteOption: 'Are you sure you want to delete this option?',
  deleteHint: 'Please SUBMIT to save the changes.',
  deleteContent: (title: string) => `Are you sure you want to delete ${title.toUpperCase()}?`,
  deleteQuiz: 'Are you sure you want to delete this quiz?',
  emptyModules: 'No Module yet!',
  emptyModulesFiltered: 'No Module found!',
  emptyQuizzes: 'No Quiz yet!',
  emptyQuizzesFiltered: 'No Quiz found!',
  emptyContents: 'No Content yet!',
  emptyContentsFiltered: 'No Content found!',
} as const;

// ---- The content video path (§5 Content) ----------------------------------------------------------------------

export const CONTENT_VIDEO_SUFFIX = '.mp4';
export const contentVideoPrefix = (moduleZOrder: number): string =>
  `assets/tutorials/tutorial_module_${moduleZOrder}/`;
export const contentVideoPath = (moduleZOrder: number, name: string): string =>
  `${contentVideoPrefix(moduleZOrder)}${name}${CONTENT_VIDEO_SUFFIX}`;
const STORED_PATH = /^assets\/tutorials\/tutorial_module_-?\d+\/(.*)\.mp4$/;

/** The file name the form edits, from a stored path (or a bare name a client sent). */
export function contentVideoName(value: string | null | undefined): string {
  if (!value) return '';
  return STORED_PATH.exec(value)?.[1] ?? value;
}

/** The name's problem (slash, backslash, comma, period, space, at, dollar, hash, percent, ampersand, exclamation). */
export const contentVideoNameProblem = (name: string): string | null =>
  FORBIDDEN_CHARS_PATTERN.test(name) ? TUTORIAL_MESSAGES.invalidChars : null;

// ---- Fields ---------------------------------------------------------------------------------------------------

// Every chained check names its own message: a check without one would report textField's type message ('Not a
// valid string.') for a value that is a string, only too long.

/** Required, not whitespace only, one line. */
const requiredText = (max = TUTORIAL_NAME_MAX) =>
  textField({ error: TUTORIAL_MESSAGES.required })
    .trim()
    .min(1, TUTORIAL_MESSAGES.blank)
    .max(max, TUTORIAL_MESSAGES.tooLong(max));
/** Optional one-line text; blank is null. */
const optionalLine = (max: number) =>
  textField()
    .trim()
    .max(max, TUTORIAL_MESSAGES.tooLong(max))
    .nullish()
    .transform((v) => (v ? v : null));
/** Optional text (multi-line allowed); blank is stored as null. */
const optionalText = (max = TUTORIAL_TEXT_MAX) =>
  textField({ multiline: true })
    .trim()
    .max(max, TUTORIAL_MESSAGES.tooLong(max))
    .nullish()
    .transform((v) => (v ? v : null));
const requiredMultiline = (max = TUTORIAL_TEXT_MAX) =>
  textField({ error: TUTORIAL_MESSAGES.required, multiline: true })
    .trim()
    .min(1, TUTORIAL_MESSAGES.blank)
    .max(max, TUTORIAL_MESSAGES.tooLong(max));
const zOrder = z
  .number({ error: TUTORIAL_MESSAGES.zOrder })
  .int(TUTORIAL_MESSAGES.zOrder)
  .min(0, TUTORIAL_MESSAGES.zOrder)
  .max(Z_ORDER_MAX, maxValueMessage(Z_ORDER_MAX));
/** A whole percentage, 0–100 (a module's retake threshold, a device's progress). */
const percentage = z
  .number({ error: TUTORIAL_MESSAGES.percentage })
  .int(TUTORIAL_MESSAGES.percentage)
  .min(0, TUTORIAL_MESSAGES.percentage)
  .max(TUTORIAL_PERCENTAGE_MAX, TUTORIAL_MESSAGES.percentage);
const flag = z.boolean({ error: TUTORIAL_MESSAGES.boolean });
/** An id naming another row; `what` with its article ('a module', 'an app version'). */
const refId = (what: string) => idField(TUTORIAL_MESSAGES.invalidPk, `Select ${what}.`, `Select ${what}.`);
const ISO_KEY = /^[a-z]{2}$/;

/** A `localize` object: keys are language iso codes (not English), values the item's texts, each not blank. */
function localizeOf<T extends z.ZodRawShape>(shape: T) {
  const key = z
    .string()
    .regex(ISO_KEY, TUTORIAL_MESSAGES.languageNotInList)
    .refine((k) => k !== BASE_LANGUAGE, TUTORIAL_MESSAGES.englishExcluded);
  return z
    .record(key, z.object(shape, { error: TUTORIAL_MESSAGES.required }), {
      // A refused key reports its own message ('English is the base language…'), not zod's generic one.
      error: (issue) =>
        issue.code === 'invalid_key'
          ? (issue.issues[0]?.message ?? TUTORIAL_MESSAGES.languageNotInList)
          : undefined,
    })
    .default({});
}

/**
 * A module's translation: the name is required; its other texts are optional, and one left blank falls back to
 * the English text on the device. The module's own texts are these fields (ZModuleInput extends it). Its texts and
 * a quiz's question are one line each (issue 22): a content's primary text is the only tutorial text with lines.
 */
export const ZModuleLocalizeEntry = z.object({
  name: requiredText(),
  pass_text: optionalLine(TUTORIAL_TEXT_MAX),
  re_take_question_text: optionalLine(TUTORIAL_TEXT_MAX),
  re_take_module_text: optionalLine(TUTORIAL_TEXT_MAX),
  re_take_module_again_text: optionalLine(TUTORIAL_TEXT_MAX),
});
export const ZQuizLocalizeEntry = z.object({ question: requiredText(TUTORIAL_TEXT_MAX) });
export const ZOptionLocalizeEntry = z.object({ option: requiredText() });
export const ZContentLocalizeEntry = z.object({ title: requiredText(), primary_text: requiredMultiline() });

/** Each kind's translation block: the body of one language in `localize`. */
export const LOCALIZE_ENTRY_SCHEMAS = {
  module: ZModuleLocalizeEntry,
  quiz: ZQuizLocalizeEntry,
  option: ZOptionLocalizeEntry,
  content: ZContentLocalizeEntry,
} as const;
export type TLocalizeKind = keyof typeof LOCALIZE_ENTRY_SCHEMAS;
type LocalizeFields = {
  [K in TLocalizeKind]: (keyof (typeof LOCALIZE_ENTRY_SCHEMAS)[K]['shape'] & string)[];
};
/** The text fields of each kind's translation block (the language setting modal's fields, in order). */
export const LOCALIZE_FIELDS = Object.fromEntries(
  Object.entries(LOCALIZE_ENTRY_SCHEMAS).map(([kind, schema]) => [kind, Object.keys(schema.shape)]),
) as LocalizeFields;
export const LOCALIZE_LABELS: Record<string, string> = {
  name: 'Name',
  pass_text: 'Pass text',
  re_take_question_text: 'Retake question text',
  re_take_module_text: 'Retake module text',
  re_take_module_again_text: 'Retake module again text',
  question: 'Question',
  option: 'Option',
  title: 'Title',
  primary_text: 'Primary text',
};
/** A stored translation as the API answers it: the kind's text fields by name. */
const ZLocalizeOut = z.record(z.string(), z.record(z.string(), z.string().nullable().optional()));
export type TLocalizeOut = z.infer<typeof ZLocalizeOut>;

// What the modal shows of a field is read from its schema, so the asterisk and the textarea follow the rule.
const entryFields = Object.values(LOCALIZE_ENTRY_SCHEMAS).flatMap((schema) =>
  Object.entries(schema.shape as Record<string, z.ZodType>),
);
/** Fields a translation block must fill: those whose schema refuses them left out (the others may stay blank). */
export const LOCALIZE_REQUIRED: ReadonlySet<string> = new Set(
  entryFields.filter(([, field]) => !field.safeParse(undefined).success).map(([name]) => name),
);
/** Multi-line fields of the translation blocks (textareas): those whose schema takes a line break. */
export const LOCALIZE_MULTILINE: ReadonlySet<string> = new Set(
  entryFields.filter(([, field]) => field.safeParse('a\nb').success).map(([name]) => name),
);

// ---- Modules --------------------------------------------------------------------------------------------------

/** POST tutorial/module/ and PUT tutorial/module/{id}/: the module with its translations. */
export const ZModuleInput = ZModuleLocalizeEntry.extend({
  re_take_question_percentage: percentage.nullish().transform((v) => v ?? null),
  z_order: zOrder,
  status: z.enum(CONTENT_STATUSES).default('PUBLISHED'),
  localize: localizeOf(ZModuleLocalizeEntry.shape),
});
export type TModuleInput = z.infer<typeof ZModuleInput>;
export type TModuleInputRaw = z.input<typeof ZModuleInput>;

export const ZModule = z.object({
  id: z.number().int(),
  name: z.string(),
  pass_text: z.string().nullable(),
  re_take_module_again_text: z.string().nullable(),
  re_take_module_text: z.string().nullable(),
  re_take_question_percentage: z.number().int().nullable(),
  re_take_question_text: z.string().nullable(),
  z_order: z.number().int(),
  icon: z.string().nullable(),
  status: z.enum(CONTENT_STATUSES),
  localize: ZLocalizeOut,
  quiz_count: z.number().int(),
  content_count: z.number().int(),
});
export type TModule = z.infer<typeof ZModule>;
export const ZModuleList = paginated(ZModule);
export type TModuleList = z.infer<typeof ZModuleList>;

// ---- Quizzes and options -------------------------------------------------------------------------------------

export const ZOptionFields = z.object({
  option: requiredText(),
  z_order: zOrder.default(0),
  is_correct: flag.default(false),
  is_select_all_or_none: flag.default(false),
});
/** POST tutorial/quiz-option/ and PUT tutorial/quiz-option/{id}/: one option of a quiz, with its translations. */
export const ZOptionInput = ZOptionFields.extend({
  question: refId('a quiz'),
  localize: localizeOf(ZOptionLocalizeEntry.shape),
});
export type TOptionInput = z.infer<typeof ZOptionInput>;
export type TOptionInputRaw = z.input<typeof ZOptionInput>;

export const ZOption = z.object({
  id: z.number().int(),
  option: z.string(),
  question: z.number().int(),
  z_order: z.number().int(),
  is_correct: z.boolean(),
  is_select_all_or_none: z.boolean(),
  localize: ZLocalizeOut,
});
export type TOption = z.infer<typeof ZOption>;

const quizFields = {
  question: requiredText(TUTORIAL_TEXT_MAX),
  is_multi_select: flag.default(false),
  z_order: zOrder,
  primary_image: optionalLine(QUIZ_IMAGE_MAX),
  module: refId('a module'),
};
/** POST tutorial/quiz/: the quiz with its options in one call (§7 Quizzes). */
export const ZQuizCreate = z.object({
  ...quizFields,
  options: z.array(ZOptionFields).default([]),
  localize: localizeOf(ZQuizLocalizeEntry.shape),
});
export type TQuizCreate = z.infer<typeof ZQuizCreate>;
export type TQuizCreateRaw = z.input<typeof ZQuizCreate>;
/** PUT tutorial/quiz/{id}/: the quiz itself (and its translations); options are saved one by one (§7). */
export const ZQuizUpdate = z.object({ ...quizFields, localize: localizeOf(ZQuizLocalizeEntry.shape) });
export type TQuizUpdate = z.infer<typeof ZQuizUpdate>;

export const ZQuiz = z.object({
  id: z.number().int(),
  question: z.string(),
  is_multi_select: z.boolean(),
  z_order: z.number().int(),
  primary_image: z.string().nullable(),
  module: z.number().int(),
  localize: ZLocalizeOut,
  options: z.array(ZOption),
});
export type TQuiz = z.infer<typeof ZQuiz>;
export const ZQuizList = paginated(ZQuiz);

// ---- Content ---------------------------------------------------------------------------------------------------

/** POST tutorial/content/ and PUT tutorial/content/{id}/: the content item with its translations. */
export const ZContentInput = z.object({
  title: requiredText(),
  primary_text: optionalText(),
  z_order: zOrder,
  /** The video's file name (or its stored path); blank → null. The server stores the full path (§5). */
  primary_image: textField()
    .trim()
    .max(CONTENT_VIDEO_NAME_MAX, TUTORIAL_MESSAGES.tooLong(CONTENT_VIDEO_NAME_MAX))
    .nullish()
    .transform((v) => contentVideoName(v))
    .refine((name) => contentVideoNameProblem(name) === null, TUTORIAL_MESSAGES.invalidChars),
  app_version: refId('an app version')
    .nullish()
    .transform((v) => v ?? null),
  module: refId('a module'),
  status: z.enum(CONTENT_STATUSES).default('PUBLISHED'),
  localize: localizeOf(ZContentLocalizeEntry.shape),
});
export type TContentInput = z.infer<typeof ZContentInput>;
export type TContentInputRaw = z.input<typeof ZContentInput>;

export const ZContent = z.object({
  id: z.number().int(),
  title: z.string(),
  primary_text: z.string().nullable(),
  z_order: z.number().int(),
  primary_image: z.string().nullable(),
  app_version: z.number().int().nullable(),
  module: z.number().int(),
  module_data: z.object({ name: z.string(), z_order: z.number().int() }),
  status: z.enum(CONTENT_STATUSES),
  localize: ZLocalizeOut,
});
export type TContent = z.infer<typeof ZContent>;
export const ZContentList = paginated(ZContent);

// ---- Lists, saves and reorders -------------------------------------------------------------------------------

export const ZModuleListQuery = ZListQuery;
export type TModuleListQuery = z.infer<typeof ZModuleListQuery>;
export const ZQuizListQuery = ZListQuery.extend({ module: idParam('module') });
export type TQuizListQuery = z.infer<typeof ZQuizListQuery>;
export type TQuizListParams = z.input<typeof ZQuizListQuery>;
export const ZOptionListQuery = ZListQuery.extend({ question: idParam('question') });
export type TOptionListQuery = z.infer<typeof ZOptionListQuery>;
export const ZContentListQuery = ZListQuery.extend({ module: idParam('module') });
export type TContentListQuery = z.infer<typeof ZContentListQuery>;
export type TContentListParams = z.input<typeof ZContentListQuery>;

export const ZSaved = z.object({ id: z.number().int(), detail: z.string() });
export type TSaved = z.infer<typeof ZSaved>;
export const ZDeleted = z.object({ detail: z.string() });

const ZIds = z
  .array(refId('an item'), { error: TUTORIAL_MESSAGES.orderIds })
  .min(1, TUTORIAL_MESSAGES.orderIds)
  .max(1000, TUTORIAL_MESSAGES.orderIds)
  .refine((ids) => new Set(ids).size === ids.length, TUTORIAL_MESSAGES.orderIds);
/** PUT tutorial/module/order/: every module's id in its new order; z_order becomes the position (1, 2, …). */
export const ZModuleOrder = z.object({ ids: ZIds });
/** PUT tutorial/quiz/order/ and tutorial/content/order/: the module's whole list in its new order. */
export const ZModuleItemsOrder = z.object({ module: refId('a module'), ids: ZIds });
export type TModuleItemsOrder = z.infer<typeof ZModuleItemsOrder>;
export const ZOrderSaved = z.object({ detail: z.string(), ids: z.array(z.number().int()) });

// ---- Device reads --------------------------------------------------------------------------------------------

export const ZTutorialAppQuery = z.object({
  language: textField().trim().toLowerCase().regex(ISO_KEY, 'Enter a two-letter language code.').optional(),
});
export const ZAppOption = z.object({
  id: z.number().int(),
  option: z.string(),
  z_order: z.number().int(),
  is_correct: z.boolean(),
  is_select_all_or_none: z.boolean(),
});
export const ZAppQuiz = z.object({
  id: z.number().int(),
  question: z.string(),
  is_multi_select: z.boolean(),
  z_order: z.number().int(),
  primary_image: z.string().nullable(),
  options: z.array(ZAppOption),
});
export const ZAppContent = z.object({
  id: z.number().int(),
  title: z.string(),
  primary_text: z.string().nullable(),
  z_order: z.number().int(),
  primary_image: z.string().nullable(),
  app_version: z.number().int().nullable(),
});
export const ZAppModule = z.object({
  id: z.number().int(),
  name: z.string(),
  pass_text: z.string().nullable(),
  re_take_module_again_text: z.string().nullable(),
  re_take_module_text: z.string().nullable(),
  re_take_question_percentage: z.number().int().nullable(),
  re_take_question_text: z.string().nullable(),
  z_order: z.number().int(),
  icon: z.string().nullable(),
  quizzes: z.array(ZAppQuiz),
  contents: z.array(ZAppContent),
});
export const ZTutorialApp = z.object({ language: z.string(), modules: z.array(ZAppModule) });
export type TTutorialApp = z.infer<typeof ZTutorialApp>;

/** POST tutorial/module-completed/: the app reports the signed-in user's progress through a module. */
export const ZModuleCompleted = z.object({
  module: refId('a module'),
  progress: percentage.default(TUTORIAL_PERCENTAGE_MAX),
  completed: flag.optional(),
});
export type TModuleCompleted = z.infer<typeof ZModuleCompleted>;
export const ZModuleCompletion = z.object({
  module: z.number().int(),
  progress: z.number().int(),
  completed: z.boolean(),
  completed_at: z.string().nullable(),
});
