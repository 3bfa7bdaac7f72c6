// language/ (part 1 §7, part 3): the paginated list, searchable by name or iso_code.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZLanguageList, ZLanguageListQuery } from '@sc/shared/languages';
import { requireActor } from '../../http/authenticate.ts';
import { listLanguagesFor } from './languages.service.ts';

const tags = ['languages'];
const security = [{ token: [] }];
const ZDetail = z.object({ detail: z.string() });

// Authenticate before the query is validated: an anonymous caller learns 401 only.
const preValidation = async (request: FastifyRequest) => {
  requireActor(request);
};

export const languageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/language/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: 'Languages (search by name or iso_code)',
        querystring: ZLanguageListQuery,
        response: { 200: ZLanguageList, 401: ZDetail, 404: ZDetail },
      },
    },
    async (request) => listLanguagesFor(app.ctx, requireActor(request), request.query, request),
  );
};
