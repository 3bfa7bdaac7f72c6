// organization/previous-scans/ (part 1 §7) and organization/webhook-deliveries/ (the delivery log operators read).
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { paginated } from '@sc/shared/list';
import {
  ZPreviousScansInput,
  ZPreviousScansQueued,
  ZWebhookDelivery,
  ZWebhookDeliveryListQuery,
} from '@sc/shared/webhooks';
import { requireActor } from '../../http/authenticate.ts';
import { listWebhookDeliveries, sendPreviousScans } from './organization-webhooks.service.ts';

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
      return reply.status(202).send(await sendPreviousScans(app.ctx, actor, request.body));
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
    async (request) => listWebhookDeliveries(app.ctx, requireActor(request), request.query, request),
  );
};
