// follow-up/ (issue 26): the worklist (format=csv streams follow-up.csv), one case with its sources and timeline, the
// users a case may be assigned to, assignment, and the actions on a case's timeline. Rules live in the service.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FOLLOW_UP_CSV_FILENAME,
  FOLLOW_UP_ROLES,
  ZFollowUpAction,
  ZFollowUpAssign,
  ZFollowUpAssignee,
  ZFollowUpAssigneesQuery,
  ZFollowUpCase,
  ZFollowUpListQuery,
  ZFollowUpPage,
} from '@sc/shared/follow-up';
import { requireActor } from '../../http/authenticate.ts';
import {
  TOKEN_SECURITY as security,
  ZIdParams,
  csvDownloadName,
  csvRequest,
  listRequest,
  metaOf,
  parseId,
  sendCsv,
} from '../../http/route-helpers.ts';
import type { FastifyRequest } from 'fastify';
import {
  addFollowUpAction,
  assertCanFollowUp,
  assignFollowUpCase,
  getFollowUpCase,
  listAssignees,
  listFollowUp,
  streamFollowUpCsv,
} from './follow-up.service.ts';

const tags = ['follow-up'];
const WHO = `Allowed: ${FOLLOW_UP_ROLES.join(', ')} (403 otherwise); a case or organization outside the caller's scope answers 404.`;

/** 401, then 403 with the area's message, before the query or body is looked at. */
export const followUpGuard = async (request: FastifyRequest) => {
  assertCanFollowUp(requireActor(request));
};

export const followUpRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/follow-up/',
    {
      preValidation: followUpGuard,
      schema: {
        tags,
        security,
        summary: 'Follow-up cases (overdue first): search, status, overdue, due window, organization, assignee, modality, period; format=csv',
        description: `${WHO} The period (date_time_after/before, day, month) is when the case opened, in the Timezone header's zone; due_after/due_before bound the next due date (inclusive).`,
        querystring: ZFollowUpListQuery,
        response: { 200: ZFollowUpPage },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      if (request.query.format !== 'csv') return listFollowUp(app.ctx, actor, request.query, listRequest(request));
      const stream = await streamFollowUpCsv(app.ctx, actor, request.query, csvRequest(request));
      return sendCsv(reply, csvDownloadName(FOLLOW_UP_CSV_FILENAME, request, app.ctx.now()), stream);
    },
  );

  app.get(
    '/follow-up/assignees/',
    {
      preValidation: followUpGuard,
      schema: {
        tags,
        security,
        summary: "Users a case of the organization may be assigned to: active users of a follow-up role whose scope holds it",
        description: WHO,
        querystring: ZFollowUpAssigneesQuery,
        response: { 200: z.array(ZFollowUpAssignee) },
      },
    },
    async (request) => listAssignees(app.ctx, requireActor(request), request.query.organization),
  );

  app.get(
    '/follow-up/:id/',
    {
      preValidation: followUpGuard,
      schema: {
        tags,
        security,
        summary: 'One case: its positives, its whole timeline (oldest first) and the moves it allows now; every read is audited',
        description: WHO,
        params: ZIdParams,
        response: { 200: ZFollowUpCase },
      },
    },
    async (request) => getFollowUpCase(app.ctx, requireActor(request), parseId(request.params.id), metaOf(request)),
  );

  app.patch(
    '/follow-up/:id/',
    {
      preValidation: followUpGuard,
      schema: {
        tags,
        security,
        summary: 'Assign the case to a user (or nobody): an ASSIGNMENT entry on its timeline',
        description: `${WHO} A user who may not follow up the case's organization answers 400 on assigned_user.`,
        params: ZIdParams,
        body: ZFollowUpAssign,
        response: { 200: ZFollowUpCase },
      },
    },
    async (request) =>
      assignFollowUpCase(app.ctx, requireActor(request), parseId(request.params.id), request.body.assigned_user, metaOf(request)),
  );

  app.post(
    '/follow-up/:id/actions/',
    {
      preValidation: followUpGuard,
      schema: {
        tags,
        security,
        summary: 'Add a contact attempt, referral, note, status change or correction to the case (and the move it makes)',
        description: `${WHO} A move FOLLOW_UP_MOVES does not allow answers 400 on status and changes nothing. Dates are checked against the caller's today (Timezone header).`,
        params: ZIdParams,
        body: ZFollowUpAction,
        response: { 201: ZFollowUpCase },
      },
    },
    async (request, reply) => {
      const detail = await addFollowUpAction(app.ctx, requireActor(request), parseId(request.params.id), request.body, {
        timezone: request.headers.timezone,
        meta: metaOf(request),
      });
      return reply.status(201).send(detail);
    },
  );
};
