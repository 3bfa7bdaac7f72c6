// Tutorials (part 3 §2–§9; architecture §6, §7b): modules, quizzes with options, contents, their translations and
// one-call reorders, for ADMIN only (the Tutorial menu's role); the device reads for every signed-in user. A
// module's z_order is part of its contents' video paths, so a change of it moves those paths in the same
// transaction. Every write leaves an audit row in the transaction that makes it.
import { eq } from 'drizzle-orm';
import { invalidPk } from '@sc/shared/devices';
import type { TPaginated } from '@sc/shared/list';
import {
  BASE_LANGUAGE,
  TUTORIAL_MESSAGES,
  canManageTutorials,
  contentVideoPath,
  type TContent,
  type TContentInput,
  type TContentListQuery,
  type TModule,
  type TModuleCompleted,
  type TModuleInput,
  type TModuleItemsOrder,
  type TModuleListQuery,
  type TOption,
  type TOptionInput,
  type TOptionListQuery,
  type TQuiz,
  type TQuizCreate,
  type TQuizListQuery,
  type TQuizUpdate,
  type TSaved,
  type TTutorialApp,
} from '@sc/shared/tutorials';
import type { AppContext } from '../../app.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import {
  appVersions,
  tutorialContents,
  tutorialModules,
  tutorialQuizOptions,
  tutorialQuizzes,
} from '../../db/schema/index.ts';
import { auditActor, auditChanges, type AuditChange } from '../../services/audit.service.ts';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, badRequest, fieldError, notFound } from '../../http/errors.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { presentContent, presentModule, presentOption, presentQuiz, presentTree } from './tutorials.presenter.ts';
import * as q from './tutorials.queries.ts';
import { readerFor } from '../../db/replica.ts';

export type TutorialsContext = Pick<AppContext, 'database' | 'services' | 'now'>;

/** The audit actions of one kind of item: `tutorial.{kind}.created`, `.updated` and `.deleted`. */
const auditActions = <K extends string>(kind: K) =>
  ({
    created: `tutorial.${kind}.created`,
    updated: `tutorial.${kind}.updated`,
    deleted: `tutorial.${kind}.deleted`,
  }) as const;

export const TUTORIAL_AUDIT = {
  module: auditActions('module'),
  quiz: auditActions('quiz'),
  option: auditActions('option'),
  content: auditActions('content'),
  reordered: 'tutorial.reordered',
} as const;

function assertCanManage(actor: Actor): void {
  if (!canManageTutorials(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
}

const dbFor = (ctx: TutorialsContext, readDb?: boolean): Db => readerFor(ctx.database, readDb);

async function record(
  ctx: TutorialsContext,
  tx: DbOrTx,
  actor: Actor,
  meta: RequestMeta,
  action: string,
  targetType: string,
  id: number,
  details: Record<string, unknown> = {},
  changes?: AuditChange[],
): Promise<void> {
  await ctx.services.audit.record(
    {
      action,
      ...auditActor(actor, meta),
      // One target type for the training content (AUDIT_TARGET_TYPES); the id names the kind: module-3, quiz-12.
      targetType: 'tutorial',
      targetId: `${targetType.replace(/^tutorial_/, '').replace(/^quiz_option$/, 'option')}-${id}`,
      changes: changes ?? null,
      details,
    },
    tx,
  );
}

/** A stored item's fields under their API (snake_case) names, without the stamps: an audit row's before/after. */
function auditView(row: object | undefined | null): Record<string, unknown> | null {
  if (!row) return null;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (['created', 'modified', 'createdBy', 'modifiedBy'].includes(key)) continue;
    out[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = value;
  }
  return out;
}

/** Every translation's language must be a language of the platform (English was refused by the schema). */
async function assertLanguages(db: DbOrTx, localize: Record<string, unknown>): Promise<void> {
  const codes = Object.keys(localize);
  const known = await q.knownLanguages(db, codes);
  const unknown = codes.filter((c) => !known.has(c));
  if (unknown.length) {
    throw badRequest(
      Object.fromEntries(unknown.map((c) => [`localize.${c}`, [TUTORIAL_MESSAGES.languageNotInList]])),
    );
  }
}

async function moduleOrField(db: DbOrTx, id: number): Promise<q.ModuleWithCounts> {
  const row = await q.findModule(db, id);
  if (!row) throw fieldError('module', invalidPk(id));
  return row;
}

// ---- Kinds of item ---------------------------------------------------------------------------------------------

type TutorialTable = typeof tutorialModules | typeof tutorialQuizzes | typeof tutorialQuizOptions | typeof tutorialContents;

/**
 * One kind of tutorial item: how one is found, its 404 when it is missing, its table, its audit target and
 * actions, and what a delete answers. Reading one, deleting one and each write's audit row take the kind's row of
 * this table instead of being written once per kind.
 */
type ItemKind<R> = {
  find: (db: DbOrTx, id: number) => Promise<R | undefined>;
  missing: string;
  table: TutorialTable;
  target: string;
  audit: { created: string; updated: string; deleted: string };
  deleted: string;
  /** What the delete's audit row keeps of the item (nothing when absent). */
  deletedDetails?: (row: R) => Record<string, unknown>;
};

const kind = <R>(definition: ItemKind<R>) => definition;

const MODULE = kind({
  find: q.findModule,
  missing: TUTORIAL_MESSAGES.noModule,
  table: tutorialModules,
  target: 'tutorial_module',
  audit: TUTORIAL_AUDIT.module,
  deleted: TUTORIAL_MESSAGES.moduleDeleted,
  deletedDetails: (row) => ({ name: row.name }),
});
const QUIZ = kind({
  find: q.findQuiz,
  missing: TUTORIAL_MESSAGES.noModule,
  table: tutorialQuizzes,
  target: 'tutorial_quiz',
  audit: TUTORIAL_AUDIT.quiz,
  deleted: TUTORIAL_MESSAGES.quizDeleted,
});
const OPTION = kind({
  find: q.findOption,
  missing: TUTORIAL_MESSAGES.noModule,
  table: tutorialQuizOptions,
  target: 'tutorial_quiz_option',
  audit: TUTORIAL_AUDIT.option,
  deleted: TUTORIAL_MESSAGES.optionDeleted,
});
const CONTENT = kind({
  find: q.findContent,
  missing: TUTORIAL_MESSAGES.noContent,
  table: tutorialContents,
  target: 'tutorial_content',
  audit: TUTORIAL_AUDIT.content,
  deleted: TUTORIAL_MESSAGES.contentDeleted,
  deletedDetails: (row) => ({ title: row.title }),
});

/** The item, or the kind's 404. */
async function findOr404<R>(db: DbOrTx, item: ItemKind<R>, id: number): Promise<R> {
  const row = await item.find(db, id);
  if (!row) throw notFound(item.missing);
  return row;
}

/** One item as the API shows it (ADMIN only); `present` may read more (a quiz's options). */
async function getItem<R, T>(
  ctx: TutorialsContext,
  actor: Actor,
  item: ItemKind<R>,
  id: number,
  readDb: boolean | undefined,
  present: (row: R, db: Db) => T | Promise<T>,
): Promise<T> {
  assertCanManage(actor);
  const db = dbFor(ctx, readDb);
  return present(await findOr404(db, item, id), db);
}

/** Deletes one item (what hangs under it goes with it: foreign keys cascade) and writes its audit row. */
async function deleteItem<R>(
  ctx: TutorialsContext,
  actor: Actor,
  item: ItemKind<R>,
  id: number,
  meta: RequestMeta,
): Promise<{ detail: string }> {
  assertCanManage(actor);
  const { db } = ctx.database;
  const before = await findOr404(db, item, id);
  await db.transaction(async (tx) => {
    await tx.delete(item.table).where(eq(item.table.id, id));
    await record(ctx, tx, actor, meta, item.audit.deleted, item.target, id, item.deletedDetails?.(before), auditChanges(auditView(before as object), null));
  });
  return { detail: item.deleted };
}

/** The stamps of a new row. */
const createdBy = (at: Date, actor: Actor) => ({ created: at, modified: at, createdBy: actor.id, modifiedBy: actor.id });
/** The stamps of an edit. */
const modifiedBy = (ctx: TutorialsContext, actor: Actor) => ({ modified: ctx.now(), modifiedBy: actor.id });

// ---- Modules -------------------------------------------------------------------------------------------------

export async function listModules(
  ctx: TutorialsContext,
  actor: Actor,
  query: TModuleListQuery,
  request: { url: string },
): Promise<TPaginated<TModule>> {
  assertCanManage(actor);
  const page = toPageParams(query);
  const { rows, count } = await q.listModules(dbFor(ctx, query.using_read_db), query.search, page);
  return paginate(request, page, count, rows.map(presentModule));
}

export const getModule = (ctx: TutorialsContext, actor: Actor, id: number, readDb?: boolean): Promise<TModule> =>
  getItem(ctx, actor, MODULE, id, readDb, presentModule);

function moduleValues(input: TModuleInput) {
  return {
    name: input.name,
    passText: input.pass_text,
    reTakeModuleAgainText: input.re_take_module_again_text,
    reTakeModuleText: input.re_take_module_text,
    reTakeQuestionPercentage: input.re_take_question_percentage,
    reTakeQuestionText: input.re_take_question_text,
    zOrder: input.z_order,
    status: input.status,
    localize: input.localize,
  };
}

export async function createModule(
  ctx: TutorialsContext,
  actor: Actor,
  input: TModuleInput,
  meta: RequestMeta,
): Promise<TSaved> {
  assertCanManage(actor);
  const { db } = ctx.database;
  await assertLanguages(db, input.localize);
  const at = ctx.now();
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(tutorialModules)
      .values({ ...moduleValues(input), ...createdBy(at, actor) })
      .returning();
    if (!row) throw new Error('insert returned no row');
    await record(ctx, tx, actor, meta, MODULE.audit.created, MODULE.target, row.id, { name: input.name }, auditChanges(null, auditView(row)));
    return row.id;
  });
  return { id, detail: TUTORIAL_MESSAGES.moduleCreated };
}

export async function updateModule(
  ctx: TutorialsContext,
  actor: Actor,
  id: number,
  input: TModuleInput,
  meta: RequestMeta,
): Promise<TSaved> {
  assertCanManage(actor);
  const { db } = ctx.database;
  const before = await findOr404(db, MODULE, id);
  await assertLanguages(db, input.localize);
  await db.transaction(async (tx) => {
    await tx
      .update(tutorialModules)
      .set({ ...moduleValues(input), ...modifiedBy(ctx, actor) })
      .where(eq(tutorialModules.id, id));
    if (before.zOrder !== input.z_order) await q.movePathsToModuleFolder(tx, [id]);
    await record(ctx, tx, actor, meta, MODULE.audit.updated, MODULE.target, id, {
      name: input.name,
      languages: Object.keys(input.localize),
    }, auditChanges(auditView(before), auditView(await MODULE.find(tx, id))));
  });
  return { id, detail: TUTORIAL_MESSAGES.moduleUpdated };
}

export const deleteModule = (ctx: TutorialsContext, actor: Actor, id: number, meta: RequestMeta) =>
  deleteItem(ctx, actor, MODULE, id, meta);

// ---- Reorders ------------------------------------------------------------------------------------------------

/** One call, one transaction: the list's ids in their new order become z_order 1, 2, … (all of them, or none). */
export async function reorder(
  ctx: TutorialsContext,
  actor: Actor,
  kind: 'module' | 'quiz' | 'content',
  input: { ids: number[]; module?: number },
  meta: RequestMeta,
): Promise<{ detail: string; ids: number[] }> {
  assertCanManage(actor);
  const { db } = ctx.database;
  if (kind !== 'module') await moduleOrField(db, input.module ?? 0);
  await db.transaction(async (tx) => {
    const current = new Set(await q.idsOf(tx, kind, input.module));
    if (current.size !== input.ids.length || !input.ids.every((id) => current.has(id))) {
      throw fieldError('ids', TUTORIAL_MESSAGES.orderIds);
    }
    await q.writeOrder(tx, kind, input.ids, actor.id);
    if (kind === 'module') await q.movePathsToModuleFolder(tx, input.ids);
    await record(ctx, tx, actor, meta, TUTORIAL_AUDIT.reordered, `tutorial_${kind}`, input.module ?? 0, {
      kind,
      ids: input.ids,
    }, [{ field: 'order', before: null, after: input.ids }]);
  });
  return { detail: TUTORIAL_MESSAGES.orderSaved, ids: input.ids };
}

export const reorderQuizzes = (ctx: TutorialsContext, actor: Actor, input: TModuleItemsOrder, meta: RequestMeta) =>
  reorder(ctx, actor, 'quiz', input, meta);
export const reorderContents = (ctx: TutorialsContext, actor: Actor, input: TModuleItemsOrder, meta: RequestMeta) =>
  reorder(ctx, actor, 'content', input, meta);

// ---- Quizzes and options -------------------------------------------------------------------------------------

export async function listQuizzes(
  ctx: TutorialsContext,
  actor: Actor,
  query: TQuizListQuery,
  request: { url: string },
): Promise<TPaginated<TQuiz>> {
  assertCanManage(actor);
  const db = dbFor(ctx, query.using_read_db);
  await findOr404(db, MODULE, query.module);
  const page = toPageParams(query);
  const { rows, count } = await q.listQuizzes(db, query.module, query.search, page);
  const options = await q.optionsOf(
    db,
    rows.map((r) => r.id),
  );
  return paginate(request, page, count, rows.map((r) => presentQuiz(r, options)));
}

export const getQuiz = (ctx: TutorialsContext, actor: Actor, id: number, readDb?: boolean): Promise<TQuiz> =>
  getItem(ctx, actor, QUIZ, id, readDb, async (row, db) => presentQuiz(row, await q.optionsOf(db, [id])));

export async function createQuiz(
  ctx: TutorialsContext,
  actor: Actor,
  input: TQuizCreate,
  meta: RequestMeta,
): Promise<TSaved> {
  assertCanManage(actor);
  const { db } = ctx.database;
  await moduleOrField(db, input.module);
  await assertLanguages(db, input.localize);
  const at = ctx.now();
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(tutorialQuizzes)
      .values({
        question: input.question,
        isMultiSelect: input.is_multi_select,
        zOrder: input.z_order,
        primaryImage: input.primary_image,
        moduleId: input.module,
        localize: input.localize,
        ...createdBy(at, actor),
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    if (input.options.length) {
      await tx.insert(tutorialQuizOptions).values(
        input.options.map((o) => ({
          option: o.option,
          questionId: row.id,
          zOrder: o.z_order,
          isCorrect: o.is_correct,
          isSelectAllOrNone: o.is_select_all_or_none,
          ...createdBy(at, actor),
        })),
      );
    }
    await record(ctx, tx, actor, meta, QUIZ.audit.created, QUIZ.target, row.id, {
      module: input.module,
      options: input.options.length,
    }, auditChanges(null, auditView(row)));
    return row.id;
  });
  return { id, detail: TUTORIAL_MESSAGES.quizCreated };
}

export async function updateQuiz(
  ctx: TutorialsContext,
  actor: Actor,
  id: number,
  input: TQuizUpdate,
  meta: RequestMeta,
): Promise<TSaved> {
  assertCanManage(actor);
  const { db } = ctx.database;
  const before = await findOr404(db, QUIZ, id);
  await moduleOrField(db, input.module);
  await assertLanguages(db, input.localize);
  await db.transaction(async (tx) => {
    await tx
      .update(tutorialQuizzes)
      .set({
        question: input.question,
        isMultiSelect: input.is_multi_select,
        zOrder: input.z_order,
        primaryImage: input.primary_image,
        moduleId: input.module,
        localize: input.localize,
        ...modifiedBy(ctx, actor),
      })
      .where(eq(tutorialQuizzes.id, id));
    await record(ctx, tx, actor, meta, QUIZ.audit.updated, QUIZ.target, id, {
      languages: Object.keys(input.localize),
    }, auditChanges(auditView(before), auditView(await QUIZ.find(tx, id))));
  });
  return { id, detail: TUTORIAL_MESSAGES.quizUpdated };
}

export const deleteQuiz = (ctx: TutorialsContext, actor: Actor, id: number, meta: RequestMeta) =>
  deleteItem(ctx, actor, QUIZ, id, meta);

export async function listOptions(
  ctx: TutorialsContext,
  actor: Actor,
  query: TOptionListQuery,
  request: { url: string },
): Promise<TPaginated<TOption>> {
  assertCanManage(actor);
  const db = dbFor(ctx, query.using_read_db);
  await findOr404(db, QUIZ, query.question);
  const page = toPageParams(query);
  const { rows, count } = await q.listOptions(db, query.question, query.search, page);
  return paginate(request, page, count, rows.map(presentOption));
}

export const getOption = (ctx: TutorialsContext, actor: Actor, id: number, readDb?: boolean): Promise<TOption> =>
  getItem(ctx, actor, OPTION, id, readDb, presentOption);

function optionValues(input: TOptionInput) {
  return {
    option: input.option,
    questionId: input.question,
    zOrder: input.z_order,
    isCorrect: input.is_correct,
    isSelectAllOrNone: input.is_select_all_or_none,
    localize: input.localize,
  };
}

async function assertQuizField(db: DbOrTx, id: number): Promise<void> {
  if (!(await q.findQuiz(db, id))) throw fieldError('question', invalidPk(id));
}

export async function createOption(
  ctx: TutorialsContext,
  actor: Actor,
  input: TOptionInput,
  meta: RequestMeta,
): Promise<TOption> {
  assertCanManage(actor);
  const { db } = ctx.database;
  await assertQuizField(db, input.question);
  await assertLanguages(db, input.localize);
  const at = ctx.now();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(tutorialQuizOptions)
      .values({ ...optionValues(input), ...createdBy(at, actor) })
      .returning();
    if (!row) throw new Error('insert returned no row');
    await record(ctx, tx, actor, meta, OPTION.audit.created, OPTION.target, row.id, {
      question: input.question,
    }, auditChanges(null, auditView(row)));
    return presentOption(row);
  });
}

export async function updateOption(
  ctx: TutorialsContext,
  actor: Actor,
  id: number,
  input: TOptionInput,
  meta: RequestMeta,
): Promise<TOption> {
  assertCanManage(actor);
  const { db } = ctx.database;
  const before = await findOr404(db, OPTION, id);
  await assertQuizField(db, input.question);
  await assertLanguages(db, input.localize);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(tutorialQuizOptions)
      .set({ ...optionValues(input), ...modifiedBy(ctx, actor) })
      .where(eq(tutorialQuizOptions.id, id))
      .returning();
    if (!row) throw notFound(OPTION.missing);
    await record(ctx, tx, actor, meta, OPTION.audit.updated, OPTION.target, id, {
      languages: Object.keys(input.localize),
    }, auditChanges(auditView(before), auditView(row)));
    return presentOption(row);
  });
}

export const deleteOption = (ctx: TutorialsContext, actor: Actor, id: number, meta: RequestMeta) =>
  deleteItem(ctx, actor, OPTION, id, meta);

// ---- Contents ------------------------------------------------------------------------------------------------

export async function listContents(
  ctx: TutorialsContext,
  actor: Actor,
  query: TContentListQuery,
  request: { url: string },
): Promise<TPaginated<TContent>> {
  assertCanManage(actor);
  const db = dbFor(ctx, query.using_read_db);
  await findOr404(db, MODULE, query.module);
  const page = toPageParams(query);
  const { rows, count } = await q.listContents(db, query.module, query.search, page);
  return paginate(request, page, count, rows.map(presentContent));
}

export const getContent = (ctx: TutorialsContext, actor: Actor, id: number, readDb?: boolean): Promise<TContent> =>
  getItem(ctx, actor, CONTENT, id, readDb, presentContent);

async function contentValues(db: DbOrTx, input: TContentInput) {
  const module = await moduleOrField(db, input.module);
  if (input.app_version !== null) {
    const [found] = await db.select({ id: appVersions.id }).from(appVersions).where(eq(appVersions.id, input.app_version));
    if (!found) throw fieldError('app_version', invalidPk(input.app_version));
  }
  await assertLanguages(db, input.localize);
  return {
    title: input.title,
    primaryText: input.primary_text,
    zOrder: input.z_order,
    primaryImage: input.primary_image ? contentVideoPath(module.zOrder, input.primary_image) : null,
    appVersionId: input.app_version,
    moduleId: input.module,
    status: input.status,
    localize: input.localize,
  };
}

export async function createContent(
  ctx: TutorialsContext,
  actor: Actor,
  input: TContentInput,
  meta: RequestMeta,
): Promise<TSaved> {
  assertCanManage(actor);
  const { db } = ctx.database;
  const values = await contentValues(db, input);
  const at = ctx.now();
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(tutorialContents)
      .values({ ...values, ...createdBy(at, actor) })
      .returning();
    if (!row) throw new Error('insert returned no row');
    await record(ctx, tx, actor, meta, CONTENT.audit.created, CONTENT.target, row.id, {
      module: input.module,
      title: input.title,
    }, auditChanges(null, auditView(row)));
    return row.id;
  });
  return { id, detail: TUTORIAL_MESSAGES.contentCreated };
}

export async function updateContent(
  ctx: TutorialsContext,
  actor: Actor,
  id: number,
  input: TContentInput,
  meta: RequestMeta,
): Promise<TSaved> {
  assertCanManage(actor);
  const { db } = ctx.database;
  const before = await findOr404(db, CONTENT, id);
  const values = await contentValues(db, input);
  await db.transaction(async (tx) => {
    await tx
      .update(tutorialContents)
      .set({ ...values, ...modifiedBy(ctx, actor) })
      .where(eq(tutorialContents.id, id));
    await record(ctx, tx, actor, meta, CONTENT.audit.updated, CONTENT.target, id, {
      title: input.title,
      languages: Object.keys(input.localize),
    }, auditChanges(auditView(before), auditView(await CONTENT.find(tx, id))));
  });
  return { id, detail: TUTORIAL_MESSAGES.contentUpdated };
}

export const deleteContent = (ctx: TutorialsContext, actor: Actor, id: number, meta: RequestMeta) =>
  deleteItem(ctx, actor, CONTENT, id, meta);

// ---- Device reads --------------------------------------------------------------------------------------------

/** The published tutorials in a language (English texts where it has no translation). */
export async function tutorialsForApp(ctx: TutorialsContext, language: string | undefined): Promise<TTutorialApp> {
  const db = ctx.database.readDb;
  const lang = language ?? BASE_LANGUAGE;
  if (lang !== BASE_LANGUAGE && (await q.knownLanguages(db, [lang])).size === 0) {
    throw fieldError('language', TUTORIAL_MESSAGES.languageNotInList);
  }
  return presentTree(lang, await q.publishedTree(db));
}

export async function reportModuleCompleted(ctx: TutorialsContext, actor: Actor, input: TModuleCompleted) {
  const { db } = ctx.database;
  const [module] = await db
    .select({ id: tutorialModules.id })
    .from(tutorialModules)
    .where(eq(tutorialModules.id, input.module));
  if (!module) throw fieldError('module', invalidPk(input.module));
  const completed = input.completed ?? input.progress === 100;
  const row = await q.upsertCompletion(db, {
    userId: actor.id,
    moduleId: input.module,
    progress: completed ? 100 : input.progress,
    completed,
    at: ctx.now(),
  });
  return {
    module: row.moduleId,
    progress: row.progress,
    completed: row.completed,
    completed_at: row.completedAt ? row.completedAt.toISOString() : null,
  };
}
