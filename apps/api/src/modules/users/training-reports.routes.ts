// user/training/report/pdf/{id}/ and user/practice/report/pdf/{id}/ (part 2 §7 Users): a user's training or
// practice scans as a PDF, opened in the browser (inline). The rules are in the service.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TRAINING_REPORT_KINDS, TRAINING_REPORT_ROLES } from '@sc/shared/training-reports';
import { requestMeta, requireRole } from '../../http/authenticate.ts';
import { notFound } from '../../http/errors.ts';
import { parsePathId } from '../../http/params.ts';
import { canonicalZone } from '../../services/pdf/format.ts';
import { openTrainingReport } from './training-reports.service.ts';

const tags = ['users'];
const security = [{ token: [] }];

/** 401, then 403 by role, before anything else is looked at. */
async function guard(request: FastifyRequest): Promise<void> {
  requireRole(request, TRAINING_REPORT_ROLES);
}

export const trainingReportRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const kind of TRAINING_REPORT_KINDS) {
    app.get(
      `/user/${kind}/report/pdf/:id/`,
      {
        preValidation: guard,
        schema: {
          tags,
          security,
          summary: `The user's ${kind} scans as a PDF (application/pdf): one row per scan with its assessment result, then totals`,
          description:
            'ADMIN, SUB_ADMIN, DISTRIBUTOR_ADMIN, MANAGER and ORG_ADMIN, for a Technician, ORG Admin or Distributor in ' +
            'their scope. 404 for a user outside the scope, of another type, or without such scans. Dates are printed ' +
            'in the `Timezone` header’s zone. Each download is written to the report log.',
          params: z.object({ id: z.string() }),
          querystring: z.object({}),
        },
      },
      async (request, reply) => {
        const actor = requireRole(request, TRAINING_REPORT_ROLES);
        const id = parsePathId(request.params.id);
        if (id === undefined) throw notFound();
        const meta = requestMeta(request);
        const report = await openTrainingReport(app.ctx, actor, kind, id, {
          path: new URL(request.url, 'http://localhost').pathname,
          query: { ...request.query },
          userAgent: meta.userAgent,
          timezone: canonicalZone(meta.timezone),
        });
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `inline; filename="${report.filename}"`)
          .header('cache-control', 'no-store')
          .send(report.stream);
      },
    );
  }
};
