// `GET organization/user/` (part 2 §2.2, §7; part 1 §7 "user list for impersonation"): the scoped user list.
// The Users screens add create/edit/transfer routes beside this one.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { USER_LIST_ROLES, ZOrganizationUserList, ZOrganizationUserListQuery } from '@sc/shared/users';
import { requireRole } from '../../http/authenticate.ts';
import { paginate } from '../../http/pagination.ts';
import { listOrganizationUsers } from './organization-users.service.ts';

const ZDetail = z.object({ detail: z.string() });

export const organizationUserRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/organization/user/',
    {
      schema: {
        tags: ['users'],
        summary: 'Users in the caller’s scope (users without an organization: ADMIN and SUB_ADMIN only)',
        security: [{ token: [] }],
        querystring: ZOrganizationUserListQuery,
        response: { 200: ZOrganizationUserList, 401: ZDetail, 403: ZDetail, 404: ZDetail },
      },
    },
    async (request) => {
      const actor = requireRole(request, USER_LIST_ROLES);
      const { count, results } = await listOrganizationUsers(
        app.ctx,
        actor,
        request.query,
        request.headers.timezone,
      );
      return paginate(request, request.query, count, results);
    },
  );
};
