// Rows of the files table: one per stored upload, saying who owns it.
import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { files } from '../../db/schema/index.ts';

export type FileRow = typeof files.$inferSelect;

export async function insertFile(
  db: Db,
  values: {
    path: string;
    folder: string;
    originalName: string | null;
    organizationId: number | null;
    userId: number;
    contentType: string;
    size: number;
    created: Date;
  },
): Promise<FileRow> {
  const [row] = await db.insert(files).values(values).returning();
  if (!row) throw new Error('The file record was not created.');
  return row;
}

export async function findFileByPath(db: Db, path: string): Promise<FileRow | null> {
  const [row] = await db.select().from(files).where(eq(files.path, path)).limit(1);
  return row ?? null;
}

export async function setFileOrganization(db: DbOrTx, path: string, organizationId: number): Promise<void> {
  await db.update(files).set({ organizationId }).where(eq(files.path, path));
}
