// The trash (issue 27): a deleted record and every row its delete removed (its scans, exams, findings, documents,
// follow-up cases and entries…), kept as JSON in dependency order until TRASH_RETENTION_DAYS have passed. The rows
// are deleted for real, so every list, count, statistic, export, map and device read hides them at once and the
// tables' triggers keep each pre-aggregate exact; a restore re-inserts them with the same ids, in the same order.
// A deleted user keeps its row (users.deleted_at): its entry holds no rows and a restore clears deleted_at.
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './identity.ts';

/** One table's rows in a trash entry, as `to_jsonb(row)`. */
export type TrashedRows = { table: string; rows: Array<Record<string, unknown>> };

export const trashEntries = pgTable(
  'trash_entries',
  {
    id: serial('id').primaryKey(),
    /** The trash view it is listed in (TRASH_AREAS). */
    area: text('area').notNull(),
    /** The deleted record: its table's target type ('patient', 'scan', …) and id. */
    targetType: text('target_type').notNull(),
    targetId: integer('target_id').notNull(),
    /** What the trash view shows for it (a patient's name, a scan's id and serial…). */
    label: text('label').notNull(),
    /** Its organization (no FK: the organization may be deleted meanwhile); scopes who may list and restore it. */
    organizationId: integer('organization_id'),
    deletedBy: integer('deleted_by').references(() => users.id, { onDelete: 'set null' }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull(),
    /** When the purge job deletes it for good (deleted_at + TRASH_RETENTION_DAYS). */
    purgeAfter: timestamp('purge_after', { withTimezone: true }).notNull(),
    /** Every row the delete removed, parents before children. */
    rows: jsonb('rows').$type<TrashedRows[]>().notNull().default([]),
    /** How many rows of each table (for the view and the audit row). */
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    /** The storage keys of its files: kept until the purge, then deleted. */
    fileKeys: jsonb('file_keys').$type<string[]>().notNull().default([]),
  },
  (t) => [
    index('trash_entries_area_idx').on(t.area, t.deletedAt, t.id),
    index('trash_entries_purge_idx').on(t.purgeAfter),
    index('trash_entries_target_idx').on(t.targetType, t.targetId),
  ],
);
