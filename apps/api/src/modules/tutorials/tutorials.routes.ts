// tutorial/module/, tutorial/quiz/, tutorial/quiz-option/, tutorial/content/ (architecture §7b paths; part 3 §7):
// list, read, create, PUT (translations go through PUT with localize), delete, and PUT …/order/ which writes the
// z_order of a whole list in one call. ADMIN only. The device reads (tutorial/app/, tutorial/module-completed/)
// are for every signed-in user; the tutorial read sits in its own plugin with an ETag, so a device that already
// has the current version gets 304.
import etag from '@fastify/etag';
import type { FastifyRequest, FastifySchema } from 'fastify';
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
import type { Actor, RequestMeta } from '../../http/actor.ts';
import * as s from './tutorials.service.ts';

const tags = ['tutorials'];
const WHO = `Allowed: ${TUTORIAL_ROLES.join(', ')} (403 otherwise).`;
const ZReadQuery = z.object({ using_read_db: ZBoolParam.optional() });

/**
 * One kind of tutorial item (module, quiz, quiz option, content) and its calls under `/tutorial/{path}/`: list,
 * create, reorder (not options), read, PUT and delete. Each kind is a row of this table; one registration serves
 * them all. `missing` is the kind's 404 for an id that names nothing, as for a missing one.
 */
type ItemRoutes<LQ extends z.ZodType, C extends z.ZodType, O extends z.ZodType, U extends z.ZodType> = {
  path: string;
  missing: string;
  list: {
    summary: string;
    querystring: LQ;
    response: z.ZodType;
    run: (
      ctx: s.TutorialsContext,
      actor: Actor,
      query: z.infer<LQ>,
      request: FastifyRequest,
    ) => Promise<unknown>;
  };
  create: {
    summary: string;
    body: C;
    response: z.ZodType;
    run: (ctx: s.TutorialsContext, actor: Actor, body: z.infer<C>, meta: RequestMeta) => Promise<unknown>;
  };
  order?: {
    summary: string;
    body: O;
    run: (
      ctx: s.TutorialsContext,
      actor: Actor,
      body: z.infer<O>,
      meta: RequestMeta,
    ) => Promise<z.infer<typeof ZOrderSaved>>;
  };
  read: {
    summary: string;
    response: z.ZodType;
    run: (ctx: s.TutorialsContext, actor: Actor, id: number, readDb?: boolean) => Promise<unknown>;
  };
  update: {
    summary: string;
    body: U;
    response: z.ZodType;
    run: (
      ctx: s.TutorialsContext,
      actor: Actor,
      id: number,
      body: z.infer<U>,
      meta: RequestMeta,
    ) => Promise<unknown>;
  };
  remove: {
    summary: string;
    run: (
      ctx: s.TutorialsContext,
      actor: Actor,
      id: number,
      meta: RequestMeta,
    ) => Promise<z.infer<typeof ZDeleted>>;
  };
};

/** Keeps each row's query and body types for its `run`s. */
const items = <LQ extends z.ZodType, C extends z.ZodType, O extends z.ZodType, U extends z.ZodType>(
  definition: ItemRoutes<LQ, C, O, U>,
) => definition as unknown as ItemRoutes<z.ZodType, z.ZodType, z.ZodType, z.ZodType>;

const ITEM_ROUTES = [
  items({
    path: 'module',
    missing: TUTORIAL_MESSAGES.noModule,
    list: {
      summary: 'Modules in z_order (search by name)',
      querystring: ZModuleListQuery,
      response: ZModuleList,
      run: s.listModules,
    },
    create: { summary: 'Create a module', body: ZModuleInput, response: ZSaved, run: s.createModule },
    order: {
      summary: 'Reorder every module at once: z_order becomes the position (1, 2, …)',
      body: ZModuleOrder,
      run: (ctx, actor, body, meta) => s.reorder(ctx, actor, 'module', body, meta),
    },
    read: { summary: 'One module', response: ZModule, run: s.getModule },
    update: {
      summary: 'Update a module (and its translations, localize)',
      body: ZModuleInput,
      response: ZSaved,
      run: s.updateModule,
    },
    remove: { summary: 'Delete a module with its quizzes and contents', run: s.deleteModule },
  }),
  items({
    path: 'quiz',
    missing: TUTORIAL_MESSAGES.noModule,
    list: {
      summary: "A module's quizzes with their options, in z_order",
      querystring: ZQuizListQuery,
      response: ZQuizList,
      run: s.listQuizzes,
    },
    create: {
      summary: 'Create a quiz with its options',
      body: ZQuizCreate,
      response: ZSaved,
      run: s.createQuiz,
    },
    order: { summary: "Reorder a module's quizzes at once", body: ZModuleItemsOrder, run: s.reorderQuizzes },
    read: { summary: 'One quiz with its options', response: ZQuiz, run: s.getQuiz },
    update: {
      summary: 'Update a quiz (options are saved one by one through tutorial/quiz-option/)',
      body: ZQuizUpdate,
      response: ZSaved,
      run: s.updateQuiz,
    },
    remove: { summary: 'Delete a quiz with its options', run: s.deleteQuiz },
  }),
  items({
    path: 'quiz-option',
    missing: TUTORIAL_MESSAGES.noModule,
    list: {
      summary: "A quiz's options in z_order",
      querystring: ZOptionListQuery,
      response: paginated(ZOption),
      run: s.listOptions,
    },
    create: {
      summary: 'Add an option to a quiz',
      body: ZOptionInput,
      response: ZOption,
      run: s.createOption,
    },
    read: { summary: 'One option', response: ZOption, run: s.getOption },
    update: {
      summary: 'Update an option (and its translations)',
      body: ZOptionInput,
      response: ZOption,
      run: s.updateOption,
    },
    remove: { summary: 'Delete an option at once', run: s.deleteOption },
  }),
  items({
    path: 'content',
    missing: TUTORIAL_MESSAGES.noContent,
    list: {
      summary: "A module's contents in z_order (search by title)",
      querystring: ZContentListQuery,
      response: ZContentList,
      run: s.listContents,
    },
    create: {
      summary:
        'Create a content item; primary_image is the video name (stored as assets/tutorials/tutorial_module_{z_order}/{name}.mp4)',
      body: ZContentInput,
      response: ZSaved,
      run: s.createContent,
    },
    order: {
      summary: "Reorder a module's contents at once",
      body: ZModuleItemsOrder,
      run: s.reorderContents,
    },
    read: { summary: 'One content item', response: ZContent, run: s.getContent },
    update: {
      summary: 'Update a content item (and its translations)',
      body: ZContentInput,
      response: ZSaved,
      run: s.updateContent,
    },
    remove: { summary: 'Delete a content item', run: s.deleteContent },
  }),
];

export const tutorialRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx = app.ctx;
  const base = { preValidation };
  // Every item call: ADMIN only (WHO), signed in before the body is validated.
  const schema = <T extends Omit<FastifySchema, 'summary'>>(summary: string, rest: T) => ({
    schema: { tags, security, summary, description: WHO, ...rest },
  });

  for (const item of ITEM_ROUTES) {
    const url = `/tutorial/${item.path}/`;
    const byId = `${url}:id/`;
    const id = (request: FastifyRequest) => parseId((request.params as { id: string }).id, item.missing);
    const { list, create, order, read, update, remove } = item;

    app.get(
      url,
      {
        ...base,
        ...schema(list.summary, { querystring: list.querystring, response: { 200: list.response } }),
      },
      async (request) => list.run(ctx, requireActor(request), request.query, request),
    );
    app.post(
      url,
      { ...base, ...schema(create.summary, { body: create.body, response: { 201: create.response } }) },
      async (request, reply) =>
        reply
          .status(201)
          .send(await create.run(ctx, requireActor(request), request.body, requestMeta(request))),
    );
    if (order) {
      app.put(
        `${url}order/`,
        { ...base, ...schema(order.summary, { body: order.body, response: { 200: ZOrderSaved } }) },
        async (request) => order.run(ctx, requireActor(request), request.body, requestMeta(request)),
      );
    }
    app.get(
      byId,
      {
        ...base,
        ...schema(read.summary, {
          params: ZIdParams,
          querystring: ZReadQuery,
          response: { 200: read.response },
        }),
      },
      async (request) => read.run(ctx, requireActor(request), id(request), request.query.using_read_db),
    );
    app.put(
      byId,
      {
        ...base,
        ...schema(update.summary, {
          params: ZIdParams,
          body: update.body,
          response: { 200: update.response },
        }),
      },
      async (request) =>
        update.run(ctx, requireActor(request), id(request), request.body, requestMeta(request)),
    );
    app.delete(
      byId,
      { ...base, ...schema(remove.summary, { params: ZIdParams, response: { 200: ZDeleted } }) },
      async (request) => remove.run(ctx, requireActor(request), id(request), requestMeta(request)),
    );
  }

  // ---- Device reads ----
  app.post(
    '/tutorial/module-completed/',
    {
      ...base,
      schema: {
        tags,
        security,
        summary:
          "The app reports the signed-in user's progress through a module (0–100; 100 or completed=true completes it)",
        description:
          'Any signed-in user, for themselves. Progress never goes back; a completed module stays completed.',
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
