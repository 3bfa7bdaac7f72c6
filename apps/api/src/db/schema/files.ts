// Records of stored files (local disk or S3): who owns a path decides who may read it.
import { bigint, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './identity.ts';
import { organizations } from './organizations.ts';

export const files = pgTable(
  'files',
  {
    id: serial('id').primaryKey(),
    /** Storage key, e.g. 'companylogo/3f9a…_1764000000000_logo.png'. */
    path: text('path').notNull(),
    folder: text('folder').notNull(),
    originalName: text('original_name'),
    /** Null for files every signed-in user may read (firmware, tutorial media). */
    organizationId: integer('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('files_path_uq').on(t.path), index('files_org_idx').on(t.organizationId)],
);
