// The outbox retry of SMS against a real HTTP provider on a loopback port: a follow-up reminder that failed while
// the provider was down leaves once it is back; an SMS carrying a one-time code is never sent again (it is dead in 5
// minutes), nor a reminder older than OUTBOX_SMS_RETRY_MAX_AGE_MS; a provider still refusing stops the run.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { outboxMessages } from '../db/schema/index.ts';
import { setupTestApp } from '../test/app.ts';
import { OUTBOX_RETRY_MAX_ATTEMPTS, OUTBOX_SMS_RETRY_MAX_AGE_MS, outboxRetryJob } from './outbox-retry.job.ts';

let up = false;
const received: string[] = [];
const provider = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    if (!up) {
      res.writeHead(503).end();
      return;
    }
    received.push(body);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => provider.close(() => resolve())));
const t = await setupTestApp({ SMS_PROVIDER_URL: `http://127.0.0.1:${(provider.address() as AddressInfo).port}/sms` });
const { db } = t.database;
const run = () => outboxRetryJob.handle(t.app.ctx, {}, { id: 'outbox-retry-sms-test', name: outboxRetryJob.name, retryCount: 0 });

let seq = 0;
async function smsRow(fields: Partial<typeof outboxMessages.$inferInsert> & { ageMs?: number } = {}) {
  const { ageMs = 60_000, ...rest } = fields;
  const n = ++seq;
  const [row] = await db
    .insert(outboxMessages)
    .values({
      channel: 'sms',
      to: `+91-98765${String(10000 + n).slice(-5)}`,
      body: `Reminder ${n}: please visit the clinic for your follow-up.`,
      status: 'failed',
      attempts: 1,
      lastError: 'SMS provider answered HTTP 503',
      created: new Date(t.clock.now().getTime() - ageMs),
      ...rest,
    })
    .returning();
  return row!;
}
const statusOf = async (id: number) => (await db.select().from(outboxMessages).where(eq(outboxMessages.id, id)))[0]!;

describe('outbox retry of SMS', () => {
  it('sends a failed reminder once the provider is back, never a code, a stale reminder or one out of attempts', async () => {
    const reminder = await smsRow();
    const stranded = await smsRow({ status: 'pending', ageMs: 10 * 60_000 });
    const code = await smsRow({ body: '123456 is your code', code: '123456' });
    const stale = await smsRow({ ageMs: OUTBOX_SMS_RETRY_MAX_AGE_MS + 60_000 });
    const spent = await smsRow({ attempts: OUTBOX_RETRY_MAX_ATTEMPTS });

    // Still down: the first try fails and stops the run, counted one attempt.
    await run();
    expect(received).toHaveLength(0);
    expect((await statusOf(reminder.id)).attempts).toBe(2);
    expect((await statusOf(stranded.id)).attempts).toBe(1);

    up = true;
    await run();
    expect((await statusOf(reminder.id)).status).toBe('sent');
    expect((await statusOf(stranded.id)).status).toBe('sent');
    expect(received.map((b) => JSON.parse(b).body)).toEqual([reminder.body, stranded.body]);
    for (const row of [code, stale, spent]) expect((await statusOf(row.id)).status).toBe('failed');

    // Nothing left: another run sends nothing again.
    await run();
    expect(received).toHaveLength(2);
  });
});
