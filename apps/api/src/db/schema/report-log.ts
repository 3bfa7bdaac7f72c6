// Log of report and CSV downloads (part 3 §3 Report log entry; architecture §4: every CSV is recorded).
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './identity.ts';

export const reportLogs = pgTable(
  'report_logs',
  {
    id: serial('id').primaryKey(),
    /** Path of the call, e.g. '/api/v1/scan/'. */
    api: text('api').notNull(),
    /** Its query parameters. */
    apiQp: jsonb('api_qp').$type<Record<string, unknown>>().notNull().default({}),
    userAgent: text('user_agent'),
    requestedMethod: text('requested_method').notNull().default('GET'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The user's type at the time of the download. */
    userType: text('user_type'),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('report_logs_created_idx').on(t.created),
    index('report_logs_user_idx').on(t.userId, t.created),
  ],
);
