// The audit log: who did what, from where, with what outcome. Details never hold a secret: keys that
// name one (password, code, token, pin, secret, hash) are dropped before the row is written.
import type { Database, DbOrTx } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';

export type AuditEntry = {
  action: string;
  actorId?: number | null;
  impersonatorId?: number | null;
  targetType?: string | null;
  targetId?: string | number | null;
  outcome?: 'success' | 'failure';
  ip?: string | null;
  userAgent?: string | null;
  details?: Record<string, unknown>;
};

export type AuditService = {
  /**
   * Writes one row. Pass `tx` to write inside the caller's transaction (a row that must commit or roll back
   * with the change it records, or be counted before a lock is released); otherwise it is written on its own.
   */
  record: (entry: AuditEntry, tx?: DbOrTx) => Promise<void>;
};

const SECRET_KEY_PATTERN = /pass|code|token|pin|secret|hash|otp/i;
// Keys that contain a secret-looking word but hold none.
const ALLOWED_KEYS = new Set(['reason', 'mobile_country_code', 'country_code']);

export function stripSecrets(details: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details)) {
    if (SECRET_KEY_PATTERN.test(key) && !ALLOWED_KEYS.has(key)) continue;
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value)
        ? stripSecrets(value as Record<string, unknown>)
        : value;
  }
  return out;
}

export function createAuditService(database: Database, now: () => Date): AuditService {
  return {
    record: async (entry, tx) => {
      await (tx ?? database.db).insert(auditLog).values({
        action: entry.action,
        actorId: entry.actorId ?? null,
        impersonatorId: entry.impersonatorId ?? null,
        targetType: entry.targetType ?? null,
        targetId: entry.targetId == null ? null : String(entry.targetId),
        outcome: entry.outcome ?? 'success',
        ip: entry.ip ?? null,
        userAgent: entry.userAgent ? entry.userAgent.slice(0, 500) : null,
        details: stripSecrets(entry.details ?? {}),
        created: now(),
      });
    },
  };
}
