// Organizations (part 1 §2.4, §7) — read side: the scoped list and one organization.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CONSOLE_ROLES } from '@sc/shared/roles';
import { ZBoolParam } from '@sc/shared/list';
import { ZOrganization, ZOrganizationList, ZOrganizationListQuery } from '@sc/shared/organizations';
import {
  ORGANIZATION_EDIT_ROLES,
  ZOrganizationInput,
  ZOrganizationSaved,
  ZOrganizationUpdate,
} from '@sc/shared/organization-input';
import type { FastifyRequest } from 'fastify';
import { requestMeta, requireRole } from '../../http/authenticate.ts';
import { paginate } from '../../http/pagination.ts';
import { createOrganization, getOrganization, listOrganizations, updateOrganization } from './organizations.service.ts';

const ZDetail = z.object({ detail: z.string() });
const ZFieldErrors = z.record(z.string(), z.array(z.string()));

// Authenticate and check the role before the body is validated: an anonymous caller or a refused role learns
// 401/403, not the shape of a valid body.
const writeGuard = async (request: FastifyRequest) => {
  requireRole(request, ORGANIZATION_EDIT_ROLES);
};

const auditMeta = (request: FastifyRequest) => {
  const meta = requestMeta(request);
  return { ip: meta.ip, userAgent: meta.userAgent };
};

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

  app.post(
    '/organization/',
    {
      preValidation: writeGuard,
      schema: {
        tags: ['organizations'],
        summary: 'Create an organization (ADMIN, SUB_ADMIN anywhere; others under a distributor in their scope)',
        security: [{ token: [] }],
        body: ZOrganizationInput,
        response: { 201: ZOrganizationSaved, 400: ZFieldErrors, 401: ZDetail, 403: ZDetail },
      },
    },
    async (request, reply) => {
      const actor = requireRole(request, ORGANIZATION_EDIT_ROLES);
      return reply.status(201).send(await createOrganization(app.ctx, actor, request.body, auditMeta(request)));
    },
  );

  app.put(
    '/organization/:id/',
    {
      preValidation: writeGuard,
      schema: {
        tags: ['organizations'],
        summary: 'Save an organization (the form sends every field; omitted fields keep their value)',
        security: [{ token: [] }],
        params: z.object({ id: z.string() }),
        body: ZOrganizationInput,
        response: { 200: ZOrganizationSaved, 400: ZFieldErrors, 401: ZDetail, 403: ZDetail, 404: ZDetail },
      },
    },
    async (request) => {
      const actor = requireRole(request, ORGANIZATION_EDIT_ROLES);
      return updateOrganization(app.ctx, actor, request.params.id, request.body, auditMeta(request));
    },
  );

  app.patch(
    '/organization/:id/',
    {
      preValidation: writeGuard,
      schema: {
        tags: ['organizations'],
        summary: 'Change some fields of an organization',
        security: [{ token: [] }],
        params: z.object({ id: z.string() }),
        body: ZOrganizationUpdate,
        response: { 200: ZOrganizationSaved, 400: ZFieldErrors, 401: ZDetail, 403: ZDetail, 404: ZDetail },
      },
    },
    async (request) => {
      const actor = requireRole(request, ORGANIZATION_EDIT_ROLES);
      return updateOrganization(app.ctx, actor, request.params.id, request.body, auditMeta(request));
    },
  );
};
