// follow-up/figures/ (issue 26, programme figures): the dashboard's follow-up card and its table per organization
// (JSON, or follow-up-organizations.csv with format=csv). Each authenticates and checks the role before the query
// is validated.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  FOLLOW_UP_FIGURES_CSV_FILENAME,
  FOLLOW_UP_MESSAGES,
  canFollowUp,
  ZFollowUpFigures,
  ZFollowUpFiguresOrgPage,
  ZFollowUpFiguresOrgQuery,
  ZFollowUpFiguresQuery,
} from '@sc/shared/follow-up';
import type { Actor } from '../../http/actor.ts';
import { requireActor } from '../../http/authenticate.ts';
import { AppError } from '../../http/errors.ts';
import { TOKEN_SECURITY as security, csvDownloadName, csvRequest, listRequest, sendCsv } from '../../http/route-helpers.ts';
import {
  figuresPeriod,
  getFollowUpFigures,
  listFollowUpFiguresByOrganization,
  streamFollowUpFiguresCsv,
} from './follow-up-figures.service.ts';

const tags = ['follow-up'];

/** 401 without a caller, 403 with FOLLOW_UP_MESSAGES.role for a role that does not follow up patients. */
function followUpActor(request: FastifyRequest): Actor {
  const actor = requireActor(request);
  if (!canFollowUp(actor.userType)) throw new AppError('forbidden', FOLLOW_UP_MESSAGES.role);
  return actor;
}
const preValidation = async (request: FastifyRequest) => {
  followUpActor(request);
};

export const followUpFiguresRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/follow-up/figures/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: "Programme figures: screen-positives, completion, lost, overdue and median days to diagnosis in the caller's scope and period",
        querystring: ZFollowUpFiguresQuery,
        response: { 200: ZFollowUpFigures },
      },
    },
    async (request) => getFollowUpFigures(app.ctx, followUpActor(request), request.query, listRequest(request)),
  );

  app.get(
    '/follow-up/figures/organizations/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: 'The programme figures per organization in scope (default -screen_positives); format=csv streams follow-up-organizations.csv',
        querystring: ZFollowUpFiguresOrgQuery,
        response: { 200: ZFollowUpFiguresOrgPage },
      },
    },
    async (request, reply) => {
      const actor = followUpActor(request);
      if (request.query.format !== 'csv')
        return listFollowUpFiguresByOrganization(app.ctx, actor, request.query, listRequest(request));
      const stream = await streamFollowUpFiguresCsv(app.ctx, actor, request.query, csvRequest(request));
      const period = figuresPeriod(request.query, request.headers.timezone, app.ctx.now());
      return sendCsv(reply, csvDownloadName(FOLLOW_UP_FIGURES_CSV_FILENAME, request, app.ctx.now(), period), stream);
    },
  );
};
