// Organization webhooks (part 1 §2.5 "send previous scans", architecture §7, issue 27): queue every existing SCAN of an
// organization for delivery, read the delivery log, and Replay one delivery or a period. All need a role of
// WEBHOOK_ROLES (@sc/shared/webhooks): ADMIN and SUB_ADMIN anywhere, DISTRIBUTOR_ADMIN and MANAGER within their scope,
// ORG_ADMIN its own organization (its scope). Others get 403; an organization outside the scope answers 404.
// A Replay writes new pending rows (replay_of naming the row sent again) and its audit row in one transaction; the
// delivery job sends them as any other, with the URL guards and a fresh signature per attempt.
import type { TPaginated } from '@sc/shared/list';
import {
  WEBHOOK_MESSAGES,
  WEBHOOK_REPLAY_MAX,
  type TPreviousScansInput,
  type TPreviousScansQueued,
  type TWebhookDelivery,
  type TWebhookDeliveryListQuery,
  type TWebhookPeriodReplayInput,
  type TWebhookPeriodReplayed,
  type TWebhookReplayed,
} from '@sc/shared/webhooks';
import type { AppContext } from '../../app.ts';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { AppError, nonFieldError, notFound } from '../../http/errors.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { requestPeriod } from '../../http/period.ts';
import { assertInScope, isInScope, resolveScope } from '../../http/scope.ts';
import { webhookBackfillJob } from '../../jobs/webhook-backfill.job.ts';
import { webhookDeliveryJob } from '../../jobs/webhook-delivery.job.ts';
import { auditActor, auditChanges } from '../../services/audit.service.ts';
import { enqueue, enqueueMany } from '../../services/queue/job.ts';
import { countWebhookScans, findMaxScanId, findOrganizationWebhook } from '../scans/scans.queries.ts';
import { assertWebhookRole } from './organization-webhook-secret.service.ts';
import {
  countReplayable,
  findDelivery,
  insertReplays,
  listDeliveries,
  type DeliveryRow,
} from './organization-webhooks.queries.ts';
import { readerFor } from '../../db/replica.ts';

export type WebhooksContext = Pick<AppContext, 'database' | 'services' | 'now'>;

export const WEBHOOK_REPLAY_AUDIT = { one: 'webhook.delivery_replayed', period: 'webhook.period_replayed' } as const;

const assertEditorRole = assertWebhookRole;

type RequestInfo = { ip?: string | null; userAgent?: string | null; timezone?: string | string[] | undefined };

export async function sendPreviousScans(
  ctx: WebhooksContext,
  actor: Actor,
  input: TPreviousScansInput,
  meta: Pick<RequestMeta, 'ip' | 'userAgent'>,
): Promise<TPreviousScansQueued> {
  assertEditorRole(actor);
  const { db } = ctx.database;
  await assertInScope(db, await resolveScope(db, actor), input.organization);
  const org = await findOrganizationWebhook(db, input.organization);
  if (!org) throw new AppError('not_found', 'Not found.');
  if (!org.webhookSwitch || !org.webhookUrl) throw nonFieldError(WEBHOOK_MESSAGES.notReady);

  // Everything stored up to now; scans uploaded from here on are sent by their own upload.
  const maxScanId = await findMaxScanId(db);
  const queued = await countWebhookScans(db, org.id, maxScanId);
  const requestedAt = ctx.now();
  if (queued > 0) {
    await enqueue(ctx.services.queue, webhookBackfillJob, {
      organization_id: org.id,
      requested_at: requestedAt.toISOString(),
      max_scan_id: maxScanId,
    });
  }
  await ctx.services.audit.record({
    action: 'organization.webhook_previous_scans',
    ...auditActor(actor, meta),
    targetType: 'organization',
    targetId: org.id,
    organizationId: org.id,
    details: { queued },
  });
  return { detail: WEBHOOK_MESSAGES.previousScansQueued, queued };
}

export function presentDelivery(row: DeliveryRow): TWebhookDelivery {
  return {
    id: row.id,
    organization: row.organizationId,
    event: row.event,
    scan: row.scanId,
    follow_up_case: row.followUpCaseId,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    created: row.created.toISOString(),
    delivered_at: row.deliveredAt ? row.deliveredAt.toISOString() : null,
    last_attempt_at: row.lastAttemptAt ? row.lastAttemptAt.toISOString() : null,
    duration_ms: row.durationMs,
    replay_of: row.replayOf,
  };
}

export async function listWebhookDeliveries(
  ctx: WebhooksContext,
  actor: Actor,
  query: TWebhookDeliveryListQuery,
  request: { url: string; timezone?: string | string[] | undefined },
): Promise<TPaginated<TWebhookDelivery>> {
  assertEditorRole(actor);
  const period = requestPeriod(query, request.timezone, ctx.now());
  const db = readerFor(ctx.database, query.using_read_db);
  const scope = await resolveScope(db, actor);
  // Naming an organization outside the scope is a 404, as for any object outside it.
  if (query.organization !== undefined) await assertInScope(db, scope, query.organization);
  const page = toPageParams(query);
  const { rows, count } = await listDeliveries(
    db,
    scope,
    { organization: query.organization, status: query.status, scan: query.scan, event: query.event, period },
    page,
  );
  return paginate(request, page, count, rows.map(presentDelivery));
}

/** The organization's webhook as a Replay needs it: switched on with a URL, else 400. */
async function readyWebhook(ctx: WebhooksContext, organizationId: number) {
  const org = await findOrganizationWebhook(ctx.database.db, organizationId);
  if (!org) throw notFound();
  if (!org.webhookSwitch || !org.webhookUrl) throw nonFieldError(WEBHOOK_MESSAGES.notReady);
  return { ...org, webhookUrl: org.webhookUrl };
}

/** Queues the jobs of committed replay rows; a failure is logged, the webhook sweep queues them later. */
async function queueReplays(ctx: WebhooksContext, rows: DeliveryRow[]): Promise<void> {
  try {
    await enqueueMany(
      ctx.services.queue,
      webhookDeliveryJob,
      rows.map((r) => ({ delivery_id: r.id, attempt: 1 })),
    );
  } catch (err) {
    ctx.services.log.error(
      { deliveries: rows.length, error: err instanceof Error ? err.message : String(err) },
      'webhook replays could not be queued; the sweep will',
    );
  }
}

/** POST organization/webhook-deliveries/{id}/replay/: sends one finished delivery again, as a new delivery. */
export async function replayDelivery(
  ctx: WebhooksContext,
  actor: Actor,
  deliveryId: number,
  info: RequestInfo = {},
): Promise<TWebhookReplayed> {
  assertEditorRole(actor);
  const { db } = ctx.database;
  const source = await findDelivery(db, deliveryId);
  // Another scope's delivery is as missing as one that does not exist.
  if (!source || !(await isInScope(db, await resolveScope(db, actor), source.organizationId))) throw notFound();
  if (source.status === 'pending') throw nonFieldError(WEBHOOK_MESSAGES.replayPending);
  const org = await readyWebhook(ctx, source.organizationId);
  const at = ctx.now();
  const [row] = await db.transaction(async (tx) => {
    const rows = await insertReplays(tx, { id: source.id }, org.webhookUrl, at);
    const created = rows[0];
    if (!created) throw notFound();
    await ctx.services.audit.record(
      {
        action: WEBHOOK_REPLAY_AUDIT.one,
        actorId: actor.id,
        impersonatorId: actor.impersonatorId,
        targetType: 'webhook_delivery',
        targetId: created.id,
        organizationId: created.organizationId,
        ip: info.ip,
        userAgent: info.userAgent,
        details: { replay_of: source.id, event: source.event },
        changes: auditChanges(null, { id: created.id, event: created.event, replay_of: source.id, status: created.status }),
      },
      tx,
    );
    return rows;
  });
  if (!row) throw notFound();
  await queueReplays(ctx, [row]);
  return { detail: WEBHOOK_MESSAGES.replayQueued, delivery: presentDelivery(row) };
}

/**
 * POST organization/webhook-deliveries/replay/: every finished delivery of the organization created in the period
 * (whole days in the caller's zone), optionally of one status, sent again. More than WEBHOOK_REPLAY_MAX → 400.
 */
export async function replayPeriod(
  ctx: WebhooksContext,
  actor: Actor,
  input: TWebhookPeriodReplayInput,
  info: RequestInfo = {},
): Promise<TWebhookPeriodReplayed> {
  assertEditorRole(actor);
  const period = requestPeriod(input, info.timezone, ctx.now());
  const { db } = ctx.database;
  await assertInScope(db, await resolveScope(db, actor), input.organization);
  const org = await readyWebhook(ctx, input.organization);
  const at = ctx.now();
  const rows = await db.transaction(async (tx) => {
    const count = await countReplayable(tx, org.id, period, input.status);
    if (count > WEBHOOK_REPLAY_MAX) throw nonFieldError(WEBHOOK_MESSAGES.replayTooMany(count));
    const inserted = await insertReplays(tx, { organizationId: org.id, period, status: input.status }, org.webhookUrl, at);
    await ctx.services.audit.record(
      {
        action: WEBHOOK_REPLAY_AUDIT.period,
        actorId: actor.id,
        impersonatorId: actor.impersonatorId,
        targetType: 'organization',
        targetId: org.id,
        organizationId: org.id,
        ip: info.ip,
        userAgent: info.userAgent,
        details: {
          created_after: input.created_after,
          created_before: input.created_before,
          status: input.status ?? null,
          queued: inserted.length,
        },
        changes: auditChanges(null, {
          replayed: inserted.length,
          first_delivery: inserted[0]?.id ?? null,
          last_delivery: inserted.at(-1)?.id ?? null,
        }),
      },
      tx,
    );
    return inserted;
  });
  await queueReplays(ctx, rows);
  return { detail: WEBHOOK_MESSAGES.periodReplayQueued, queued: rows.length };
}
