// app_version/ (part 1 §7, part 3 §7 App versions): the list of one app's versions (`?type=IBE`, search by name or
// code, ordering), one version, create, and edit by PUT or PATCH (architecture §7b); and the device read
// `app_version/latest/?type=`, the newest version of an app with an ETag, answering 304 to a device that has it.
// Rules live in the service.
import etag from '@fastify/etag';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  APP_VERSION_ROLES,
  ZAppVersion,
  ZAppVersionInput,
  ZAppVersionListQuery,
  ZAppVersionPatch,
  ZAppVersionPut,
  ZAppVersionSaved,
  ZLatestAppVersionQuery,
} from '@sc/shared/app-versions';
import { ZBoolParam, paginated } from '@sc/shared/list';
import { requestMeta, requireActor } from '../../http/authenticate.ts';
import { TOKEN_SECURITY as security, ZIdParams, guard, parseId, signedIn } from '../../http/route-helpers.ts';
import {
  createAppVersion,
  getAppVersion,
  getLatestAppVersion,
  listAppVersions,
  updateAppVersion,
} from './app-versions.service.ts';

const tags = ['app versions'];
const WHO = `Allowed: ${APP_VERSION_ROLES.join(', ')} (403 otherwise).`;
const RULES = `${WHO} name: required, not blank. code: required, at most 10 characters, unique within the app. tutorial_version: optional, a number. notes.note: the release note, required, not blank, may hold line breaks. type (IBE, ORCA, CERVAICAL) is fixed once created.`;

// 401, then 403 by role, before the query or body is looked at.
const admins = guard(APP_VERSION_ROLES);

export const appVersionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/app_version/',
    {
      preValidation: admins,
      schema: {
        tags,
        security,
        summary: "One app's versions (type IBE, ORCA or CERVAICAL; search by version name or code)",
        description: WHO,
        querystring: ZAppVersionListQuery,
        response: { 200: paginated(ZAppVersion) },
      },
    },
    async (request) => listAppVersions(app.ctx, requireActor(request), request.query, request),
  );

  // The device read, in a child plugin of its own so the ETag hook (and its 304) applies to this route only.
  await app.register(async (child) => {
    await child.register(etag);
    child.withTypeProvider<ZodTypeProvider>().get(
      '/app_version/latest/',
      {
        preValidation: signedIn,
        schema: {
          tags,
          security,
          summary: 'The newest version of an app, for its devices (ETag; 304 when If-None-Match matches)',
          description:
            'Every signed-in user (the device apps). The answer carries an ETag of its content: send it back as If-None-Match and the answer is 304 with no body while the newest version is unchanged. 404 when the app has no version yet.',
          querystring: ZLatestAppVersionQuery,
          response: { 200: ZAppVersion },
        },
      },
      async (request, reply) => {
        const version = await getLatestAppVersion(app.ctx, request.query.type, request.query.using_read_db === true);
        // Revalidate every time: a device must learn of a new version at once, and the answer is per caller.
        void reply.header('cache-control', 'private, no-cache');
        return version;
      },
    );
  });

  app.get(
    '/app_version/:id/',
    {
      preValidation: admins,
      schema: {
        tags,
        security,
        summary: 'One app version',
        description: WHO,
        params: ZIdParams,
        querystring: z.object({ using_read_db: ZBoolParam.optional() }),
        response: { 200: ZAppVersion },
      },
    },
    async (request) =>
      getAppVersion(app.ctx, requireActor(request), parseId(request.params.id), request.query.using_read_db === true),
  );

  app.post(
    '/app_version/',
    {
      preValidation: admins,
      schema: {
        tags,
        security,
        summary: 'Create an app version with its release note',
        description: RULES,
        body: ZAppVersionInput,
        response: { 201: ZAppVersionSaved },
      },
    },
    async (request, reply) => {
      const saved = await createAppVersion(app.ctx, requireActor(request), request.body, requestMeta(request));
      return reply.status(201).send(saved);
    },
  );

  app.put(
    '/app_version/:id/',
    {
      preValidation: admins,
      schema: {
        tags,
        security,
        summary: 'Edit an app version (every field, as the Release Notes form sends it)',
        description: RULES,
        params: ZIdParams,
        body: ZAppVersionPut,
        response: { 200: ZAppVersionSaved },
      },
    },
    async (request) =>
      updateAppVersion(app.ctx, requireActor(request), parseId(request.params.id), request.body, requestMeta(request)),
  );

  app.patch(
    '/app_version/:id/',
    {
      preValidation: admins,
      schema: {
        tags,
        security,
        summary: 'Edit some fields of an app version',
        description: RULES,
        params: ZIdParams,
        body: ZAppVersionPatch,
        response: { 200: ZAppVersionSaved },
      },
    },
    async (request) =>
      updateAppVersion(app.ctx, requireActor(request), parseId(request.params.id), request.body, requestMeta(request)),
  );
};
