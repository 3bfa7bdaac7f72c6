// App versions and their release notes, one list per app (part 3 §3 App version).
// languages.app_version_id references this table; that key is added by a hand-written migration.
import { index, numeric, jsonb, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { APP_TYPES } from '@sc/shared/constants';
import { byUser, createdModified } from './columns.ts';

export const appVersions = pgTable(
  'app_versions',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    code: varchar('code', { length: 10 }).notNull(),
    tutorialVersion: numeric('tutorial_version', { mode: 'number' }),
    notes: jsonb('notes').$type<{ note: string }>().notNull().default({ note: '' }),
    type: text('type', { enum: APP_TYPES }).notNull(),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [index('app_versions_type_idx').on(t.type, t.created)],
);
