// Column helpers every table shares.
import { integer, timestamp } from 'drizzle-orm/pg-core';

export const createdModified = () => ({
  created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  modified: timestamp('modified', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

/** created_by / modified_by: user ids without a foreign key, so deleting users never cascades into history. */
export const byUser = () => ({
  createdBy: integer('created_by'),
  modifiedBy: integer('modified_by'),
});
