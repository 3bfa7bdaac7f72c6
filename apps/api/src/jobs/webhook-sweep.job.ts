// Queues the delivery job of webhook deliveries that never got one (architecture §7): a scan upload or a backfill
// writes the row in its transaction and queues the job after commit, so a queue that is down, or a process
// killed in between, leaves the row pending with no attempt made. Runs every few minutes once the workers start.
// Idempotent: re-queueing a row whose job is only late is harmless, as a delivery job makes the attempt it
// names (attempt 1 here) only while nobody has made it; a delivered or failed row is never selected.
import { z } from 'zod';
import { listUnattemptedDeliveryIds } from '../modules/organizations/organization-webhooks.queries.ts';
import { defineJob, enqueueMany, type JobContext } from '../services/queue/job.ts';
import { webhookDeliveryJob } from './webhook-delivery.job.ts';

/** A row younger than this still has its own job on the way (queued after commit); left alone. */
export const WEBHOOK_SWEEP_GRACE_MS = 5 * 60_000;
export const WEBHOOK_SWEEP_BATCH = 500;
/** Every 5 minutes: a row whose job went missing is queued within about 10 minutes of its creation. */
export const WEBHOOK_SWEEP_CRON = '*/5 * * * *';

export const ZWebhookSweepPayload = z.object({});

export const webhookSweepJob = defineJob({
  name: 'webhook-sweep',
  payload: ZWebhookSweepPayload,
  // Not retried: the next scheduled run does the same work.
  options: { retryLimit: 0, expireInSeconds: 10 * 60 },
  schedule: { cron: WEBHOOK_SWEEP_CRON, payload: {} },
  handle: sweepWebhookDeliveries,
});

async function sweepWebhookDeliveries(ctx: JobContext): Promise<void> {
  const { db } = ctx.database;
  const createdBefore = new Date(ctx.now().getTime() - WEBHOOK_SWEEP_GRACE_MS);
  let afterId = 0;
  let queued = 0;
  for (;;) {
    // Keyset by id: the rows stay pending (attempts 0) until their jobs run, so each batch starts past the last.
    const ids = await listUnattemptedDeliveryIds(db, createdBefore, afterId, WEBHOOK_SWEEP_BATCH);
    if (!ids.length) break;
    afterId = ids[ids.length - 1] ?? afterId;
    await enqueueMany(
      ctx.services.queue,
      webhookDeliveryJob,
      ids.map((id) => ({ delivery_id: id, attempt: 1 })),
    );
    queued += ids.length;
  }
  if (queued) ctx.services.log.warn({ queued }, 'webhook deliveries without a job queued by the sweep');
}
