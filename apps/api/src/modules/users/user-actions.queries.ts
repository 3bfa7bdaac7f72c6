// Reads of the user dialog's tutorial status: every published module in its order, and the user's progress.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { tutorialModuleCompletions, tutorialModules } from '../../db/schema/index.ts';

export async function listTutorialStatus(
  db: Db,
  userId: number,
): Promise<{ id: number; name: string; completed: boolean; progress: number }[]> {
  const rows = await db
    .select({
      id: tutorialModules.id,
      name: tutorialModules.name,
      completed: tutorialModuleCompletions.completed,
      progress: tutorialModuleCompletions.progress,
    })
    .from(tutorialModules)
    .leftJoin(
      tutorialModuleCompletions,
      and(
        eq(tutorialModuleCompletions.moduleId, tutorialModules.id),
        eq(tutorialModuleCompletions.userId, userId),
      ),
    )
    .where(eq(tutorialModules.status, 'PUBLISHED'))
    .orderBy(asc(tutorialModules.zOrder), asc(tutorialModules.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    completed: r.completed ?? false,
    progress: r.completed ? 100 : Math.max(0, Math.min(100, r.progress ?? 0)),
  }));
}
