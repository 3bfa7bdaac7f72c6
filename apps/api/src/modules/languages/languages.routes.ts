// language/ (part 1 §7, part 3 §7): the paginated list, searchable by name or iso_code and filtered by
// is_tutorial_available; one language; create, and edit by PUT or PATCH (architecture §7b). Rules live in the service.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZBoolParam } from '@sc/shared/list';
import {
  LANGUAGE_EDIT_ROLES,
  ZLanguage,
  ZLanguageInput,
  ZLanguageList,
  ZLanguageListQuery,
  ZLanguagePatch,
  ZLanguagePut,
  ZLanguageSaved,
} from '@sc/shared/languages';
import { requestMeta, requireActor } from '../../http/authenticate.ts';
import {
  TOKEN_SECURITY as security,
  ZIdParams,
  guard,
  parseId,
  signedIn as preValidation,
} from '../../http/route-helpers.ts';
import { createLanguage, getLanguage, listLanguagesFor, updateLanguage } from './languages.service.ts';

const tags = ['languages'];
const ZDetail = z.object({ detail: z.string() });
const WRITE = `Allowed: ${LANGUAGE_EDIT_ROLES.join(', ')} (403 otherwise). ibe_consent_form: the consent paragraphs (kept when left out). iso_code: one or two letters ('Invalid ISO code, Maximum 2 characters'), unique in any case, stored in lower case. app_version: an app version of type IBE, or null.`;

// Writes: 401, then 403 by role, before the body is looked at.
const editors = guard(LANGUAGE_EDIT_ROLES);

export const languageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/language/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: 'Languages (search by name or iso_code)',
        description: 'Every signed-in user (the pickers of the organization form and the device apps).',
        querystring: ZLanguageListQuery,
        response: { 200: ZLanguageList, 401: ZDetail, 404: ZDetail },
      },
    },
    async (request) => listLanguagesFor(app.ctx, requireActor(request), request.query, request),
  );

  app.get(
    '/language/:id/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: 'One language',
        params: ZIdParams,
        querystring: z.object({ using_read_db: ZBoolParam.optional() }),
        response: { 200: ZLanguage },
      },
    },
    async (request) =>
      getLanguage(app.ctx, requireActor(request), parseId(request.params.id), request.query.using_read_db === true),
  );

  app.post(
    '/language/',
    {
      preValidation: editors,
      schema: {
        tags,
        security,
        summary: 'Create a language',
        description: WRITE,
        body: ZLanguageInput,
        response: { 201: ZLanguageSaved },
      },
    },
    async (request, reply) => {
      const saved = await createLanguage(app.ctx, requireActor(request), request.body, requestMeta(request));
      return reply.status(201).send(saved);
    },
  );

  app.put(
    '/language/:id/',
    {
      preValidation: editors,
      schema: {
        tags,
        security,
        summary: 'Edit a language (every field, as the Language details form sends it)',
        description: WRITE,
        params: ZIdParams,
        body: ZLanguagePut,
        response: { 200: ZLanguageSaved },
      },
    },
    async (request) =>
      updateLanguage(app.ctx, requireActor(request), parseId(request.params.id), request.body, requestMeta(request)),
  );

  app.patch(
    '/language/:id/',
    {
      preValidation: editors,
      schema: {
        tags,
        security,
        summary: 'Edit some fields of a language',
        description: WRITE,
        params: ZIdParams,
        body: ZLanguagePatch,
        response: { 200: ZLanguageSaved },
      },
    },
    async (request) =>
      updateLanguage(app.ctx, requireActor(request), parseId(request.params.id), request.body, requestMeta(request)),
  );
};
