// Drizzle queries of firmware versions. The table is small (one row a release) and belongs to no organization:
// every device of every organization is offered the same firmware.
import { and, count, eq, sql } from 'drizzle-orm';
import { FIRMWARE_DEFAULT_ORDERING, type TFirmwareListQuery } from '@sc/shared/firmware';
import type { DbOrTx } from '../../db/client.ts';
import { firmware } from '../../db/schema/index.ts';
import { parseOrdering } from '../../http/ordering.ts';
import type { PageParams } from '../../http/pagination.ts';
import { searchCondition } from '../../http/search.ts';

export type FirmwareRow = typeof firmware.$inferSelect;

const ORDERING = { id: firmware.id, version: firmware.version, created: firmware.created };

// 'v2.14', 'V2.14' and '2.14' are one version to the `version` filter.
const withoutV = (value: unknown) => sql`regexp_replace(${value}, '^[vV]', '')`;

export async function listFirmware(
  db: DbOrTx,
  filters: Pick<TFirmwareListQuery, 'search' | 'ordering' | 'version'>,
  page: Pick<PageParams, 'limit' | 'offset'>,
): Promise<{ rows: FirmwareRow[]; count: number }> {
  const version = filters.version?.trim();
  const where = and(
    searchCondition(filters.search, [firmware.version]),
    version ? sql`${withoutV(firmware.version)} = ${withoutV(version)}` : undefined,
  );
  const orderBy = parseOrdering(filters.ordering, ORDERING, FIRMWARE_DEFAULT_ORDERING);
  const [rows, [total]] = await Promise.all([
    db.select().from(firmware).where(where).orderBy(...orderBy).limit(page.limit).offset(page.offset),
    db.select({ count: count() }).from(firmware).where(where),
  ]);
  return { rows, count: total?.count ?? 0 };
}

export async function findFirmware(db: DbOrTx, id: number): Promise<FirmwareRow | null> {
  const [row] = await db.select().from(firmware).where(eq(firmware.id, id)).limit(1);
  return row ?? null;
}

/** Every version on record: the latest, and a known version, are decided in version order, not by text. */
export async function listFirmwareVersions(db: DbOrTx): Promise<Array<Pick<FirmwareRow, 'id' | 'version'>>> {
  return db.select({ id: firmware.id, version: firmware.version }).from(firmware);
}

export async function insertFirmware(
  db: DbOrTx,
  values: { version: string; path: string; checksum: string; size: number; by: number; at: Date },
): Promise<FirmwareRow> {
  const [row] = await db
    .insert(firmware)
    .values({
      version: values.version,
      path: values.path,
      checksum: values.checksum,
      size: values.size,
      created: values.at,
      modified: values.at,
      createdBy: values.by,
      modifiedBy: values.by,
    })
    .returning();
  if (!row) throw new Error('The firmware insert returned no row.');
  return row;
}

export async function updateFirmware(
  db: DbOrTx,
  id: number,
  values: { version: string; path: string; checksum: string; size: number; by: number; at: Date },
): Promise<FirmwareRow | null> {
  const [row] = await db
    .update(firmware)
    .set({
      version: values.version,
      path: values.path,
      checksum: values.checksum,
      size: values.size,
      modified: values.at,
      modifiedBy: values.by,
    })
    .where(eq(firmware.id, id))
    .returning();
  return row ?? null;
}

export async function deleteFirmware(db: DbOrTx, id: number): Promise<FirmwareRow | null> {
  const [row] = await db.delete(firmware).where(eq(firmware.id, id)).returning();
  return row ?? null;
}
