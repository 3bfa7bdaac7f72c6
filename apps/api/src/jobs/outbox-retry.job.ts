// Tries again the messages that did not leave. An e-mail is sent inside the request that asked for it (a reset link)
// or by a job (a follow-up digest), and a mail server that refused our login, was down or silent left its outbox row
// 'failed'; a process stopped mid-send left it 'pending'. Runs every 2 minutes once the workers start. E-mails for an
// hour (a reset link expires by then). SMS only without a one-time code (a follow-up reminder to a patient), for
// OUTBOX_SMS_RETRY_MAX_AGE_MS: a code is dead within 5 minutes, a reminder is still worth sending later that day.
// Idempotent: a row is claimed before it is sent (outbox.service.ts redeliver), so two instances, or a run that
// overlaps the last, never send it twice.
import { z } from 'zod';
import type { OutboxRow } from '../services/outbox.service.ts';
import { defineJob, type JobContext } from '../services/queue/job.ts';

/** Attempts in all, the first (inside the request) included. */
export const OUTBOX_RETRY_MAX_ATTEMPTS = 5;
/** Older messages are stale: a password reset link lives one hour. */
export const OUTBOX_RETRY_MAX_AGE_MS = 60 * 60_000;
/** A pending row younger than this may still be on its way (SMTP timeouts bound a send to well under it). */
export const OUTBOX_RETRY_PENDING_GRACE_MS = 5 * 60_000;
export const OUTBOX_RETRY_BATCH = 100;
/** An SMS reminder older than this is not sent any more: 'your appointment is due' the next day confuses more than it helps. */
export const OUTBOX_SMS_RETRY_MAX_AGE_MS = 6 * 60 * 60_000;
export const OUTBOX_RETRY_CRON = '*/2 * * * *';

export const ZOutboxRetryPayload = z.object({});

export const outboxRetryJob = defineJob({
  name: 'outbox-retry',
  payload: ZOutboxRetryPayload,
  // Not retried: the next scheduled run does the same work.
  options: { retryLimit: 0, expireInSeconds: 10 * 60 },
  schedule: { cron: OUTBOX_RETRY_CRON, payload: {} },
  handle: retryUndelivered,
});

type Redeliver = (row: OutboxRow) => Promise<OutboxRow | null>;

/** Sends the rows again in order; a refusal stops the run (each failure counted one attempt; the next run goes on). */
async function resend(rows: OutboxRow[], redeliver: Redeliver): Promise<number> {
  let sent = 0;
  for (const row of rows) {
    const result = await redeliver(row);
    if (result?.status === 'sent') sent++;
    // The server still refuses or does not answer: stop here rather than wait out a timeout per message.
    if (result?.status === 'failed') break;
  }
  return sent;
}

async function retryUndelivered(ctx: JobContext): Promise<void> {
  const at = ctx.now().getTime();
  const filter = {
    pendingBefore: new Date(at - OUTBOX_RETRY_PENDING_GRACE_MS),
    maxAttempts: OUTBOX_RETRY_MAX_ATTEMPTS,
    limit: OUTBOX_RETRY_BATCH,
  };
  // Without SMTP_URL or SMS_PROVIDER_URL messages are 'stored' (the embedded outbox): nothing to send them with.
  if (ctx.config.SMTP_URL) {
    const rows = await ctx.services.outbox.listUndelivered('email', { ...filter, createdSince: new Date(at - OUTBOX_RETRY_MAX_AGE_MS) });
    const sent = await resend(rows, ctx.services.mail.redeliver);
    if (rows.length) ctx.services.log.info({ candidates: rows.length, sent }, 'undelivered e-mails retried');
  }
  if (ctx.config.SMS_PROVIDER_URL) {
    const rows = await ctx.services.outbox.listUndelivered('sms', {
      ...filter,
      createdSince: new Date(at - OUTBOX_SMS_RETRY_MAX_AGE_MS),
      withoutCode: true,
    });
    const sent = await resend(rows, ctx.services.sms.redeliver);
    if (rows.length) ctx.services.log.info({ candidates: rows.length, sent }, 'undelivered SMS retried');
  }
}
