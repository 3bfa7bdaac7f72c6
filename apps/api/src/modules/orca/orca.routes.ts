// orca/ (part 3 §7 ORCA; architecture §7b paths): the console's list (format=csv streams orca-scan.csv) and one exam
// with its case history and findings. Rules live in the service.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ORCA_CSV_FILENAME,
  ORCA_LIST_ROLES,
  ZOrcaDetail,
  ZOrcaDetailQuery,
  ZOrcaList,
  ZOrcaListQuery,
} from '@sc/shared/orca';
import { requireRole } from '../../http/authenticate.ts';
import {
  TOKEN_SECURITY as security,
  ZIdParams,
  csvRequest,
  guard as roleGuard,
  listRequest,
  parseId,
  csvDownloadName,
  sendCsv,
} from '../../http/route-helpers.ts';
import { auditRead } from '../../http/read-audit.ts';
import { getOrca, listOrca, streamOrcaCsv } from './orca.service.ts';

const tags = ['orca'];
const guard = roleGuard(ORCA_LIST_ROLES);

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
      const stream = await streamOrcaCsv(app.ctx, actor, request.query, csvRequest(request));
      return sendCsv(reply, csvDownloadName(ORCA_CSV_FILENAME, request, app.ctx.now()), stream);
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
        params: ZIdParams,
        querystring: ZOrcaDetailQuery,
        response: { 200: ZOrcaDetail },
      },
    },
    async (request) => {
      const id = parseId(request.params.id);
      const exam = await getOrca(app.ctx, requireRole(request, ORCA_LIST_ROLES), id, request.query.using_read_db);
      await auditRead(app.ctx, request, { kind: 'orcaExam', id, organizationId: exam.organization });
      return exam;
    },
  );
};
