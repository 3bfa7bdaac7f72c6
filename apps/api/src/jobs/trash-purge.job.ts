// Purges the trash entries older than TRASH_RETENTION_DAYS (issue 27): each with an audit row, then its files.
// Daily once the workers start; idempotent (a purged entry is gone).
import { z } from 'zod';
import { purgeTrash } from '../modules/trash/trash.service.ts';
import { defineJob, type JobContext } from '../services/queue/job.ts';

export const TRASH_PURGE_CRON = '41 3 * * *';

export const trashPurgeJob = defineJob({
  name: 'trash-purge',
  payload: z.object({}),
  // Not retried: the next daily run does the same work.
  options: { retryLimit: 0, expireInSeconds: 30 * 60 },
  schedule: { cron: TRASH_PURGE_CRON, payload: {} },
  handle: runTrashPurge,
});

export async function runTrashPurge(ctx: JobContext): Promise<void> {
  const purged = await purgeTrash(ctx);
  if (purged > 0) ctx.services.log.info({ purged }, 'trash entries purged');
}
