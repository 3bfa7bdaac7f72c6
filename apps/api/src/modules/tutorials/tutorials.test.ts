import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TUserType } from '@sc/shared/roles';
import {
  TUTORIAL_MESSAGES,
  type TContent,
  type TModule,
  type TQuiz,
  type TSaved,
  type TTutorialApp,
} from '@sc/shared/tutorials';
import { auditLog, tutorialModuleCompletions } from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createLanguage, createUser, signIn } from '../../test/factories.ts';
import { TUTORIAL_AUDIT } from './tutorials.service.ts';

const t = await setupTestApp();
const API = '/api/v1/tutorial';

async function tokenFor(userType: TUserType) {
  const user = await createUser(t, { userType, password: null, firstName: 'Tia', lastName: userType });
  return { user, token: await signIn(t, user) };
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (
  token: string | null,
  method: Method,
  path: string,
  payload?: object,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url: `${API}${path}`,
    headers: { ...(token ? auth(token) : {}), ...headers },
    payload,
  });

let admin: string;
let technician: string;
let technicianId: number;
let subAdmin: string;

const moduleBody = (over: object = {}) => ({
  name: 'Getting started',
  pass_text: 'Well done',
  re_take_question_percentage: 80,
  z_order: 1,
  ...over,
});

async function createModule(over: object = {}): Promise<number> {
  const res = await call(admin, 'POST', '/module/', moduleBody(over));
  expect(res.statusCode).toBe(201);
  return res.json<TSaved>().id;
}

beforeAll(async () => {
  ({ token: admin } = await tokenFor('ADMIN'));
  const tech = await tokenFor('TECHNICIAN');
  technician = tech.token;
  technicianId = tech.user.id;
  ({ token: subAdmin } = await tokenFor('SUB_ADMIN'));
  await Promise.all([
    createLanguage(t, { name: 'English', isoCode: 'en' }),
    createLanguage(t, { name: 'French', isoCode: 'fr' }),
    createLanguage(t, { name: 'Hindi', isoCode: 'hi' }),
  ]);
});

describe('roles', () => {
  it('answers 401 without a token before reading the body, and 403 to every role but ADMIN', async () => {
    const anonymous = await Promise.all([
      call(null, 'GET', '/module/'),
      call(null, 'POST', '/module/', { name: 1 }),
      call(null, 'PUT', '/module/order/', { ids: 'x' }),
      call(null, 'GET', '/app/'),
      call(null, 'POST', '/module-completed/', { module: 'x' }),
    ]);
    for (const res of anonymous) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: AUTH_ERRORS.notProvided });
    }
    const refused = await Promise.all(
      [technician, subAdmin].flatMap((token) => [
        call(token, 'GET', '/module/'),
        call(token, 'POST', '/module/', moduleBody()),
        call(token, 'GET', '/quiz/?module=1'),
        call(token, 'GET', '/content/?module=1'),
        call(token, 'DELETE', '/quiz-option/1/'),
        call(token, 'PUT', '/module/order/', { ids: [1] }),
      ]),
    );
    for (const res of refused) expect(res.statusCode).toBe(403);
  });
});

describe('modules', () => {
  it('validates with the field messages and changes nothing', async () => {
    const res = await call(admin, 'POST', '/module/', {
      name: '   ',
      re_take_question_percentage: 101,
      localize: { en: { name: 'x' }, fr: { name: ' ' } },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json<Record<string, string[]>>();
    expect(body.name).toEqual([TUTORIAL_MESSAGES.blank]);
    expect(body.re_take_question_percentage).toEqual([TUTORIAL_MESSAGES.percentage]);
    expect(body.z_order).toEqual([TUTORIAL_MESSAGES.zOrder]);
    expect(body['localize.en']).toEqual([TUTORIAL_MESSAGES.englishExcluded]);
    expect(body['localize.fr.name']).toEqual([TUTORIAL_MESSAGES.blank]);
    expect(body['localize.fr.pass_text']).toBeUndefined();
    const unknown = await call(
      admin,
      'POST',
      '/module/',
      moduleBody({
        localize: {
          zz: {
            name: 'a',
            pass_text: 'b',
            re_take_question_text: 'c',
            re_take_module_text: 'd',
            re_take_module_again_text: 'e',
          },
        },
      }),
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ 'localize.zz': [TUTORIAL_MESSAGES.languageNotInList] });
    const list = await call(admin, 'GET', '/module/?search=Getting');
    expect(list.json<{ count: number }>().count).toBe(0);
  });

  it('lists by z_order, answers No module. for a missing one, and reorders the whole list in one call', async () => {
    const c = await createModule({ name: 'Order C', z_order: 30 });
    const a = await createModule({ name: 'Order A', z_order: 10 });
    const b = await createModule({ name: 'Order B', z_order: 20 });
    const names = async () =>
      (await call(admin, 'GET', '/module/?search=Order'))
        .json<{ results: TModule[] }>()
        .results.map((m) => m.name);
    expect(await names()).toEqual(['Order A', 'Order B', 'Order C']);
    const missing = await call(admin, 'GET', '/module/999999/');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: TUTORIAL_MESSAGES.noModule });
    expect((await call(admin, 'GET', '/module/abc/')).json()).toEqual({ detail: TUTORIAL_MESSAGES.noModule });

    const all = (await call(admin, 'GET', '/module/?limit=100'))
      .json<{ results: TModule[] }>()
      .results.map((m) => m.id);
    // A partial list is refused and changes nothing.
    const partial = await call(admin, 'PUT', '/module/order/', { ids: [c, a] });
    expect(partial.statusCode).toBe(400);
    expect(partial.json()).toEqual({ ids: [TUTORIAL_MESSAGES.orderIds] });
    expect(await names()).toEqual(['Order A', 'Order B', 'Order C']);
    const dup = await call(admin, 'PUT', '/module/order/', { ids: [a, a] });
    expect(dup.statusCode).toBe(400);

    const order = [c, ...all.filter((id) => id !== c)];
    const res = await call(admin, 'PUT', '/module/order/', { ids: order });
    expect(res.statusCode).toBe(200);
    expect(await names()).toEqual(['Order C', 'Order A', 'Order B']);
    const mod = (await call(admin, 'GET', `/module/${c}/`)).json<TModule>();
    expect(mod.z_order).toBe(1);
    expect(b).toBeGreaterThan(0);
  });

  it('round-trips translations through PUT and writes an audit row', async () => {
    const id = await createModule({ name: 'Translated module' });
    const fr = {
      name: 'Module traduit',
      pass_text: 'Bravo',
      re_take_question_text: 'Encore',
      re_take_module_text: 'Refaire',
      re_take_module_again_text: 'Encore une fois',
    };
    const res = await call(
      admin,
      'PUT',
      `/module/${id}/`,
      moduleBody({ name: 'Translated module', localize: { fr } }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id, detail: TUTORIAL_MESSAGES.moduleUpdated });
    expect((await call(admin, 'GET', `/module/${id}/`)).json<TModule>().localize).toEqual({ fr });
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, TUTORIAL_AUDIT.module.updated), eq(auditLog.targetType, 'tutorial'), eq(auditLog.targetId, `module-${id}`)));
    expect(audits).toHaveLength(1);
  });
});

describe('quizzes and options', () => {
  it('creates a quiz with options in z_order; an option deleted on the server goes at once', async () => {
    const moduleId = await createModule({ name: 'Quiz module' });
    const bad = await call(admin, 'POST', '/quiz/', {
      module: moduleId,
      question: ' ',
      z_order: 1,
      options: [{ option: '' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      question: [TUTORIAL_MESSAGES.blank],
      'options.0.option': [TUTORIAL_MESSAGES.blank],
    });
    const created = await call(admin, 'POST', '/quiz/', {
      module: moduleId,
      question: 'Which is right?',
      is_multi_select: true,
      z_order: 1,
      options: [
        { option: 'Second', z_order: 2 },
        { option: 'First', z_order: 1, is_correct: true },
      ],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json<TSaved>().detail).toBe(TUTORIAL_MESSAGES.quizCreated);
    const quizId = created.json<TSaved>().id;
    const quiz = (await call(admin, 'GET', `/quiz/${quizId}/`)).json<TQuiz>();
    expect(quiz.options.map((o) => [o.option, o.is_correct])).toEqual([
      ['First', true],
      ['Second', false],
    ]);
    const [first, second] = quiz.options;
    const removed = await call(admin, 'DELETE', `/quiz-option/${second?.id}/`);
    expect(removed.statusCode).toBe(200);
    const left = (await call(admin, 'GET', `/quiz-option/?question=${quizId}`)).json<{
      results: { id: number }[];
    }>();
    expect(left.results.map((o) => o.id)).toEqual([first?.id]);
    expect((await call(admin, 'DELETE', `/quiz-option/${second?.id}/`)).statusCode).toBe(404);

    const added = await call(admin, 'POST', '/quiz-option/', {
      option: 'Third',
      question: quizId,
      z_order: 3,
    });
    expect(added.statusCode).toBe(201);
    const translated = await call(admin, 'PUT', `/quiz-option/${first?.id}/`, {
      option: 'First',
      question: quizId,
      is_correct: true,
      localize: { hi: { option: 'पहला' } },
    });
    expect(translated.json()).toMatchObject({ localize: { hi: { option: 'पहला' } }, is_correct: true });
    const wrongQuiz = await call(admin, 'POST', '/quiz-option/', { option: 'x', question: 999999 });
    expect(wrongQuiz.statusCode).toBe(400);
    expect(Object.keys(wrongQuiz.json())).toEqual(['question']);

    const updated = await call(admin, 'PUT', `/quiz/${quizId}/`, {
      module: moduleId,
      question: 'Which is right?',
      z_order: 1,
      localize: { fr: { question: 'Laquelle est juste ?' } },
    });
    expect(updated.json()).toEqual({ id: quizId, detail: TUTORIAL_MESSAGES.quizUpdated });
    const list = (await call(admin, 'GET', `/quiz/?module=${moduleId}`)).json<{ results: TQuiz[] }>();
    expect(list.results[0]?.localize).toEqual({ fr: { question: 'Laquelle est juste ?' } });
    expect(list.results[0]?.options.map((o) => o.option)).toEqual(['First', 'Third']);
    expect((await call(admin, 'GET', '/quiz/?module=999999')).json()).toEqual({
      detail: TUTORIAL_MESSAGES.noModule,
    });
  });
});

describe('module counts', () => {
  it("counts each module's own quizzes and contents: none for an empty module", async () => {
    const empty = await createModule({ name: 'Empty module' });
    const withQuiz = await createModule({ name: 'Module with a quiz' });
    const quiz = await call(admin, 'POST', '/quiz/', {
      module: withQuiz,
      question: 'Which is right?',
      z_order: 1,
      options: [{ option: 'This one', is_correct: true }],
    });
    expect(quiz.statusCode).toBe(201);
    const counts = async (id: number) => {
      const { quiz_count, content_count } = (await call(admin, 'GET', `/module/${id}/`)).json<TModule>();
      return { quiz_count, content_count };
    };
    expect(await counts(empty)).toEqual({ quiz_count: 0, content_count: 0 });
    expect(await counts(withQuiz)).toEqual({ quiz_count: 1, content_count: 0 });
    const listed = (await call(admin, 'GET', '/module/?limit=100')).json<{ results: TModule[] }>().results;
    expect(listed.find((m) => m.id === empty)).toMatchObject({ quiz_count: 0, content_count: 0 });
    expect(listed.find((m) => m.id === withQuiz)).toMatchObject({ quiz_count: 1, content_count: 0 });
  });
});

describe('contents', () => {
  let moduleId: number;
  beforeAll(async () => {
    moduleId = await createModule({ name: 'Video module', z_order: 7 });
  });

  it('stores the video path under the module folder, null when empty, and refuses forbidden characters', async () => {
    const bad = await Promise.all(
      ['intro video', 'a/b', 'x.mp4', 'a,b', 'a@b', 'a$b', 'a#b', 'a%b', 'a&b', 'a!b', 'a\\b'].map((name) =>
        call(admin, 'POST', '/content/', { title: 'Bad', z_order: 1, module: moduleId, primary_image: name }),
      ),
    );
    for (const res of bad) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ primary_image: [TUTORIAL_MESSAGES.invalidChars] });
    }
    const a = await call(admin, 'POST', '/content/', {
      title: 'Intro',
      z_order: 2,
      module: moduleId,
      primary_image: 'intro_video',
    });
    expect(a.json<TSaved>().detail).toBe(TUTORIAL_MESSAGES.contentCreated);
    const b = await call(admin, 'POST', '/content/', {
      title: 'Notes',
      z_order: 1,
      module: moduleId,
      primary_image: '',
    });
    const list = (await call(admin, 'GET', `/content/?module=${moduleId}`)).json<{ results: TContent[] }>();
    expect(list.results.map((c) => [c.title, c.primary_image])).toEqual([
      ['Notes', null],
      ['Intro', 'assets/tutorials/tutorial_module_7/intro_video.mp4'],
    ]);
    expect(list.results[0]?.module_data).toEqual({ name: 'Video module', z_order: 7 });

    // A PUT sending back the stored path keeps it; a module's new z_order moves the path in the same change.
    const content = list.results[1] as TContent;
    const put = await call(admin, 'PUT', `/content/${content.id}/`, {
      ...content,
      localize: { fr: { title: 'Intro FR', primary_text: 'Texte' } },
    });
    expect(put.json()).toEqual({ id: content.id, detail: TUTORIAL_MESSAGES.contentUpdated });
    await call(admin, 'PUT', `/module/${moduleId}/`, moduleBody({ name: 'Video module', z_order: 8 }));
    const moved = (await call(admin, 'GET', `/content/${content.id}/`)).json<TContent>();
    expect(moved.primary_image).toBe('assets/tutorials/tutorial_module_8/intro_video.mp4');
    expect(moved.localize).toEqual({ fr: { title: 'Intro FR', primary_text: 'Texte' } });

    const reorder = await call(admin, 'PUT', '/content/order/', {
      module: moduleId,
      ids: [content.id, b.json<TSaved>().id],
    });
    expect(reorder.statusCode).toBe(200);
    const after = (await call(admin, 'GET', `/content/?module=${moduleId}`)).json<{ results: TContent[] }>();
    expect(after.results.map((c) => [c.title, c.z_order])).toEqual([
      ['Intro', 1],
      ['Notes', 2],
    ]);

    const missing = await call(admin, 'GET', '/content/999999/');
    expect(missing.json()).toEqual({ detail: TUTORIAL_MESSAGES.noContent });
    expect((await call(admin, 'DELETE', `/content/${b.json<TSaved>().id}/`)).statusCode).toBe(200);
    expect((await call(admin, 'DELETE', `/content/${b.json<TSaved>().id}/`)).json()).toEqual({
      detail: TUTORIAL_MESSAGES.noContent,
    });
  });
});

describe('device reads', () => {
  it('serves the published tutorials in a language with English fallback, and 304 on the current ETag', async () => {
    const moduleId = await createModule({ name: 'Device module', z_order: 0 });
    await call(admin, 'POST', '/content/', {
      title: 'Device video',
      primary_text: 'Watch',
      z_order: 1,
      module: moduleId,
      primary_image: 'device',
      localize: { fr: { title: 'Vidéo', primary_text: 'Regardez' } },
    });
    await call(admin, 'POST', '/content/', {
      title: 'Draft video',
      z_order: 2,
      module: moduleId,
      status: 'DRAFT',
    });
    const fr = await call(technician, 'GET', '/app/?language=fr');
    expect(fr.statusCode).toBe(200);
    const tree = fr.json<TTutorialApp>();
    const mod = tree.modules.find((m) => m.id === moduleId);
    expect(mod?.name).toBe('Device module');
    expect(mod?.contents.map((c) => [c.title, c.primary_text])).toEqual([['Vidéo', 'Regardez']]);
    const en = (await call(technician, 'GET', '/app/')).json<TTutorialApp>();
    expect(en.modules.find((m) => m.id === moduleId)?.contents[0]?.title).toBe('Device video');

    const tag = fr.headers.etag as string;
    expect(tag).toBeTruthy();
    const again = await call(technician, 'GET', '/app/?language=fr', undefined, { 'if-none-match': tag });
    expect(again.statusCode).toBe(304);
    await call(admin, 'PUT', `/module/${moduleId}/`, moduleBody({ name: 'Device module 2', z_order: 0 }));
    const changed = await call(technician, 'GET', '/app/?language=fr', undefined, { 'if-none-match': tag });
    expect(changed.statusCode).toBe(200);

    const badLang = await call(technician, 'GET', '/app/?language=zz');
    expect(badLang.statusCode).toBe(400);
    expect(badLang.json()).toEqual({ language: [TUTORIAL_MESSAGES.languageNotInList] });
  });

  it('records module completion for the signed-in user; progress never goes back', async () => {
    const moduleId = await createModule({ name: 'Completion module' });
    const half = await call(technician, 'POST', '/module-completed/', { module: moduleId, progress: 50 });
    expect(half.json()).toMatchObject({ module: moduleId, progress: 50, completed: false });
    const back = await call(technician, 'POST', '/module-completed/', { module: moduleId, progress: 20 });
    expect(back.json()).toMatchObject({ progress: 50 });
    const done = await call(technician, 'POST', '/module-completed/', { module: moduleId, progress: 100 });
    expect(done.json()).toMatchObject({ progress: 100, completed: true });
    const rows = await t.database.db
      .select()
      .from(tutorialModuleCompletions)
      .where(eq(tutorialModuleCompletions.userId, technicianId));
    expect(rows).toHaveLength(1);
    const bad = await call(technician, 'POST', '/module-completed/', { module: moduleId, progress: 101 });
    expect(bad.json()).toEqual({ progress: [TUTORIAL_MESSAGES.percentage] });
    expect((await call(technician, 'POST', '/module-completed/', { module: 999999 })).statusCode).toBe(400);
  });
});

describe('bad bodies', () => {
  type Case = [
    label: string,
    method: 'POST' | 'PUT',
    path: string,
    body: unknown,
    field: string,
    message: string,
  ];
  let cases: Case[] = [];
  beforeAll(async () => {
    const moduleId = await createModule({ name: 'Bad bodies module' });
    const quiz = await call(admin, 'POST', '/quiz/', {
      module: moduleId,
      question: 'Q',
      z_order: 1,
      options: [{ option: 'A' }],
    });
    const quizId = quiz.json<TSaved>().id;
    const optionId = (await call(admin, 'GET', `/quiz/${quizId}/`)).json<TQuiz>().options[0]!.id;
    const content = await call(admin, 'POST', '/content/', { module: moduleId, title: 'C', z_order: 1 });
    const contentId = content.json<TSaved>().id;
    const m = TUTORIAL_MESSAGES;
    const module = moduleBody();
    const quizBody = { module: moduleId, question: 'Q', z_order: 1 };
    const option = { question: quizId, option: 'A' };
    const contentBody = { module: moduleId, title: 'C', z_order: 1 };
    const pk = (id: number) => `Invalid pk "${id}" - object does not exist.`;
    cases = [
      ['module: blank name', 'POST', '/module/', { ...module, name: ' ' }, 'name', m.blank],
      [
        'module: a line break in the name',
        'PUT',
        `/module/${moduleId}/`,
        { ...module, name: 'a\nb' },
        'name',
        'Line breaks are not allowed in this field.',
      ],
      [
        'module: name too long',
        'POST',
        '/module/',
        { ...module, name: 'n'.repeat(256) },
        'name',
        m.tooLong(255),
      ],
      [
        'module: percentage as text',
        'PUT',
        `/module/${moduleId}/`,
        { ...module, re_take_question_percentage: '50' },
        're_take_question_percentage',
        m.percentage,
      ],
      ['module: negative z_order', 'POST', '/module/', { ...module, z_order: -1 }, 'z_order', m.zOrder],
      ['module: z_order -3', 'POST', '/module/', { ...module, z_order: -3 }, 'z_order', m.zOrder],
      [
        'module: pass_text a number',
        'POST',
        '/module/',
        { ...module, pass_text: 5 },
        'pass_text',
        'Not a valid string.',
      ],
      ['quiz: no module', 'POST', '/quiz/', { ...quizBody, module: undefined }, 'module', 'Select a module.'],
      [
        'quiz: a module that is not there',
        'POST',
        '/quiz/',
        { ...quizBody, module: 999999 },
        'module',
        pk(999999),
      ],
      [
        'quiz: image path too long',
        'POST',
        '/quiz/',
        { ...quizBody, primary_image: 'x'.repeat(501) },
        'primary_image',
        m.tooLong(500),
      ],
      [
        'quiz: an option not an object',
        'POST',
        '/quiz/',
        { ...quizBody, options: [null] },
        'options.0',
        'Invalid input: expected object, received null',
      ],
      [
        'quiz: multi-select as text',
        'PUT',
        `/quiz/${quizId}/`,
        { ...quizBody, is_multi_select: 'yes' },
        'is_multi_select',
        m.boolean,
      ],
      [
        'quiz: blank question on update',
        'PUT',
        `/quiz/${quizId}/`,
        { ...quizBody, question: ' \u200b ' },
        'question',
        m.blank,
      ],
      ['option: no quiz', 'POST', '/quiz-option/', { option: 'A' }, 'question', 'Select a quiz.'],
      [
        'option: a quiz that is not there',
        'PUT',
        `/quiz-option/${optionId}/`,
        { ...option, question: 999999 },
        'question',
        pk(999999),
      ],
      [
        'option: correct as text',
        'POST',
        '/quiz-option/',
        { ...option, is_correct: 'true' },
        'is_correct',
        m.boolean,
      ],
      [
        'content: video name too long',
        'POST',
        '/content/',
        { ...contentBody, primary_image: 'v'.repeat(201) },
        'primary_image',
        m.tooLong(200),
      ],
      [
        'content: app version as text',
        'POST',
        '/content/',
        { ...contentBody, app_version: 'x' },
        'app_version',
        'Select an app version.',
      ],
      [
        'content: an app version that is not there',
        'PUT',
        `/content/${contentId}/`,
        { ...contentBody, app_version: 999999 },
        'app_version',
        pk(999999),
      ],
      [
        'content: bad status',
        'PUT',
        `/content/${contentId}/`,
        { ...contentBody, status: 'LIVE' },
        'status',
        'Invalid option: expected one of "PUBLISHED"|"DRAFT"',
      ],
      [
        'translation: not an object',
        'PUT',
        `/module/${moduleId}/`,
        { ...module, localize: { fr: 'Bonjour' } },
        'localize.fr',
        m.required,
      ],
      [
        'translation: English',
        'PUT',
        `/quiz/${quizId}/`,
        { ...quizBody, localize: { en: { question: 'Q' } } },
        'localize.en',
        m.englishExcluded,
      ],
      [
        'translation: an unknown language',
        'PUT',
        `/quiz-option/${optionId}/`,
        { ...option, localize: { zz: { option: 'A' } } },
        'localize.zz',
        m.languageNotInList,
      ],
      [
        'translation: a blank required text',
        'PUT',
        `/content/${contentId}/`,
        { ...contentBody, localize: { fr: { title: 'T', primary_text: ' ' } } },
        'localize.fr.primary_text',
        m.blank,
      ],
      [
        'translation: a missing required text',
        'POST',
        '/quiz-option/',
        { ...option, localize: { hi: {} } },
        'localize.hi.option',
        m.required,
      ],
    ];
  });

  it('refuses a bad body of each kind with 400 and the message on its field', async () => {
    for (const [label, method, path, body, field, message] of cases) {
      const res = await call(admin, method, path, body as object);
      expect(res.statusCode, label).toBe(400);
      expect(res.json(), label).toEqual({ [field]: [message] });
    }
    const modules = (await call(admin, 'GET', '/module/?search=Bad%20bodies')).json<{ count: number }>();
    expect(modules.count).toBe(1);
  });
});
