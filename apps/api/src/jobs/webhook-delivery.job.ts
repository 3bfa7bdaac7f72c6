// Delivers one row of the webhook log (architecture §7): POSTs the scan as JSON to the organization's URL with
// `Authorization: Token <webhook_auth_token>`. A 2xx marks it delivered; anything else is retried on the
// schedule below and marked failed after the last attempt. A URL that points to a private or local address is
// refused at this point too (DNS may have changed since it was saved) and is never retried.
// Idempotent: a delivered or failed row is not sent again; each attempt is claimed (attempts + 1) before the
// POST, so two workers never send the same attempt. A job names the attempt it makes (`attempt`), so a second
// job for the same delivery (the sweep re-queueing a row whose first job is only late) finds that attempt taken
// and stops, instead of sending again or starting a second retry chain. The auth token is never logged or
// stored in last_error.
import { z } from 'zod';
import { presentScan } from '../modules/scans/scans.presenter.ts';
import { findScanForPresentation } from '../modules/scans/scans.queries.ts';
import {
  claimAttempt,
  findDeliveryWithOrganization,
  recordOutcome,
} from '../modules/organizations/organization-webhooks.queries.ts';
import { ensureWebhookSecret } from '../modules/organizations/organization-webhook-secret.service.ts';
import { defineJob, enqueue, type JobContext } from '../services/queue/job.ts';
import type { JobInfo } from '../services/queue/queue.ts';
import {
  assertPublicUrl,
  WEBHOOK_URL_MESSAGES,
  WebhookUrlError,
  webhookUrlPolicy,
} from '../services/webhooks/url-guard.ts';
import { postWebhook, type WebhookOutcome } from '../services/webhooks/webhook-sender.ts';

/** Wait before attempt 2, 3, … 6: 30 s, 2 min, 10 min, 1 h, 6 h (about 7 h 12 min in all). */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [30, 120, 600, 3_600, 21_600] as const;
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_SECONDS.length + 1;
export const WEBHOOK_EVENT = 'scan.created';

export const WEBHOOK_DELIVERY_ERRORS = {
  switchedOff: 'The webhook was switched off or its URL removed before delivery.',
  scanGone: 'The scan no longer exists.',
} as const;

export const ZWebhookDeliveryPayload = z.object({
  delivery_id: z.number().int().positive(),
  /** The attempt this job makes (1 = the first). Jobs queued before it existed have none: "the next one". */
  attempt: z.number().int().min(1).max(WEBHOOK_MAX_ATTEMPTS).optional(),
});

export const webhookDeliveryJob = defineJob({
  name: 'webhook-delivery',
  payload: ZWebhookDeliveryPayload,
  // pg-boss's own retries cover a handler that crashes (database down, process killed); unsuccessful answers
  // are retried by the handler on WEBHOOK_RETRY_DELAYS_SECONDS, each as a new job.
  options: { retryLimit: 3, retryDelaySeconds: 60, retryBackoff: true, expireInSeconds: 60 },
  handle: deliverWebhook,
});

type Attempt = {
  deliveryId: number;
  organizationId: number;
  scanId: number | null;
  attempt: number;
  /** When this attempt was made, and how long it took (set once it has been sent). */
  at?: Date;
  durationMs?: number | null;
};

async function deliverWebhook(
  ctx: JobContext,
  { delivery_id, attempt: ownAttempt }: z.output<typeof ZWebhookDeliveryPayload>,
  job: JobInfo,
): Promise<void> {
  const { db } = ctx.database;
  const found = await findDeliveryWithOrganization(db, delivery_id);
  // Gone with its scan or organization, or already finished: nothing to do.
  if (!found || found.delivery.status !== 'pending') return;
  const { delivery } = found;
  if (ownAttempt !== undefined && !isOwnTurn(delivery.attempts, ownAttempt, job.retryCount)) return;
  const meta = { deliveryId: delivery.id, organizationId: delivery.organizationId, scanId: delivery.scanId };

  if (delivery.attempts >= WEBHOOK_MAX_ATTEMPTS) {
    await recordOutcome(db, delivery.id, {
      status: 'failed',
      lastStatusCode: delivery.lastStatusCode,
      lastError: delivery.lastError,
      deliveredAt: null,
    });
    return;
  }
  if (!found.webhookSwitch || !found.webhookUrl) {
    await fail(ctx, meta, null, WEBHOOK_DELIVERY_ERRORS.switchedOff);
    return;
  }
  // The organization's current URL: a URL changed after the scan was queued gets the delivery (and the log says so).
  const url = found.webhookUrl;
  if (!(await claimAttempt(db, delivery.id, delivery.attempts, url))) return;
  const attempt: Attempt = { ...meta, attempt: delivery.attempts + 1, at: ctx.now(), durationMs: null };
  const allowPrivate = ctx.config.WEBHOOK_ALLOW_PRIVATE;

  try {
    // The port rule too: a URL saved before it existed, or a port dropped from WEBHOOK_ALLOWED_PORTS since.
    await assertPublicUrl(url, webhookUrlPolicy(ctx.config));
  } catch (err) {
    if (err instanceof WebhookUrlError && err.message !== WEBHOOK_URL_MESSAGES.unresolved) {
      await fail(ctx, attempt, null, err.message);
      return;
    }
    // A name that does not resolve now may resolve later: retried like an unsuccessful answer.
    await retryOrFail(ctx, attempt, { ok: false, statusCode: null, error: errorText(err), refused: false });
    return;
  }

  // A new scan is read as it is now; other events (a follow-up case's move) carry the JSON fixed when they happened.
  let body: unknown;
  if (delivery.event === WEBHOOK_EVENT) {
    const scan = delivery.scanId === null ? null : await findScanForPresentation(db, delivery.scanId);
    if (!scan) {
      await fail(ctx, attempt, null, WEBHOOK_DELIVERY_ERRORS.scanGone);
      return;
    }
    body = presentScan(scan);
  } else {
    body = delivery.payload ?? {};
  }
  const headers: Record<string, string> = {
    'x-webhook-event': delivery.event,
    'x-webhook-delivery': String(delivery.id),
  };
  if (found.webhookAuthToken) headers.authorization = `Token ${found.webhookAuthToken}`;
  const secret = found.webhookSecret ?? (await ensureWebhookSecret(ctx, delivery.organizationId));

  let outcome: WebhookOutcome;
  // The time of this attempt, taken as it is sent: a retry or Replay is signed with its own.
  attempt.at = ctx.now();
  try {
    outcome = await postWebhook({ url, body, headers, allowPrivate, signing: { secret, at: attempt.at } });
  } catch (err) {
    outcome = { ok: false, statusCode: null, error: errorText(err), refused: false };
  }
  attempt.durationMs = outcome.durationMs ?? null;

  // A receiver that echoes the request back must not get the token into the delivery log.
  const token = found.webhookAuthToken;
  if (!outcome.ok && token) outcome = { ...outcome, error: outcome.error.split(token).join('[redacted]') };

  if (outcome.ok) {
    await recordOutcome(db, delivery.id, {
      status: 'delivered',
      lastStatusCode: outcome.statusCode,
      lastError: null,
      deliveredAt: ctx.now(),
      ...timing(attempt),
    });
    ctx.services.metrics.webhookDeliveries.inc({ outcome: 'delivered' });
    ctx.services.log.info({ ...attempt, statusCode: outcome.statusCode }, 'webhook delivered');
    return;
  }
  if (outcome.refused) {
    await fail(ctx, attempt, null, WEBHOOK_URL_MESSAGES.private);
    return;
  }
  await retryOrFail(ctx, attempt, outcome);
}

/**
 * Whether a job queued for attempt `own` may claim the next attempt of a row that has made `made`. Its turn is
 * when exactly own - 1 were made; otherwise another job made (or is making) that attempt. pg-boss's retry of a
 * job that crashed or timed out may find its own claim already made: it goes on with the next attempt rather
 * than strand the row.
 */
function isOwnTurn(made: number, own: number, retryCount: number): boolean {
  return made === own - 1 || (retryCount > 0 && made === own);
}

async function retryOrFail(
  ctx: JobContext,
  attempt: Attempt,
  outcome: Extract<WebhookOutcome, { ok: false }>,
) {
  const delay = WEBHOOK_RETRY_DELAYS_SECONDS[attempt.attempt - 1];
  if (delay === undefined) {
    await fail(ctx, attempt, outcome.statusCode, outcome.error);
    return;
  }
  await recordOutcome(ctx.database.db, attempt.deliveryId, {
    status: 'pending',
    lastStatusCode: outcome.statusCode,
    lastError: outcome.error,
    deliveredAt: null,
    ...timing(attempt),
  });
  ctx.services.metrics.webhookDeliveries.inc({ outcome: 'retry' });
  ctx.services.log.warn(
    { ...attempt, statusCode: outcome.statusCode, error: outcome.error, retryInSeconds: delay },
    'webhook attempt failed; will retry',
  );
  await enqueue(
    ctx.services.queue,
    webhookDeliveryJob,
    { delivery_id: attempt.deliveryId, attempt: attempt.attempt + 1 },
    { startAfterSeconds: delay },
  );
}

async function fail(
  ctx: JobContext,
  meta: Omit<Attempt, 'attempt'> & { attempt?: number },
  statusCode: number | null,
  error: string,
) {
  await recordOutcome(ctx.database.db, meta.deliveryId, {
    status: 'failed',
    lastStatusCode: statusCode,
    lastError: error,
    deliveredAt: null,
    ...timing(meta),
  });
  ctx.services.metrics.webhookDeliveries.inc({ outcome: 'failed' });
  ctx.services.log.warn({ ...meta, statusCode, error }, 'webhook delivery failed');
}

/** The attempt's time and duration for the log; nothing when no attempt was made (switched off before it). */
function timing(a: Pick<Attempt, 'at' | 'durationMs'>): { lastAttemptAt?: Date; durationMs?: number | null } {
  return a.at ? { lastAttemptAt: a.at, durationMs: a.durationMs ?? null } : {};
}

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 500);
}
