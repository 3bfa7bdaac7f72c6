import { describe, expect, it } from 'vitest';
import {
  LOCALIZE_FIELDS,
  LOCALIZE_MULTILINE,
  LOCALIZE_REQUIRED,
  TUTORIAL_MESSAGES,
  TUTORIAL_NAME_MAX,
  ZContentInput,
  ZModuleInput,
  ZQuizCreate,
} from './tutorials.ts';

describe('tutorial translation blocks', () => {
  it("read each kind's fields, the required ones and the multi-line ones from the entry schemas", () => {
    expect(LOCALIZE_FIELDS).toEqual({
      module: [
        'name',
        'pass_text',
        're_take_question_text',
        're_take_module_text',
        're_take_module_again_text',
      ],
      quiz: ['question'],
      option: ['option'],
      content: ['title', 'primary_text'],
    });
    expect([...LOCALIZE_REQUIRED].sort()).toEqual(['name', 'option', 'primary_text', 'question', 'title']);
    expect([...LOCALIZE_MULTILINE]).toEqual(['primary_text']);
  });
});

describe('tutorial bodies', () => {
  const messagesOf = (result: {
    success: boolean;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  }) => Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

  it('say a too long text is too long, not that it is not a string', () => {
    expect(
      messagesOf(
        ZQuizCreate.safeParse({ module: 1, question: 'q', z_order: 1, primary_image: 'x'.repeat(501) }),
      ),
    ).toEqual({
      primary_image: TUTORIAL_MESSAGES.tooLong(500),
    });
    expect(
      messagesOf(
        ZContentInput.safeParse({ module: 1, title: 't', z_order: 1, primary_image: 'x'.repeat(201) }),
      ),
    ).toEqual({
      primary_image: TUTORIAL_MESSAGES.tooLong(200),
    });
    expect(
      messagesOf(ZModuleInput.safeParse({ name: 'n'.repeat(TUTORIAL_NAME_MAX + 1), z_order: 1 })),
    ).toEqual({
      name: TUTORIAL_MESSAGES.tooLong(TUTORIAL_NAME_MAX),
    });
  });

  it('names an app version with its article', () => {
    expect(
      messagesOf(ZContentInput.safeParse({ module: 1, title: 't', z_order: 1, app_version: 'x' })),
    ).toEqual({
      app_version: 'Select an app version.',
    });
  });
});
