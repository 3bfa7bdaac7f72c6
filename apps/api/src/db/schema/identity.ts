// Users, manager links, sessions, one-time codes, audit log, outbox and server settings.
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AuditChange } from '@sc/shared/audit';
import { byUser, createdModified } from './columns.ts';
import { organizations } from './organizations.ts';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    username: text('username').notNull(),
    /** Lower-cased; unique among users that have one. */
    email: text('email'),
    /** Stored as dial code, a hyphen, then the number: '+91-9876543210'. */
    mobile: text('mobile'),
    /** ISO country of the mobile number, e.g. 'IN'. */
    mobileCountryCode: text('mobile_country_code'),
    userType: text('user_type', {
      enum: ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN', 'CERVAICAL_REVIEWER', 'TECHNICIAN'],
    }).notNull(),
    isTrainer: boolean('is_trainer').notNull().default(false),
    isAvailableDemo: boolean('is_available_demo').notNull().default(false),
    organizationId: integer('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    ibeTrainingStatus: text('ibe_training_status', {
      enum: ['NOT_STARTED', 'PRE_TRAINING', 'TRAINING', 'PRACTICE', 'CERTIFIED'],
    })
      .notNull()
      .default('NOT_STARTED'),
    certificateIssueDate: date('certificate_issue_date'),
    certificateExpiryDate: date('certificate_expiry_date'),
    /** False once disabled or deleted: cannot sign in. */
    isValid: boolean('is_valid').notNull().default(true),
    passwordHash: text('password_hash'),
    pinHash: text('pin_hash'),
    pinResetRequest: boolean('pin_reset_request').notNull().default(false),
    lastUsedDashboardPath: text('last_used_dashboard_path'),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [
    uniqueIndex('users_username_uq').on(t.username),
    uniqueIndex('users_email_uq').on(sql`lower(${t.email})`).where(sql`${t.email} is not null`),
    uniqueIndex('users_mobile_uq').on(t.mobile).where(sql`${t.mobile} is not null`),
    index('users_org_type_idx').on(t.organizationId, t.userType),
    index('users_type_idx').on(t.userType),
    index('users_created_idx').on(t.created),
    index('users_cert_expiry_idx').on(t.certificateExpiryDate),
    index('users_name_trgm_idx').using(
      'gin',
      sql`(${t.firstName} || ' ' || ${t.lastName} || ' ' || coalesce(${t.email}, '') || ' ' || coalesce(${t.mobile}, '')) gin_trgm_ops`,
    ),
  ],
);

/** Organizations a MANAGER is linked to (part 2 §3 "User organization link"). */
export const managerOrganizations = pgTable(
  'manager_organizations',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [uniqueIndex('manager_organizations_uq').on(t.userId, t.organizationId), index('manager_organizations_org_idx').on(t.organizationId)],
);

/**
 * Opaque session tokens, stored as SHA-256 hashes. `kind` = impersonation tokens answer GET/HEAD only, and live
 * only while `parent_session_id`, the ADMIN's session that started them, does.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['session', 'impersonation'] }).notNull().default('session'),
    impersonatorId: integer('impersonator_id').references(() => users.id, { onDelete: 'cascade' }),
    parentSessionId: integer('parent_session_id').references((): AnyPgColumn => sessions.id, { onDelete: 'cascade' }),
    source: text('source'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_uq').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
    index('sessions_parent_session_idx').on(t.parentSessionId),
  ],
);

/**
 * One-time secrets, stored hashed: sign-in codes sent by SMS ('otp'), password-reset links ('password_reset'),
 * set-password links for new users ('set_password'), the short-lived id_token between the two sign-in steps, and
 * the proof that a privileged user's sign-in code was verified while its password is still due ('code_verified').
 */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: serial('id').primaryKey(),
    purpose: text('purpose', { enum: ['otp', 'password_reset', 'set_password', 'id_token', 'second_factor', 'code_verified'] }).notNull(),
    /** The mobile ('+91-9876543210') or e-mail the code was sent to. */
    target: text('target').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('one_time_codes_target_idx').on(t.purpose, t.target, t.created), index('one_time_codes_hash_idx').on(t.codeHash)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    action: text('action').notNull(),
    /** `auditGroupOf(action)`, written with the row: the screen's group filter reads an index. */
    actionGroup: text('action_group').notNull().default('other'),
    actorId: integer('actor_id'),
    impersonatorId: integer('impersonator_id'),
    targetType: text('target_type'),
    targetId: text('target_id'),
    outcome: text('outcome', { enum: ['success', 'failure'] }).notNull().default('success'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    /** The organization the target belongs to when the row was written: what scopes the audit screen (issue 27). */
    organizationId: integer('organization_id'),
    /** The changed fields of a write, before and after (`auditChanges`); null for rows that change nothing. */
    changes: jsonb('changes').$type<AuditChange[]>(),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.created),
    index('audit_log_actor_idx').on(t.actorId, t.created),
    index('audit_log_action_idx').on(t.action),
    index('audit_log_org_idx').on(t.organizationId, t.id),
    index('audit_log_group_idx').on(t.actionGroup, t.id),
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.id),
  ],
);

/** Messages to send (e-mail, SMS). With no provider configured they stay here and in the log: the outbox. */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: serial('id').primaryKey(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    to: text('to').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    /** The one-time code or link the message carries, for the embedded-mode outbox reader. */
    code: text('code'),
    link: text('link'),
    status: text('status', { enum: ['pending', 'sent', 'failed', 'stored'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('outbox_to_idx').on(t.to, t.created)],
);

/** Server-wide settings such as the generated signing secret. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  ...createdModified(),
});
