// organization/previous-scans/ (part 1 §7), organization/webhook-deliveries/ (the delivery log operators read) and its
// Replay, and organization/{id}/webhook/secret/ (issue 27: the signing secret, shown once when made).
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { paginated } from '@sc/shared/list';
import {
  WEBHOOK_ROLES,
  ZPreviousScansInput,
  ZPreviousScansQueued,
  ZWebhookDelivery,
  ZWebhookDeliveryListQuery,
  ZWebhookPeriodReplayInput,
  ZWebhookPeriodReplayed,
  ZWebhookReplayed,
  ZWebhookSecretCreated,
  ZWebhookSecretStatus,
} from '@sc/shared/webhooks';
import { requireActor } from '../../http/authenticate.ts';
import { ZIdParams, guard, listRequest, metaOf, parseId } from '../../http/route-helpers.ts';
import { createWebhookSecret, webhookSecretStatus } from './organization-webhook-secret.service.ts';
import {
  listWebhookDeliveries,
  replayDelivery,
  replayPeriod,
  sendPreviousScans,
} from './organization-webhooks.service.ts';

const tags = ['organizations'];
const security = [{ token: [] }];

// Authenticate before the body is validated: an anonymous caller learns 401, not the shape of a valid body.
const preValidation = async (request: FastifyRequest) => {
  requireActor(request);
};

export const organizationWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/organization/previous-scans/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary:
          'Queue every existing scan of the organization for its webhook (answers before they are sent)',
        body: ZPreviousScansInput,
        response: { 202: ZPreviousScansQueued },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      return reply.status(202).send(await sendPreviousScans(app.ctx, actor, request.body, metaOf(request)));
    },
  );

  app.get(
    '/organization/webhook-deliveries/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: "The webhook delivery log of the organizations in the caller's scope, newest first",
        querystring: ZWebhookDeliveryListQuery,
        response: { 200: paginated(ZWebhookDelivery) },
      },
    },
    async (request) =>
      listWebhookDeliveries(app.ctx, requireActor(request), request.query, listRequest(request)),
  );

  app.post(
    '/organization/webhook-deliveries/:id/replay/',
    {
      preValidation: guard(WEBHOOK_ROLES),
      schema: {
        tags,
        security,
        summary: 'Send one finished delivery again, as a new delivery (replay_of names it); answers before it is sent',
        params: ZIdParams,
        response: { 202: ZWebhookReplayed },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const id = parseId(request.params.id);
      return reply.status(202).send(await replayDelivery(app.ctx, actor, id, metaOf(request)));
    },
  );

  app.post(
    '/organization/webhook-deliveries/replay/',
    {
      preValidation: guard(WEBHOOK_ROLES),
      schema: {
        tags,
        security,
        summary:
          "Send again every finished delivery of an organization created in a period (whole days in the caller's Timezone), at most 1000",
        body: ZWebhookPeriodReplayInput,
        response: { 202: ZWebhookPeriodReplayed },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const info = { ...metaOf(request), timezone: request.headers.timezone };
      return reply.status(202).send(await replayPeriod(app.ctx, actor, request.body, info));
    },
  );

  app.get(
    '/organization/:id/webhook/secret/',
    {
      preValidation: guard(WEBHOOK_ROLES),
      schema: {
        tags,
        security,
        summary: "Whether the organization has a webhook signing secret, and since when (never the secret)",
        params: ZIdParams,
        response: { 200: ZWebhookSecretStatus },
      },
    },
    async (request) => webhookSecretStatus(app.ctx, requireActor(request), parseId(request.params.id)),
  );

  app.post(
    '/organization/:id/webhook/secret/',
    {
      preValidation: guard(WEBHOOK_ROLES),
      schema: {
        tags,
        security,
        summary: 'Make or rotate the webhook signing secret; the answer is the only time it is shown',
        params: ZIdParams,
        response: { 201: ZWebhookSecretCreated },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const id = parseId(request.params.id);
      return reply.status(201).send(await createWebhookSecret(app.ctx, actor, id, metaOf(request)));
    },
  );
};
