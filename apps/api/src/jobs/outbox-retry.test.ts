// The outbox retry against a real SMTP server (test/smtp-server.ts): a reset e-mail that failed while the mail server
// was down leaves once it is back, and its link works; only failed and stranded e-mails of the last hour are tried,
// each at most five times; two overlapping runs send a message once; a server still refusing stops the run.
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { outboxMessages } from '../db/schema/index.ts';
import { setupTestApp } from '../test/app.ts';
import { createUser } from '../test/factories.ts';
import { startSmtpServer, type TestSmtpServer } from '../test/smtp-server.ts';
import type { JobContext } from '../services/queue/job.ts';
import {
  OUTBOX_RETRY_MAX_AGE_MS,
  OUTBOX_RETRY_MAX_ATTEMPTS,
  OUTBOX_RETRY_PENDING_GRACE_MS,
  outboxRetryJob,
} from './outbox-retry.job.ts';

let smtp: TestSmtpServer = await startSmtpServer();
const port = smtp.port;
afterAll(() => smtp.stop());
const t = await setupTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://console.screening.test' });
const ctx = t.app.ctx;
const { db } = t.database;
const INFO = { id: 'outbox-retry-test', name: outboxRetryJob.name, retryCount: 0 };
const runRetry = (context: JobContext = ctx) => outboxRetryJob.handle(context, {}, INFO);

let seq = 0;
/** An outbox e-mail row as a request, or a process that stopped, left it; `ageMs` old. */
async function outboxRow(fields: Partial<typeof outboxMessages.$inferInsert> & { ageMs?: number } = {}) {
  const { ageMs = 60_000, ...rest } = fields;
  const [row] = await db
    .insert(outboxMessages)
    .values({
      channel: 'email',
      to: `retry-${process.pid}-${++seq}@example.org`,
      subject: `Retry ${seq}`,
      body: `body ${seq}`,
      status: 'failed',
      attempts: 1,
      lastError: 'connect ECONNREFUSED',
      created: new Date(ctx.now().getTime() - ageMs),
      ...rest,
    })
    .returning();
  return row!;
}

const rowOf = async (id: number) =>
  (await db.select().from(outboxMessages).where(eq(outboxMessages.id, id)))[0]!;
const arrivedFor = (to: string) => smtp.messages.filter((m) => m.to.includes(to.toLowerCase()));

describe('outbox-retry', () => {
  it('sends a reset e-mail that failed while the mail server was down once it is back, and the link works', async () => {
    const user = await createUser(t);
    await smtp.stop();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset/',
      payload: { email: user.email },
    });
    expect(res.statusCode).toBe(200);
    const [failed] = await db.select().from(outboxMessages).where(eq(outboxMessages.to, user.email!));
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed!.lastError).toMatch(/ECONNREFUSED/);

    smtp = await startSmtpServer({ port });
    await runRetry();
    const [mail] = arrivedFor(user.email!);
    expect(mail?.subject).toBe('Reset your Screening Console password');
    expect(await rowOf(failed!.id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    const token = new URL(/https:\/\/\S+/.exec(mail!.text)![0]).searchParams.get('token');
    const done = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset/confirm/',
      payload: { token, password: 'Retried-link-pass3' },
    });
    expect(done.statusCode, done.body).toBe(200);

    // Sent is done: another run sends nothing more.
    await runRetry();
    expect(arrivedFor(user.email!)).toHaveLength(1);
  });

  it('tries failed e-mails and pending ones a stopped process left, and leaves every other row alone', async () => {
    const failed = await outboxRow();
    const stranded = await outboxRow({
      status: 'pending',
      attempts: 0,
      ageMs: OUTBOX_RETRY_PENDING_GRACE_MS + 60_000,
    });
    const inFlight = await outboxRow({ status: 'pending', attempts: 0, ageMs: 30_000 });
    const stale = await outboxRow({ ageMs: OUTBOX_RETRY_MAX_AGE_MS + 60_000 });
    const exhausted = await outboxRow({ attempts: OUTBOX_RETRY_MAX_ATTEMPTS });
    const stored = await outboxRow({ status: 'stored', attempts: 0 });
    const sent = await outboxRow({ status: 'sent' });
    const sms = await outboxRow({ channel: 'sms', to: '+919876500000' });

    await runRetry();
    expect(arrivedFor(failed.to)).toHaveLength(1);
    expect(arrivedFor(stranded.to)).toHaveLength(1);
    expect(await rowOf(failed.id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(await rowOf(stranded.id)).toMatchObject({ status: 'sent', attempts: 1 });
    for (const row of [inFlight, stale, exhausted, stored, sent, sms]) {
      expect(arrivedFor(row.to)).toEqual([]);
      expect(await rowOf(row.id)).toEqual(row);
    }
    await db.delete(outboxMessages).where(eq(outboxMessages.id, inFlight.id));
  });

  it('sends a message once when two runs overlap (two instances)', async () => {
    const row = await outboxRow();
    await Promise.all([runRetry(), runRetry(), runRetry()]);
    expect(arrivedFor(row.to)).toHaveLength(1);
    expect(await rowOf(row.id)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('does nothing without SMTP_URL (the embedded outbox keeps its messages)', async () => {
    const row = await outboxRow();
    await runRetry({ ...ctx, config: { ...ctx.config, SMTP_URL: undefined } });
    expect(await rowOf(row.id)).toEqual(row);
    await db.delete(outboxMessages).where(eq(outboxMessages.id, row.id));
  });

  it('stops at the first failure while the server still refuses, counting one attempt, and goes on once it is back', async () => {
    const rows = [await outboxRow(), await outboxRow(), await outboxRow()];
    await smtp.stop();
    await runRetry();
    expect((await rowOf(rows[0]!.id)).attempts).toBe(2);
    expect((await rowOf(rows[0]!.id)).status).toBe('failed');
    expect((await rowOf(rows[1]!.id)).attempts).toBe(1);
    expect((await rowOf(rows[2]!.id)).attempts).toBe(1);

    smtp = await startSmtpServer({ port });
    await runRetry();
    for (const row of rows) {
      expect(arrivedFor(row.to)).toHaveLength(1);
      expect((await rowOf(row.id)).status).toBe('sent');
    }
  });
});
