// Idempotency keys of device uploads (POST patient/, POST scan/): one row per (user, key), written in the same
// transaction as the object it records, so a retry (or twenty parallel copies) of one upload stores it once and
// answers with the stored status and body. The unique index is what serialises concurrent copies: a second insert
// of the same key waits for the first transaction, then finds its row.
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './identity.ts';

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** 'POST scan/': a key names one request to one endpoint. */
    endpoint: text('endpoint').notNull(),
    /** SHA-256 of the request as validated (canonical JSON): the same key with other content is a 422. */
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    response: jsonb('response').$type<Record<string, unknown>>(),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('idempotency_keys_user_key_uq').on(t.userId, t.key),
    index('idempotency_keys_created_idx').on(t.created),
  ],
);
