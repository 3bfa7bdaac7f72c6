// orca/ (part 3 §7 ORCA; DESIGN §7b paths): the console's list (format=csv streams orca-scan.csv) and one exam with
// its case history and findings. Rules live in the service.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ORCA_CSV_FILENAME,
  ORCA_LIST_ROLES,
  ZOrcaDetail,
  ZOrcaDetailQuery,
  ZOrcaList,
  ZOrcaListQuery,
} from '@sc/shared/orca';
import { requestMeta, requireRole } from '../../http/authenticate.ts';
import { notFound } from '../../http/errors.ts';
import { parsePathId } from '../../http/params.ts';
import { getOrca, listOrca, streamOrcaCsv } from './orca.service.ts';

const tags = ['orca'];
const security = [{ token: [] }];

/** 401, then 403 by role, before the query is looked at. */
const guard = async (request: FastifyRequest) => {
  requireRole(request, ORCA_LIST_ROLES);
};

const listRequest = (request: FastifyRequest) => ({ url: request.url, timezone: request.headers.timezone });

export const orcaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/orca/',
    {
      preValidation: guard,
      schema: {
        tags,
        security,
        summary: "ORCA exams in the caller's scope with the list's filters; format=csv streams orca-scan.csv",
        querystring: ZOrcaListQuery,
        response: { 200: ZOrcaList },
      },
    },
    async (request, reply) => {
      const actor = requireRole(request, ORCA_LIST_ROLES);
      if (request.query.format !== 'csv')
        return listOrca(app.ctx, actor, request.query, listRequest(request));
      const meta = requestMeta(request);
      const stream = await streamOrcaCsv(app.ctx, actor, request.query, {
        ...listRequest(request),
        path: new URL(request.url, 'http://localhost').pathname,
        meta: { ip: meta.ip, userAgent: meta.userAgent },
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${ORCA_CSV_FILENAME}"`)
        .header('cache-control', 'no-store')
        .send(stream as never);
    },
  );

  app.get(
    '/orca/:id/',
    {
      preValidation: guard,
      schema: {
        tags,
        security,
        summary:
          "One ORCA exam with its case history and findings in index order (404 outside the caller's scope)",
        params: z.object({ id: z.string() }),
        querystring: ZOrcaDetailQuery,
        response: { 200: ZOrcaDetail },
      },
    },
    async (request) => {
      const id = parsePathId(request.params.id);
      if (id === undefined) throw notFound();
      return getOrca(app.ctx, requireRole(request, ORCA_LIST_ROLES), id, request.query.using_read_db);
    },
  );
};
