// Issue 27: signed webhooks, the secret shown once, the delivery log's timings and filters, and Replay. A real HTTP
// receiver on a loopback port verifies every signature as a customer's would, and refuses a tampered body and an old
// timestamp.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_REDACTED } from '@sc/shared/audit';
import { FOLLOW_UP_WEBHOOK_EVENT } from '@sc/shared/follow-up';
import type { TUserType } from '@sc/shared/roles';
import {
  WEBHOOK_MESSAGES,
  WEBHOOK_REPLAY_MAX,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_SIGNATURE_TOLERANCE_SECONDS,
  WEBHOOK_TIMESTAMP_HEADER,
} from '@sc/shared/webhooks';
import { auditLog, organizations, webhookDeliveries } from '../../db/schema/index.ts';
import { signatureHeaders, verifyWebhookSignature, webhookSignature } from '../../services/webhooks/signature.ts';
import { startReceiver, type ReceivedRequest } from '../../services/webhooks/test-receiver.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, type UserOptions } from '../../test/factories.ts';
import { scanInput } from '../scans/scans.fixtures.ts';
import { createScan } from '../scans/scans.service.ts';
import { WEBHOOK_SECRET_AUDIT } from './organization-webhook-secret.service.ts';
import { WEBHOOK_REPLAY_AUDIT } from './organization-webhooks.service.ts';

const t = await setupTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
const ctx = t.app.ctx;
const { db } = ctx.database;
const API = '/api/v1';

/** The secret the receiver verifies with (what the customer copied), and the receiver's own clock. */
let receiverSecret: string | null = null;
let receiverNow: (() => Date) | undefined;
const receiver = await startReceiver({
  verifyWith: () => (receiverSecret ? { secret: receiverSecret, now: receiverNow?.() } : null),
});
afterAll(() => receiver.close());

beforeEach(() => {
  receiver.requests.length = 0;
  receiver.respond(() => 200);
  receiverSecret = null;
  receiverNow = undefined;
});

const webhookOrg = (opts: Parameters<typeof createOrganization>[1] = {}) =>
  createOrganization(t, { webhookSwitch: true, webhookUrl: receiver.url, webhookAuthToken: 'tok-123456', ...opts });

async function tokenFor(userType: TUserType, opts: UserOptions = {}) {
  return signIn(t, await createUser(t, { userType, ...opts }));
}

const call = (method: 'GET' | 'POST', url: string, token: string | null, payload?: Record<string, unknown>, headers = {}) =>
  t.app.inject({ method, url: `${API}${url}`, headers: { ...(token ? auth(token) : {}), ...headers }, payload });

async function makeSecret(orgId: number, token?: string): Promise<string> {
  const res = await call('POST', `/organization/${orgId}/webhook/secret/`, token ?? (await tokenFor('ADMIN')));
  expect(res.statusCode).toBe(201);
  return (res.json() as { secret: string }).secret;
}

async function deliveriesOf(orgId: number) {
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.organizationId, orgId)).orderBy(webhookDeliveries.id);
}

/** Sends a captured request again to the receiver, with a body and headers of the test's choosing. */
async function resend(req: ReceivedRequest, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(receiver.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [WEBHOOK_TIMESTAMP_HEADER]: String(req.headers[WEBHOOK_TIMESTAMP_HEADER.toLowerCase()]),
      [WEBHOOK_SIGNATURE_HEADER]: String(req.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]),
      ...headers,
    },
    body,
  });
  return { status: res.status, text: await res.text() };
}

describe('webhookSignature and verifyWebhookSignature', () => {
  const now = new Date('2026-11-28T10:00:00Z');
  const ts = Math.floor(now.getTime() / 1000);

  it('signs `${timestamp}.${body}` with HMAC-SHA256 (a known vector) and verifies it', () => {
    // openssl: printf '1795860000.{"a":1}' | openssl dgst -sha256 -hmac whsec_test
    const vector = '24d3402c050fa7ec47f97c7f194fa52f6c7f6357cee797c98232f0d785ad04f7';
    expect(ts).toBe(1795860000);
    expect(webhookSignature('whsec_test', ts, '{"a":1}')).toBe(vector);
    expect(webhookSignature('whsec_test', ts, Buffer.from('{"a":1}'))).toBe(vector);
    const headers = signatureHeaders('whsec_test', now, '{"a":1}');
    expect(headers).toEqual({ 'x-sc-timestamp': '1795860000', 'x-sc-signature': `v1=${vector}` });
    const check = (over: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
      verifyWebhookSignature({
        secret: 'whsec_test',
        rawBody: '{"a":1}',
        timestamp: headers['x-sc-timestamp'],
        signature: headers['x-sc-signature'],
        now,
        ...over,
      });
    expect(check({})).toEqual({ ok: true });
    expect(check({ rawBody: '{"a":2}' })).toEqual({ ok: false, reason: 'mismatch' });
    expect(check({ secret: 'whsec_other' })).toEqual({ ok: false, reason: 'mismatch' });
    expect(check({ signature: undefined })).toEqual({ ok: false, reason: 'missing' });
    expect(check({ timestamp: 'yesterday' })).toEqual({ ok: false, reason: 'missing' });
    const late = new Date(now.getTime() + (WEBHOOK_SIGNATURE_TOLERANCE_SECONDS + 1) * 1000);
    expect(check({ now: late })).toEqual({ ok: false, reason: 'stale' });
    const early = new Date(now.getTime() - (WEBHOOK_SIGNATURE_TOLERANCE_SECONDS + 1) * 1000);
    expect(check({ now: early })).toEqual({ ok: false, reason: 'stale' });
    expect(check({ now: new Date(now.getTime() + WEBHOOK_SIGNATURE_TOLERANCE_SECONDS * 1000) })).toEqual({ ok: true });
  });
});

describe('signed deliveries to a verifying receiver', () => {
  it('signs a new scan with the generated secret; the receiver accepts it, and refuses a tampered body and an old timestamp', async () => {
    const org = await webhookOrg();
    receiverSecret = await makeSecret(org.id);
    expect(receiverSecret.startsWith(WEBHOOK_SECRET_PREFIX)).toBe(true);
    await createScan(ctx, scanInput({ organizationId: org.id }));
    await ctx.services.queue.drain();

    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    expect(req!.signature).toEqual({ ok: true });
    expect(Number(req!.headers['x-sc-timestamp'])).toBeCloseTo(ctx.now().getTime() / 1000, -1);
    const [row] = await deliveriesOf(org.id);
    expect(row).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200 });
    expect(row!.lastAttemptAt).toBeInstanceOf(Date);
    expect(row!.durationMs).toBeGreaterThanOrEqual(0);

    // The same signature over a changed body: refused.
    const tampered = req!.rawBody.replace('"scan_type":"SCAN"', '"scan_type":"PRACTICE"');
    expect(tampered).not.toBe(req!.rawBody);
    expect(await resend(req!, tampered)).toEqual({ status: 401, text: 'signature mismatch' });
    // The captured request played back as it was, within the tolerance: accepted (what the timestamp guards against
    // is the next case).
    expect((await resend(req!, req!.rawBody)).status).toBe(200);
    // …and six minutes later: refused as old.
    receiverNow = () => new Date(Date.now() + (WEBHOOK_SIGNATURE_TOLERANCE_SECONDS + 60) * 1000);
    expect(await resend(req!, req!.rawBody)).toEqual({ status: 401, text: 'signature stale' });
    // A fresh timestamp with the old signature: refused (the timestamp is signed too).
    receiverNow = undefined;
    const fresh = String(Math.floor(Date.now() / 1000) + 7);
    expect(await resend(req!, req!.rawBody, { [WEBHOOK_TIMESTAMP_HEADER]: fresh })).toEqual({
      status: 401,
      text: 'signature mismatch',
    });
  });

  it('signs a follow-up event (payload kept) and each retry with the time of its own attempt', async () => {
    const org = await webhookOrg();
    receiverSecret = await makeSecret(org.id);
    const { scan } = await createScan(ctx, scanInput({ organizationId: org.id }));
    await ctx.services.queue.drain();
    receiver.requests.length = 0;
    // A follow-up case's move: its JSON was fixed when it happened (a row as follow-up-core writes it).
    const [event] = await db
      .insert(webhookDeliveries)
      .values({
        organizationId: org.id,
        event: FOLLOW_UP_WEBHOOK_EVENT,
        scanId: scan.id,
        payload: { event: FOLLOW_UP_WEBHOOK_EVENT, case: 1, to: 'CONTACTED' },
        url: receiver.url,
      })
      .returning();
    const { enqueue } = await import('../../services/queue/job.ts');
    const { webhookDeliveryJob } = await import('../../jobs/webhook-delivery.job.ts');
    receiver.respond((n) => (n === 1 ? 503 : 200));
    await enqueue(ctx.services.queue, webhookDeliveryJob, { delivery_id: event!.id, attempt: 1 });
    await ctx.services.queue.drain({ ignoreStartAfter: false });
    t.clock.advance(30_000);
    await ctx.services.queue.drain();
    t.clock.advance(-30_000);

    expect(receiver.requests).toHaveLength(2);
    const [first, retry] = receiver.requests;
    expect(first!.body).toEqual({ event: FOLLOW_UP_WEBHOOK_EVENT, case: 1, to: 'CONTACTED' });
    expect(first!.headers['x-webhook-event']).toBe(FOLLOW_UP_WEBHOOK_EVENT);
    // Both verify against the secret over their own bytes; the retry carries its own, later timestamp.
    for (const r of [first!, retry!]) {
      const at = new Date(Number(r.headers['x-sc-timestamp']) * 1000);
      expect(
        verifyWebhookSignature({
          secret: receiverSecret,
          rawBody: r.rawBody,
          timestamp: String(r.headers['x-sc-timestamp']),
          signature: String(r.headers['x-sc-signature']),
          now: at,
        }),
      ).toEqual({ ok: true });
    }
    expect(Number(retry!.headers['x-sc-timestamp']) - Number(first!.headers['x-sc-timestamp'])).toBeGreaterThanOrEqual(29);
    const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, event!.id));
    expect(row).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(row!.lastAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 20_000);
  });

  it('signs the next delivery with the rotated secret; the old one no longer verifies', async () => {
    const org = await webhookOrg();
    const old = await makeSecret(org.id);
    const admin = await tokenFor('ADMIN');
    const res = await call('POST', `/organization/${org.id}/webhook/secret/`, admin);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ rotated: true, detail: WEBHOOK_MESSAGES.secretRotated, organization: org.id });
    const rotated = (res.json() as { secret: string }).secret;
    expect(rotated).not.toBe(old);

    receiverSecret = old;
    await createScan(ctx, scanInput({ organizationId: org.id }));
    await ctx.services.queue.drain({ ignoreStartAfter: false });
    expect(receiver.requests[0]!.signature).toEqual({ ok: false, reason: 'mismatch' });
    const [pending] = await deliveriesOf(org.id);
    expect(pending).toMatchObject({ status: 'pending', lastStatusCode: 401, lastError: 'HTTP 401: signature mismatch' });

    receiverSecret = rotated;
    await ctx.services.queue.drain();
    expect(receiver.requests[1]!.signature).toEqual({ ok: true });
    expect((await deliveriesOf(org.id))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('makes a secret for an organization that has none at its first delivery: nothing is sent unsigned', async () => {
    const org = await webhookOrg();
    await createScan(ctx, scanInput({ organizationId: org.id }));
    await ctx.services.queue.drain();
    const [stored] = await db.select().from(organizations).where(eq(organizations.id, org.id));
    expect(stored!.webhookSecret).toMatch(new RegExp(`^${WEBHOOK_SECRET_PREFIX}`));
    const [req] = receiver.requests;
    expect(
      verifyWebhookSignature({
        secret: stored!.webhookSecret!,
        rawBody: req!.rawBody,
        timestamp: String(req!.headers['x-sc-timestamp']),
        signature: String(req!.headers['x-sc-signature']),
      }),
    ).toEqual({ ok: true });
    const status = await call('GET', `/organization/${org.id}/webhook/secret/`, await tokenFor('ADMIN'));
    expect(status.json()).toEqual({ organization: org.id, configured: true, created: stored!.webhookSecretCreated!.toISOString() });
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, WEBHOOK_SECRET_AUDIT.created), eq(auditLog.organizationId, org.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorId).toBeNull();
    expect(JSON.stringify(audits[0])).not.toContain(stored!.webhookSecret!);
  });
});

describe('organization/{id}/webhook/secret/', () => {
  it('answers the secret once: GET says only whether one exists and since when; the audit row keeps no secret', async () => {
    const org = await webhookOrg();
    const admin = await tokenFor('SUB_ADMIN');
    const before = await call('GET', `/organization/${org.id}/webhook/secret/`, admin);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ organization: org.id, configured: false, created: null });

    const made = await call('POST', `/organization/${org.id}/webhook/secret/`, admin);
    expect(made.statusCode).toBe(201);
    const body = made.json() as { secret: string; created: string; rotated: boolean; detail: string };
    expect(body).toMatchObject({ rotated: false, detail: WEBHOOK_MESSAGES.secretCreated });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const after = await call('GET', `/organization/${org.id}/webhook/secret/`, admin);
    expect(after.json()).toEqual({ organization: org.id, configured: true, created: body.created });
    expect(after.body).not.toContain(body.secret);
    const orgRes = await call('GET', `/organization/${org.id}/`, admin);
    expect(orgRes.body).not.toContain(body.secret);

    const [row] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, WEBHOOK_SECRET_AUDIT.created), eq(auditLog.organizationId, org.id)));
    expect(row).toMatchObject({ targetType: 'organization', targetId: String(org.id), organizationId: org.id });
    expect(row!.changes).toContainEqual({ field: 'webhook_secret', before: AUDIT_REDACTED, after: AUDIT_REDACTED });
    expect(JSON.stringify(row)).not.toContain(body.secret);
  });

  it('is refused 403 to a role that manages no webhook, and 404 outside the scope or for no organization', async () => {
    const own = await webhookOrg();
    const other = await webhookOrg();
    const tech = await tokenFor('TECHNICIAN', { organizationId: own.id });
    expect((await call('POST', `/organization/${own.id}/webhook/secret/`, tech)).statusCode).toBe(403);
    expect((await call('GET', `/organization/${own.id}/webhook/secret/`, tech)).statusCode).toBe(403);
    const orgAdmin = await tokenFor('ORG_ADMIN', { organizationId: own.id });
    expect((await call('POST', `/organization/${own.id}/webhook/secret/`, orgAdmin)).statusCode).toBe(201);
    expect((await call('POST', `/organization/${other.id}/webhook/secret/`, orgAdmin)).statusCode).toBe(404);
    expect((await call('GET', `/organization/${other.id}/webhook/secret/`, orgAdmin)).statusCode).toBe(404);
    const [untouched] = await db.select().from(organizations).where(eq(organizations.id, other.id));
    expect(untouched!.webhookSecret).toBeNull();
    const admin = await tokenFor('ADMIN');
    expect((await call('POST', `/organization/999999/webhook/secret/`, admin)).statusCode).toBe(404);
    expect((await call('GET', `/organization/abc/webhook/secret/`, admin)).statusCode).toBe(404);
    expect((await call('POST', `/organization/${own.id}/webhook/secret/`, null)).statusCode).toBe(401);
  });
});

describe('the delivery log', () => {
  it('shows timings and replay_of, filters by event, status and period, and answers 400 on a bad period', async () => {
    const org = await webhookOrg();
    await createScan(ctx, scanInput({ organizationId: org.id }));
    await ctx.services.queue.drain();
    const admin = await tokenFor('ADMIN');
    const list = (q: string) => call('GET', `/organization/webhook-deliveries/?organization=${org.id}${q}`, admin, undefined, { Timezone: 'UTC' });
    const all = (await list('')).json();
    expect(all.count).toBe(1);
    expect(all.results[0]).toMatchObject({ event: 'scan.created', status: 'delivered', replay_of: null });
    expect(all.results[0].duration_ms).toBeGreaterThanOrEqual(0);
    expect(all.results[0].last_attempt_at).toEqual(expect.any(String));
    expect((await list(`&event=${FOLLOW_UP_WEBHOOK_EVENT}`)).json().count).toBe(0);
    expect((await list('&event=scan.created&status=delivered')).json().count).toBe(1);
    const today = ctx.now().toISOString().slice(0, 10);
    expect((await list(`&created_after=${today}&created_before=${today}`)).json().count).toBe(1);
    expect((await list('&created_after=2020-01-01&created_before=2020-01-31')).json().count).toBe(0);
    const bad = await list('&created_after=2026-02-30');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['created_after']);
    const backwards = await list('&created_after=2026-03-05&created_before=2026-03-01');
    expect(backwards.statusCode).toBe(400);
    expect(Object.keys(backwards.json())).toEqual(['created_before']);
    expect((await list('&event=scan.deleted')).statusCode).toBe(400);
  });

  it('scopes the log per role: a MANAGER sees its linked organization, 404 for another', async () => {
    const linked = await webhookOrg();
    const other = await webhookOrg();
    await createScan(ctx, scanInput({ organizationId: linked.id }));
    await createScan(ctx, scanInput({ organizationId: other.id }));
    await ctx.services.queue.drain();
    const manager = await tokenFor('MANAGER', { linkedOrganizationIds: [linked.id] });
    const res = await call('GET', `/organization/webhook-deliveries/?organization=${linked.id}`, manager);
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(1);
    expect((await call('GET', `/organization/webhook-deliveries/?organization=${other.id}`, manager)).statusCode).toBe(404);
  });
});

describe('Replay', () => {
  it('sends one delivery again as a new, signed delivery (replay_of), audited', async () => {
    const org = await webhookOrg();
    receiverSecret = await makeSecret(org.id);
    receiver.respond(() => 500);
    await createScan(ctx, scanInput({ organizationId: org.id }));
    // Every attempt fails: the delivery ends failed after its six attempts.
    for (let i = 0; i < 7; i++) await ctx.services.queue.drain();
    const [failed] = await deliveriesOf(org.id);
    expect(failed!.status).toBe('failed');
    receiver.requests.length = 0;
    receiver.respond(() => 200);

    const orgAdmin = await tokenFor('ORG_ADMIN', { organizationId: org.id });
    const res = await call('POST', `/organization/webhook-deliveries/${failed!.id}/replay/`, orgAdmin);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({
      detail: WEBHOOK_MESSAGES.replayQueued,
      delivery: { status: 'pending', attempts: 0, replay_of: failed!.id, event: 'scan.created', scan: failed!.scanId },
    });
    await ctx.services.queue.drain();
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.signature).toEqual({ ok: true });
    const rows = await deliveriesOf(org.id);
    expect(rows.map((r) => [r.status, r.replayOf])).toEqual([
      ['failed', null],
      ['delivered', failed!.id],
    ]);
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, WEBHOOK_REPLAY_AUDIT.one), eq(auditLog.organizationId, org.id)));
    expect(audit).toMatchObject({ targetType: 'webhook_delivery', targetId: String(rows[1]!.id) });
    expect(audit!.changes).toContainEqual({ field: 'replay_of', before: null, after: failed!.id });
  });

  it('refuses a pending delivery (400), and answers 404 outside the scope or for no delivery', async () => {
    const org = await webhookOrg();
    const other = await webhookOrg();
    await createScan(ctx, scanInput({ organizationId: other.id }));
    await ctx.services.queue.drain();
    const [otherRow] = await deliveriesOf(other.id);
    const orgAdmin = await tokenFor('ORG_ADMIN', { organizationId: org.id });
    expect((await call('POST', `/organization/webhook-deliveries/${otherRow!.id}/replay/`, orgAdmin)).statusCode).toBe(404);
    const admin = await tokenFor('ADMIN');
    expect((await call('POST', `/organization/webhook-deliveries/999999/replay/`, admin)).statusCode).toBe(404);
    expect((await call('POST', `/organization/webhook-deliveries/x/replay/`, admin)).statusCode).toBe(404);
    const tech = await tokenFor('TECHNICIAN', { organizationId: other.id });
    expect((await call('POST', `/organization/webhook-deliveries/${otherRow!.id}/replay/`, tech)).statusCode).toBe(403);

    await createScan(ctx, scanInput({ organizationId: org.id })); // queued, not sent yet
    const [pending] = await deliveriesOf(org.id);
    const res = await call('POST', `/organization/webhook-deliveries/${pending!.id}/replay/`, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [WEBHOOK_MESSAGES.replayPending] });
    await ctx.services.queue.drain();
    // A webhook switched off since: nothing to send to.
    await db.update(organizations).set({ webhookSwitch: false }).where(eq(organizations.id, org.id));
    const off = await call('POST', `/organization/webhook-deliveries/${pending!.id}/replay/`, admin);
    expect(off.statusCode).toBe(400);
    expect(off.json()).toEqual({ non_field_errors: [WEBHOOK_MESSAGES.notReady] });
  });

  it('replays a period (optionally one status), refuses more than the limit, bad dates and another scope', async () => {
    const org = await webhookOrg();
    const admin = await tokenFor('ADMIN');
    const day = (d: string) => new Date(`${d}T12:00:00Z`);
    const { scan } = await createScan(ctx, scanInput({ organizationId: org.id }));
    await ctx.services.queue.drain();
    await db.insert(webhookDeliveries).values([
      { organizationId: org.id, scanId: scan.id, url: receiver.url, status: 'failed', created: day('2026-03-01') },
      { organizationId: org.id, scanId: scan.id, url: receiver.url, status: 'delivered', created: day('2026-03-02') },
      { organizationId: org.id, scanId: scan.id, url: receiver.url, status: 'failed', created: day('2026-03-09') },
      { organizationId: org.id, scanId: scan.id, url: receiver.url, status: 'pending', created: day('2026-03-02'), attempts: 1 },
    ]);
    receiver.requests.length = 0;
    const replay = (payload: Record<string, unknown>, token = admin) =>
      call('POST', '/organization/webhook-deliveries/replay/', token, payload, { Timezone: 'UTC' });

    const failedOnly = await replay({ organization: org.id, created_after: '2026-03-01', created_before: '2026-03-05', status: 'failed' });
    expect(failedOnly.statusCode).toBe(202);
    expect(failedOnly.json()).toEqual({ detail: WEBHOOK_MESSAGES.periodReplayQueued, queued: 1 });
    // Delivered and failed, never the pending one.
    expect((await replay({ organization: org.id, created_after: '2026-03-01', created_before: '2026-03-05' })).json()).toMatchObject({
      queued: 2,
    });
    await ctx.services.queue.drain();
    expect(receiver.requests).toHaveLength(3);
    const replays = (await deliveriesOf(org.id)).filter((r) => r.replayOf !== null);
    expect(replays).toHaveLength(3);
    expect(replays.every((r) => r.status === 'delivered')).toBe(true);
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, WEBHOOK_REPLAY_AUDIT.period), eq(auditLog.organizationId, org.id)));
    expect(audit!.details).toMatchObject({ created_after: '2026-03-01', created_before: '2026-03-05', status: 'failed', queued: 1 });

    // Bad input: 400 on the field.
    const missing = await replay({ organization: org.id });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ created_after: ['This field is required.'], created_before: ['This field is required.'] });
    const badDate = await replay({ organization: org.id, created_after: '2026-13-01', created_before: '2026-03-05' });
    expect(Object.keys(badDate.json())).toEqual(['created_after']);
    const backwards = await replay({ organization: org.id, created_after: '2026-03-05', created_before: '2026-03-01' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toEqual({ created_before: ['End date must not be before the start date.'] });
    const badStatus = await replay({ organization: org.id, created_after: '2026-03-01', created_before: '2026-03-05', status: 'pending' });
    expect(Object.keys(badStatus.json())).toEqual(['status']);

    // Another scope: 404; a role without webhooks: 403.
    const otherAdmin = await tokenFor('ORG_ADMIN', { organizationId: (await webhookOrg()).id });
    expect((await replay({ organization: org.id, created_after: '2026-03-01', created_before: '2026-03-05' }, otherAdmin)).statusCode).toBe(404);
    const tech = await tokenFor('TECHNICIAN', { organizationId: org.id });
    expect((await replay({ organization: org.id, created_after: '2026-03-01', created_before: '2026-03-05' }, tech)).statusCode).toBe(403);

    // More than the limit: refused whole, nothing queued.
    await db.insert(webhookDeliveries).values(
      Array.from({ length: WEBHOOK_REPLAY_MAX + 1 }, () => ({
        organizationId: org.id,
        scanId: scan.id,
        url: receiver.url,
        status: 'failed' as const,
        created: day('2026-04-10'),
      })),
    );
    const before = (await deliveriesOf(org.id)).length;
    const tooMany = await replay({ organization: org.id, created_after: '2026-04-01', created_before: '2026-04-30' });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toEqual({ non_field_errors: [WEBHOOK_MESSAGES.replayTooMany(WEBHOOK_REPLAY_MAX + 1)] });
    expect((await deliveriesOf(org.id)).length).toBe(before);
  });
});
