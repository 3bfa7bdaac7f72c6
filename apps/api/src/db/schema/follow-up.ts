// Follow-up of screen-positive patients (issue 26): a case per patient episode, the positives that opened or joined
// it, its timeline (append-only) and each organization's due intervals and reminder texts. The rules are in
// @sc/shared/follow-up.
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  FOLLOW_UP_ENTRY_KINDS,
  FOLLOW_UP_MODALITIES,
  FOLLOW_UP_OUTCOMES,
  FOLLOW_UP_SITES,
  FOLLOW_UP_SOURCE_KINDS,
  FOLLOW_UP_STATUSES,
} from '@sc/shared/follow-up';
import { byUser, createdModified } from './columns.ts';
import { users } from './identity.ts';
import { organizations } from './organizations.ts';
import { patients } from './patients.ts';

export const followUpCases = pgTable(
  'follow_up_cases',
  {
    id: serial('id').primaryKey(),
    patientId: integer('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    /** The patient's organization; moves with the patient on transfer. */
    organizationId: integer('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    status: text('status', { enum: FOLLOW_UP_STATUSES }).notNull().default('OPEN'),
    statusChanged: timestamp('status_changed', { withTimezone: true }).notNull().defaultNow(),
    /** Modalities of the positives linked to the case (one, or more when a further positive joined). */
    modalities: text('modalities', { enum: FOLLOW_UP_MODALITIES })
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** When the first positive was screened (its date_time): the start of "positive → diagnosis". */
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    assignedUserId: integer('assigned_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Next due date in the organization's zone (null once closing) and the instant it becomes overdue. */
    nextDue: date('next_due'),
    dueAt: timestamp('due_at', { withTimezone: true }),
    lastActionKind: text('last_action_kind', { enum: FOLLOW_UP_ENTRY_KINDS }),
    lastActionAt: timestamp('last_action_at', { withTimezone: true }),
    outcome: text('outcome', { enum: FOLLOW_UP_OUTCOMES }),
    outcomeSite: text('outcome_site', { enum: FOLLOW_UP_SITES }),
    diagnosisDate: date('diagnosis_date'),
    diagnosisFacility: text('diagnosis_facility'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** The active status a reminder SMS was last sent for: one SMS per case and state. */
    smsRemindedStatus: text('sms_reminded_status', { enum: FOLLOW_UP_STATUSES }),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [
    // At most one active case per patient: parallel positives of one patient meet here, and the second joins.
    uniqueIndex('follow_up_cases_patient_active_uq')
      .on(t.patientId)
      .where(sql`${t.status} in ('OPEN', 'CONTACTED', 'REFERRED', 'SEEN')`),
    index('follow_up_cases_patient_idx').on(t.patientId),
    index('follow_up_cases_org_due_idx').on(t.organizationId, t.dueAt),
    index('follow_up_cases_due_idx').on(t.dueAt),
    index('follow_up_cases_org_opened_idx').on(t.organizationId, t.openedAt),
    index('follow_up_cases_opened_idx').on(t.openedAt),
    index('follow_up_cases_assigned_idx').on(t.assignedUserId),
    index('follow_up_cases_status_idx').on(t.status),
  ],
);

/**
 * The positives behind a case. A positive (kind, source id) is linked once, ever: re-running the backfill, a device
 * sending a scan again or a review saved twice finds it linked and changes nothing. No foreign key (three tables);
 * a deleted exam leaves its row, which the case's detail skips.
 */
export const followUpCaseSources = pgTable(
  'follow_up_case_sources',
  {
    id: serial('id').primaryKey(),
    caseId: integer('case_id')
      .notNull()
      .references(() => followUpCases.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: FOLLOW_UP_SOURCE_KINDS }).notNull(),
    sourceId: integer('source_id').notNull(),
    /** When the positive was screened. */
    screenedAt: timestamp('screened_at', { withTimezone: true }).notNull(),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('follow_up_case_sources_uq').on(t.kind, t.sourceId),
    index('follow_up_case_sources_case_idx').on(t.caseId),
  ],
);

/** A case's timeline: append-only (no UPDATE or DELETE is ever issued; a correction is a new entry). */
export const followUpEntries = pgTable(
  'follow_up_entries',
  {
    id: serial('id').primaryKey(),
    caseId: integer('case_id')
      .notNull()
      .references(() => followUpCases.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: FOLLOW_UP_ENTRY_KINDS }).notNull(),
    /** Who wrote it; null for the system. */
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    fromStatus: text('from_status', { enum: FOLLOW_UP_STATUSES }),
    toStatus: text('to_status', { enum: FOLLOW_UP_STATUSES }),
    /** The entry's own fields (method, result, facility, dates, outcome, source kind and id, …). */
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    note: text('note'),
    correctsId: integer('corrects_id').references((): AnyPgColumn => followUpEntries.id, { onDelete: 'set null' }),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('follow_up_entries_case_idx').on(t.caseId, t.created),
    index('follow_up_entries_corrects_idx')
      .on(t.correctsId)
      .where(sql`${t.correctsId} is not null`),
  ],
);

/** An organization's due intervals (days) and reminders; an organization without a row uses the defaults. */
export const followUpSettings = pgTable('follow_up_settings', {
  organizationId: integer('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  contactDays: integer('contact_days').notNull(),
  referralDays: integer('referral_days').notNull(),
  seenDays: integer('seen_days').notNull(),
  outcomeDays: integer('outcome_days').notNull(),
  digestEnabled: boolean('digest_enabled').notNull().default(true),
  smsEnabled: boolean('sms_enabled').notNull().default(false),
  /** Reminder text per language iso code. */
  smsTexts: jsonb('sms_texts').$type<Record<string, string>>().notNull().default({}),
  ...createdModified(),
  ...byUser(),
});

/**
 * The daily reminder run of an organization (its digest e-mail and patient SMS) on one of its local dates: written
 * by the job before it sends, so a re-run or a second instance finds the day taken and sends nothing twice.
 */
export const followUpReminderRuns = pgTable(
  'follow_up_reminder_runs',
  {
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    localDate: date('local_date').notNull(),
    overdueCases: integer('overdue_cases').notNull().default(0),
    digestsSent: integer('digests_sent').notNull().default(0),
    smsSent: integer('sms_sent').notNull().default(0),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.localDate] })],
);
