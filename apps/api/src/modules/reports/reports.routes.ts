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

/** format=csv: the whole report as a file named after its kind, period and organization. */
async function sendReportCsv(
  app: Parameters<FastifyPluginAsyncZod>[0],
  kind: TReportKind,
  query: TReportQuery,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const actor = requireRole(request, REPORT_ROLES);
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
    async (request, reply) => {
      if (request.query.format === 'csv')
        return sendReportCsv(app, 'technician', request.query, request, reply);
      return listTechnicianReport(
        app.ctx,
        requireRole(request, REPORT_ROLES),
        request.query,
        reportRequest(request),
      );
    },
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
    async (request, reply) => {
      if (request.query.format === 'csv')
        return sendReportCsv(app, 'organization', request.query, request, reply);
      return listOrganizationReport(
        app.ctx,
        requireRole(request, REPORT_ROLES),
        request.query,
        reportRequest(request),
      );
    },
  );
};
