// Every job the API runs. A new job: one file in src/jobs/ (defineJob), then one line here.
import { auditPruneJob } from '../../jobs/audit-prune.job.ts';
import { followUpBackfillJob } from '../../jobs/follow-up-backfill.job.ts';
import { followUpRemindersJob } from '../../jobs/follow-up-reminders.job.ts';
import { idempotencyPruneJob } from '../../jobs/idempotency-prune.job.ts';
import { outboxRetryJob } from '../../jobs/outbox-retry.job.ts';
import { rateLimitPruneJob } from '../../jobs/rate-limit-prune.job.ts';
import { trashPurgeJob } from '../../jobs/trash-purge.job.ts';
import { webhookBackfillJob } from '../../jobs/webhook-backfill.job.ts';
import { webhookDeliveryJob } from '../../jobs/webhook-delivery.job.ts';
import { webhookSweepJob } from '../../jobs/webhook-sweep.job.ts';
import type { JobContext, JobDefinition } from './job.ts';
import type { Queue } from './queue.ts';

export const JOBS: readonly JobDefinition[] = [
  webhookDeliveryJob,
  webhookBackfillJob,
  webhookSweepJob,
  idempotencyPruneJob,
  rateLimitPruneJob,
  outboxRetryJob,
  followUpBackfillJob,
  followUpRemindersJob,
  auditPruneJob,
  trashPurgeJob,
];

/**
 * Registers every job's handler (the payload is validated before the handler sees it) and its schedule, which
 * takes effect when the workers start.
 */
export function registerJobs(queue: Queue, context: () => JobContext): void {
  for (const job of JOBS) {
    queue.work(job.name, async (payload, info) => {
      await job.handle(context(), job.payload.parse(payload), info);
    });
    if (job.schedule) {
      const payload = job.payload.parse(job.schedule.payload) as object;
      queue.schedule(job.name, job.schedule.cron, payload, job.options);
    }
  }
}
