import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { TUserType } from '@sc/shared/roles';
import { WEBHOOK_MESSAGES } from '@sc/shared/webhooks';
import { organizations, webhookDeliveries } from '../../db/schema/index.ts';
import { webhookBackfillJob } from '../../jobs/webhook-backfill.job.ts';
import { enqueue } from '../../services/queue/job.ts';
import { startReceiver } from '../../services/webhooks/test-receiver.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, type UserOptions } from '../../test/factories.ts';
import { scanInput } from '../scans/scans.fixtures.ts';
import { createScan } from '../scans/scans.service.ts';

const t = await setupTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
const receiver = await startReceiver();
afterAll(() => receiver.close());
const ctx = t.app.ctx;
const { db } = ctx.database;
const TOKEN = 'org-webhook-token-987654321';

beforeEach(() => {
  receiver.requests.length = 0;
});

async function webhookOrg(opts: Parameters<typeof createOrganization>[1] = {}) {
  return createOrganization(t, {
    webhookSwitch: true,
    webhookUrl: receiver.url,
    webhookAuthToken: TOKEN,
    ...opts,
  });
}

async function tokenFor(userType: TUserType, opts: UserOptions = {}) {
  return signIn(t, await createUser(t, { userType, ...opts }));
}

const post = (token: string | null, payload: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/organization/previous-scans/',
    headers: token ? auth(token) : {},
    payload,
  });

/** Scans stored before the webhook existed (switched on afterwards), so nothing was sent yet. */
async function orgWithPreviousScans(scanCount: number, extra: Parameters<typeof createOrganization>[1] = {}) {
  const org = await webhookOrg({ webhookSwitch: false, ...extra });
  for (let i = 0; i < scanCount; i++) await createScan(ctx, scanInput({ organizationId: org.id }));
  await createScan(ctx, scanInput({ organizationId: org.id, scanType: 'TRAINING' }));
  await createScan(ctx, scanInput({ organizationId: org.id, scanType: 'PRACTICE' }));
  await db.update(organizations).set({ webhookSwitch: true }).where(eq(organizations.id, org.id));
  return org;
}

describe('POST organization/previous-scans/', () => {
  it('answers 401 without a token', async () => {
    const org = await webhookOrg();
    const res = await post(null, { organization: org.id });
    expect(res.statusCode).toBe(401);
  });

  it('queues every SCAN-type scan of the organization and delivers them (ADMIN)', async () => {
    const org = await orgWithPreviousScans(3);
    const other = await orgWithPreviousScans(2); // another organization's scans are not sent
    const admin = await tokenFor('ADMIN');
    const res = await post(admin, { organization: org.id });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ detail: WEBHOOK_MESSAGES.previousScansQueued, queued: 3 });

    await ctx.services.queue.drain();
    expect(receiver.requests).toHaveLength(3);
    for (const r of receiver.requests) {
      expect(r.headers.authorization).toBe(`Token ${TOKEN}`);
      expect(r.body).toMatchObject({ organization: org.id, scan_type: 'SCAN' });
    }
    const rows = await db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.organizationId, org.id));
    expect(rows.map((r) => r.status)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(
      await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.organizationId, other.id)),
    ).toHaveLength(0);
  });

  it('accepts organization_id and id for the organization', async () => {
    const org = await orgWithPreviousScans(1);
    const admin = await tokenFor('SUB_ADMIN');
    expect((await post(admin, { organization_id: org.id })).statusCode).toBe(202);
    expect((await post(admin, { id: String(org.id) })).statusCode).toBe(202);
    await ctx.services.queue.drain();
  });

  it('does not queue a scan twice when the backfill job runs again', async () => {
    const org = await orgWithPreviousScans(2);
    const admin = await tokenFor('ADMIN');
    expect((await post(admin, { organization: org.id })).json()).toMatchObject({ queued: 2 });
    const [first] = await db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.organizationId, org.id));
    expect(first).toBeUndefined(); // the request only queued the job
    // The same job delivered twice (at-least-once): the second run finds the rows of the first.
    const requested_at = new Date(ctx.now().getTime() - 1000).toISOString();
    const payload = { organization_id: org.id, requested_at, max_scan_id: 2_000_000_000 };
    await enqueue(ctx.services.queue, webhookBackfillJob, payload);
    await ctx.services.queue.drain();
    await enqueue(ctx.services.queue, webhookBackfillJob, payload);
    await ctx.services.queue.drain();
    const rows = await db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.organizationId, org.id));
    expect(rows).toHaveLength(2);
    expect(receiver.requests).toHaveLength(2);
  });

  it('answers 202 with queued 0 for an organization without scans', async () => {
    const org = await webhookOrg();
    const res = await post(await tokenFor('ADMIN'), { organization: org.id });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ detail: WEBHOOK_MESSAGES.previousScansQueued, queued: 0 });
  });

  it('refuses 400 while the webhook is switched off or has no URL', async () => {
    const admin = await tokenFor('ADMIN');
    for (const org of [await webhookOrg({ webhookSwitch: false }), await webhookOrg({ webhookUrl: null })]) {
      const res = await post(admin, { organization: org.id });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ non_field_errors: [WEBHOOK_MESSAGES.notReady] });
    }
  });

  it('answers 400 naming the field when no organization is given', async () => {
    const res = await post(await tokenFor('ADMIN'), {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ organization: ['This field is required.'] });
    const bad = await post(await tokenFor('ADMIN'), { organization: 'abc' });
    expect(bad.statusCode).toBe(400);
  });

  it('answers 404 for an organization that does not exist', async () => {
    const res = await post(await tokenFor('ADMIN'), { organization: 999_999 });
    expect(res.statusCode).toBe(404);
  });

  it('lets an ORG_ADMIN send its own organization, and answers 404 for another one', async () => {
    const own = await orgWithPreviousScans(1);
    const other = await orgWithPreviousScans(1);
    const token = await tokenFor('ORG_ADMIN', { organizationId: own.id });
    expect((await post(token, { organization: own.id })).statusCode).toBe(202);
    expect((await post(token, { organization: other.id })).statusCode).toBe(404);
    await ctx.services.queue.drain();
  });

  it('lets a DISTRIBUTOR_ADMIN send a sub-organization, and answers 404 outside its tree', async () => {
    const distributor = await webhookOrg({ canCreateOrganization: true });
    const child = await orgWithPreviousScans(1, { parentId: distributor.id });
    const outside = await orgWithPreviousScans(1);
    const token = await tokenFor('DISTRIBUTOR_ADMIN', { organizationId: distributor.id });
    expect((await post(token, { organization: child.id })).json()).toMatchObject({ queued: 1 });
    expect((await post(token, { organization: outside.id })).statusCode).toBe(404);
    await ctx.services.queue.drain();
  });

  it('lets a MANAGER send a linked organization, and answers 404 for an unlinked one', async () => {
    const linked = await orgWithPreviousScans(1);
    const unlinked = await orgWithPreviousScans(1);
    const token = await tokenFor('MANAGER', { linkedOrganizationIds: [linked.id] });
    expect((await post(token, { organization: linked.id })).statusCode).toBe(202);
    expect((await post(token, { organization: unlinked.id })).statusCode).toBe(404);
    await ctx.services.queue.drain();
  });

  it.each(['TECHNICIAN', 'CERVAICAL_REVIEWER'] as const)('refuses a %s with 403', async (userType) => {
    const org = await webhookOrg();
    const token = await tokenFor(userType, { organizationId: org.id });
    const res = await post(token, { organization: org.id });
    expect(res.statusCode).toBe(403);
  });

  it('refuses an impersonation token (read-only) with 403', async () => {
    const org = await webhookOrg();
    const admin = await createUser(t, { userType: 'ADMIN' });
    const target = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id });
    const token = await signIn(t, target, { kind: 'impersonation', impersonatorId: admin.id });
    expect((await post(token, { organization: org.id })).statusCode).toBe(403);
  });
});

describe('GET organization/webhook-deliveries/', () => {
  const list = (token: string, query = '') =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/organization/webhook-deliveries/${query}`,
      headers: auth(token),
    });

  it('lists the delivery log of an organization, newest first, without the token', async () => {
    const org = await webhookOrg();
    receiver.respond((n) => (n === 1 ? 500 : 200));
    await createScan(ctx, scanInput({ organizationId: org.id }));
    await ctx.services.queue.drain({ ignoreStartAfter: false });
    receiver.respond(() => 200);
    const res = await list(await tokenFor('ADMIN'), `?organization=${org.id}&limit=5`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ count: 1, next: null, previous: null });
    expect(body.results[0]).toMatchObject({
      organization: org.id,
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
    });
    expect(JSON.stringify(body)).not.toContain(TOKEN);
    await ctx.services.queue.drain();
    const after = await list(await tokenFor('ADMIN'), `?organization=${org.id}&status=delivered`);
    expect(after.json()).toMatchObject({ count: 1, results: [{ status: 'delivered', attempts: 2 }] });
  });

  it("shows an ORG_ADMIN only its own organization's deliveries, and 404 for another organization", async () => {
    const own = await webhookOrg();
    const other = await webhookOrg();
    await createScan(ctx, scanInput({ organizationId: own.id }));
    await createScan(ctx, scanInput({ organizationId: other.id }));
    await ctx.services.queue.drain();
    const token = await tokenFor('ORG_ADMIN', { organizationId: own.id });
    const res = await list(token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(1);
    expect(body.results.every((r: { organization: number }) => r.organization === own.id)).toBe(true);
    expect((await list(token, `?organization=${other.id}`)).statusCode).toBe(404);
  });

  it('refuses a TECHNICIAN with 403 and a bad status with 400', async () => {
    const org = await webhookOrg();
    expect((await list(await tokenFor('TECHNICIAN', { organizationId: org.id }))).statusCode).toBe(403);
    const bad = await list(await tokenFor('ADMIN'), '?status=lost');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['status']);
  });
});
