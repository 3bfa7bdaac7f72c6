// The user dialog's calls (part 2 §2.3, §7): Reset Pin, Reset Password, Certify, re-certify, scan counts, tutorial
// status and a MANAGER's organization links. 401, then 403 by role, before any body or query is validated.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZBoolParam } from '@sc/shared/list';
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
import { requestMeta, requireRole } from '../../http/authenticate.ts';
import { ZUserIdParams, parseUserId, userGuard } from './user-route-helpers.ts';
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

const tags = ['users'];
const security = [{ token: [] }];
const ZDetail = z.object({ detail: z.string() });
const ZEmptyBody = z.object({}).optional();
const READ = USER_ACTIONS['user.read'];

export const userActionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/organization/user/:id/reset/pin/',
    {
      preValidation: userGuard(USER_ACTIONS['user.resetPin']),
      schema: {
        tags,
        security,
        summary: 'Reset Pin: the device app asks the user for a new PIN (pin_reset_request true)',
        params: ZUserIdParams,
        body: ZPinResetInput,
        response: { 200: ZPinResetResponse },
      },
    },
    async (request) =>
      resetUserPin(
        app.ctx,
        requireRole(request, USER_ACTIONS['user.resetPin']),
        parseUserId(request.params.id),
        requestMeta(request),
      ),
  );

  app.post(
    '/organization/user/:id/reset/password/',
    {
      preValidation: userGuard(USER_ACTIONS['user.resetPassword']),
      schema: {
        tags,
        security,
        summary: 'E-mail the user a one-hour password reset link (a user with an e-mail only)',
        params: ZUserIdParams,
        body: ZEmptyBody,
        response: { 200: ZPasswordLinkResponse },
      },
    },
    async (request) =>
      resetUserPassword(
        app.ctx,
        requireRole(request, USER_ACTIONS['user.resetPassword']),
        parseUserId(request.params.id),
        requestMeta(request),
      ),
  );

  app.get(
    '/user/certify/:id/',
    {
      preValidation: userGuard(USER_ACTIONS['user.certify']),
      schema: {
        tags,
        security,
        summary: 'Certify a user: CERTIFIED, issued today, expiring a year later (ADMIN, SUB_ADMIN)',
        params: ZUserIdParams,
        response: { 200: ZUserSaved },
      },
    },
    async (request) =>
      certifyUser(
        app.ctx,
        requireRole(request, USER_ACTIONS['user.certify']),
        parseUserId(request.params.id),
        requestMeta(request),
      ),
  );

  app.post(
    '/organization/user/:id/re-certify/',
    {
      preValidation: userGuard(USER_ACTIONS['user.reCertify']),
      schema: {
        tags,
        security,
        summary: 'Re-certify a certified user: a new year from today (ADMIN, SUB_ADMIN)',
        params: ZUserIdParams,
        body: ZEmptyBody,
        response: { 200: ZUserSaved },
      },
    },
    async (request) =>
      reCertifyUser(
        app.ctx,
        requireRole(request, USER_ACTIONS['user.reCertify']),
        parseUserId(request.params.id),
        requestMeta(request),
      ),
  );

  app.get(
    '/organization/user/:id/scan/count/',
    {
      preValidation: userGuard(READ),
      schema: {
        tags,
        security,
        summary: 'The user’s pre-training, training and practice scans',
        params: ZUserIdParams,
        querystring: z.object({ using_read_db: ZBoolParam.optional() }),
        response: { 200: ZUserScanCount },
      },
    },
    async (request) =>
      getUserScanCount(
        app.ctx,
        requireRole(request, READ),
        parseUserId(request.params.id),
        request.query.using_read_db,
      ),
  );

  app.get(
    '/tutorial/module/status/',
    {
      preValidation: userGuard(READ),
      schema: {
        tags,
        security,
        summary: 'A user’s tutorial status: each published module, completed, and the totals',
        querystring: ZTutorialStatusQuery,
        response: { 200: ZTutorialStatus },
      },
    },
    async (request) =>
      getTutorialStatus(
        app.ctx,
        requireRole(request, READ),
        request.query.user_id,
        request.query.using_read_db,
      ),
  );

  app.get(
    '/user/organizations/',
    {
      preValidation: userGuard(READ),
      schema: {
        tags,
        security,
        summary: 'A user’s organization links (MANAGER users); a manager may read its own',
        querystring: ZUserOrganizationLinkQuery,
        response: { 200: ZUserOrganizationLinkList },
      },
    },
    async (request) => {
      const actor = requireRole(request, READ);
      return listUserOrganizations(app.ctx, actor, request.query, request);
    },
  );

  app.post(
    '/user/organizations/',
    {
      preValidation: userGuard(USER_ACTIONS['user.manageLinks']),
      schema: {
        tags,
        security,
        summary: 'Link a MANAGER to an organization (ADMIN, SUB_ADMIN)',
        body: ZUserOrganizationLinkInput,
        response: { 201: ZUserOrganizationLinkSaved },
      },
    },
    async (request, reply) => {
      const actor = requireRole(request, USER_ACTIONS['user.manageLinks']);
      return reply
        .status(201)
        .send(await addUserOrganization(app.ctx, actor, request.body, requestMeta(request)));
    },
  );

  app.delete(
    '/user/organizations/:id/',
    {
      preValidation: userGuard(USER_ACTIONS['user.manageLinks']),
      schema: {
        tags,
        security,
        summary: 'Remove one of a MANAGER’s organization links (ADMIN, SUB_ADMIN)',
        params: ZUserIdParams,
        response: { 200: ZDetail },
      },
    },
    async (request) =>
      removeUserOrganization(
        app.ctx,
        requireRole(request, USER_ACTIONS['user.manageLinks']),
        parseUserId(request.params.id),
        requestMeta(request),
      ),
  );
};
