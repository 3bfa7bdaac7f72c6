// The signed-in user's own calls (part 1 §7): user/login/, user/, user/last_dashboard_path/, user/logout/,
// user/delete/me/. Other user/* paths (lists, impersonation) belong to the users area of part 2.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZLastDashboardPath, ZLoginResponse, ZSessionUser, ZUserLogin } from '@sc/shared/auth';
import { requestMeta, requireActor } from '../../http/authenticate.ts';
import { signedIn } from '../../http/route-helpers.ts';
import { signInRateLimit } from '../auth/auth.routes.ts';
import {
  deleteOwnAccount,
  getSessionUser,
  loginWithIdToken,
  logout,
  setLastDashboardPath,
} from './users.service.ts';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['account'];
  const security = [{ token: [] }];

  app.post(
    '/user/login/',
    {
      schema: {
        // The second step of signing in (see the auth tag).
        tags: ['auth'],
        summary: 'Sign-in step 2: exchange an id_token for a session token (then send Authorization: Token <token>)',
        body: ZUserLogin,
        response: { 200: ZLoginResponse },
      },
      config: signInRateLimit(app.ctx.config),
    },
    async (request) => loginWithIdToken(app.ctx, request.body, requestMeta(request)),
  );

  app.get(
    '/user/',
    { schema: { tags, security, summary: 'The signed-in user', response: { 200: ZSessionUser } } },
    async (request) => getSessionUser(app.ctx, requireActor(request)),
  );

  app.put(
    '/user/last_dashboard_path/',
    {
      // 401 before the body is looked at: an anonymous caller learns 401, not the shape of a valid body.
      preValidation: signedIn,
      schema: {
        tags,
        security,
        summary: 'Remember the last console path',
        body: ZLastDashboardPath,
        response: { 200: ZLastDashboardPath },
      },
    },
    async (request) => setLastDashboardPath(app.ctx, requireActor(request), request.body.url),
  );

  app.post(
    '/user/logout/',
    {
      schema: {
        tags,
        security,
        summary: 'Sign out: revokes this session token',
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await logout(app.ctx, requireActor(request), requestMeta(request));
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/user/delete/me/',
    {
      schema: {
        tags,
        security,
        summary: 'Delete (deactivate and anonymise) the own account',
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await deleteOwnAccount(app.ctx, requireActor(request), requestMeta(request));
      return reply.status(204).send(null);
    },
  );
};
