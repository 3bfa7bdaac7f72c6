// Every job the API runs. A new job: one file in src/jobs/ (defineJob), then one line here.
import { webhookBackfillJob } from '../../jobs/webhook-backfill.job.ts';
import { webhookDeliveryJob } from '../../jobs/webhook-delivery.job.ts';
import type { JobContext, JobDefinition } from './job.ts';
import type { Queue } from './queue.ts';

export const JOBS: readonly JobDefinition[] = [webhookDeliveryJob, webhookBackfillJob];

/** Registers every job's handler; the payload is validated before the handler sees it. */
export function registerJobs(queue: Queue, context: () => JobContext): void {
  for (const job of JOBS) {
    queue.work(job.name, async (payload, info) => {
      await job.handle(context(), job.payload.parse(payload), info);
    });
  }
}
