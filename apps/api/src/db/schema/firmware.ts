// Device firmware (.ibe) versions (part 3 §3 Firmware).
import { index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { byUser, createdModified } from './columns.ts';

export const firmware = pgTable(
  'firmware',
  {
    id: serial('id').primaryKey(),
    /** As written on the file's first line, e.g. 'v2.14'. */
    version: text('version').notNull(),
    /** Stored file path of the .ibe file. */
    path: text('path').notNull(),
    /** SHA-256 of the file, lowercase hex: devices check the download against it. Null only for rows made before it. */
    checksum: text('checksum'),
    /** Bytes of the file. */
    size: integer('size'),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [uniqueIndex('firmware_version_uq').on(t.version), index('firmware_created_idx').on(t.created)],
);
