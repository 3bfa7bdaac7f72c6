// Tutorial rows → API shapes (part 3 §3). The device read replaces each text by its translation when the language
// has one, and keeps the English text otherwise (field by field).
import type { TContent, TModule, TOption, TQuiz, TTutorialApp } from '@sc/shared/tutorials';
import type { ContentRow, ContentWithModule, ModuleRow, ModuleWithCounts, OptionRow, QuizRow } from './tutorials.queries.ts';

export function presentModule(row: ModuleWithCounts): TModule {
  return {
    id: row.id,
    name: row.name,
    pass_text: row.passText,
    re_take_module_again_text: row.reTakeModuleAgainText,
    re_take_module_text: row.reTakeModuleText,
    re_take_question_percentage: row.reTakeQuestionPercentage,
    re_take_question_text: row.reTakeQuestionText,
    z_order: row.zOrder,
    icon: row.icon,
    status: row.status,
    localize: row.localize,
    quiz_count: row.quizCount,
    content_count: row.contentCount,
  };
}

export function presentOption(row: OptionRow): TOption {
  return {
    id: row.id,
    option: row.option,
    question: row.questionId,
    z_order: row.zOrder,
    is_correct: row.isCorrect,
    is_select_all_or_none: row.isSelectAllOrNone,
    localize: row.localize,
  };
}

export function presentQuiz(row: QuizRow, options: OptionRow[]): TQuiz {
  return {
    id: row.id,
    question: row.question,
    is_multi_select: row.isMultiSelect,
    z_order: row.zOrder,
    primary_image: row.primaryImage,
    module: row.moduleId,
    localize: row.localize,
    options: options.filter((o) => o.questionId === row.id).map(presentOption),
  };
}

export function presentContent(row: ContentWithModule): TContent {
  return {
    id: row.id,
    title: row.title,
    primary_text: row.primaryText,
    z_order: row.zOrder,
    primary_image: row.primaryImage,
    app_version: row.appVersionId,
    module: row.moduleId,
    module_data: { name: row.moduleName, z_order: row.moduleZOrder },
    status: row.status,
    localize: row.localize,
  };
}

/** The translation's text when it has one, else the English text. */
function pick<T extends object>(localize: Record<string, T>, language: string, key: keyof T, base: string): string;
function pick<T extends object>(localize: Record<string, T>, language: string, key: keyof T, base: string | null): string | null;
function pick<T extends object>(localize: Record<string, T>, language: string, key: keyof T, base: string | null) {
  const text = localize[language]?.[key];
  return typeof text === 'string' && text.trim() !== '' ? text : base;
}

export function presentTree(
  language: string,
  tree: { modules: ModuleRow[]; quizzes: QuizRow[]; options: OptionRow[]; contents: ContentRow[] },
): TTutorialApp {
  return {
    language,
    modules: tree.modules.map((m) => ({
      id: m.id,
      name: pick(m.localize, language, 'name', m.name),
      pass_text: pick(m.localize, language, 'pass_text', m.passText),
      re_take_module_again_text: pick(m.localize, language, 're_take_module_again_text', m.reTakeModuleAgainText),
      re_take_module_text: pick(m.localize, language, 're_take_module_text', m.reTakeModuleText),
      re_take_question_percentage: m.reTakeQuestionPercentage,
      re_take_question_text: pick(m.localize, language, 're_take_question_text', m.reTakeQuestionText),
      z_order: m.zOrder,
      icon: m.icon,
      quizzes: tree.quizzes
        .filter((q) => q.moduleId === m.id)
        .map((q) => ({
          id: q.id,
          question: pick(q.localize, language, 'question', q.question),
          is_multi_select: q.isMultiSelect,
          z_order: q.zOrder,
          primary_image: q.primaryImage,
          options: tree.options
            .filter((o) => o.questionId === q.id)
            .map((o) => ({
              id: o.id,
              option: pick(o.localize, language, 'option', o.option),
              z_order: o.zOrder,
              is_correct: o.isCorrect,
              is_select_all_or_none: o.isSelectAllOrNone,
            })),
        })),
      contents: tree.contents
        .filter((c) => c.moduleId === m.id)
        .map((c) => ({
          id: c.id,
          title: pick(c.localize, language, 'title', c.title),
          primary_text: pick(c.localize, language, 'primary_text', c.primaryText),
          z_order: c.zOrder,
          primary_image: c.primaryImage,
          app_version: c.appVersionId,
        })),
    })),
  };
}
