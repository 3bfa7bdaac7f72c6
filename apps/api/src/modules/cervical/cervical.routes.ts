// cervaical/ (part 3 §7 Cervical list): the list (format=csv streams cervaical.csv), by ids, one exam, the review
// documents, the review catalogue, add and edit a review, an ADMIN's final read, reviewer agreement.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CERVICAL_CSV_FILENAME,
  CERVICAL_LIST_ROLES,
  CERVICAL_REVIEW_ROLES,
  ZAdjudicationInput,
  ZAdjudicationSaved,
  ZCervicalDetail,
  ZCervicalDetailQuery,
  ZCervicalDocumentList,
  ZCervicalDocumentQuery,
  ZCervicalIdsBody,
  ZCervicalList,
  ZCervicalListQuery,
  ZReviewerAgreement,
  ZReviewerAgreementQuery,
  ZReviewInput,
  ZReviewOptions,
  ZReviewSaved,
} from '@sc/shared/cervical';
import type { TUserType } from '@sc/shared/roles';
import { requireRole } from '../../http/authenticate.ts';
import {
  TOKEN_SECURITY as security,
  ZIdParams,
  csvRequest,
  guard,
  listRequest,
  metaOf,
  parseId,
  csvDownloadName,
  sendCsv,
} from '../../http/route-helpers.ts';
import { auditRead } from '../../http/read-audit.ts';
import {
  addReview,
  adjudicate,
  assertReviewRole,
  assertReviewVisible,
  editReview,
  getCervical,
  listCervical,
  listDocuments,
  reviewOptions,
  reviewerAgreement,
  streamCervicalCsv,
} from './cervical.service.ts';

const tags = ['cervical'];
const ADMIN_ONLY: readonly TUserType[] = ['ADMIN'];

export const cervicalRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/cervaical/',
    {
      preValidation: guard(CERVICAL_LIST_ROLES),
      schema: {
        tags,
        security,
        summary:
          "Cervical exams in the caller's scope with the part 3 §7 filters; reviewer statuses blinded for a reviewer who may still review; format=csv streams cervaical.csv",
        querystring: ZCervicalListQuery,
        response: { 200: ZCervicalList },
      },
    },
    async (request, reply) => {
      const actor = requireRole(request, CERVICAL_LIST_ROLES);
      if (request.query.format !== 'csv') return listCervical(app.ctx, actor, request.query, listRequest(request));
      const stream = await streamCervicalCsv(app.ctx, actor, request.query, csvRequest(request));
      return sendCsv(reply, csvDownloadName(CERVICAL_CSV_FILENAME, request, app.ctx.now()), stream);
    },
  );

  app.post(
    '/cervaical/ids/',
    {
      preValidation: guard(CERVICAL_LIST_ROLES),
      config: { impersonationAllowed: true },
      schema: {
        tags,
        security,
        summary: "Cervical exams by ids_list in the caller's scope; the list's query applies",
        querystring: ZCervicalListQuery,
        body: ZCervicalIdsBody,
        response: { 200: ZCervicalList },
      },
    },
    async (request, reply) => {
      const actor = requireRole(request, CERVICAL_LIST_ROLES);
      const ids = [...new Set(request.body.ids_list)];
      if (request.query.format !== 'csv')
        return listCervical(app.ctx, actor, request.query, listRequest(request), ids);
      const stream = await streamCervicalCsv(app.ctx, actor, request.query, csvRequest(request), ids);
      return sendCsv(reply, csvDownloadName(CERVICAL_CSV_FILENAME, request, app.ctx.now()), stream);
    },
  );

  app.get(
    '/cervaical/review-options/',
    {
      preValidation: guard(CERVICAL_REVIEW_ROLES),
      schema: {
        tags,
        security,
        summary: 'The active image qualities and clinical findings a review answers, in order',
        response: { 200: ZReviewOptions },
      },
    },
    async (request) => reviewOptions(app.ctx, requireRole(request, CERVICAL_REVIEW_ROLES)),
  );

  app.get(
    '/cervaical/reviewer-agreement/',
    {
      preValidation: guard(CERVICAL_REVIEW_ROLES),
      schema: {
        tags,
        security,
        summary:
          "Each reviewer's agreement with the other reviewer on the exams in scope that both finished",
        querystring: ZReviewerAgreementQuery,
        response: { 200: ZReviewerAgreement },
      },
    },
    async (request) =>
      reviewerAgreement(app.ctx, requireRole(request, CERVICAL_REVIEW_ROLES), request.query),
  );

  app.get(
    '/cervaical/document/',
    {
      preValidation: guard(CERVICAL_REVIEW_ROLES),
      schema: {
        tags,
        security,
        summary:
          "An exam's photos and videos (ordering document_type) with the reviews the caller may see (blinded: a reviewer sees others' only after finishing their own)",
        querystring: ZCervicalDocumentQuery,
        response: { 200: ZCervicalDocumentList },
      },
    },
    async (request) => {
      const actor = requireRole(request, CERVICAL_REVIEW_ROLES);
      const { page, organizationId } = await listDocuments(app.ctx, actor, request.query, listRequest(request));
      // A review opens the exam's photos and videos: a read of the exam (it folds into the detail's read).
      await auditRead(app.ctx, request, {
        kind: 'cervicalExam',
        id: request.query.scan,
        organizationId,
        details: { view: 'documents' },
      });
      return page;
    },
  );

  app.post(
    '/cervaical/document-user/',
    {
      // The role that may add (403 for the others) before the body is looked at.
      preValidation: async (request) => assertReviewRole(requireRole(request, CERVICAL_REVIEW_ROLES), 'add'),
      schema: {
        tags,
        security,
        summary:
          "Add the caller's review of a document (CERVAICAL_REVIEWER; once per document; two reviewers per exam)",
        body: ZReviewInput,
        response: { 201: ZReviewSaved },
      },
    },
    async (request, reply) => {
      const saved = await addReview(
        app.ctx,
        requireRole(request, CERVICAL_REVIEW_ROLES),
        request.body,
        metaOf(request),
      );
      return reply.code(201).send(saved);
    },
  );

  app.patch(
    '/cervaical/document-user/:id/',
    {
      // The role that may edit first (403 for the others, issue 23.23), then a review that does not exist or is out of
      // scope answers 404, whatever the body: a partial body is judged only after both.
      preValidation: async (request) => {
        const actor = requireRole(request, CERVICAL_REVIEW_ROLES);
        assertReviewRole(actor, 'edit');
        const raw = (request.params as { id?: string }).id ?? '';
        await assertReviewVisible(app.ctx, actor, parseId(raw));
      },
      schema: {
        tags,
        security,
        summary: 'Change an existing review (ADMIN)',
        params: ZIdParams,
        body: ZReviewInput,
        response: { 200: ZReviewSaved },
      },
    },
    async (request) =>
      editReview(
        app.ctx,
        requireRole(request, CERVICAL_REVIEW_ROLES),
        parseId(request.params.id),
        request.body,
        metaOf(request),
      ),
  );

  app.get(
    '/cervaical/:id/',
    {
      preValidation: guard(CERVICAL_LIST_ROLES),
      schema: {
        tags,
        security,
        summary: "One cervical exam with the detail modal's facts (404 outside the caller's scope)",
        params: ZIdParams,
        querystring: ZCervicalDetailQuery,
        response: { 200: ZCervicalDetail },
      },
    },
    async (request) => {
      const id = parseId(request.params.id);
      const exam = await getCervical(app.ctx, requireRole(request, CERVICAL_LIST_ROLES), id, request.query.using_read_db);
      await auditRead(app.ctx, request, { kind: 'cervicalExam', id, organizationId: exam.organization_data?.id });
      return exam;
    },
  );

  app.post(
    '/cervaical/:id/adjudication/',
    {
      preValidation: guard(ADMIN_ONLY),
      schema: {
        tags,
        security,
        summary: "ADMIN's final read of an exam whose two reviewers disagree (sent again, it replaces the last)",
        params: ZIdParams,
        body: ZAdjudicationInput,
        response: { 200: ZAdjudicationSaved },
      },
    },
    async (request) =>
      adjudicate(
        app.ctx,
        requireRole(request, ADMIN_ONLY),
        parseId(request.params.id),
        request.body,
        metaOf(request),
      ),
  );
};
