// Drizzle queries of tutorials: modules, quizzes, options, contents and module completions. Tutorials are
// platform content: no organization scope. Every list is in z_order, the id breaking ties.
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import {
  languages,
  tutorialContents,
  tutorialModuleCompletions,
  tutorialModules,
  tutorialQuizOptions,
  tutorialQuizzes,
} from '../../db/schema/index.ts';
import type { PageParams } from '../../http/pagination.ts';
import { searchCondition } from '../../http/search.ts';
import { qualified } from '../../db/qualified.ts';

export type ModuleRow = typeof tutorialModules.$inferSelect;
export type QuizRow = typeof tutorialQuizzes.$inferSelect;
export type OptionRow = typeof tutorialQuizOptions.$inferSelect;
export type ContentRow = typeof tutorialContents.$inferSelect;
export type ModuleWithCounts = ModuleRow & { quizCount: number; contentCount: number };

type Page = Pick<PageParams, 'limit' | 'offset'>;

const quizCount = sql<number>`(select count(*)::int from ${tutorialQuizzes} where ${tutorialQuizzes.moduleId} = ${qualified(tutorialModules.id)})`;
const contentCount = sql<number>`(select count(*)::int from ${tutorialContents} where ${tutorialContents.moduleId} = ${qualified(tutorialModules.id)})`;

export async function listModules(
  db: Db,
  search: string | undefined,
  page: Page,
): Promise<{ rows: ModuleWithCounts[]; count: number }> {
  const where = searchCondition(search, [tutorialModules.name]);
  const [rows, [total]] = await Promise.all([
    db
      .select({ module: tutorialModules, quizCount, contentCount })
      .from(tutorialModules)
      .where(where)
      .orderBy(asc(tutorialModules.zOrder), asc(tutorialModules.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ count: count() }).from(tutorialModules).where(where),
  ]);
  return {
    rows: rows.map((r) => ({ ...r.module, quizCount: r.quizCount, contentCount: r.contentCount })),
    count: total?.count ?? 0,
  };
}

export async function findModule(db: DbOrTx, id: number): Promise<ModuleWithCounts | undefined> {
  const [row] = await db
    .select({ module: tutorialModules, quizCount, contentCount })
    .from(tutorialModules)
    .where(eq(tutorialModules.id, id));
  return row && { ...row.module, quizCount: row.quizCount, contentCount: row.contentCount };
}

export async function listQuizzes(
  db: Db,
  moduleId: number,
  search: string | undefined,
  page: Page,
): Promise<{ rows: QuizRow[]; count: number }> {
  const where = and(eq(tutorialQuizzes.moduleId, moduleId), searchCondition(search, [tutorialQuizzes.question]));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(tutorialQuizzes)
      .where(where)
      .orderBy(asc(tutorialQuizzes.zOrder), asc(tutorialQuizzes.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ count: count() }).from(tutorialQuizzes).where(where),
  ]);
  return { rows, count: total?.count ?? 0 };
}

export async function findQuiz(db: DbOrTx, id: number): Promise<QuizRow | undefined> {
  const [row] = await db.select().from(tutorialQuizzes).where(eq(tutorialQuizzes.id, id));
  return row;
}

/** The options of these quizzes, in z_order. */
export async function optionsOf(db: DbOrTx, quizIds: number[]): Promise<OptionRow[]> {
  if (quizIds.length === 0) return [];
  return db
    .select()
    .from(tutorialQuizOptions)
    .where(inArray(tutorialQuizOptions.questionId, quizIds))
    .orderBy(asc(tutorialQuizOptions.zOrder), asc(tutorialQuizOptions.id));
}

export async function listOptions(
  db: Db,
  quizId: number,
  search: string | undefined,
  page: Page,
): Promise<{ rows: OptionRow[]; count: number }> {
  const where = and(eq(tutorialQuizOptions.questionId, quizId), searchCondition(search, [tutorialQuizOptions.option]));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(tutorialQuizOptions)
      .where(where)
      .orderBy(asc(tutorialQuizOptions.zOrder), asc(tutorialQuizOptions.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ count: count() }).from(tutorialQuizOptions).where(where),
  ]);
  return { rows, count: total?.count ?? 0 };
}

export async function findOption(db: DbOrTx, id: number): Promise<OptionRow | undefined> {
  const [row] = await db.select().from(tutorialQuizOptions).where(eq(tutorialQuizOptions.id, id));
  return row;
}

export type ContentWithModule = ContentRow & { moduleName: string; moduleZOrder: number };

const contentColumns = {
  content: tutorialContents,
  moduleName: tutorialModules.name,
  moduleZOrder: tutorialModules.zOrder,
};

export async function listContents(
  db: Db,
  moduleId: number,
  search: string | undefined,
  page: Page,
): Promise<{ rows: ContentWithModule[]; count: number }> {
  const where = and(eq(tutorialContents.moduleId, moduleId), searchCondition(search, [tutorialContents.title]));
  const [rows, [total]] = await Promise.all([
    db
      .select(contentColumns)
      .from(tutorialContents)
      .innerJoin(tutorialModules, eq(tutorialModules.id, tutorialContents.moduleId))
      .where(where)
      .orderBy(asc(tutorialContents.zOrder), asc(tutorialContents.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ count: count() }).from(tutorialContents).where(where),
  ]);
  return {
    rows: rows.map((r) => ({ ...r.content, moduleName: r.moduleName, moduleZOrder: r.moduleZOrder })),
    count: total?.count ?? 0,
  };
}

export async function findContent(db: DbOrTx, id: number): Promise<ContentWithModule | undefined> {
  const [row] = await db
    .select(contentColumns)
    .from(tutorialContents)
    .innerJoin(tutorialModules, eq(tutorialModules.id, tutorialContents.moduleId))
    .where(eq(tutorialContents.id, id));
  return row && { ...row.content, moduleName: row.moduleName, moduleZOrder: row.moduleZOrder };
}

/** The iso codes among `codes` that name a language. */
export async function knownLanguages(db: DbOrTx, codes: string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const rows = await db
    .select({ iso: sql<string>`lower(${languages.isoCode})` })
    .from(languages)
    .where(inArray(sql`lower(${languages.isoCode})`, codes));
  return new Set(rows.map((r) => r.iso));
}

/**
 * Keeps the stored video paths of a module's contents under the module's folder (§5: the path holds the module's
 * z_order): called in the transaction that changes a module's z_order.
 */
export async function movePathsToModuleFolder(tx: DbOrTx, moduleIds: number[]): Promise<void> {
  if (moduleIds.length === 0) return;
  await tx.execute(sql`
    update ${tutorialContents} c
       set primary_image = 'assets/tutorials/tutorial_module_' || m.z_order || '/' ||
                           regexp_replace(c.primary_image, '^assets/tutorials/tutorial_module_-?[0-9]+/', '')
      from ${tutorialModules} m
     where m.id = c.module_id
       and c.primary_image is not null
       and c.module_id in (${sql.join(moduleIds.map((id) => sql`${id}`), sql`, `)})`);
}

/** The ids of a table's list (all modules, or one module's quizzes or contents). */
export async function idsOf(
  db: DbOrTx,
  kind: 'module' | 'quiz' | 'content',
  moduleId?: number,
): Promise<number[]> {
  if (kind === 'module') return (await db.select({ id: tutorialModules.id }).from(tutorialModules)).map((r) => r.id);
  const table = kind === 'quiz' ? tutorialQuizzes : tutorialContents;
  return (
    await db
      .select({ id: table.id })
      .from(table)
      .where(eq(table.moduleId, moduleId ?? 0))
  ).map((r) => r.id);
}

/** Writes z_order = position (1, 2, …) for every id, in one statement. */
export async function writeOrder(tx: DbOrTx, kind: 'module' | 'quiz' | 'content', ids: number[], by: number) {
  const table = kind === 'module' ? tutorialModules : kind === 'quiz' ? tutorialQuizzes : tutorialContents;
  const values = sql.join(
    ids.map((id, i) => sql`(${id}::int, ${i + 1}::int)`),
    sql`, `,
  );
  await tx.execute(sql`
    update ${table} t set z_order = v.z, modified = now(), modified_by = ${by}
      from (values ${values}) as v(id, z)
     where t.id = v.id`);
}

export async function upsertCompletion(
  db: Db,
  input: { userId: number; moduleId: number; progress: number; completed: boolean; at: Date },
): Promise<typeof tutorialModuleCompletions.$inferSelect> {
  const [row] = await db
    .insert(tutorialModuleCompletions)
    .values({
      userId: input.userId,
      moduleId: input.moduleId,
      progress: input.progress,
      completed: input.completed,
      completedAt: input.completed ? input.at : null,
      created: input.at,
      modified: input.at,
    })
    .onConflictDoUpdate({
      target: [tutorialModuleCompletions.userId, tutorialModuleCompletions.moduleId],
      set: {
        // Progress only moves forward, and a completed module stays completed (an app replaying old reports).
        progress: sql`greatest(${tutorialModuleCompletions.progress}, excluded.progress)`,
        completed: sql`${tutorialModuleCompletions.completed} or excluded.completed`,
        completedAt: sql`coalesce(${tutorialModuleCompletions.completedAt}, excluded.completed_at)`,
        modified: input.at,
      },
    })
    .returning();
  if (!row) throw new Error('upsert returned no row');
  return row;
}

/** The published tree the app reads: modules, their quizzes with options, their published contents. */
export async function publishedTree(db: Db) {
  const modules = await db
    .select()
    .from(tutorialModules)
    .where(eq(tutorialModules.status, 'PUBLISHED'))
    .orderBy(asc(tutorialModules.zOrder), asc(tutorialModules.id));
  const moduleIds = modules.map((m) => m.id);
  if (moduleIds.length === 0) return { modules, quizzes: [], options: [], contents: [] };
  const [quizzes, contents] = await Promise.all([
    db
      .select()
      .from(tutorialQuizzes)
      .where(inArray(tutorialQuizzes.moduleId, moduleIds))
      .orderBy(asc(tutorialQuizzes.zOrder), asc(tutorialQuizzes.id)),
    db
      .select()
      .from(tutorialContents)
      .where(and(inArray(tutorialContents.moduleId, moduleIds), eq(tutorialContents.status, 'PUBLISHED')))
      .orderBy(asc(tutorialContents.zOrder), asc(tutorialContents.id)),
  ]);
  const options = await optionsOf(
    db,
    quizzes.map((q) => q.id),
  );
  return { modules, quizzes, options, contents };
}
