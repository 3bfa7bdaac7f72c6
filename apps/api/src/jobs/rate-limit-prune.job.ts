// Deletes the per-IP rate-limit counts whose window has ended (rate_limit_hits, http/rate-limit-store.ts): a hit
// from the same address restarts its row anyway, so these are only the rows of addresses that went quiet. Every ten
// minutes once the workers start (one instance runs each occurrence); idempotent.
import { z } from 'zod';
import { deleteExpiredRateLimitHits } from '../http/rate-limit-store.ts';
import { defineJob, type JobContext } from '../services/queue/job.ts';

export const RATE_LIMIT_PRUNE_BATCH = 5000;
export const RATE_LIMIT_PRUNE_CRON = '*/10 * * * *';

export const rateLimitPruneJob = defineJob({
  name: 'rate-limit-prune',
  payload: z.object({}),
  // Not retried: the next run does the same work.
  options: { retryLimit: 0, expireInSeconds: 5 * 60 },
  schedule: { cron: RATE_LIMIT_PRUNE_CRON, payload: {} },
  handle: pruneRateLimitHits,
});

export async function pruneRateLimitHits(ctx: JobContext): Promise<void> {
  // The database's clock decides when a window ends (the store's upsert); `now` here only needs to be no later.
  const before = ctx.now();
  let deleted = 0;
  for (;;) {
    const n = await deleteExpiredRateLimitHits(ctx.database, before, RATE_LIMIT_PRUNE_BATCH);
    deleted += n;
    if (n < RATE_LIMIT_PRUNE_BATCH) break;
  }
  if (deleted > 0) ctx.services.log.info({ deleted }, 'rate-limit counts pruned');
}
