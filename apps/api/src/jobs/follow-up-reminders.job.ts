// The daily follow-up reminders (issue 26): every hour, each organization whose local time has reached
// FOLLOW_UP_REMINDER_HOUR on a local date it has no run for gets its run: the digest e-mail of its overdue cases to
// the users who follow them up, and a reminder SMS to each consenting patient of an overdue case (once per case and
// state). Idempotent: the run row is taken before anything is sent (a re-run, or a second instance, finds the date
// taken and skips), and each SMS is claimed on its case before it is sent.
import { z } from 'zod';
import { maskRecipient } from '@sc/shared/auth-extra';
import { appendEntry, loadFollowUpSettings } from '../modules/follow-up/follow-up-core.ts';
import {
  claimCaseSms,
  claimReminderRun,
  composeDigest,
  digestLink,
  listDigestRecipients,
  listOrganizationsDueForReminders,
  listOverdueCases,
  recordReminderRunCounts,
  reminderSmsFor,
  type ReminderOrganization,
} from '../modules/follow-up/follow-up-reminders.ts';
import { localDate } from '../http/period.ts';
import { defineJob, type JobContext } from '../services/queue/job.ts';

/** Minute 5 of every hour (UTC): each organization's run starts within the hour its local clock reaches 08:00. */
export const FOLLOW_UP_REMINDERS_CRON = '5 * * * *';

export const followUpRemindersJob = defineJob({
  name: 'follow-up-reminders',
  payload: z.object({}),
  // Not retried: the next hourly run picks up an organization whose run was not taken.
  options: { retryLimit: 0, expireInSeconds: 30 * 60 },
  schedule: { cron: FOLLOW_UP_REMINDERS_CRON, payload: {} },
  handle: async (ctx) => {
    await sendFollowUpReminders(ctx);
  },
});

export type ReminderRunCounts = { organizationId: number; localDate: string; overdueCases: number; digestsSent: number; smsSent: number };

/** Runs every organization due a run at `ctx.now()`; returns what each run did (for tests and the log). */
export async function sendFollowUpReminders(ctx: JobContext): Promise<ReminderRunCounts[]> {
  const now = ctx.now();
  const due = await listOrganizationsDueForReminders(ctx.database.db, now);
  const done: ReminderRunCounts[] = [];
  for (const org of due) {
    if (!(await claimReminderRun(ctx.database.db, org.id, org.localDate, now))) continue;
    try {
      done.push(await runOrganization(ctx, org, org.localDate, now));
    } catch (err) {
      // One organization's failure (its mail server, a bad row) does not hold the others' reminders.
      ctx.services.log.error({ err, organizationId: org.id }, 'follow-up reminders failed');
    }
  }
  if (done.length) ctx.services.log.info({ runs: done.length }, 'follow-up reminders sent');
  return done;
}

async function runOrganization(ctx: JobContext, org: ReminderOrganization, date: string, now: Date): Promise<ReminderRunCounts> {
  const { db } = ctx.database;
  const settings = await loadFollowUpSettings(db, org.id);
  const cases = await listOverdueCases(db, org.id, now);
  const counts = { overdueCases: cases.length, digestsSent: 0, smsSent: 0 };

  if (settings.digest_enabled && cases.length) {
    const link = digestLink(ctx.config.publicUrl, org.id);
    const { subject, body } = composeDigest(org, cases, localDate(now, org.timezone), link);
    for (const to of await listDigestRecipients(db, org.id)) {
      await ctx.services.mail.send({ to, subject, body, link });
      counts.digestsSent += 1;
    }
  }

  if (settings.sms_enabled) {
    for (const kase of cases) {
      const sms = reminderSmsFor(kase, settings.sms_texts, org);
      if (!sms) continue;
      // Claimed and written to the timeline in one transaction; sent after it commits (never inside one).
      const claimed = await db.transaction(async (tx) => {
        if (!(await claimCaseSms(tx, kase.id, kase.status))) return false;
        await appendEntry(tx, {
          caseId: kase.id,
          kind: 'SMS_REMINDER',
          at: now,
          actorId: null,
          data: { status: kase.status, language: sms.language, to: maskRecipient(sms.to) },
        });
        return true;
      });
      if (!claimed) continue;
      await ctx.services.sms.send({ to: sms.to, body: sms.body });
      counts.smsSent += 1;
    }
  }

  await recordReminderRunCounts(db, org.id, date, counts);
  return { organizationId: org.id, localDate: date, ...counts };
}
