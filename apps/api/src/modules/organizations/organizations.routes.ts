// Organizations (part 1 §2.4, §7) — read side: the scoped list and one organization.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CONSOLE_ROLES } from '@sc/shared/roles';
import { ZBoolParam } from '@sc/shared/list';
import { ZOrganization, ZOrganizationList, ZOrganizationListQuery } from '@sc/shared/organizations';
import { requireRole } from '../../http/authenticate.ts';
import { paginate } from '../../http/pagination.ts';
import { getOrganization, listOrganizations } from './organizations.service.ts';

const ZDetail = z.object({ detail: z.string() });

export const organizationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/organization/',
    {
      schema: {
        tags: ['organizations'],
        summary: 'Organizations in the caller’s scope',
        security: [{ token: [] }],
        querystring: ZOrganizationListQuery,
        response: { 200: ZOrganizationList, 401: ZDetail, 403: ZDetail, 404: ZDetail },
      },
    },
    async (request) => {
      // Every console role may list; technicians have no organization scope in the console.
      const actor = requireRole(request, CONSOLE_ROLES);
      const { count, results } = await listOrganizations(
        app.ctx,
        actor,
        request.query,
        request.headers.timezone,
      );
      return paginate(request, request.query, count, results);
    },
  );

  app.get(
    '/organization/:id/',
    {
      schema: {
        tags: ['organizations'],
        summary: 'One organization (404 when missing or outside the caller’s scope)',
        security: [{ token: [] }],
        params: z.object({ id: z.string() }),
        querystring: z.object({ using_read_db: ZBoolParam.optional() }),
        response: { 200: ZOrganization, 401: ZDetail, 403: ZDetail, 404: ZDetail },
      },
    },
    async (request) => {
      const actor = requireRole(request, CONSOLE_ROLES);
      return getOrganization(app.ctx, actor, request.params.id, request.query.using_read_db);
    },
  );
};
