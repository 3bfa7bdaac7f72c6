// `organization/user/` (part 2 §2.2, §2.3, §7; part 1 §7 "user list for impersonation"): the scoped user list, one
// user, create, edit (PUT) and the list's assign / unassign / transfer (PATCH). Each route authenticates and checks
// the role before its body is validated; the rules live in the service.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZBoolParam } from '@sc/shared/list';
import type { TUserType } from '@sc/shared/roles';
import { ZUserInput, ZUserPatch, ZUserUpdate } from '@sc/shared/user-input';
import { USER_ACTIONS } from '@sc/shared/user-permissions';
import {
  USER_LIST_ROLES,
  ZOrganizationUserList,
  ZOrganizationUserListQuery,
  ZUserDetail,
  ZUserSaved,
} from '@sc/shared/users';
import { requestMeta, requireRole } from '../../http/authenticate.ts';
import { paginate } from '../../http/pagination.ts';
import { ZUserIdParams, parseUserId, userGuard } from './user-route-helpers.ts';
import { userActionRoutes } from './user-actions.routes.ts';
import {
  createOrganizationUser,
  getOrganizationUser,
  listOrganizationUsers,
  updateOrganizationUser,
} from './organization-users.service.ts';

const tags = ['users'];
const security = [{ token: [] }];
const ZDetail = z.object({ detail: z.string() });
const ZFieldErrors = z.record(z.string(), z.array(z.string()));
const errors = { 400: ZFieldErrors, 401: ZDetail, 403: ZDetail, 404: ZDetail };

/** Roles that may call PUT/PATCH at all: edit, or assign / unassign / transfer (which depends on the body). */
const CHANGE_ROLES: readonly TUserType[] = [
  ...new Set<TUserType>([
    ...USER_ACTIONS['user.edit'],
    ...USER_ACTIONS['user.assign'],
    ...USER_ACTIONS['user.transfer'],
  ]),
];

export const organizationUserRoutes: FastifyPluginAsyncZod = async (app) => {
  // The dialog's actions and manager links live in their own file; registered here so app.ts lists the area once.
  await app.register(userActionRoutes);

  app.get(
    '/organization/user/',
    {
      preValidation: userGuard(USER_LIST_ROLES),
      schema: {
        tags,
        summary: 'Users in the caller’s scope (users without an organization: ADMIN and SUB_ADMIN only)',
        security,
        querystring: ZOrganizationUserListQuery,
        response: { 200: ZOrganizationUserList, ...errors },
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

  app.get(
    '/organization/user/:id/',
    {
      preValidation: userGuard(USER_ACTIONS['user.read']),
      schema: {
        tags,
        security,
        summary: 'One user (404 when missing or outside the caller’s scope)',
        params: ZUserIdParams,
        querystring: z.object({ using_read_db: ZBoolParam.optional() }),
        response: { 200: ZUserDetail, ...errors },
      },
    },
    async (request) =>
      getOrganizationUser(
        app.ctx,
        requireRole(request, USER_ACTIONS['user.read']),
        parseUserId(request.params.id),
        request.query.using_read_db,
      ),
  );

  app.post(
    '/organization/user/',
    {
      preValidation: userGuard(USER_ACTIONS['user.create']),
      schema: {
        tags,
        security,
        summary:
          'Create a user; one with an e-mail is sent a set-password link (password_link_message says so)',
        body: ZUserInput,
        response: { 201: ZUserSaved, ...errors },
      },
    },
    async (request, reply) => {
      const actor = requireRole(request, USER_ACTIONS['user.create']);
      return reply
        .status(201)
        .send(await createOrganizationUser(app.ctx, actor, request.body, requestMeta(request)));
    },
  );

  app.put(
    '/organization/user/:id/',
    {
      preValidation: userGuard(CHANGE_ROLES),
      schema: {
        tags,
        security,
        summary:
          'Edit a user (e-mail, mobile and country locked); a new organization transfers, is_update_scan_organization moves the scans',
        params: ZUserIdParams,
        body: ZUserUpdate,
        response: { 200: ZUserSaved, ...errors },
      },
    },
    async (request) => {
      const actor = requireRole(request, CHANGE_ROLES);
      return updateOrganizationUser(
        app.ctx,
        actor,
        parseUserId(request.params.id),
        request.body,
        requestMeta(request),
        true,
      );
    },
  );

  app.patch(
    '/organization/user/:id/',
    {
      preValidation: userGuard(CHANGE_ROLES),
      schema: {
        tags,
        security,
        summary:
          '{organization: null} unassigns, {organization: id} assigns or transfers; other fields as PUT',
        params: ZUserIdParams,
        body: ZUserPatch,
        response: { 200: ZUserSaved, ...errors },
      },
    },
    async (request) => {
      const actor = requireRole(request, CHANGE_ROLES);
      return updateOrganizationUser(
        app.ctx,
        actor,
        parseUserId(request.params.id),
        request.body,
        requestMeta(request),
        false,
      );
    },
  );
};
