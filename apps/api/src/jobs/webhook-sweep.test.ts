// The webhook sweep: a pending delivery whose job was never queued (queue down at commit, process killed) is
// queued once it is older than the grace period, and delivered once, however often the sweep runs.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../db/schema/index.ts';
import { insertDeliveries } from '../modules/organizations/organization-webhooks.queries.ts';
import { scanInput } from '../modules/scans/scans.fixtures.ts';
import { createScan } from '../modules/scans/scans.service.ts';
import type { JobContext } from '../services/queue/job.ts';
import { AUDIT_PRUNE_CRON } from './audit-prune.job.ts';
import { FOLLOW_UP_REMINDERS_CRON } from './follow-up-reminders.job.ts';
import { IDEMPOTENCY_PRUNE_CRON } from './idempotency-prune.job.ts';
import { TRASH_PURGE_CRON } from './trash-purge.job.ts';
import { OUTBOX_RETRY_CRON } from './outbox-retry.job.ts';
import { RATE_LIMIT_PRUNE_CRON } from './rate-limit-prune.job.ts';
import { registerJobs } from '../services/queue/jobs.ts';
import type { Queue } from '../services/queue/queue.ts';
import { startReceiver } from '../services/webhooks/test-receiver.ts';
import { setupTestApp } from '../test/app.ts';
import { createOrganization } from '../test/factories.ts';
import { webhookDeliveryJob } from './webhook-delivery.job.ts';
import { WEBHOOK_SWEEP_CRON, WEBHOOK_SWEEP_GRACE_MS, webhookSweepJob } from './webhook-sweep.job.ts';

const t = await setupTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
const receiver = await startReceiver();
afterAll(() => receiver.close());
const ctx = t.app.ctx;
const { queue } = ctx.services;
const SWEEP_INFO = { id: 'sweep-test', name: webhookSweepJob.name, retryCount: 0 };

beforeEach(() => {
  receiver.requests.length = 0;
  receiver.respond(() => 200);
});

async function webhookOrg() {
  return createOrganization(t, {
    webhookSwitch: true,
    webhookUrl: receiver.url,
    webhookAuthToken: 'whk-sweep-token-0123456789',
  });
}

/** A delivery row as a scan upload writes it, whose job was never queued; `ageMs` old. */
async function strandedDelivery(ageMs: number, fields: Partial<typeof webhookDeliveries.$inferInsert> = {}) {
  const org = await webhookOrg();
  const { scan } = await createScan(ctx, scanInput({ organizationId: org.id, scanType: 'PRACTICE' }));
  const [row] = await insertDeliveries(ctx.database.db, [
    {
      organizationId: org.id,
      scanId: scan.id,
      url: receiver.url,
      created: new Date(ctx.now().getTime() - ageMs),
    },
  ]);
  if (Object.keys(fields).length)
    await ctx.database.db.update(webhookDeliveries).set(fields).where(eq(webhookDeliveries.id, row!.id));
  return { ...row!, ...fields };
}

async function deliveryRow(id: number) {
  const [row] = await ctx.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row;
}

function requestsFor(id: number) {
  return receiver.requests.filter((r) => r.headers['x-webhook-delivery'] === String(id));
}

/** Runs the sweep's handler with a queue that records what it would queue, sending nothing. */
async function sweepQueuedIds(): Promise<number[]> {
  const queued: number[] = [];
  const recording: Queue = {
    ...queue,
    send: async () => null,
    sendMany: async (name, payloads) => {
      expect(name).toBe(webhookDeliveryJob.name);
      for (const p of payloads) queued.push((p as { delivery_id: number }).delivery_id);
    },
  };
  const jobCtx: JobContext = { ...ctx, services: { ...ctx.services, queue: recording } };
  await webhookSweepJob.handle(jobCtx, {}, SWEEP_INFO);
  return queued;
}

const OLD = WEBHOOK_SWEEP_GRACE_MS + 60_000;

describe('webhook sweep', () => {
  it('delivers a pending delivery whose job was never queued, once older than the grace period', async () => {
    const row = await strandedDelivery(OLD);
    await queue.send(webhookSweepJob.name, {});
    // The sweep runs, queues the delivery job, and drain runs that too.
    expect(await queue.drain()).toBe(2);
    expect(requestsFor(row.id)).toHaveLength(1);
    expect(requestsFor(row.id)[0]?.body).toMatchObject({ id: row.scanId });
    expect(await deliveryRow(row.id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
    });
  });

  it('leaves a pending delivery younger than the grace period to its own job', async () => {
    const row = await strandedDelivery(WEBHOOK_SWEEP_GRACE_MS - 60_000);
    expect(await sweepQueuedIds()).not.toContain(row.id);
    await webhookSweepJob.handle(ctx, {}, SWEEP_INFO);
    await queue.drain();
    expect(requestsFor(row.id)).toHaveLength(0);
    expect(await deliveryRow(row.id)).toMatchObject({ status: 'pending', attempts: 0 });
    // Done with it: later tests must not find it grown old.
    await ctx.database.db.delete(webhookDeliveries).where(eq(webhookDeliveries.id, row.id));
  });

  it('sends the scan once when the sweep runs twice', async () => {
    const row = await strandedDelivery(OLD);
    await webhookSweepJob.handle(ctx, {}, SWEEP_INFO);
    await webhookSweepJob.handle(ctx, {}, SWEEP_INFO);
    await queue.drain();
    expect(requestsFor(row.id)).toHaveLength(1);
    expect(await deliveryRow(row.id)).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('does not send again, nor start a second retry chain, when the delivery’s own job was only late', async () => {
    receiver.respond((n) => (n === 1 ? 500 : 200));
    const org = await webhookOrg();
    const { scan, webhookDeliveryId } = await createScan(ctx, scanInput({ organizationId: org.id }));
    const id = webhookDeliveryId!;
    // Its job is queued but has not run for longer than the grace period.
    await ctx.database.db
      .update(webhookDeliveries)
      .set({ created: new Date(ctx.now().getTime() - OLD) })
      .where(eq(webhookDeliveries.id, id));
    expect(await sweepQueuedIds()).toContain(id);
    await webhookSweepJob.handle(ctx, {}, SWEEP_INFO);

    // Jobs due now: the first attempt fails (retry in 30 s); the sweep's copy finds attempt 1 made and stops.
    await queue.drain({ ignoreStartAfter: false });
    expect(requestsFor(id)).toHaveLength(1);
    expect(await deliveryRow(id)).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500 });

    await queue.drain();
    expect(requestsFor(id)).toHaveLength(2);
    expect(requestsFor(id)[1]?.body).toMatchObject({ id: scan.id });
    expect(await deliveryRow(id)).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('never re-queues a delivered or a failed delivery, nor one already attempted', async () => {
    const delivered = await strandedDelivery(OLD, {
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      deliveredAt: new Date(ctx.now().getTime() - OLD),
    });
    const failed = await strandedDelivery(OLD, { status: 'failed', attempts: 6, lastStatusCode: 503 });
    const switchedOff = await strandedDelivery(OLD, { status: 'failed', attempts: 0 });
    const retrying = await strandedDelivery(OLD, { attempts: 2, lastStatusCode: 500 });
    const ids = [delivered.id, failed.id, switchedOff.id, retrying.id];
    const before = await ctx.database.db
      .select()
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.id, ids));

    const queued = await sweepQueuedIds();
    for (const id of ids) expect(queued).not.toContain(id);
    await webhookSweepJob.handle(ctx, {}, SWEEP_INFO);
    await queue.drain();
    for (const id of ids) expect(requestsFor(id)).toHaveLength(0);
    const after = await ctx.database.db
      .select()
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.id, ids));
    expect(after).toEqual(before);
  });

  it('queues every stranded delivery, past one batch', async () => {
    const org = await webhookOrg();
    const { scan } = await createScan(ctx, scanInput({ organizationId: org.id, scanType: 'PRACTICE' }));
    const created = new Date(ctx.now().getTime() - OLD);
    const rows = await insertDeliveries(
      ctx.database.db,
      Array.from({ length: 501 }, () => ({
        organizationId: org.id,
        scanId: scan.id,
        url: receiver.url,
        created,
      })),
    );
    const queued = await sweepQueuedIds();
    expect(queued).toEqual(expect.arrayContaining(rows.map((r) => r.id)));
    expect(new Set(queued).size).toBe(queued.length);
    await ctx.database.db.delete(webhookDeliveries).where(
      inArray(
        webhookDeliveries.id,
        rows.map((r) => r.id),
      ),
    );
  });

  it('schedules the periodic jobs (this sweep every few minutes), and never in tests', async () => {
    const schedules: Array<{ name: string; cron: string; payload: object }> = [];
    const recording: Queue = {
      ...queue,
      work: () => undefined,
      schedule: (name, cron, payload) => {
        schedules.push({ name, cron, payload });
      },
    };
    registerJobs(recording, () => ctx);
    expect(schedules).toEqual([
      { name: 'webhook-sweep', cron: WEBHOOK_SWEEP_CRON, payload: {} },
      { name: 'idempotency-prune', cron: IDEMPOTENCY_PRUNE_CRON, payload: {} },
      { name: 'rate-limit-prune', cron: RATE_LIMIT_PRUNE_CRON, payload: {} },
      { name: 'outbox-retry', cron: OUTBOX_RETRY_CRON, payload: {} },
      { name: 'follow-up-reminders', cron: FOLLOW_UP_REMINDERS_CRON, payload: {} },
      { name: 'audit-prune', cron: AUDIT_PRUNE_CRON, payload: {} },
      { name: 'trash-purge', cron: TRASH_PURGE_CRON, payload: {} },
    ]);
    // The test app never starts the workers, so nothing was saved in pg-boss's schedule table.
    const rows = await ctx.database.query<{ n: number }>('SELECT count(*)::int AS n FROM pgboss.schedule');
    expect(rows).toEqual([{ n: 0 }]);
  });
});
