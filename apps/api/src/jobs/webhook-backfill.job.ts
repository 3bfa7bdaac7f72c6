// "Send previous scans" (part 1 §2.5, §7 `POST organization/previous-scans/`): queues one webhook delivery per
// SCAN-type scan the organization had when the button was pressed, in batches, so the request returns at once.
// Idempotent: scans up to `max_scan_id` only (later ones are sent by their own upload), and a scan that already
// got a delivery row since `requested_at` (an earlier run of this same job) is skipped. Rows inserted by a run
// that then failed to queue their jobs are left to the webhook sweep.
import { z } from 'zod';
import {
  insertDeliveries,
  findScansDeliveredSince,
} from '../modules/organizations/organization-webhooks.queries.ts';
import { findOrganizationWebhook, listWebhookScanIds } from '../modules/scans/scans.queries.ts';
import { defineJob, enqueueMany, type JobContext } from '../services/queue/job.ts';
import { webhookDeliveryJob } from './webhook-delivery.job.ts';

export const WEBHOOK_BACKFILL_BATCH = 500;

export const ZWebhookBackfillPayload = z.object({
  organization_id: z.number().int().positive(),
  requested_at: z.iso.datetime(),
  max_scan_id: z.number().int().nonnegative(),
});

export const webhookBackfillJob = defineJob({
  name: 'webhook-backfill',
  payload: ZWebhookBackfillPayload,
  options: { retryLimit: 3, retryDelaySeconds: 30, retryBackoff: true, expireInSeconds: 30 * 60 },
  handle: backfillWebhooks,
});

async function backfillWebhooks(
  ctx: JobContext,
  payload: z.output<typeof ZWebhookBackfillPayload>,
): Promise<void> {
  const { db } = ctx.database;
  const organizationId = payload.organization_id;
  const since = new Date(payload.requested_at);
  let afterId = 0;
  let queued = 0;
  for (;;) {
    // Re-read each batch: switching the webhook off stops a long backfill.
    const org = await findOrganizationWebhook(db, organizationId);
    if (!org?.webhookSwitch || !org.webhookUrl) break;
    const ids = await listWebhookScanIds(
      db,
      organizationId,
      afterId,
      payload.max_scan_id,
      WEBHOOK_BACKFILL_BATCH,
    );
    if (!ids.length) break;
    afterId = ids[ids.length - 1] ?? afterId;
    const done = await findScansDeliveredSince(db, organizationId, ids, since);
    const url = org.webhookUrl;
    const at = ctx.now();
    const rows = await insertDeliveries(
      db,
      ids.filter((id) => !done.has(id)).map((scanId) => ({ organizationId, scanId, url, created: at })),
    );
    await enqueueMany(
      ctx.services.queue,
      webhookDeliveryJob,
      rows.map((r) => ({ delivery_id: r.id, attempt: 1 })),
    );
    queued += rows.length;
  }
  ctx.services.log.info({ organizationId, queued }, 'previous scans queued for the webhook');
}
