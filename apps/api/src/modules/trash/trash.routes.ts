// trash/ (issue 27): each area's deleted records (GET trash/{area}/) and their restore; the single exam deletes. Rules live in the service.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors.ts';
import { EXAM_DELETE_ROLES, TRASH_ANY_ROLES, ZExamDeleted, TRASH_AREAS, TRASH_RETENTION_DAYS, TRASH_ROLES, ZTrashList, ZTrashQuery, isTrashArea, ZTrashRestored } from '@sc/shared/trash';
import { requireActor } from '../../http/authenticate.ts';
import { TOKEN_SECURITY as security, ZIdParams, guard, metaOf, parseId } from '../../http/route-helpers.ts';
import { deleteExam, listTrash, restoreFromTrash } from './trash.service.ts';

const tags = ['trash'];
const WHO = `Allowed per area: ${TRASH_AREAS.map((a) => `${a}: ${TRASH_ROLES[a].join(', ')}`).join('; ')} (403 otherwise); entries outside the caller's scope are not listed and answer 404.`;

export const trashRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/trash/:area/',
    {
      preValidation: guard(TRASH_ANY_ROLES),
      schema: {
        tags,
        security,
        summary: `An area's deleted records, newest first, each with who deleted it and when it is purged (${TRASH_RETENTION_DAYS} days after)`,
        description: WHO,
        params: z.object({ area: z.string() }),
        querystring: ZTrashQuery,
        response: { 200: ZTrashList },
      },
    },
    async (request) => {
      const { area } = request.params;
      // An area that is not one names nothing.
      if (!isTrashArea(area)) throw notFound();
      return listTrash(app.ctx, requireActor(request), area, request.query, request);
    },
  );

  app.post(
    '/trash/:id/restore/',
    {
      preValidation: guard(TRASH_ANY_ROLES),
      schema: {
        tags,
        security,
        summary: 'Put a deleted record back (with every row that went with it) everywhere it was',
        description: `${WHO} 400 with the reason when it can no longer be put back (its organization or a row it refers to is gone, a unique value is taken); nothing changes then.`,
        params: ZIdParams,
        response: { 200: ZTrashRestored },
      },
    },
    async (request) => restoreFromTrash(app.ctx, requireActor(request), parseId(request.params.id), metaOf(request)),
  );

  for (const [path, type, what] of [
    ['/cervaical/:id/', 'cervical_exam', 'cervical'],
    ['/orca/:id/', 'orca_exam', 'ORCA'],
  ] as const) {
    app.delete(
      path,
      {
        preValidation: guard(EXAM_DELETE_ROLES),
        schema: {
          tags: [type === 'cervical_exam' ? 'cervical' : 'orca'],
          security,
          summary: `Delete one ${what} exam (ADMIN): to the exams' trash, restorable for ${TRASH_RETENTION_DAYS} days`,
          params: ZIdParams,
          response: { 200: ZExamDeleted },
        },
      },
      async (request) => deleteExam(app.ctx, requireActor(request), type, parseId(request.params.id), metaOf(request)),
    );
  }
};
