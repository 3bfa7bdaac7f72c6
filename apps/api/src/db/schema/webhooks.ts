// Webhook deliveries: one row per event POSTed (or being retried) to an organization's URL (architecture §7): a new scan, or a
// follow-up case's move (issue 26).
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { WEBHOOK_EVENTS } from '@sc/shared/follow-up';
import { followUpCases } from './follow-up.ts';
import { organizations } from './organizations.ts';
import { scans } from './scans.ts';

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** What happened: 'scan.created' (the scan is read at delivery) or a follow-up case's move (payload kept). */
    event: text('event', { enum: WEBHOOK_EVENTS }).notNull().default('scan.created'),
    scanId: integer('scan_id').references(() => scans.id, { onDelete: 'cascade' }),
    followUpCaseId: integer('follow_up_case_id').references(() => followUpCases.id, { onDelete: 'cascade' }),
    /** The JSON body of events other than scan.created, fixed when the event happened. */
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    url: text('url').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    /** How long the last attempt took, from sending to the receiver's answer or the error. */
    durationMs: integer('duration_ms'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    /** The delivery this one sends again (a Replay), if it is one. */
    replayOf: integer('replay_of'),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_org_idx').on(t.organizationId, t.created),
    index('webhook_deliveries_scan_idx').on(t.scanId),
    index('webhook_deliveries_case_idx')
      .on(t.followUpCaseId)
      .where(sql`${t.followUpCaseId} is not null`),
    check('webhook_deliveries_subject_ck', sql`${t.scanId} is not null or ${t.followUpCaseId} is not null`),
    index('webhook_deliveries_pending_idx')
      .on(t.status)
      .where(sql`${t.status} = 'pending'`),
  ],
);
