// Organization webhooks (part 1 §2.5 "send previous scans", architecture §7): queue every existing SCAN of an
// organization for delivery, and read the delivery log. Both need the right to edit the organization: ADMIN and
// SUB_ADMIN anywhere, DISTRIBUTOR_ADMIN and MANAGER within their scope, ORG_ADMIN its own organization (its scope).
// Others get 403; an organization outside the scope answers 404.
import type { TUserType } from '@sc/shared/roles';
import type { TPaginated } from '@sc/shared/list';
import {
  WEBHOOK_MESSAGES,
  type TPreviousScansInput,
  type TPreviousScansQueued,
  type TWebhookDelivery,
  type TWebhookDeliveryListQuery,
} from '@sc/shared/webhooks';
import type { AppContext } from '../../app.ts';
import type { Actor } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, nonFieldError } from '../../http/errors.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { assertInScope, resolveScope } from '../../http/scope.ts';
import { webhookBackfillJob } from '../../jobs/webhook-backfill.job.ts';
import { enqueue } from '../../services/queue/job.ts';
import { countWebhookScans, findMaxScanId, findOrganizationWebhook } from '../scans/scans.queries.ts';
import { listDeliveries, type DeliveryRow } from './organization-webhooks.queries.ts';
import { readerFor } from '../../db/replica.ts';

export type WebhooksContext = Pick<AppContext, 'database' | 'services' | 'now'>;

/** The roles that edit organizations (and so their webhook); each within its scope. */
export const WEBHOOK_EDITOR_ROLES: readonly TUserType[] = [
  'ADMIN',
  'SUB_ADMIN',
  'DISTRIBUTOR_ADMIN',
  'MANAGER',
  'ORG_ADMIN',
];

function assertEditorRole(actor: Actor): void {
  if (!WEBHOOK_EDITOR_ROLES.includes(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
}

export async function sendPreviousScans(
  ctx: WebhooksContext,
  actor: Actor,
  input: TPreviousScansInput,
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
    actorId: actor.id,
    impersonatorId: actor.impersonatorId,
    targetType: 'organization',
    targetId: org.id,
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
  };
}

export async function listWebhookDeliveries(
  ctx: WebhooksContext,
  actor: Actor,
  query: TWebhookDeliveryListQuery,
  request: { url: string },
): Promise<TPaginated<TWebhookDelivery>> {
  assertEditorRole(actor);
  const db = readerFor(ctx.database, query.using_read_db);
  const scope = await resolveScope(db, actor);
  // Naming an organization outside the scope is a 404, as for any object outside it.
  if (query.organization !== undefined) await assertInScope(db, scope, query.organization);
  const page = toPageParams(query);
  const { rows, count } = await listDeliveries(
    db,
    scope,
    { organization: query.organization, status: query.status, scan: query.scan },
    page,
  );
  return paginate(request, page, count, rows.map(presentDelivery));
}
