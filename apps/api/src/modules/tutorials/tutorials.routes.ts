// tutorial/module/, tutorial/quiz/, tutorial/quiz-option/, tutorial/content/ (DESIGN §7b paths; part 3 §7):
// list, read, create, PUT (translations go through PUT with localize), delete, and PUT …/order/ which writes the
// z_order of a whole list in one call. ADMIN only. The device reads (tutorial/app/, tutorial/module-completed/)
// are for every signed-in user; the tutorial read sits in its own plugin with an ETag, so a device that already
// has the current version gets 304.
import etag from '@fastify/etag';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZBoolParam } from '@sc/shared/list';
import {
  TUTORIAL_MESSAGES,
  TUTORIAL_ROLES,
  ZContent,
  ZContentInput,
  ZContentList,
  ZContentListQuery,
  ZDeleted,
  ZModule,
  ZModuleCompleted,
  ZModuleCompletion,
  ZModuleInput,
  ZModuleItemsOrder,
  ZModuleList,
  ZModuleListQuery,
  ZModuleOrder,
  ZOption,
  ZOptionInput,
  ZOptionListQuery,
  ZOrderSaved,
  ZQuiz,
  ZQuizCreate,
  ZQuizList,
  ZQuizListQuery,
  ZQuizUpdate,
  ZSaved,
  ZTutorialApp,
  ZTutorialAppQuery,
} from '@sc/shared/tutorials';
import { paginated } from '@sc/shared/list';
import { requestMeta, requireActor } from '../../http/authenticate.ts';
import {
  TOKEN_SECURITY as security,
  ZIdParams,
  parseId,
  signedIn as preValidation,
} from '../../http/route-helpers.ts';
import * as s from './tutorials.service.ts';

const tags = ['tutorials'];
const WHO = `Allowed: ${TUTORIAL_ROLES.join(', ')} (403 otherwise).`;
const ZReadQuery = z.object({ using_read_db: ZBoolParam.optional() });

// An id that names nothing answers the item's 404 ('No module.' or 'No content.'), as a missing one does.
const { noModule: NO_MODULE, noContent: NO_CONTENT } = TUTORIAL_MESSAGES;

export const tutorialRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx = app.ctx;
  const base = { preValidation };

  // ---- Modules ----
  app.get(
    '/tutorial/module/',
    { ...base, schema: { tags, security, summary: 'Modules in z_order (search by name)', description: WHO, querystring: ZModuleListQuery, response: { 200: ZModuleList } } },
    async (request) => s.listModules(ctx, requireActor(request), request.query, request),
  );
  app.post(
    '/tutorial/module/',
    { ...base, schema: { tags, security, summary: 'Create a module', description: WHO, body: ZModuleInput, response: { 201: ZSaved } } },
    async (request, reply) =>
      reply.status(201).send(await s.createModule(ctx, requireActor(request), request.body, requestMeta(request))),
  );
  app.put(
    '/tutorial/module/order/',
    { ...base, schema: { tags, security, summary: 'Reorder every module at once: z_order becomes the position (1, 2, …)', description: WHO, body: ZModuleOrder, response: { 200: ZOrderSaved } } },
    async (request) => s.reorder(ctx, requireActor(request), 'module', request.body, requestMeta(request)),
  );
  app.get(
    '/tutorial/module/:id/',
    { ...base, schema: { tags, security, summary: 'One module', description: WHO, params: ZIdParams, querystring: ZReadQuery, response: { 200: ZModule } } },
    async (request) =>
      s.getModule(ctx, requireActor(request), parseId(request.params.id, NO_MODULE), request.query.using_read_db),
  );
  app.put(
    '/tutorial/module/:id/',
    { ...base, schema: { tags, security, summary: 'Update a module (and its translations, localize)', description: WHO, params: ZIdParams, body: ZModuleInput, response: { 200: ZSaved } } },
    async (request) =>
      s.updateModule(ctx, requireActor(request), parseId(request.params.id, NO_MODULE), request.body, requestMeta(request)),
  );
  app.delete(
    '/tutorial/module/:id/',
    { ...base, schema: { tags, security, summary: 'Delete a module with its quizzes and contents', description: WHO, params: ZIdParams, response: { 200: ZDeleted } } },
    async (request) => s.deleteModule(ctx, requireActor(request), parseId(request.params.id, NO_MODULE), requestMeta(request)),
  );

  // ---- Quizzes ----
  app.get(
    '/tutorial/quiz/',
    { ...base, schema: { tags, security, summary: "A module's quizzes with their options, in z_order", description: WHO, querystring: ZQuizListQuery, response: { 200: ZQuizList } } },
    async (request) => s.listQuizzes(ctx, requireActor(request), request.query, request),
  );
  app.post(
    '/tutorial/quiz/',
    { ...base, schema: { tags, security, summary: 'Create a quiz with its options', description: WHO, body: ZQuizCreate, response: { 201: ZSaved } } },
    async (request, reply) =>
      reply.status(201).send(await s.createQuiz(ctx, requireActor(request), request.body, requestMeta(request))),
  );
  app.put(
    '/tutorial/quiz/order/',
    { ...base, schema: { tags, security, summary: "Reorder a module's quizzes at once", description: WHO, body: ZModuleItemsOrder, response: { 200: ZOrderSaved } } },
    async (request) => s.reorderQuizzes(ctx, requireActor(request), request.body, requestMeta(request)),
  );
  app.get(
    '/tutorial/quiz/:id/',
    { ...base, schema: { tags, security, summary: 'One quiz with its options', description: WHO, params: ZIdParams, querystring: ZReadQuery, response: { 200: ZQuiz } } },
    async (request) =>
      s.getQuiz(ctx, requireActor(request), parseId(request.params.id, NO_MODULE), request.query.using_read_db),
  );
  app.put(
    '/tutorial/quiz/:id/',
    { ...base, schema: { tags, security, summary: 'Update a quiz (options are saved one by one through tutorial/quiz-option/)', description: WHO, params: ZIdParams, body: ZQuizUpdate, response: { 200: ZSaved } } },
    async (request) =>
      s.updateQuiz(ctx, requireActor(request), parseId(request.params.id, NO_MODULE), request.body, requestMeta(request)),
  );
  app.delete(
    '/tutorial/quiz/:id/',
    { ...base, schema: { tags, security, summary: 'Delete a quiz with its options', description: WHO, params: ZIdParams, response: { 200: ZDeleted } } },
    async (request) => s.deleteQuiz(ctx, requireActor(request), parseId(request.params.id, NO_MODULE), requestMeta(request)),
  );

  // ---- Quiz options ----
  app.get(
    '/tutorial/quiz-option/',
    { ...base, schema: { tags, security, summary: "A quiz's options in z_order", description: WHO, querystring: ZOptionListQuery, response: { 200: paginated(ZOption) } } },
    async (request) => s.listOptions(ctx, requireActor(request), request.query, request),
  );
  app.post(
    '/tutorial/quiz-option/',
    { ...base, schema: { tags, security, summary: 'Add an option to a quiz', description: WHO, body: ZOptionInput, response: { 201: ZOption } } },
    async (request, reply) =>
      reply.status(201).send(await s.createOption(ctx, requireActor(request), request.body, requestMeta(request))),
  );
  app.get(
    '/tutorial/quiz-option/:id/',
    { ...base, schema: { tags, security, summary: 'One option', description: WHO, params: ZIdParams, querystring: ZReadQuery, response: { 200: ZOption } } },
    async (request) =>
      s.getOption(ctx, requireActor(request), parseId(request.params.id, NO_MODULE), request.query.using_read_db),
  );
  app.put(
    '/tutorial/quiz-option/:id/',
    { ...base, schema: { tags, security, summary: 'Update an option (and its translations)', description: WHO, params: ZIdParams, body: ZOptionInput, response: { 200: ZOption } } },
    async (request) =>
      s.updateOption(ctx, requireActor(request), parseId(request.params.id, NO_MODULE), request.body, requestMeta(request)),
  );
  app.delete(
    '/tutorial/quiz-option/:id/',
    { ...base, schema: { tags, security, summary: 'Delete an option at once', description: WHO, params: ZIdParams, response: { 200: ZDeleted } } },
    async (request) => s.deleteOption(ctx, requireActor(request), parseId(request.params.id, NO_MODULE), requestMeta(request)),
  );

  // ---- Contents ----
  app.get(
    '/tutorial/content/',
    { ...base, schema: { tags, security, summary: "A module's contents in z_order (search by title)", description: WHO, querystring: ZContentListQuery, response: { 200: ZContentList } } },
    async (request) => s.listContents(ctx, requireActor(request), request.query, request),
  );
  app.post(
    '/tutorial/content/',
    { ...base, schema: { tags, security, summary: 'Create a content item; primary_image is the video name (stored as assets/tutorials/tutorial_module_{z_order}/{name}.mp4)', description: WHO, body: ZContentInput, response: { 201: ZSaved } } },
    async (request, reply) =>
      reply.status(201).send(await s.createContent(ctx, requireActor(request), request.body, requestMeta(request))),
  );
  app.put(
    '/tutorial/content/order/',
    { ...base, schema: { tags, security, summary: "Reorder a module's contents at once", description: WHO, body: ZModuleItemsOrder, response: { 200: ZOrderSaved } } },
    async (request) => s.reorderContents(ctx, requireActor(request), request.body, requestMeta(request)),
  );
  app.get(
    '/tutorial/content/:id/',
    { ...base, schema: { tags, security, summary: 'One content item', description: WHO, params: ZIdParams, querystring: ZReadQuery, response: { 200: ZContent } } },
    async (request) =>
      s.getContent(ctx, requireActor(request), parseId(request.params.id, NO_CONTENT), request.query.using_read_db),
  );
  app.put(
    '/tutorial/content/:id/',
    { ...base, schema: { tags, security, summary: 'Update a content item (and its translations)', description: WHO, params: ZIdParams, body: ZContentInput, response: { 200: ZSaved } } },
    async (request) =>
      s.updateContent(ctx, requireActor(request), parseId(request.params.id, NO_CONTENT), request.body, requestMeta(request)),
  );
  app.delete(
    '/tutorial/content/:id/',
    { ...base, schema: { tags, security, summary: 'Delete a content item', description: WHO, params: ZIdParams, response: { 200: ZDeleted } } },
    async (request) =>
      s.deleteContent(ctx, requireActor(request), parseId(request.params.id, NO_CONTENT), requestMeta(request)),
  );

  // ---- Device reads ----
  app.post(
    '/tutorial/module-completed/',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: "The app reports the signed-in user's progress through a module (0–100; 100 or completed=true completes it)",
        description: 'Any signed-in user, for themselves. Progress never goes back; a completed module stays completed.',
        body: ZModuleCompleted,
        response: { 200: ZModuleCompletion },
      },
    },
    async (request) => s.reportModuleCompleted(ctx, requireActor(request), request.body),
  );
  await app.register(async (child) => {
    await child.register(etag);
    const r = child.withTypeProvider<ZodTypeProvider>();
    r.get(
      '/tutorial/app/',
      {
        preValidation,
        schema: {
          tags,
          security,
          summary: 'The published tutorials for the app, texts in ?language= (English where no translation)',
          description: 'Any signed-in user. Answers 304 when If-None-Match holds the current ETag.',
          querystring: ZTutorialAppQuery,
          response: { 200: ZTutorialApp },
        },
      },
      async (request) => s.tutorialsForApp(ctx, request.query.language),
    );
  });
};
