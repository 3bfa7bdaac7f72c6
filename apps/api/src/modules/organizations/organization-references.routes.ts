// organization/reference/ (part 1 §7): list, add, edit or toggle, delete. Rules live in the service.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { paginated } from '@sc/shared/list';
import {
  ZReference,
  ZReferenceDeleted,
  ZReferenceInput,
  ZReferenceListQuery,
  ZReferencePatch,
  ZReferenceSaved,
} from '@sc/shared/references';
import { requestMeta, requireActor } from '../../http/authenticate.ts';
import {
  TOKEN_SECURITY as security,
  ZIdParams,
  parseId,
  signedIn as preValidation,
} from '../../http/route-helpers.ts';
import {
  createOrganizationReference,
  deleteOrganizationReference,
  listOrganizationReferences,
  updateOrganizationReference,
} from './organization-references.service.ts';

const tags = ['organizations'];


export const organizationReferenceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/organization/reference/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: "References of the organizations in the caller's scope",
        querystring: ZReferenceListQuery,
        response: { 200: paginated(ZReference) },
      },
    },
    async (request) => listOrganizationReferences(app.ctx, requireActor(request), request.query, request),
  );

  app.post(
    '/organization/reference/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: 'Add a reference to an organization (ADMIN, SUB_ADMIN, ORG_ADMIN)',
        body: ZReferenceInput,
        response: { 201: ZReferenceSaved },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      return reply.status(201).send(await createOrganizationReference(app.ctx, actor, request.body, requestMeta(request)));
    },
  );

  app.patch(
    '/organization/reference/:id/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: 'Rename a reference or switch it on or off',
        params: ZIdParams,
        body: ZReferencePatch,
        response: { 200: ZReferenceSaved },
      },
    },
    async (request) => updateOrganizationReference(app.ctx, requireActor(request), parseId(request.params.id), request.body, requestMeta(request)),
  );

  app.delete(
    '/organization/reference/:id/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: 'Delete a reference',
        params: ZIdParams,
        response: { 200: ZReferenceDeleted },
      },
    },
    async (request) => deleteOrganizationReference(app.ctx, requireActor(request), parseId(request.params.id), requestMeta(request)),
  );
};
