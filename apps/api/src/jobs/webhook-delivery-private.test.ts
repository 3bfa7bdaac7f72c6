// Without WEBHOOK_ALLOW_PRIVATE (the default), a webhook URL on a private or loopback address is refused at
// delivery time too: the URL may have been saved while allowed, or its name may resolve differently now.
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../db/schema/index.ts';
import { scanInput } from '../modules/scans/scans.fixtures.ts';
import { createScan } from '../modules/scans/scans.service.ts';
import { startReceiver } from '../services/webhooks/test-receiver.ts';
import { WEBHOOK_URL_MESSAGES } from '../services/webhooks/url-guard.ts';
import { setupTestApp } from '../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../test/factories.ts';

const t = await setupTestApp();
const receiver = await startReceiver();
afterAll(() => receiver.close());
const ctx = t.app.ctx;

describe('webhook delivery to a private address (not allowed by the server)', () => {
  it.each([
    ['an IP literal', (url: string) => url],
    ['a name that resolves to loopback', (url: string) => url.replace('127.0.0.1', 'localhost')],
  ])('refuses %s: the delivery is failed and nothing is sent', async (_label, toUrl) => {
    const org = await createOrganization(t, {
      webhookSwitch: true,
      webhookUrl: toUrl(receiver.url),
      webhookAuthToken: 'tok-1234567890',
    });
    const { scan } = await createScan(ctx, scanInput({ organizationId: org.id }));
    await ctx.services.queue.drain();
    expect(receiver.requests).toHaveLength(0);
    const [row] = await ctx.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.scanId, scan.id));
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastStatusCode: null,
      lastError: WEBHOOK_URL_MESSAGES.private,
    });
    expect(t.app.ctx.config.WEBHOOK_ALLOW_PRIVATE).toBe(false);
  });

  it('refuses a Replay the same way (issue 27): the guards run on every delivery the job sends', async () => {
    const org = await createOrganization(t, { webhookSwitch: true, webhookUrl: receiver.url });
    await createScan(ctx, scanInput({ organizationId: org.id }));
    await ctx.services.queue.drain();
    const [failed] = await ctx.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.organizationId, org.id));
    const admin = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organization/webhook-deliveries/${failed!.id}/replay/`,
      headers: auth(admin),
    });
    expect(res.statusCode).toBe(202);
    await ctx.services.queue.drain();
    expect(receiver.requests).toHaveLength(0);
    const [replay] = await ctx.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.replayOf, failed!.id));
    expect(replay).toMatchObject({ status: 'failed', attempts: 1, lastError: WEBHOOK_URL_MESSAGES.private });
  });
});
