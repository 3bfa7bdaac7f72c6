import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TUTORIAL_MESSAGES, type TContent, type TModule, type TQuiz } from '@sc/shared/tutorials';
import { MESSAGES } from '@sc/shared/validation';
import { bodyOf, mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { ContentDialog } from './ContentDialog.tsx';
import { moveId, reorderedIds, stepId } from '../reorder.ts';
import { LanguageSettingDialog } from './LanguageSettingDialog.tsx';
import { ModuleDialog } from './ModuleDialog.tsx';
import { QuizDialog } from './QuizDialog.tsx';
import { QuizListDialog } from './QuizListDialog.tsx';

afterEach(() => {
  vi.useRealTimers();
});

const module: TModule = {
  id: 4,
  name: 'Getting started',
  pass_text: 'Well done',
  re_take_module_again_text: null,
  re_take_module_text: null,
  re_take_question_percentage: 80,
  re_take_question_text: null,
  z_order: 3,
  icon: null,
  status: 'PUBLISHED',
  localize: { fr: { name: 'Premiers pas' } },
  quiz_count: 1,
  content_count: 1,
};

const content: TContent = {
  id: 9,
  title: 'Intro video',
  primary_text: 'Watch this first',
  z_order: 1,
  primary_image: 'assets/tutorials/tutorial_module_3/intro_video.mp4',
  app_version: null,
  module: 4,
  module_data: { name: 'Getting started', z_order: 3 },
  status: 'PUBLISHED',
  localize: {},
};

const quiz: TQuiz = {
  id: 12,
  question: 'Which is right?',
  is_multi_select: false,
  z_order: 1,
  primary_image: null,
  module: 4,
  localize: {},
  options: [
    { id: 31, option: 'First', question: 12, z_order: 1, is_correct: true, is_select_all_or_none: false, localize: {} },
    { id: 32, option: 'Second', question: 12, z_order: 2, is_correct: false, is_select_all_or_none: false, localize: {} },
  ],
};

const languages = {
  count: 3,
  next: null,
  previous: null,
  results: [
    { id: 1, name: 'English', iso_code: 'en', is_tutorial_available: true, app_version: null, ibe_consent_form: [] },
    { id: 2, name: 'French', iso_code: 'fr', is_tutorial_available: true, app_version: null, ibe_consent_form: [] },
    { id: 3, name: 'Hindi', iso_code: 'hi', is_tutorial_available: true, app_version: null, ibe_consent_form: [] },
  ],
};

describe('ModuleDialog', () => {
  it('opens read-only with Edit, then Cancel and Update, and sends the full module with its translations', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const fetchMock = mockFetch({
      'GET /api/v1/tutorial/module/4/': { body: module },
      'PUT /api/v1/tutorial/module/4/': { body: { id: 4, detail: TUTORIAL_MESSAGES.moduleUpdated } },
    });
    renderWithProviders(<ModuleDialog moduleId={4} onClose={onClose} />);
    const name = await screen.findByTestId('module-name');
    expect(name).toHaveValue('Getting started');
    expect(name).toHaveAttribute('readonly');
    expect(screen.queryByTestId('module-save')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('module-edit'));
    expect(screen.getByTestId('module-cancel')).toBeInTheDocument();
    expect(screen.getByTestId('module-save')).toHaveTextContent('Update');
    await user.clear(name);
    await user.type(name, '   ');
    await user.click(screen.getByTestId('module-save'));
    expect(await screen.findByText(TUTORIAL_MESSAGES.blank)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ method: 'PUT' }));

    await user.clear(name);
    await user.type(name, 'Getting started again');
    await user.click(screen.getByTestId('module-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(bodyOf(fetchMock, 'PUT /api/v1/tutorial/module/4/')).toMatchObject({
      name: 'Getting started again',
      z_order: 3,
      re_take_question_percentage: 80,
      localize: { fr: { name: 'Premiers pas' } },
    });
    expect(await screen.findByText(TUTORIAL_MESSAGES.moduleUpdated)).toBeInTheDocument();
  });

  it('opens a new module in edit mode with Create, refuses a percentage over 100 as typed and requires the order', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({});
    renderWithProviders(<ModuleDialog moduleId={0} nextOrder={5} onClose={vi.fn()} />);
    const save = await screen.findByTestId('module-save');
    expect(save).toHaveTextContent('Create');
    expect(screen.getByTestId('module-z_order')).toHaveValue('5');
    await user.type(screen.getByTestId('module-name'), 'New module');
    const percentage = screen.getByTestId('module-re_take_question_percentage');
    await user.type(percentage, '150');
    await user.click(screen.getByTestId('module-name'));
    // Issue 23.4: kept as typed (not clamped to 100) and refused on the field with the shared rule's message.
    expect(percentage).toHaveValue('150%');
    expect(screen.getByText(TUTORIAL_MESSAGES.percentage)).toBeInTheDocument();
    await user.clear(screen.getByTestId('module-z_order'));
    await user.click(save);
    expect(await screen.findByText(TUTORIAL_MESSAGES.zOrder)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ method: 'POST' }));
  });

  it("keeps a negative order as typed and refuses it on the field instead of saving 0 (issue 23.4)", async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({});
    renderWithProviders(<ContentDialog contentId={0} module={{ id: 4, z_order: 3 }} nextOrder={2} onClose={vi.fn()} />);
    const save = await screen.findByTestId('content-save');
    await user.type(screen.getByTestId('content-title'), 'Intro');
    const order = screen.getByTestId('content-z_order');
    await user.clear(order);
    await user.type(order, '-3');
    await user.click(screen.getByTestId('content-title'));
    expect(order).toHaveValue('-3');
    expect(screen.getByText(TUTORIAL_MESSAGES.zOrder)).toBeInTheDocument();
    await user.click(save);
    expect(order).toHaveValue('-3');
    expect(fetchMock).not.toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ method: 'POST' }));
  });

  it('clears the field errors 5 s after a failed check (part 3 §5 Module)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    mockFetch({ 'GET /api/v1/tutorial/module/4/': { body: module } });
    renderWithProviders(<ModuleDialog moduleId={4} onClose={vi.fn()} />);
    const name = await screen.findByTestId('module-name');
    await user.click(screen.getByTestId('module-edit'));
    await user.clear(name);
    await user.click(screen.getByTestId('module-save'));
    expect(await screen.findByText(TUTORIAL_MESSAGES.blank)).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    act(() => {
      vi.advanceTimersByTime(4_500);
    });
    expect(screen.getByText(TUTORIAL_MESSAGES.blank)).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(600);
    });
    expect(screen.queryByText(TUTORIAL_MESSAGES.blank)).not.toBeInTheDocument();
    expect(name).not.toHaveAttribute('aria-invalid', 'true');
    // A new failed check shows them again, for another 5 s.
    await user.click(screen.getByTestId('module-save'));
    expect(await screen.findByText(TUTORIAL_MESSAGES.blank)).toBeInTheDocument();
  });

  it("shows 'Unauthorized access' with 'No module.' on a 404", async () => {
    mockFetch({ 'GET /api/v1/tutorial/module/4/': { status: 404, body: { detail: TUTORIAL_MESSAGES.noModule } } });
    renderWithProviders(<ModuleDialog moduleId={4} onClose={vi.fn()} />);
    expect(await screen.findByText(TUTORIAL_MESSAGES.unauthorized)).toBeInTheDocument();
    expect(screen.getByText(TUTORIAL_MESSAGES.noModule)).toBeInTheDocument();
  });
});

describe('ContentDialog', () => {
  it('shows the video prefix and .mp4 around the name, refuses forbidden characters and sends the name', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      'GET /api/v1/tutorial/content/9/': { body: content },
      'PUT /api/v1/tutorial/content/9/': { body: { id: 9, detail: TUTORIAL_MESSAGES.contentUpdated } },
    });
    renderWithProviders(<ContentDialog contentId={9} module={{ id: 4, z_order: 3 }} nextOrder={2} onClose={vi.fn()} />);
    const video = await screen.findByTestId('content-video');
    expect(video).toHaveValue('intro_video');
    expect(screen.getByTestId('content-video-prefix')).toHaveTextContent('assets/tutorials/tutorial_module_3/');
    expect(screen.getByText('.mp4')).toBeInTheDocument();
    await user.click(screen.getByTestId('content-edit'));
    await user.clear(video);
    await user.type(video, 'intro video.mp4');
    await user.click(screen.getByTestId('content-save'));
    expect(await screen.findByText(TUTORIAL_MESSAGES.invalidChars)).toBeInTheDocument();
    await user.clear(video);
    await user.click(screen.getByTestId('content-save'));
    expect(await screen.findByText(TUTORIAL_MESSAGES.contentUpdated)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PUT /api/v1/tutorial/content/9/')).toMatchObject({ title: 'Intro video', primary_image: null, module: 4 });
  });

  it("shows 'Unauthorized access' with 'No content.' on a 404", async () => {
    mockFetch({ 'GET /api/v1/tutorial/content/9/': { status: 404, body: { detail: TUTORIAL_MESSAGES.noContent } } });
    renderWithProviders(<ContentDialog contentId={9} module={{ id: 4, z_order: 3 }} nextOrder={2} onClose={vi.fn()} />);
    expect(await screen.findByText(TUTORIAL_MESSAGES.noContent)).toBeInTheDocument();
  });
});

describe('QuizDialog', () => {
  it('deletes a saved option on the server at once after the confirm, and an unsaved one only from the form', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      'GET /api/v1/tutorial/quiz/12/': { body: quiz },
      'DELETE /api/v1/tutorial/quiz-option/32/': { body: { detail: TUTORIAL_MESSAGES.optionDeleted } },
    });
    renderWithProviders(<QuizDialog quizId={12} moduleId={4} nextOrder={2} onClose={vi.fn()} />);
    expect(await screen.findByTestId('option-text-1')).toHaveValue('Second');
    await user.click(screen.getByTestId('quiz-edit'));
    await user.click(screen.getByTestId('option-delete-1'));
    expect(await screen.findByText(`${TUTORIAL_MESSAGES.deleteOption} ${TUTORIAL_MESSAGES.deleteHint}`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('option-text-1')).not.toBeInTheDocument());
    expect(fetchMock).toHaveBeenCalledWith(expect.stringContaining('/tutorial/quiz-option/32/'), expect.objectContaining({ method: 'DELETE' }));

    await user.click(screen.getByTestId('option-add'));
    await user.type(screen.getByTestId('option-text-1'), 'Unsaved');
    const calls = fetchMock.mock.calls.length;
    await user.click(screen.getByTestId('option-delete-1'));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('option-text-1')).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.length).toBe(calls);
  });
});

describe('QuizListDialog', () => {
  it('keeps the quiz list open behind the quiz form, with focus in the form and Escape closing the form only', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /api/v1/tutorial/quiz/': { body: { count: 1, next: null, previous: null, results: [quiz] } },
      'GET /api/v1/tutorial/quiz/12/': { body: quiz },
    });
    const onClose = vi.fn();
    renderWithProviders(<QuizListDialog module={module} onClose={onClose} />);
    const list = await screen.findByRole('dialog', { name: 'Quiz – Getting started' });
    await user.click(await within(list).findByRole('button', { name: 'Actions for quiz Which is right?' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Details' }));
    const form = await screen.findByRole('dialog', { name: 'Quiz details' });
    expect(await within(form).findByTestId('option-text-0')).toHaveValue('First');

    // Both are open; the list is not hidden behind the form (Mantine's Modal.Stack would hide it).
    expect(screen.getAllByRole('dialog')).toHaveLength(2);
    expect(list).toBeVisible();
    expect(list.closest('[data-hidden]')).toBeNull();
    expect(within(screen.getByTestId('quiz-table')).getByText('Which is right?')).toBeVisible();
    await waitFor(() => expect(form).toContainElement(document.activeElement as HTMLElement));

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Quiz details' })).not.toBeInTheDocument());
    expect(screen.getByRole('dialog', { name: 'Quiz – Getting started' })).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();

    // With the form closed, Escape closes the list.
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes only a confirm opened over the quiz form on Escape, the form and its edits stay', async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /api/v1/tutorial/quiz/12/': { body: quiz } });
    const onClose = vi.fn();
    renderWithProviders(<QuizDialog quizId={12} moduleId={4} nextOrder={2} onClose={onClose} />);
    await user.click(await screen.findByTestId('quiz-edit'));
    await user.type(screen.getByTestId('option-text-1'), ' edited');
    await user.click(screen.getByTestId('option-delete-0'));
    const confirmText = `${TUTORIAL_MESSAGES.deleteOption} ${TUTORIAL_MESSAGES.deleteHint}`;
    await screen.findByText(confirmText);
    await waitFor(() => expect(screen.getByTestId('confirm-dialog-cancel').closest('[role="dialog"]')).toContainElement(document.activeElement as HTMLElement));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText(confirmText)).not.toBeInTheDocument());
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByTestId('option-text-1')).toHaveValue('Second edited');
    expect(screen.getByTestId('option-text-0')).toHaveValue('First');
  });

  it('offers Move up and Move down within the whole list and sends the whole list in its new order', async () => {
    const user = userEvent.setup();
    const second: TQuiz = { ...quiz, id: 13, question: 'Which is wrong?', z_order: 2, options: [] };
    const fetchMock = mockFetch({
      'GET /api/v1/tutorial/quiz/': { body: { count: 2, next: null, previous: null, results: [quiz, second] } },
      'PUT /api/v1/tutorial/quiz/order/': { body: { detail: TUTORIAL_MESSAGES.orderSaved } },
    });
    renderWithProviders(<QuizListDialog module={module} onClose={vi.fn()} />);
    const list = await screen.findByRole('dialog', { name: 'Quiz – Getting started' });
    await user.click(await within(list).findByRole('button', { name: 'Actions for quiz Which is right?' }));
    expect(screen.queryByRole('menuitem', { name: 'Move up' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('menuitem', { name: 'Move down' }));
    expect(await screen.findByText(TUTORIAL_MESSAGES.orderSaved)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PUT /api/v1/tutorial/quiz/order/')).toEqual({ module: 4, ids: [13, 12] });
  });
});

describe('LanguageSettingDialog', () => {
  it('requires a language and non-blank texts, and persists only on Submit', async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /api/v1/language/': { body: languages } });
    const onSubmit = vi.fn(async () => TUTORIAL_MESSAGES.contentUpdated);
    const onSaved = vi.fn();
    renderWithProviders(
      <LanguageSettingDialog
        kind="content"
        itemName="Intro video"
        localize={{ fr: { title: 'Vidéo', primary_text: 'Regardez' } }}
        opened
        onClose={vi.fn()}
        onSubmit={onSubmit}
        onSaved={onSaved}
      />,
    );
    expect(await screen.findByTestId('language-title-0')).toHaveValue('Vidéo');
    await user.click(screen.getByTestId('language-add'));
    await user.type(screen.getByTestId('language-title-1'), '  ');
    await user.click(screen.getByTestId('language-submit'));
    expect(await screen.findByText(MESSAGES.selectLanguage)).toBeInTheDocument();
    expect(screen.getAllByText(TUTORIAL_MESSAGES.blank).length).toBeGreaterThan(0);
    expect(onSubmit).not.toHaveBeenCalled();

    // Deleting the new block asks first, with the spec's text.
    await user.click(screen.getByTestId('language-delete-1'));
    expect(
      await screen.findByText('Are you sure you want to delete this content? Please SUBMIT to save the changes.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('language-title-1')).not.toBeInTheDocument());
    await user.click(screen.getByTestId('language-submit'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ fr: { title: 'Vidéo', primary_text: 'Regardez' } }));
    expect(onSaved).toHaveBeenCalledWith(TUTORIAL_MESSAGES.contentUpdated);
  });
});

describe('reorder helpers', () => {
  it('moves an id to another row or one step, keeping the rest in order', () => {
    expect(moveId([1, 2, 3, 4], 4, 2)).toEqual([1, 4, 2, 3]);
    expect(moveId([1, 2, 3, 4], 1, 3)).toEqual([2, 3, 1, 4]);
    expect(stepId([1, 2, 3], 2, -1)).toEqual([2, 1, 3]);
    expect(stepId([1, 2, 3], 3, 1)).toEqual([1, 2, 3]);
  });

  it("puts a page's new order in place in the whole list, and steps across a page boundary", () => {
    expect(reorderedIds([1, 2, 3, 4, 5, 6], { pageIds: [4, 3], offset: 2 })).toEqual([1, 2, 4, 3, 5, 6]);
    expect(reorderedIds([1, 2, 3, 4, 5, 6], { id: 3, step: -1 })).toEqual([1, 3, 2, 4, 5, 6]);
    expect(reorderedIds([1, 2, 3, 4, 5, 6], { id: 6, step: 1 })).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
