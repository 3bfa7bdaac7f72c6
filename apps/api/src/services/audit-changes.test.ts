// Audit rows' changes (issue 27): before/after of the changed fields, secrets redacted, long texts cut, and a row
// written in a transaction that fails is rolled back with the change it records.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AUDIT_CUT_MARK, AUDIT_REDACTED, AUDIT_TEXT_MAX } from '@sc/shared/audit';
import { auditLog } from '../db/schema/index.ts';
import { setupTestApp } from '../test/app.ts';
import { auditActor, auditChanges, auditRow } from './audit.service.ts';

const t = await setupTestApp();

describe('auditChanges', () => {
  it('keeps the changed fields only, with their values before and after', () => {
    expect(auditChanges({ name: 'A', age: 40 }, { name: 'B', age: 40 })).toEqual([{ field: 'name', before: 'A', after: 'B' }]);
  });

  it('lists every field of a creation with a null before, and of a deletion with a null after', () => {
    expect(auditChanges(null, { name: 'A' })).toEqual([{ field: 'name', before: null, after: 'A' }]);
    expect(auditChanges({ name: 'A' }, null)).toEqual([{ field: 'name', before: 'A', after: null }]);
  });

  it('writes a secret as redacted on both sides and a long text cut', () => {
    const long = 'x'.repeat(AUDIT_TEXT_MAX + 50);
    const changes = auditChanges({ webhook_auth_token: 'old-secret', note: 'short' }, { webhook_auth_token: 'new-secret', note: long });
    expect(changes).toContainEqual({ field: 'webhook_auth_token', before: AUDIT_REDACTED, after: AUDIT_REDACTED });
    const note = changes.find((c) => c.field === 'note')!;
    expect(String(note.after)).toHaveLength(AUDIT_TEXT_MAX);
    expect(String(note.after).endsWith(AUDIT_CUT_MARK)).toBe(true);
    expect(JSON.stringify(changes)).not.toContain('secret');
  });

  it('names a stored row as the API does, without its stamps, and dates as ISO text', () => {
    const at = new Date('2026-03-01T10:00:00Z');
    expect(auditRow({ isoCode: 'fr', created: at, modifiedBy: 1 })).toEqual({ iso_code: 'fr' });
    expect(auditChanges(null, { when: at })).toEqual([{ field: 'when', before: null, after: at.toISOString() }]);
  });
});

describe('auditActor', () => {
  it('takes the actor, the impersonating ADMIN and the address of the request', () => {
    expect(auditActor({ id: 7, impersonatorId: 2 }, { ip: '203.0.113.9', userAgent: 'UA' })).toEqual({
      actorId: 7,
      impersonatorId: 2,
      ip: '203.0.113.9',
      userAgent: 'UA',
    });
    expect(auditActor(null, null)).toEqual({ actorId: null, impersonatorId: null, ip: null, userAgent: null });
  });
});

describe('a row in a failed transaction', () => {
  it('is rolled back with the change it records', async () => {
    const action = 'organization.updated';
    const targetId = `rollback-${process.pid}`;
    await expect(
      t.database.db.transaction(async (tx) => {
        await t.app.ctx.services.audit.record({ action, targetType: 'organization', targetId, changes: auditChanges({ a: 1 }, { a: 2 }) }, tx);
        throw new Error('the write fails after its row');
      }),
    ).rejects.toThrow('the write fails');
    expect(await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, targetId))).toEqual([]);
    await t.database.db.transaction(async (tx) => {
      await t.app.ctx.services.audit.record({ action, targetType: 'organization', targetId, changes: auditChanges({ a: 1 }, { a: 2 }) }, tx);
    });
    const [row] = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, targetId));
    expect(row?.changes).toEqual([{ field: 'a', before: 1, after: 2 }]);
  });
});
