// audit/ (issue 27): the trail in keyset pages (format=csv streams it), one row, and the retention setting. No route
// updates or deletes a row: the trail is append-only (the daily prune is a job, not a route).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUDIT_COUNT_AHEAD,
  AUDIT_CSV_FILENAME,
  AUDIT_ROLES,
  AUDIT_SETTINGS_ROLES,
  ZAuditListQuery,
  ZAuditPage,
  ZAuditRow,
  ZAuditSettings,
} from '@sc/shared/audit';
import { z } from 'zod';
import { requireActor } from '../../http/authenticate.ts';
import {
  TOKEN_SECURITY as security,
  ZIdParams,
  csvDownloadName,
  csvRequest,
  guard,
  listRequest,
  metaOf,
  parseId,
  sendCsv,
} from '../../http/route-helpers.ts';
import { getAuditRow, getAuditSettings, listAudit, putAuditSettings, streamAuditCsv } from './audit.service.ts';

const tags = ['audit'];
const WHO = `Allowed: ${AUDIT_ROLES.join(', ')} (403 otherwise). ADMIN and SUB_ADMIN read every row; DISTRIBUTOR_ADMIN and ORG_ADMIN the rows whose organization is in their scope (an organization or row outside it answers 404).`;
const SETTINGS_WHO = `Allowed: ${AUDIT_SETTINGS_ROLES.join(', ')} (403 otherwise).`;

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/audit/',
    {
      preValidation: guard(AUDIT_ROLES),
      schema: {
        tags,
        security,
        summary: 'The audit trail, newest first in keyset pages: group, action, actor, target, organization, outcome, period; format=csv',
        description: `${WHO} next/previous carry before=/after= (an id) with the other filters kept; count is exact up to ${AUDIT_COUNT_AHEAD} rows past the page, then count_capped. actor matches the user who acted or who impersonated them; target_id needs target_type. The period (created_after/before, day, month) reads the Timezone header's zone. The CSV holds every row the filters select and is itself audited (export.csv).`,
        querystring: ZAuditListQuery,
        response: { 200: ZAuditPage },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      if (request.query.format !== 'csv') return listAudit(app.ctx, actor, request.query, listRequest(request));
      const stream = await streamAuditCsv(app.ctx, actor, request.query, csvRequest(request));
      return sendCsv(reply, csvDownloadName(AUDIT_CSV_FILENAME, request, app.ctx.now()), stream);
    },
  );

  app.get(
    '/audit/settings/',
    {
      preValidation: guard(AUDIT_SETTINGS_ROLES),
      schema: {
        tags,
        security,
        summary: 'The audit retention: days a row is kept (null keeps every row, the default)',
        description: SETTINGS_WHO,
        response: { 200: ZAuditSettings },
      },
    },
    async () => getAuditSettings(app.ctx),
  );

  app.put(
    '/audit/settings/',
    {
      preValidation: guard(AUDIT_SETTINGS_ROLES),
      schema: {
        tags,
        security,
        summary: 'Set the audit retention; a daily job then deletes older rows and records that it did',
        description: SETTINGS_WHO,
        body: ZAuditSettings,
        response: { 200: ZAuditSettings },
      },
    },
    async (request) => putAuditSettings(app.ctx, requireActor(request), request.body, metaOf(request)),
  );

  app.get(
    '/audit/:id/',
    {
      preValidation: guard(AUDIT_ROLES),
      schema: {
        tags,
        security,
        summary: 'One audit row with its changes (before and after)',
        description: WHO,
        params: ZIdParams,
        querystring: z.object({ using_read_db: ZAuditListQuery.shape.using_read_db }),
        response: { 200: ZAuditRow },
      },
    },
    async (request) => getAuditRow(app.ctx, requireActor(request), parseId(request.params.id), request.query.using_read_db),
  );
};
