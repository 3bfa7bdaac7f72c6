import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { organizations, webhookDeliveries } from '../db/schema/index.ts';
import { scanInput } from '../modules/scans/scans.fixtures.ts';
import { createScan } from '../modules/scans/scans.service.ts';
import { createServices } from '../services/index.ts';
import type { ServiceLogger } from '../services/logger.ts';
import { enqueue } from '../services/queue/job.ts';
import { startReceiver } from '../services/webhooks/test-receiver.ts';
import { setupTestApp } from '../test/app.ts';
import { createOrganization, createUser } from '../test/factories.ts';
import { WEBHOOK_MAX_ATTEMPTS, webhookDeliveryJob } from './webhook-delivery.job.ts';

const t = await setupTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
const receiver = await startReceiver();
afterAll(() => receiver.close());
const ctx = t.app.ctx;
const TOKEN = 'whk-secret-token-0123456789';

beforeEach(() => {
  receiver.requests.length = 0;
  receiver.respond(() => 200);
});

async function webhookOrg(opts: { url?: string | null; on?: boolean } = {}) {
  return createOrganization(t, {
    webhookSwitch: opts.on ?? true,
    webhookUrl: opts.url === undefined ? receiver.url : opts.url,
    webhookAuthToken: TOKEN,
  });
}

async function deliveryOf(scanId: number) {
  const rows = await ctx.database.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.scanId, scanId));
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe('webhook delivery of a new scan', () => {
  it('POSTs the scan as JSON with the organization token and logs it delivered', async () => {
    const org = await webhookOrg();
    const technician = await createUser(t, {
      userType: 'TECHNICIAN',
      organizationId: org.id,
      firstName: 'Asha',
    });
    const { scan } = await createScan(
      ctx,
      scanInput({
        organizationId: org.id,
        technicianId: technician.id,
        leftBreastFinding: ['mass 2 o’clock'],
      }),
    );
    expect(await ctx.services.queue.drain()).toBe(1);

    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    expect(req?.method).toBe('POST');
    expect(req?.url).toBe('/hooks/scans?source=test');
    expect(req?.headers.authorization).toBe(`Token ${TOKEN}`);
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers['x-webhook-event']).toBe('scan.created');
    const delivery = await deliveryOf(scan.id);
    expect(req?.headers['x-webhook-delivery']).toBe(String(delivery.id));

    const body = req?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      id: scan.id,
      organization: org.id,
      organization_name: org.name,
      organization_data: { name: org.name },
      technician_data: { id: technician.id, first_name: 'Asha' },
      device_serial_number: scan.deviceSerialNumber,
      local_db_id: scan.localDbId,
      scan_type: 'SCAN',
      parent_scan_id: null,
      left_breast_finding: ['mass 2 o’clock'],
      right_breast_finding: [],
      is_positive: true,
      date_time: '2026-03-01T10:00:00.000Z',
      assessment_result: 'NO_ASSESSMENT',
      scan_files_path: { reports: [], assessment_files: [], consent_form: [] },
    });
    // Internal columns are not part of the API shape.
    for (const key of ['created_by', 'modified_by', 'createdBy', 'organizationId', 'modified'])
      expect(body).not.toHaveProperty(key);

    expect(delivery).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
    });
    expect(delivery.deliveredAt).toBeInstanceOf(Date);
  });

  it('retries an unsuccessful answer after a delay, then records it delivered (attempts 2)', async () => {
    receiver.respond((n) => (n === 1 ? 500 : 200));
    const org = await webhookOrg();
    const { scan } = await createScan(ctx, scanInput({ organizationId: org.id }));

    // Jobs due now only: the first attempt runs, the retry waits for its backoff.
    await ctx.services.queue.drain({ ignoreStartAfter: false });
    expect(receiver.requests).toHaveLength(1);
    const pending = await deliveryOf(scan.id);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500 });
    // The receiver echoed the Authorization header in its error body: the log keeps the text, not the token.
    expect(pending.lastError).toContain('HTTP 500');
    expect(pending.lastError).not.toContain(TOKEN);

    // Skipping the wait (no real sleeping): the retry runs and succeeds.
    await ctx.services.queue.drain();
    expect(receiver.requests).toHaveLength(2);
    expect(await deliveryOf(scan.id)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      lastStatusCode: 200,
      lastError: null,
    });
  });

  it(`gives up after ${WEBHOOK_MAX_ATTEMPTS} unsuccessful attempts and logs the delivery failed`, async () => {
    receiver.respond(() => 503);
    const org = await webhookOrg();
    const { scan } = await createScan(ctx, scanInput({ organizationId: org.id }));
    await ctx.services.queue.drain();
    expect(receiver.requests).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    expect(await deliveryOf(scan.id)).toMatchObject({
      status: 'failed',
      attempts: WEBHOOK_MAX_ATTEMPTS,
      lastStatusCode: 503,
      deliveredAt: null,
    });
  });

  it('does not follow a redirect: a 3xx is an unsuccessful answer', async () => {
    receiver.respond((n) => (n === 1 ? 302 : 200));
    const org = await webhookOrg();
    const { scan } = await createScan(ctx, scanInput({ organizationId: org.id }));
    await ctx.services.queue.drain({ ignoreStartAfter: false });
    expect(receiver.requests.map((r) => r.url)).toEqual(['/hooks/scans?source=test']);
    const row = await deliveryOf(scan.id);
    expect(row).toMatchObject({ status: 'pending', lastStatusCode: 302 });
    expect(row.lastError).toContain('redirects are not followed');
    await ctx.services.queue.drain();
  });

  it('does not send a delivered scan again when its job runs twice', async () => {
    const org = await webhookOrg();
    const { scan } = await createScan(ctx, scanInput({ organizationId: org.id }));
    await ctx.services.queue.drain();
    const delivery = await deliveryOf(scan.id);
    await enqueue(ctx.services.queue, webhookDeliveryJob, { delivery_id: delivery.id });
    await enqueue(ctx.services.queue, webhookDeliveryJob, { delivery_id: delivery.id });
    await ctx.services.queue.drain();
    expect(receiver.requests).toHaveLength(1);
    expect(await deliveryOf(scan.id)).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('makes only the attempt a job was queued for; a pg-boss retry of a crashed job goes on with the next', async () => {
    const org = await webhookOrg();
    const { scan, webhookDeliveryId } = await createScan(ctx, scanInput({ organizationId: org.id }));
    const id = webhookDeliveryId!;
    // As if a job claimed attempt 1 and the process died before the POST.
    await ctx.database.db.update(webhookDeliveries).set({ attempts: 1 }).where(eq(webhookDeliveries.id, id));
    const info = { id: 'job-1', name: webhookDeliveryJob.name, retryCount: 0 };
    // Another job queued for attempt 1 (the first queueing, or the sweep's) finds it taken: nothing is sent.
    await webhookDeliveryJob.handle(ctx, { delivery_id: id, attempt: 1 }, info);
    expect(receiver.requests).toHaveLength(0);
    // pg-boss retrying the job that crashed: the row is not stranded.
    await webhookDeliveryJob.handle(ctx, { delivery_id: id, attempt: 1 }, { ...info, retryCount: 1 });
    expect(receiver.requests).toHaveLength(1);
    expect(await deliveryOf(scan.id)).toMatchObject({ status: 'delivered', attempts: 2 });
    await ctx.services.queue.drain();
    expect(receiver.requests).toHaveLength(1);
  });

  it('logs the delivery failed, unsent, when the webhook is switched off before it runs', async () => {
    const org = await webhookOrg();
    const { scan } = await createScan(ctx, scanInput({ organizationId: org.id }));
    await ctx.database.db
      .update(organizations)
      .set({ webhookSwitch: false })
      .where(eq(organizations.id, org.id));
    await ctx.services.queue.drain();
    expect(receiver.requests).toHaveLength(0);
    expect(await deliveryOf(scan.id)).toMatchObject({ status: 'failed', attempts: 0 });
  });

  it('records a receiver that cannot be reached and retries it', async () => {
    const org = await webhookOrg({ url: 'http://127.0.0.1:9/unreachable' });
    const { scan } = await createScan(ctx, scanInput({ organizationId: org.id }));
    await ctx.services.queue.drain({ ignoreStartAfter: false });
    const row = await deliveryOf(scan.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null });
    expect(row.lastError).toMatch(/ECONNREFUSED/);
  });

  it('never writes the auth token to the service log', async () => {
    receiver.respond((n) => (n === 1 ? 500 : 200));
    const lines: string[] = [];
    const capture: ServiceLogger = {
      info: (obj, msg) => lines.push(JSON.stringify({ obj, msg })),
      warn: (obj, msg) => lines.push(JSON.stringify({ obj, msg })),
      error: (obj, msg) => lines.push(JSON.stringify({ obj, msg })),
    };
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE: 'true' });
    const services = createServices(config, t.database, t.clock.now, capture);
    try {
      const org = await webhookOrg();
      const { scan } = await createScan(
        { config, database: t.database, services, now: t.clock.now },
        scanInput({ organizationId: org.id }),
      );
      await services.queue.drain();
      expect(await deliveryOf(scan.id)).toMatchObject({ status: 'delivered', attempts: 2 });
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join('\n')).not.toContain(TOKEN);
    } finally {
      await services.close();
    }
  });
});
