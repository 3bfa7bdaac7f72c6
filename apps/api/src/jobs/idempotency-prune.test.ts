// The daily prune of device-upload idempotency keys: keys past the retention go, younger ones stay (their retries
// still replay).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_RETENTION_DAYS } from '@sc/shared/uploads';
import { idempotencyKeys } from '../db/schema/index.ts';
import { setupTestApp } from '../test/app.ts';
import { createUser } from '../test/factories.ts';
import { idempotencyPruneJob, pruneIdempotencyKeys } from './idempotency-prune.job.ts';
import { JOBS } from '../services/queue/jobs.ts';

const t = await setupTestApp();
const { db } = t.database;
const DAY = 86_400_000;

describe('idempotency-prune', () => {
  it('deletes keys older than the retention and keeps the others', async () => {
    const user = await createUser(t, { password: null });
    const now = new Date('2026-06-01T00:00:00.000Z');
    const row = (key: string, ageDays: number) => ({
      userId: user.id,
      key,
      endpoint: 'POST scan/',
      requestHash: 'h',
      statusCode: 201,
      response: { id: 1 },
      created: new Date(now.getTime() - ageDays * DAY),
    });
    await db
      .insert(idempotencyKeys)
      .values([
        row('old-key-0001', IDEMPOTENCY_KEY_RETENTION_DAYS + 1),
        row('young-key-001', IDEMPOTENCY_KEY_RETENTION_DAYS - 1),
      ]);
    await pruneIdempotencyKeys({ ...t.app.ctx, now: () => now });
    const left = await db
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.userId, user.id));
    expect(left.map((r) => r.key)).toEqual(['young-key-001']);
  });

  it('is registered and scheduled daily', () => {
    expect(JOBS).toContain(idempotencyPruneJob);
    expect(idempotencyPruneJob.schedule?.cron).toBe('17 3 * * *');
  });
});
