// `GET user/impersonation/{id}/` starts an impersonation (ADMIN only); `DELETE user/impersonation/` ends it and
// is the one non-GET call an impersonation token may make (architecture §5, §7b "paths the spec leaves out").
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZImpersonationResponse } from '@sc/shared/users';
import { requestMeta, requireActor } from '../../http/authenticate.ts';
import { endImpersonation, startImpersonation } from './impersonation.service.ts';

const ZDetail = z.object({ detail: z.string() });

export const impersonationRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['users'];
  const security = [{ token: [] }];

  app.get(
    '/user/impersonation/:id/',
    {
      schema: {
        tags,
        security,
        summary: 'Impersonate a user (ADMIN only, never another ADMIN): a read-only token valid for one hour',
        params: z.object({ id: z.string() }),
        response: { 200: ZImpersonationResponse, 401: ZDetail, 403: ZDetail, 404: ZDetail },
      },
    },
    async (request) =>
      startImpersonation(app.ctx, requireActor(request), request.params.id, requestMeta(request)),
  );

  app.delete(
    '/user/impersonation/',
    {
      schema: {
        tags,
        security,
        summary:
          'End the impersonation: call with the impersonation token, which is revoked (400 with a normal token)',
        response: { 204: z.null(), 401: ZDetail },
      },
      config: { impersonationAllowed: true },
    },
    async (request, reply) => {
      await endImpersonation(app.ctx, requireActor(request), requestMeta(request));
      return reply.status(204).send(null);
    },
  );
};
