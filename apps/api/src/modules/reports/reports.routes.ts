// organization/report-generate/ (a row per technician) and organization/leaderboard/report-generate/ (a row per
// organization), part 3 §7: two periods compared, as JSON pages or, with format=csv, the whole file (part 3 §9).
// Each authenticates and checks the role before the query is validated.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { paginated } from '@sc/shared/list';
import {
  REPORT_ROLES,
  ZOrganizationReportRow,
  ZReportQuery,
  ZTechnicianReportRow,
  type TReportKind,
  type TReportQuery,
} from '@sc/shared/reports';
import type { Actor } from '../../http/actor.ts';
import { requestMeta, requireRole } from '../../http/authenticate.ts';
import {
  TOKEN_SECURITY as security,
  guard as guardRoles,
  pathOf,
  sendCsv,
} from '../../http/route-helpers.ts';
import {
  listOrganizationReport,
  listTechnicianReport,
  streamReportCsv,
  type ReportRequest,
  type ReportsContext,
} from './reports.service.ts';

const tags = ['reports'];
const guard = guardRoles(REPORT_ROLES);

const reportRequest = (request: FastifyRequest): ReportRequest => ({
  url: request.url,
  path: pathOf(request),
  timezone: request.headers.timezone,
  userAgent: requestMeta(request).userAgent,
});

const description =
  'ADMIN, SUB_ADMIN, DISTRIBUTOR_ADMIN, MANAGER and ORG_ADMIN, within their scope; organization_id narrows to that ' +
  'organization and its sub-organizations (404 outside the scope). Period 1 is the earlier (comparison) period, ' +
  'period 2 the reported one; dates are read in the `Timezone` header’s zone, a start as its instant and an end ' +
  'through its whole second (or whole day). SCAN-type scans only; positive = a finding on either side. 404 ' +
  "{detail: 'No scans found'} when no row has a scan in either period. report_log=true on page 1, or format=csv, " +
  'writes the report log.';

/** The report's JSON page from `list`, or with format=csv the whole file, named after its kind, period and filter. */
async function answerReport<T>(
  app: Parameters<FastifyPluginAsyncZod>[0],
  kind: TReportKind,
  list: (ctx: ReportsContext, actor: Actor, query: TReportQuery, request: ReportRequest) => Promise<T>,
  request: FastifyRequest,
  query: TReportQuery,
  reply: FastifyReply,
) {
  const actor = requireRole(request, REPORT_ROLES);
  if (query.format !== 'csv') return list(app.ctx, actor, query, reportRequest(request));
  const { stream, filename } = await streamReportCsv(app.ctx, actor, kind, query, reportRequest(request));
  return sendCsv(reply, filename, stream);
}

export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/organization/report-generate/',
    {
      preValidation: guard,
      schema: {
        tags,
        security,
        summary: 'Technician report: SCAN-type scans, positives and positivity per technician in two periods',
        description,
        querystring: ZReportQuery,
        response: { 200: paginated(ZTechnicianReportRow) },
      },
    },
    async (request, reply) =>
      answerReport(app, 'technician', listTechnicianReport, request, request.query, reply),
  );

  app.get(
    '/organization/leaderboard/report-generate/',
    {
      preValidation: guard,
      schema: {
        tags,
        security,
        summary:
          'Organization report: SCAN-type scans, positives and positivity per organization in two periods',
        description,
        querystring: ZReportQuery,
        response: { 200: paginated(ZOrganizationReportRow) },
      },
    },
    async (request, reply) =>
      answerReport(app, 'organization', listOrganizationReport, request, request.query, reply),
  );
};
