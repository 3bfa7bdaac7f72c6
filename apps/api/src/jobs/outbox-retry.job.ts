// Tries again the e-mails that did not leave: an e-mail is sent inside the request that asked for it (a reset link),
// and a mail server that refused our login, was down or silent left its outbox row 'failed'; a process stopped
// mid-send left it 'pending'. Runs every 2 minutes once the workers start. Only e-mail: an SMS code is dead within
// 5 minutes. Only for an hour: a reset link expires by then. Idempotent: a row is claimed before it is sent
// (outbox.service.ts redeliver), so two instances, or a run that overlaps the last, never send it twice.
import { z } from 'zod';
import { defineJob, type JobContext } from '../services/queue/job.ts';

/** Attempts in all, the first (inside the request) included. */
export const OUTBOX_RETRY_MAX_ATTEMPTS = 5;
/** Older messages are stale: a password reset link lives one hour. */
export const OUTBOX_RETRY_MAX_AGE_MS = 60 * 60_000;
/** A pending row younger than this may still be on its way (SMTP timeouts bound a send to well under it). */
export const OUTBOX_RETRY_PENDING_GRACE_MS = 5 * 60_000;
export const OUTBOX_RETRY_BATCH = 100;
export const OUTBOX_RETRY_CRON = '*/2 * * * *';

export const ZOutboxRetryPayload = z.object({});

export const outboxRetryJob = defineJob({
  name: 'outbox-retry',
  payload: ZOutboxRetryPayload,
  // Not retried: the next scheduled run does the same work.
  options: { retryLimit: 0, expireInSeconds: 10 * 60 },
  schedule: { cron: OUTBOX_RETRY_CRON, payload: {} },
  handle: retryUndeliveredMail,
});

async function retryUndeliveredMail(ctx: JobContext): Promise<void> {
  // Without SMTP_URL messages are 'stored' (the embedded outbox): nothing to send them with.
  if (!ctx.config.SMTP_URL) return;
  const at = ctx.now().getTime();
  const rows = await ctx.services.outbox.listUndelivered('email', {
    createdSince: new Date(at - OUTBOX_RETRY_MAX_AGE_MS),
    pendingBefore: new Date(at - OUTBOX_RETRY_PENDING_GRACE_MS),
    maxAttempts: OUTBOX_RETRY_MAX_ATTEMPTS,
    limit: OUTBOX_RETRY_BATCH,
  });
  let sent = 0;
  for (const row of rows) {
    const result = await ctx.services.mail.redeliver(row);
    if (result?.status === 'sent') sent++;
    // The server still refuses or does not answer: stop here rather than wait out a timeout per message; the next
    // run starts again (each failure counted one attempt).
    if (result?.status === 'failed') break;
  }
  if (rows.length) ctx.services.log.info({ candidates: rows.length, sent }, 'undelivered e-mails retried');
}
