// Tutorials for technicians (part 3 §3): modules, their quizzes with options, content videos, and each
// user's completion of a module ("tutorial status"). `localize` maps a language iso_code to the texts.
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { CONTENT_STATUSES } from '@sc/shared/constants';
import { appVersions } from './app-versions.ts';
import { byUser, createdModified } from './columns.ts';
import { users } from './identity.ts';

export type ModuleLocalize = {
  name: string;
  pass_text?: string | null;
  re_take_question_text?: string | null;
  re_take_module_text?: string | null;
  re_take_module_again_text?: string | null;
};
export type QuizLocalize = { question: string };
export type QuizOptionLocalize = { option: string };
export type ContentLocalize = { title: string; primary_text?: string | null };

export const tutorialModules = pgTable(
  'tutorial_modules',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    passText: text('pass_text'),
    reTakeModuleAgainText: text('re_take_module_again_text'),
    reTakeModuleText: text('re_take_module_text'),
    /** 0..100 */
    reTakeQuestionPercentage: integer('re_take_question_percentage'),
    reTakeQuestionText: text('re_take_question_text'),
    zOrder: integer('z_order').notNull().default(0),
    icon: text('icon'),
    status: text('status', { enum: CONTENT_STATUSES }).notNull().default('PUBLISHED'),
    localize: jsonb('localize').$type<Record<string, ModuleLocalize>>().notNull().default({}),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [index('tutorial_modules_z_order_idx').on(t.zOrder)],
);

export const tutorialQuizzes = pgTable(
  'tutorial_quizzes',
  {
    id: serial('id').primaryKey(),
    question: text('question').notNull(),
    isMultiSelect: boolean('is_multi_select').notNull().default(false),
    zOrder: integer('z_order').notNull().default(0),
    primaryImage: text('primary_image'),
    moduleId: integer('module_id')
      .notNull()
      .references(() => tutorialModules.id, { onDelete: 'cascade' }),
    localize: jsonb('localize').$type<Record<string, QuizLocalize>>().notNull().default({}),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [index('tutorial_quizzes_module_idx').on(t.moduleId, t.zOrder)],
);

export const tutorialQuizOptions = pgTable(
  'tutorial_quiz_options',
  {
    id: serial('id').primaryKey(),
    option: text('option').notNull(),
    questionId: integer('question_id')
      .notNull()
      .references(() => tutorialQuizzes.id, { onDelete: 'cascade' }),
    zOrder: integer('z_order').notNull().default(0),
    isSelectAllOrNone: boolean('is_select_all_or_none').notNull().default(false),
    isCorrect: boolean('is_correct').notNull().default(false),
    localize: jsonb('localize').$type<Record<string, QuizOptionLocalize>>().notNull().default({}),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [index('tutorial_quiz_options_question_idx').on(t.questionId, t.zOrder)],
);

export const tutorialContents = pgTable(
  'tutorial_contents',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    primaryText: text('primary_text'),
    zOrder: integer('z_order').notNull().default(0),
    /** Video path 'assets/tutorials/tutorial_module_{module z_order}/{name}.mp4', or null. */
    primaryImage: text('primary_image'),
    appVersionId: integer('app_version_id').references(() => appVersions.id, { onDelete: 'set null' }),
    moduleId: integer('module_id')
      .notNull()
      .references(() => tutorialModules.id, { onDelete: 'cascade' }),
    status: text('status', { enum: CONTENT_STATUSES }).notNull().default('PUBLISHED'),
    localize: jsonb('localize').$type<Record<string, ContentLocalize>>().notNull().default({}),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [index('tutorial_contents_module_idx').on(t.moduleId, t.zOrder)],
);

/** A user's progress through a module, reported by the app (user dialog "tutorial status"). */
export const tutorialModuleCompletions = pgTable(
  'tutorial_module_completions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    moduleId: integer('module_id')
      .notNull()
      .references(() => tutorialModules.id, { onDelete: 'cascade' }),
    completed: boolean('completed').notNull().default(false),
    /** Percent of the module done, 0..100. */
    progress: integer('progress').notNull().default(0),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    ...createdModified(),
  },
  (t) => [
    uniqueIndex('tutorial_module_completions_uq').on(t.userId, t.moduleId),
    index('tutorial_module_completions_module_idx').on(t.moduleId),
  ],
);
