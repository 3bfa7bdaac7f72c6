// Deletes the idempotency keys of device uploads older than IDEMPOTENCY_KEY_RETENTION_DAYS (issue 8): a key only
// serves the retries of one upload. Daily once the workers start; idempotent (deleting what is gone is nothing).
import { z } from 'zod';
import { IDEMPOTENCY_KEY_RETENTION_DAYS } from '@sc/shared/uploads';
import { deleteIdempotencyKeysBefore } from '../modules/uploads/uploads.queries.ts';
import { defineJob, type JobContext } from '../services/queue/job.ts';

export const IDEMPOTENCY_PRUNE_BATCH = 5000;
export const IDEMPOTENCY_PRUNE_CRON = '17 3 * * *';

export const idempotencyPruneJob = defineJob({
  name: 'idempotency-prune',
  payload: z.object({}),
  // Not retried: the next daily run does the same work.
  options: { retryLimit: 0, expireInSeconds: 30 * 60 },
  schedule: { cron: IDEMPOTENCY_PRUNE_CRON, payload: {} },
  handle: pruneIdempotencyKeys,
});

export async function pruneIdempotencyKeys(ctx: JobContext): Promise<void> {
  const before = new Date(ctx.now().getTime() - IDEMPOTENCY_KEY_RETENTION_DAYS * 86_400_000);
  let deleted = 0;
  // Batches keep each statement short on a large table.
  for (;;) {
    const n = await deleteIdempotencyKeysBefore(ctx.database.db, before, IDEMPOTENCY_PRUNE_BATCH);
    deleted += n;
    if (n < IDEMPOTENCY_PRUNE_BATCH) break;
  }
  if (deleted > 0) ctx.services.log.info({ deleted }, 'idempotency keys pruned');
}
