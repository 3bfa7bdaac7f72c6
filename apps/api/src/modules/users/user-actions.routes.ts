// The user dialog's calls (part 2 §2.3, §7): Reset Pin, Reset Password, Certify, re-certify, scan counts, tutorial
// status and a MANAGER's organization links. 401, then 403 by role, before any body or query is validated.
// One table: each call is its method, path, roles, schemas and the service it runs; one registration serves all.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZBoolParam } from '@sc/shared/list';
import type { TUserType } from '@sc/shared/roles';
import { ZPinResetInput, ZUserOrganizationLinkInput } from '@sc/shared/user-input';
import { USER_ACTIONS } from '@sc/shared/user-permissions';
import {
  ZPasswordLinkResponse,
  ZPinResetResponse,
  ZTutorialStatus,
  ZTutorialStatusQuery,
  ZUserOrganizationLinkList,
  ZUserOrganizationLinkQuery,
  ZUserOrganizationLinkSaved,
  ZUserSaved,
  ZUserScanCount,
} from '@sc/shared/users';
import type { AppContext } from '../../app.ts';
import type { Actor } from '../../http/actor.ts';
import { requestMeta, requireRole } from '../../http/authenticate.ts';
import type { ApiDoc } from '../../http/openapi.ts';
import { TOKEN_SECURITY, ZIdParams, guard, parseId } from '../../http/route-helpers.ts';
import {
  certifyUser,
  getTutorialStatus,
  getUserScanCount,
  reCertifyUser,
  resetUserPassword,
  resetUserPin,
} from './user-actions.service.ts';
import {
  addUserOrganization,
  listUserOrganizations,
  removeUserOrganization,
} from './user-organizations.service.ts';

const ZDetail = z.object({ detail: z.string() });
const ZEmptyBody = z.object({}).optional();
const ZScanCountQuery = z.object({ using_read_db: ZBoolParam.optional() });
const READ = USER_ACTIONS['user.read'];

type Input<Q extends z.ZodType, B extends z.ZodType> = {
  /** The `:id` of the path, parsed (404 when it names nothing); only for paths with `:id`. */
  id: () => number;
  query: z.infer<Q>;
  body: z.infer<B>;
  request: FastifyRequest;
};

type UserAction<Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  roles: readonly TUserType[];
  summary: string;
  querystring?: Q;
  body?: B;
  response: z.ZodType;
  /** 201 (a link made) instead of 200. */
  created?: boolean;
  /** What the OpenAPI page says beyond the schema (http/openapi.ts). */
  apiDoc?: ApiDoc;
  run: (ctx: AppContext, actor: Actor, input: Input<Q, B>) => Promise<unknown>;
};

/** Keeps each entry's query and body types for its `run`. */
const action = <Q extends z.ZodType = z.ZodUndefined, B extends z.ZodType = z.ZodUndefined>(
  definition: UserAction<Q, B>,
) => definition as unknown as UserAction;

const USER_ACTION_ROUTES: readonly UserAction[] = [
  action({
    method: 'PUT',
    url: '/organization/user/:id/reset/pin/',
    roles: USER_ACTIONS['user.resetPin'],
    summary: 'Reset Pin: the device app asks the user for a new PIN (pin_reset_request true)',
    body: ZPinResetInput,
    response: ZPinResetResponse,
    run: (ctx, actor, { id, request }) => resetUserPin(ctx, actor, id(), requestMeta(request)),
  }),
  action({
    method: 'POST',
    url: '/organization/user/:id/reset/password/',
    roles: USER_ACTIONS['user.resetPassword'],
    summary: 'E-mail the user a one-hour password reset link (a user with an e-mail only)',
    body: ZEmptyBody,
    response: ZPasswordLinkResponse,
    // Reset e-mails per user per hour are limited (user-password-links.ts).
    apiDoc: { rateLimited: true },
    run: (ctx, actor, { id, request }) => resetUserPassword(ctx, actor, id(), requestMeta(request)),
  }),
  action({
    method: 'GET',
    url: '/user/certify/:id/',
    roles: USER_ACTIONS['user.certify'],
    summary: 'Certify a user: CERTIFIED, issued today, expiring a year later (ADMIN, SUB_ADMIN)',
    response: ZUserSaved,
    run: (ctx, actor, { id, request }) => certifyUser(ctx, actor, id(), requestMeta(request)),
  }),
  action({
    method: 'POST',
    url: '/organization/user/:id/re-certify/',
    roles: USER_ACTIONS['user.reCertify'],
    summary: 'Re-certify a certified user: a new year from today (ADMIN, SUB_ADMIN)',
    body: ZEmptyBody,
    response: ZUserSaved,
    run: (ctx, actor, { id, request }) => reCertifyUser(ctx, actor, id(), requestMeta(request)),
  }),
  action({
    method: 'GET',
    url: '/organization/user/:id/scan/count/',
    roles: READ,
    summary: 'The user’s pre-training, training and practice scans',
    querystring: ZScanCountQuery,
    response: ZUserScanCount,
    run: (ctx, actor, { id, query }) => getUserScanCount(ctx, actor, id(), query.using_read_db),
  }),
  action({
    method: 'GET',
    url: '/tutorial/module/status/',
    roles: READ,
    summary: 'A user’s tutorial status: each published module, completed, and the totals',
    querystring: ZTutorialStatusQuery,
    response: ZTutorialStatus,
    run: (ctx, actor, { query }) => getTutorialStatus(ctx, actor, query.user_id, query.using_read_db),
  }),
  action({
    method: 'GET',
    url: '/user/organizations/',
    roles: READ,
    summary: 'A user’s organization links (MANAGER users); a manager may read its own',
    querystring: ZUserOrganizationLinkQuery,
    response: ZUserOrganizationLinkList,
    run: (ctx, actor, { query, request }) => listUserOrganizations(ctx, actor, query, request),
  }),
  action({
    method: 'POST',
    url: '/user/organizations/',
    roles: USER_ACTIONS['user.manageLinks'],
    summary: 'Link a MANAGER to an organization (ADMIN, SUB_ADMIN)',
    body: ZUserOrganizationLinkInput,
    response: ZUserOrganizationLinkSaved,
    created: true,
    run: (ctx, actor, { body, request }) => addUserOrganization(ctx, actor, body, requestMeta(request)),
  }),
  action({
    method: 'DELETE',
    url: '/user/organizations/:id/',
    roles: USER_ACTIONS['user.manageLinks'],
    summary: 'Remove one of a MANAGER’s organization links (ADMIN, SUB_ADMIN)',
    response: ZDetail,
    run: (ctx, actor, { id, request }) => removeUserOrganization(ctx, actor, id(), requestMeta(request)),
  }),
];

export const userActionRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const route of USER_ACTION_ROUTES) {
    const status = route.created ? 201 : 200;
    app.route({
      method: route.method,
      url: route.url,
      preValidation: guard(route.roles),
      ...(route.apiDoc ? { config: { apiDoc: route.apiDoc } } : {}),
      schema: {
        tags: ['users'],
        security: TOKEN_SECURITY,
        summary: route.summary,
        ...(route.url.includes(':id') ? { params: ZIdParams } : {}),
        ...(route.querystring ? { querystring: route.querystring } : {}),
        ...(route.body ? { body: route.body } : {}),
        response: { [status]: route.response },
      },
      handler: async (request, reply) => {
        const actor = requireRole(request, route.roles);
        const saved = await route.run(app.ctx, actor, {
          id: () => parseId((request.params as { id: string }).id),
          query: request.query,
          body: request.body,
          request,
        });
        return reply.status(status).send(saved);
      },
    });
  }
};
