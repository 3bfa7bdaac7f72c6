// The audit log: who did what, from where, with what outcome, and what changed (issue 27). Details and changes never
// hold a secret: keys that name one (password, code, token, pin, secret, hash) are written as AUDIT_REDACTED (changes)
// or dropped (details); long texts are cut to AUDIT_TEXT_MAX.
import {
  AUDIT_CUT_MARK,
  AUDIT_READ_FOLD_SECONDS,
  AUDIT_REDACTED,
  AUDIT_TEXT_MAX,
  auditGroupOf,
  type AuditChange,
} from '@sc/shared/audit';
import type { Database, DbOrTx } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';
import type { Actor } from '../http/actor.ts';

export type { AuditChange };

export type AuditEntry = {
  action: string;
  actorId?: number | null;
  impersonatorId?: number | null;
  targetType?: string | null;
  targetId?: string | number | null;
  /** The organization the target belongs to (after the change, for a transfer): scopes who may read the row. */
  organizationId?: number | null;
  outcome?: 'success' | 'failure';
  ip?: string | null;
  userAgent?: string | null;
  details?: Record<string, unknown>;
  /** The fields a write changed (`auditChanges(before, after)`); omit for rows that change nothing. */
  changes?: AuditChange[] | null;
};

export type AuditService = {
  /**
   * Writes one row. Pass `tx` to write inside the caller's transaction (a row that must commit or roll back
   * with the change it records, or be counted before a lock is released); otherwise it is written on its own.
   */
  record: (entry: AuditEntry, tx?: DbOrTx) => Promise<void>;
  /**
   * A read of personal data: writes a row unless the same actor read the same target with the same action within
   * AUDIT_READ_FOLD_SECONDS (a burst folds into its first row; counted per instance, so several instances may each
   * write one). Returns whether a row was written.
   */
  read: (entry: AuditEntry, tx?: DbOrTx) => Promise<boolean>;
};

/**
 * The common part of every row a request writes: who acted, who was impersonating them, and from where. Spread it
 * into the entry: `audit.record({ action, ...auditActor(actor, meta), targetType, targetId, organizationId, changes }, tx)`.
 * `actor` is null for a public request (a booking page, a sign-in before the user is known).
 */
export function auditActor(
  actor: Pick<Actor, 'id' | 'impersonatorId'> | null | undefined,
  meta: { ip?: string | null; userAgent?: string | null } | null | undefined,
): Pick<AuditEntry, 'actorId' | 'impersonatorId' | 'ip' | 'userAgent'> {
  return {
    actorId: actor?.id ?? null,
    impersonatorId: actor?.impersonatorId ?? null,
    ip: meta?.ip ?? null,
    userAgent: meta?.userAgent ?? null,
  };
}

const SECRET_KEY_PATTERN = /pass|code|token|pin|secret|hash|otp/i;
// Keys that contain a secret-looking word but hold none.
const ALLOWED_KEYS = new Set(['reason', 'mobile_country_code', 'country_code', 'zip_code', 'zipcode', 'pin_reset_request']);

export const isSecretKey = (key: string): boolean => SECRET_KEY_PATTERN.test(key) && !ALLOWED_KEYS.has(key);

/** A text longer than AUDIT_TEXT_MAX, cut; other values as they are. */
export function cutText(value: unknown): unknown {
  return typeof value === 'string' && value.length > AUDIT_TEXT_MAX
    ? value.slice(0, AUDIT_TEXT_MAX - AUDIT_CUT_MARK.length) + AUDIT_CUT_MARK
    : value;
}

export function stripSecrets(details: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details)) {
    if (isSecretKey(key)) continue;
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
        ? stripSecrets(value as Record<string, unknown>)
        : cutText(value);
  }
  return out;
}

/** A value as JSON keeps it: dates as ISO text, undefined as null, texts cut, nested objects without secrets. */
function plain(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') return stripSecrets(value as Record<string, unknown>);
  return cutText(value);
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(plain(a)) === JSON.stringify(plain(b));

/**
 * The fields that differ between a record before and after a write, as the audit row's `changes`. Pass `null` as
 * `before` for a creation and as `after` for a deletion (every field is then listed). `fields` limits the comparison
 * (default: every key of either side). Keys are written as given: pass the API's names (snake_case) where the
 * console shows them. Secrets are written as AUDIT_REDACTED on both sides (only that they changed is kept).
 */
export function auditChanges(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
  fields?: readonly string[],
): AuditChange[] {
  const keys = fields ?? [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const changes: AuditChange[] = [];
  for (const field of keys) {
    const b = before ? before[field] : undefined;
    const a = after ? after[field] : undefined;
    if (before && after && same(b, a)) continue;
    if (isSecretKey(field)) {
      changes.push({ field, before: before ? AUDIT_REDACTED : null, after: after ? AUDIT_REDACTED : null });
    } else {
      changes.push({ field, before: plain(b), after: plain(a) });
    }
  }
  return changes;
}

const STAMP_KEYS = new Set(['created', 'modified', 'createdBy', 'modifiedBy', 'createdAt', 'updatedAt']);

/**
 * A stored row's fields under snake_case names (`isoCode` → `iso_code`), without its stamps: the before/after of an
 * audit row for a record whose API names are its columns' (`auditChanges(auditRow(before), auditRow(after))`).
 */
export function auditRow(row: object | null | undefined): Record<string, unknown> | null {
  if (!row) return null;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (STAMP_KEYS.has(key)) continue;
    out[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = value;
  }
  return out;
}

const FOLD_KEYS_KEPT = 10_000;

export function createAuditService(database: Database, now: () => Date): AuditService {
  const record: AuditService['record'] = async (entry, tx) => {
    await (tx ?? database.db).insert(auditLog).values({
      action: entry.action,
      actionGroup: auditGroupOf(entry.action),
      actorId: entry.actorId ?? null,
      impersonatorId: entry.impersonatorId ?? null,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId == null ? null : String(entry.targetId),
      organizationId: entry.organizationId ?? null,
      outcome: entry.outcome ?? 'success',
      ip: entry.ip ?? null,
      userAgent: entry.userAgent ? entry.userAgent.slice(0, 500) : null,
      details: stripSecrets(entry.details ?? {}),
      changes: entry.changes && entry.changes.length > 0 ? entry.changes : null,
      created: now(),
    });
  };
  // (actor, action, target) → when its last row was written.
  const lastRead = new Map<string, number>();
  return {
    record,
    read: async (entry, tx) => {
      const key = `${entry.actorId ?? ''}|${entry.impersonatorId ?? ''}|${entry.action}|${entry.targetType ?? ''}|${entry.targetId ?? ''}`;
      const at = now().getTime();
      const last = lastRead.get(key);
      if (last !== undefined && at - last < AUDIT_READ_FOLD_SECONDS * 1000 && at >= last) return false;
      await record(entry, tx);
      lastRead.delete(key);
      lastRead.set(key, at);
      if (lastRead.size > FOLD_KEYS_KEPT) lastRead.delete(lastRead.keys().next().value!);
      return true;
    },
  };
}
